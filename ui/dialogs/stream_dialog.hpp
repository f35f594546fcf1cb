// Add stream… / Edit stream…: one config::StreamProfile edited in pieces rather than as one raw URL —
// name, transport (UDP, UDP multicast, TCP client, TCP server, playback file), address and port,
// multicast group and interface, recording path and playback speed (+ the other playback options),
// transport header length, what happens to unknown packets, enabled. The source URL composed from
// the pieces is shown read-only; every entry is checked as it is typed, the reason shown in red and OK
// disabled until it is valid.
//
// Editing keeps what the dialog does not show as it was: the packet settings, the unknown packets'
// forward list, and the source URL's exact text when the pieces still mean the same endpoint.
#pragma once

#include "core/config/station_profile.hpp"
#include "core/io/endpoint.hpp"

#include <QDialog>
#include <QStringList>

#include <optional>
#include <string>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLayout;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace telestation::ui {

class StreamDialog : public QDialog {
    Q_OBJECT

public:
    // The order of the transport combo box.
    enum Transport { Udp, UdpMulticast, TcpClient, TcpServer, Playback, TransportCount };
    static constexpr int kMaxTransportHeaderBytes = 1024;

    // `initial`: the stream to edit, or a new stream's defaults (an empty source starts as UDP).
    // `otherNames`: the names of the other streams (a stream's name must be unique).
    StreamDialog(const config::StreamProfile& initial, QStringList otherNames, QWidget* parent = nullptr);

    [[nodiscard]] config::StreamProfile profile() const;
    // The source URL the pieces make ("" while they do not make one).
    [[nodiscard]] QString composedUrl() const;
    // What keeps OK disabled ("" when every entry is valid).
    [[nodiscard]] QString validationError() const { return m_validationError; }
    [[nodiscard]] Transport transport() const;

    void accept() override;

    // Name rule of the station profile: one or more letters, digits, '-', '_'.
    [[nodiscard]] static bool isValidStreamName(const QString& name);
    // An IPv4/IPv6 literal or something that looks like a resolvable host name (not resolved here: that
    // could block the GUI).
    [[nodiscard]] static bool isHostLike(const QString& host);

private:
    void fillFrom(const config::StreamProfile& initial);
    void updateVisibility();
    void validate();
    void browseDirectory();
    void browseFile();
    // The endpoint the pieces make, or the reason they do not make one.
    [[nodiscard]] std::optional<io::Endpoint> compose(QString* error) const;
    [[nodiscard]] std::string speedText() const;

    config::StreamProfile m_initial;
    std::optional<io::Endpoint> m_initialEndpoint; // the initial source, parsed
    QStringList m_otherNames;
    QString m_validationError;
    QString m_initialSourceError; // the initial source did not parse (not in a valid profile)
    // The playback speed as the initial URL wrote it and where in its query ("" / -1: none).
    std::string m_initialSpeedText;
    int m_initialSpeedIndex = -1;

    QLineEdit* m_name = nullptr;
    QComboBox* m_transport = nullptr;
    QLineEdit* m_host = nullptr;
    QLineEdit* m_group = nullptr;
    QLineEdit* m_interface = nullptr;
    QSpinBox* m_port = nullptr;
    QLineEdit* m_path = nullptr;
    QPushButton* m_browse = nullptr;
    QDoubleSpinBox* m_speed = nullptr;
    QLineEdit* m_options = nullptr;
    QSpinBox* m_transportHeader = nullptr;
    QComboBox* m_unknownMode = nullptr;
    QCheckBox* m_recordUnknown = nullptr;
    QCheckBox* m_enabled = nullptr;
    QLineEdit* m_url = nullptr;
    QLabel* m_error = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QFormLayout* m_form = nullptr;
    QLabel* m_hostLabel = nullptr;
    QLayout* m_pathRow = nullptr;
};

} // namespace telestation::ui
