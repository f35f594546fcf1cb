// Add stream / Edit stream – NAME: one config::StreamProfile, entered either as a source URL (pasted or
// typed: udp://, udp://GROUP:PORT?iface=, tcp://, tcp-listen://, file://) or in pieces — transport
// (UDP, UDP multicast, TCP client, TCP server, playback file), address and port, multicast group and
// interface, recording path, playback speed and options — plus the name, transport header length,
// what happens to unknown packets and whether the stream is received. The URL and the pieces follow
// each other: a URL that parses fills the pieces; a change to a piece writes the URL again (never the
// other way round in the same change, so nothing loops and the cursor stays where the operator types).
//
// Every entry is checked as it is typed, never clamped: a port of 99999 stays 99999 and is shown as an
// error below its field; OK stays disabled with the first reason beside it. An empty local address
// means every interface (0.0.0.0, written into the URL so that the station binds to it).
//
// OK then checks what only opening can tell (source_check.hpp: a port in use, a host name that does not
// resolve, a missing recording) for a stream that will be received, and hands the profile to the
// caller's apply callback when one is set; a refusal from either is shown and the dialog stays open.
//
// Editing keeps what the dialog does not show as it was: the packet settings, the unknown packets'
// forward list, and the source URL's exact text while the pieces still mean the same endpoint.
#pragma once

#include "core/config/station_profile.hpp"
#include "core/io/endpoint.hpp"

#include <QDialog>
#include <QHash>
#include <QList>
#include <QStringList>

#include <functional>
#include <optional>
#include <string>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLayout;
class QLineEdit;
class QPushButton;

namespace telestation::ui {

class StreamDialog : public QDialog {
    Q_OBJECT

public:
    // The order of the transport combo box.
    enum Transport { Udp, UdpMulticast, TcpClient, TcpServer, Playback, TransportCount };
    // A new stream's transport header is at most this long; an edited one keeps a longer value (up to
    // what a profile may hold, 65,535).
    static constexpr int kMaxTransportHeaderBytes = 1024;
    // Tries the stream (the workstation: the session's add or replace); false with the reason when
    // refused, and the dialog stays open.
    using Apply = std::function<bool(const config::StreamProfile& stream, QString* error)>;

    // `initial`: the stream to edit, or a new stream's defaults (no source yet: "Add stream", UDP on every
    // interface); `otherNames`: the names of the other streams (a stream's name must be unique).
    StreamDialog(const config::StreamProfile& initial, QStringList otherNames, QWidget* parent = nullptr);

    void setApply(Apply apply) { m_apply = std::move(apply); }
    // Whether OK opens the source first (default on; off for callers whose apply opens it anyway).
    void setCheckOpening(bool check) { m_checkOpening = check; }

    [[nodiscard]] config::StreamProfile profile() const;
    // The source URL the pieces make ("" while they do not make one).
    [[nodiscard]] QString composedUrl() const;
    // What keeps OK disabled ("" when every entry is valid).
    [[nodiscard]] QString validationError() const { return m_validationError; }
    // The error shown below a field ("" when none, or when the field is hidden).
    [[nodiscard]] QString fieldError(const QWidget* field) const;
    // Why the last OK was refused by opening the source or by the apply callback ("" when not).
    [[nodiscard]] QString refusal() const { return m_refusal; }
    [[nodiscard]] Transport transport() const;

    void accept() override;

    // Name rule of the station profile: one or more letters, digits, '-', '_'.
    [[nodiscard]] static bool isValidStreamName(const QString& name);
    // An IPv4/IPv6 literal or something that looks like a resolvable host name (not resolved here: that
    // could block the GUI).
    [[nodiscard]] static bool isHostLike(const QString& host);

private:
    // Where a change came from: the URL field, a piece of the source, or neither (name, header, …).
    enum class Origin { Url, Pieces, Other };
    using FieldErrors = QHash<const QWidget*, QString>;

    void buildFields();
    void buildLayout();
    QWidget* addRow(const QString& label, QWidget* field, QLayout* fieldLayout = nullptr);
    QLabel* captionFor(const QString& text, QWidget* buddy, int fieldHeight);
    void fillFrom(const config::StreamProfile& initial);
    // Sets the pieces from a URL that parsed; `text` is kept as the source while they still mean it.
    void fillSource(const QString& text, const io::Endpoint& endpoint);
    void urlEdited(const QString& text);
    void updateVisibility();
    void validate(Origin origin);
    void showErrors(const FieldErrors& errors);
    void showRefusal(const QString& reason);
    void browseDirectory();
    void browseFile();
    // The endpoint the pieces make; else the reasons, by field.
    [[nodiscard]] std::optional<io::Endpoint> compose(FieldErrors* errors) const;
    [[nodiscard]] std::optional<io::Endpoint> composeNetwork(FieldErrors* errors) const;
    [[nodiscard]] std::optional<io::Endpoint> composePlayback(FieldErrors* errors) const;
    [[nodiscard]] QString composedUrl(const io::Endpoint& endpoint) const;
    [[nodiscard]] bool needsOpeningCheck(const config::StreamProfile& stream) const;

    config::StreamProfile m_initial;
    QStringList m_otherNames;
    Apply m_apply;
    bool m_checkOpening = true;
    QString m_validationError;
    QString m_refusal;
    QString m_urlError;  // the URL field's text does not parse (typed, or the initial source)
    bool m_filling = false; // the pieces are being set from a URL: no checks, no URL rewrite
    // The source as last written in the URL field (or the initial one) and what it parsed to: kept
    // exactly while the pieces mean the same endpoint ("UDP://localhost:05000" stays as written).
    QString m_sourceText;
    std::optional<io::Endpoint> m_sourceEndpoint;
    int m_sourceSpeedIndex = -1; // where that URL's speed option was among its options (-1: none)
    int m_maxTransportHeader = kMaxTransportHeaderBytes;

    QLineEdit* m_name = nullptr;
    QLineEdit* m_url = nullptr;
    QComboBox* m_transport = nullptr;
    QLineEdit* m_host = nullptr;
    QLineEdit* m_group = nullptr;
    QLineEdit* m_interface = nullptr;
    QLineEdit* m_port = nullptr;
    QLineEdit* m_path = nullptr;
    QPushButton* m_browse = nullptr;
    QLineEdit* m_speed = nullptr;
    QLineEdit* m_options = nullptr;
    QLineEdit* m_transportHeader = nullptr;
    QComboBox* m_unknownMode = nullptr;
    QCheckBox* m_recordUnknown = nullptr;
    QCheckBox* m_enabled = nullptr;
    QLabel* m_hostLabel = nullptr;
    QLabel* m_error = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QFormLayout* m_form = nullptr;
    // Each checked field: the row widget the form shows (field + its error label below) and that label.
    QHash<const QWidget*, QWidget*> m_rows;
    QHash<const QWidget*, QLabel*> m_fieldErrors;
    QList<const QWidget*> m_fieldOrder; // form order: the first error is the one beside OK
};

} // namespace telestation::ui
