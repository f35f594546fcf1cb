// Forward destinations of a packet type (or of a stream's unknown packets): a list of URLs with Add and
// Remove. Each URL is checked as it is typed — it must parse (io::parseEndpoint), be udp://, tcp:// or
// tcp-listen:// (file:// is a playback source, not a destination), have a port other than 0 unless it
// is tcp-listen://, and not be listed already — and the reason it cannot be added is shown in red.
#pragma once

#include <QDialog>
#include <QStringList>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace telestation::ui {

class ForwardEditorDialog : public QDialog {
    Q_OBJECT

public:
    explicit ForwardEditorDialog(const QStringList& destinations, QWidget* parent = nullptr);

    [[nodiscard]] QStringList destinations() const;

    // Why `url` cannot be a forward destination ("" when it can). `listed`: the destinations already there.
    [[nodiscard]] static QString destinationError(const QString& url, const QStringList& listed = {});

    // Adds the URL typed in the line edit; false (and the reason shown) when it is not a destination.
    bool addTyped();
    void removeSelected();
    // The reason shown under the line edit ("" when none).
    [[nodiscard]] QString errorText() const;

    [[nodiscard]] QListWidget* list() const noexcept { return m_list; }
    [[nodiscard]] QLineEdit* urlEdit() const noexcept { return m_url; }

private:
    void onTextChanged();
    void updateButtons();

    QListWidget* m_list = nullptr;
    QLineEdit* m_url = nullptr;
    QPushButton* m_add = nullptr;
    QPushButton* m_remove = nullptr;
    QLabel* m_error = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace telestation::ui
