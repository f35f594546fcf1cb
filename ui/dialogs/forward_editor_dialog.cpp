#include "ui/dialogs/forward_editor_dialog.hpp"

#include "core/io/endpoint.hpp"
#include "ui/dialogs/error_label.hpp"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace telestation::ui {

ForwardEditorDialog::ForwardEditorDialog(const QStringList& destinations, QWidget* parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("forwardEditorDialog"));
    setWindowTitle(tr("Forward Destinations"));

    auto* intro = new QLabel(tr("Packets are forwarded to every destination, bytes exactly as received."), this);
    intro->setWordWrap(true);

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("destinationList"));
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_list->addItems(destinations);

    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("urlEdit"));
    m_url->setPlaceholderText(QStringLiteral("udp://127.0.0.1:47101"));
    m_url->setToolTip(tr("udp://HOST:PORT (unicast or multicast), tcp://HOST:PORT (connects to a server), "
                         "tcp-listen://HOST:PORT (accepts clients; port 0 = any free port)"));
    m_add = new QPushButton(tr("&Add"), this);
    m_add->setObjectName(QStringLiteral("addButton"));
    m_remove = new QPushButton(tr("&Remove"), this);
    m_remove->setObjectName(QStringLiteral("removeButton"));

    m_error = newErrorLabel(this, QStringLiteral("errorLabel"));

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    m_buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));

    auto* addRow = new QHBoxLayout;
    addRow->addWidget(m_url, 1);
    addRow->addWidget(m_add);
    auto* listRow = new QHBoxLayout;
    listRow->addWidget(m_list, 1);
    auto* listButtons = new QVBoxLayout;
    listButtons->addWidget(m_remove);
    listButtons->addStretch(1);
    listRow->addLayout(listButtons);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(listRow, 1);
    layout->addLayout(addRow);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_add, &QPushButton::clicked, this, [this] { addTyped(); });
    connect(m_remove, &QPushButton::clicked, this, &ForwardEditorDialog::removeSelected);
    connect(m_url, &QLineEdit::textChanged, this, &ForwardEditorDialog::onTextChanged);
    connect(m_list, &QListWidget::itemSelectionChanged, this, &ForwardEditorDialog::updateButtons);
    onTextChanged();
    resize(480, 320);
}

QString ForwardEditorDialog::destinationError(const QString& url, const QStringList& listed)
{
    const QString text = url.trimmed();
    if (text.isEmpty())
        return tr("Enter a destination URL, e.g. udp://127.0.0.1:47101");
    const auto endpoint = io::parseEndpoint(text.toStdString());
    if (!endpoint)
        return QString::fromStdString(endpoint.error().message);
    if (endpoint->scheme == io::Scheme::File)
        return tr("file:// is a playback source, not a forward destination (use udp://, tcp:// or tcp-listen://)");
    if (endpoint->port == 0 && endpoint->scheme != io::Scheme::TcpListen)
        return tr("Port 0 is only for tcp-listen:// (packets are sent to a known port)");
    for (const QString& other : listed) {
        const auto otherEndpoint = io::parseEndpoint(other.toStdString());
        if (other == text || (otherEndpoint && *otherEndpoint == *endpoint))
            return tr("%1 is listed already (packets are forwarded once)").arg(text);
    }
    return {};
}

QStringList ForwardEditorDialog::destinations() const
{
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i)
        out.push_back(m_list->item(i)->text());
    return out;
}

QString ForwardEditorDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void ForwardEditorDialog::onTextChanged()
{
    const QString text = m_url->text();
    const QString error = text.trimmed().isEmpty() ? QString() : destinationError(text, destinations());
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
    updateButtons();
}

void ForwardEditorDialog::updateButtons()
{
    const bool typed = !m_url->text().trimmed().isEmpty();
    m_add->setEnabled(typed && m_error->isHidden());
    m_remove->setEnabled(!m_list->selectedItems().isEmpty());
    // Return in the line edit adds what is typed; with nothing typed it accepts the dialog.
    m_add->setDefault(typed);
    m_buttons->button(QDialogButtonBox::Ok)->setDefault(!typed);
}

bool ForwardEditorDialog::addTyped()
{
    const QString text = m_url->text().trimmed();
    const QString error = destinationError(text, destinations());
    if (!error.isEmpty()) {
        m_error->setText(error);
        m_error->show();
        updateButtons();
        return false;
    }
    m_list->addItem(text);
    m_url->clear();
    m_url->setFocus();
    return true;
}

void ForwardEditorDialog::removeSelected()
{
    const auto selected = m_list->selectedItems();
    for (QListWidgetItem* item : selected)
        delete m_list->takeItem(m_list->row(item));
    updateButtons();
}

} // namespace telestation::ui
