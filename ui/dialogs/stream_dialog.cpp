#include "ui/dialogs/stream_dialog.hpp"

#include "core/common/time_text.hpp"
#include "ui/dialogs/error_label.hpp"
#include "ui/dialogs/file_dialog_folder.hpp"
#include "ui/dialogs/source_check.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopedValueRollback>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace telestation::ui {

namespace {

constexpr int kMaxPort = 65535;
constexpr int kMaxProfileTransportHeader = 65535; // what a station profile may hold
const QString kEveryInterface = QStringLiteral("0.0.0.0");

// "[::1]" as typed → "::1" (the endpoint keeps IPv6 addresses without brackets).
QString withoutBrackets(QString text)
{
    text = text.trimmed();
    if (text.size() >= 2 && text.front() == QLatin1Char('[') && text.back() == QLatin1Char(']'))
        return text.mid(1, text.size() - 2);
    return text;
}

bool isIpLiteral(const QString& text)
{
    QHostAddress address;
    return address.setAddress(text);
}

bool allDigits(const QString& text)
{
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), [](QChar c) { return c.isDigit(); });
}

// The parser's reason without the URL it starts with (the operator sees the URL already); for a piece
// of the source also without the offset into a URL the operator did not type.
QString parseReason(const Error& error, const std::string& url, bool keepOffset)
{
    QString text = QString::fromStdString(error.message);
    const QString prefix = QString::fromStdString(url) + QStringLiteral(": ");
    if (text.startsWith(prefix))
        text.remove(0, prefix.size());
    if (!keepOffset) {
        static const QRegularExpression offset(QStringLiteral(" at offset \\d+$"));
        text.remove(offset);
    }
    return text;
}

// A whole number typed into a field, checked against 0..max without ever clamping it; `what` names it
// in the reason ("Port", "The transport header").
std::optional<int> numberIn(const QString& typed, int max, const QString& emptyReason, const QString& what,
                            QString* error)
{
    const QString text = typed.trimmed();
    if (text.isEmpty()) {
        *error = emptyReason;
        return std::nullopt;
    }
    if (!allDigits(text)) {
        *error = StreamDialog::tr("%1 '%2' is not a whole number: 0 to %3").arg(what, text).arg(max);
        return std::nullopt;
    }
    bool ok = false;
    const qlonglong value = text.size() > 12 ? -1 : text.toLongLong(&ok);
    if (!ok || value > max) {
        *error = StreamDialog::tr("%1 %2 is out of range: 0 to %3").arg(what, text).arg(max);
        return std::nullopt;
    }
    return static_cast<int>(value);
}

} // namespace

StreamDialog::StreamDialog(const config::StreamProfile& initial, QStringList otherNames, QWidget* parent)
    : QDialog(parent), m_initial(initial), m_otherNames(std::move(otherNames))
{
    setObjectName(QStringLiteral("streamDialog"));
    setWindowTitle(initial.source.empty() ? tr("Add stream")
                                          : tr("Edit stream \u2013 %1").arg(QString::fromStdString(initial.name)));
    // A profile may hold up to 65,535: an edited stream keeps its value rather than be refused.
    m_maxTransportHeader = std::max<int>(
        kMaxTransportHeaderBytes, static_cast<int>(std::min<std::uint32_t>(initial.transportHeaderBytes, kMaxProfileTransportHeader)));

    buildFields();
    buildLayout();
    fillFrom(initial);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &StreamDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &StreamDialog::reject);
    // textEdited: the operator's typing only, never the pieces writing the URL.
    connect(m_url, &QLineEdit::textEdited, this, &StreamDialog::urlEdited);
    for (QLineEdit* piece : {m_host, m_group, m_interface, m_port, m_path, m_speed, m_options})
        connect(piece, &QLineEdit::textChanged, this, [this] { validate(Origin::Pieces); });
    connect(m_transport, &QComboBox::currentIndexChanged, this, [this] {
        updateVisibility();
        validate(Origin::Pieces);
    });
    for (QLineEdit* other : {m_name, m_transportHeader})
        connect(other, &QLineEdit::textChanged, this, [this] { validate(Origin::Other); });
    connect(m_enabled, &QCheckBox::toggled, this, [this] { validate(Origin::Other); });

    updateVisibility();
    // An edited stream's source is what the URL field shows, as written; a new one's is made of the pieces.
    validate(initial.source.empty() ? Origin::Pieces : Origin::Url);
    resize(600, sizeHint().height());
}

void StreamDialog::buildFields()
{
    // Created in the form's order, which is the Tab order.
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_name->setPlaceholderText(tr("letters, digits, '-' and '_'"));

    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("urlEdit"));
    m_url->setPlaceholderText(tr("paste or type a URL, or fill in the entries below"));
    m_url->setToolTip(tr("The stream's source as the station profile stores it. Paste or type one and the entries "
                         "below follow it; change an entry and it is written again.\n"
                         "udp://HOST:PORT, udp://GROUP:PORT?iface=ADDR, tcp://HOST:PORT, tcp-listen://HOST:PORT, "
                         "file://PATH?speed=N&from=T&to=T&stream=NAME"));

    m_transport = new QComboBox(this);
    m_transport->setObjectName(QStringLiteral("transportCombo"));
    m_transport->addItem(tr("UDP"));
    m_transport->addItem(tr("UDP multicast"));
    m_transport->addItem(tr("TCP client (connects to a server)"));
    m_transport->addItem(tr("TCP server (accepts connections)"));
    m_transport->addItem(tr("Playback file (a recording)"));

    m_host = new QLineEdit(this);
    m_host->setObjectName(QStringLiteral("hostEdit"));
    m_group = new QLineEdit(this);
    m_group->setObjectName(QStringLiteral("groupEdit"));
    m_group->setPlaceholderText(QStringLiteral("239.192.0.1"));
    m_group->setToolTip(tr("The multicast group to join: 224.0.0.0/4 or ff00::/8"));
    m_interface = new QLineEdit(this);
    m_interface->setObjectName(QStringLiteral("interfaceEdit"));
    m_interface->setPlaceholderText(tr("empty = the system's choice"));
    m_interface->setToolTip(tr("The address of the local interface to join the group on (optional)"));

    m_port = new QLineEdit(this);
    m_port->setObjectName(QStringLiteral("portEdit"));
    m_port->setPlaceholderText(tr("0 to 65535"));
    m_port->setMaximumWidth(160);

    m_path = new QLineEdit(this);
    m_path->setObjectName(QStringLiteral("pathEdit"));
    m_path->setPlaceholderText(tr("a recording directory or a segment file (.tsrec)"));
    m_browse = new QPushButton(tr("&Browse…"), this);
    m_browse->setObjectName(QStringLiteral("browseButton"));
    auto* browseMenu = new QMenu(m_browse);
    connect(browseMenu->addAction(tr("Recording directory…")), &QAction::triggered, this, &StreamDialog::browseDirectory);
    connect(browseMenu->addAction(tr("Segment file…")), &QAction::triggered, this, &StreamDialog::browseFile);
    m_browse->setMenu(browseMenu);

    m_speed = new QLineEdit(this);
    m_speed->setObjectName(QStringLiteral("speedEdit"));
    m_speed->setPlaceholderText(tr("empty = as fast as possible"));
    m_speed->setMaximumWidth(220);
    m_speed->setToolTip(tr("Times real time: 1 = real time, 2 = twice as fast, 0 or empty = as fast as possible"));
    m_options = new QLineEdit(this);
    m_options->setObjectName(QStringLiteral("optionsEdit"));
    m_options->setPlaceholderText(QStringLiteral("from=2026-11-22T12:00:00Z&to=…&stream=NAME&segment=FILE"));
    m_options->setToolTip(tr("Other playback options, joined by '&': from=T, to=T (ns since the Unix epoch or ISO-8601 "
                             "UTC), stream=NAME (may repeat), segment=FILE (may repeat)"));

    m_transportHeader = new QLineEdit(this);
    m_transportHeader->setObjectName(QStringLiteral("transportHeaderEdit"));
    m_transportHeader->setPlaceholderText(QStringLiteral("0"));
    m_transportHeader->setMaximumWidth(120);
    m_transportHeader->setToolTip(tr("Bytes before each packet that are kept with it but skipped for decoding (0 to %1)")
                                      .arg(m_maxTransportHeader));

    m_unknownMode = new QComboBox(this);
    m_unknownMode->setObjectName(QStringLiteral("unknownModeCombo"));
    m_unknownMode->addItem(tr("Pass Thru"), static_cast<int>(config::ProcessingMode::PassThru));
    m_unknownMode->addItem(tr("Discard"), static_cast<int>(config::ProcessingMode::Discard));
    m_unknownMode->setToolTip(tr("Packets the mission database does not define: delivered whole to consumers, or "
                                 "dropped (counted)"));
    m_recordUnknown = new QCheckBox(tr("Record unknown packets"), this);
    m_recordUnknown->setObjectName(QStringLiteral("recordUnknownCheck"));

    m_enabled = new QCheckBox(tr("Receive this stream when the station starts"), this);
    m_enabled->setObjectName(QStringLiteral("enabledCheck"));

    m_error = newErrorLabel(this, QStringLiteral("errorLabel"));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    m_buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));
}

QLabel* StreamDialog::captionFor(const QString& text, QWidget* buddy, int fieldHeight)
{
    // As tall as its field, text centred: level with the field even when an error opens below it (the
    // form puts labels at the top of their rows).
    auto* caption = new QLabel(text, this);
    caption->setBuddy(buddy);
    caption->setMinimumHeight(fieldHeight);
    caption->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    return caption;
}

QWidget* StreamDialog::addRow(const QString& label, QWidget* field, QLayout* fieldLayout)
{
    // The field and, below it, its error (hidden while there is none): the form shows or hides both.
    auto* row = new QWidget(this);
    auto* column = new QVBoxLayout(row);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    if (fieldLayout)
        column->addLayout(fieldLayout);
    else
        column->addWidget(field);
    QString name = field->objectName();
    name.replace(QRegularExpression(QStringLiteral("(Edit|Combo)$")), QString());
    QLabel* error = newErrorLabel(row, name + QStringLiteral("Error"));
    column->addWidget(error);
    row->setFocusProxy(field);
    QLabel* caption = captionFor(label, field, fieldLayout ? fieldLayout->sizeHint().height() : field->sizeHint().height());
    m_form->addRow(caption, row);
    m_rows.insert(field, row);
    m_fieldErrors.insert(field, error);
    m_fieldOrder << field;
    if (field == m_host)
        m_hostLabel = caption;
    return row;
}

void StreamDialog::buildLayout()
{
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // A label stays beside its field when an error opens below it.
    m_form->setLabelAlignment(Qt::AlignLeft | Qt::AlignTop);
    addRow(tr("&Name:"), m_name);
    addRow(tr("Source &URL:"), m_url);
    m_form->addRow(captionFor(tr("&Transport:"), m_transport, m_transport->sizeHint().height()), m_transport);
    addRow(tr("&Address:"), m_host);
    addRow(tr("Multicast &group:"), m_group);
    addRow(tr("&Interface:"), m_interface);
    addRow(tr("&Port:"), m_port);
    auto* pathRow = new QHBoxLayout;
    pathRow->setContentsMargins(0, 0, 0, 0);
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(m_browse);
    addRow(tr("&Recording:"), m_path, pathRow);
    addRow(tr("&Speed:"), m_speed);
    addRow(tr("&Options:"), m_options);
    auto* headerRow = new QHBoxLayout;
    headerRow->setContentsMargins(0, 0, 0, 0);
    headerRow->addWidget(m_transportHeader);
    headerRow->addWidget(new QLabel(tr("bytes"), this));
    headerRow->addStretch(1);
    addRow(tr("Transport &header:"), m_transportHeader, headerRow);
    auto* unknownRow = new QHBoxLayout;
    unknownRow->setContentsMargins(0, 0, 0, 0);
    unknownRow->addWidget(m_unknownMode);
    unknownRow->addWidget(m_recordUnknown);
    unknownRow->addStretch(1);
    m_form->addRow(captionFor(tr("&Unknown packets:"), m_unknownMode, unknownRow->sizeHint().height()), unknownRow);
    m_form->addRow(QString(), m_enabled);

    // OK and, beside it, why it is disabled (or why the station refused the stream).
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_error, 1);
    bottom->addWidget(m_buttons, 0, Qt::AlignBottom);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(m_form);
    layout->addStretch(1);
    layout->addLayout(bottom);
}

void StreamDialog::fillFrom(const config::StreamProfile& initial)
{
    const QScopedValueRollback filling(m_filling, true);
    m_name->setText(QString::fromStdString(initial.name));
    m_transportHeader->setText(QString::number(initial.transportHeaderBytes));
    m_unknownMode->setCurrentIndex(initial.unknownMode == config::ProcessingMode::Discard ? 1 : 0);
    m_recordUnknown->setChecked(initial.recordUnknown);
    m_enabled->setChecked(initial.enabled);
    m_transport->setCurrentIndex(Udp);
    if (initial.source.empty()) {
        m_port->setText(QStringLiteral("0")); // any free port until the operator chooses one
        return;
    }
    const QString source = QString::fromStdString(initial.source);
    m_url->setText(source);
    auto endpoint = io::parseEndpoint(initial.source);
    if (!endpoint) {
        // A valid profile cannot hold one; its error is shown until a URL or the pieces make a source.
        m_urlError = tr("The stream's source does not parse (%1): enter it again")
                         .arg(parseReason(endpoint.error(), initial.source, true));
        return;
    }
    fillSource(source, *endpoint);
}

void StreamDialog::fillSource(const QString& text, const io::Endpoint& e)
{
    const QScopedValueRollback filling(m_filling, true);
    m_sourceText = text;
    m_sourceEndpoint = e;
    m_sourceSpeedIndex = -1;
    const QString host = QString::fromStdString(e.host);
    switch (e.scheme) {
    case io::Scheme::Udp:
        if (e.multicast) {
            m_transport->setCurrentIndex(UdpMulticast);
            m_group->setText(host);
            m_interface->setText(QString::fromStdString(e.iface));
        } else {
            m_transport->setCurrentIndex(Udp);
            m_host->setText(host);
        }
        m_port->setText(QString::number(e.port));
        break;
    case io::Scheme::Tcp:
    case io::Scheme::TcpListen:
        m_transport->setCurrentIndex(e.scheme == io::Scheme::Tcp ? TcpClient : TcpServer);
        m_host->setText(host);
        m_port->setText(QString::number(e.port));
        break;
    case io::Scheme::File: {
        m_transport->setCurrentIndex(Playback);
        m_path->setText(QString::fromStdString(e.path));
        QStringList others;
        QString speed;
        for (const auto& [key, value] : e.query) {
            if (key == "speed" && m_sourceSpeedIndex < 0) {
                m_sourceSpeedIndex = static_cast<int>(others.size());
                speed = QString::fromStdString(value); // as written: "2.0" stays "2.0"
                continue;
            }
            others.push_back(QString::fromStdString(key + '=' + value));
        }
        m_speed->setText(speed);
        m_options->setText(others.join(QLatin1Char('&')));
        break;
    }
    }
}

void StreamDialog::urlEdited(const QString& typed)
{
    const QString text = typed.trimmed();
    if (text.isEmpty()) {
        m_urlError = tr("Enter the source: a URL such as udp://0.0.0.0:5000, or the entries below");
        validate(Origin::Url);
        return;
    }
    const std::string url = text.toStdString();
    auto endpoint = io::parseEndpoint(url);
    if (!endpoint) {
        m_urlError = parseReason(endpoint.error(), url, true); // the pieces keep what they had
        validate(Origin::Url);
        return;
    }
    m_urlError.clear();
    fillSource(text, *endpoint);
    updateVisibility();
    validate(Origin::Url);
}

StreamDialog::Transport StreamDialog::transport() const
{
    return static_cast<Transport>(std::clamp(m_transport->currentIndex(), 0, TransportCount - 1));
}

void StreamDialog::updateVisibility()
{
    const Transport t = transport();
    const bool network = t == Udp || t == TcpClient || t == TcpServer;
    m_form->setRowVisible(m_rows.value(m_host), network);
    m_form->setRowVisible(m_rows.value(m_group), t == UdpMulticast);
    m_form->setRowVisible(m_rows.value(m_interface), t == UdpMulticast);
    m_form->setRowVisible(m_rows.value(m_port), t != Playback);
    m_form->setRowVisible(m_rows.value(m_path), t == Playback);
    m_form->setRowVisible(m_rows.value(m_speed), t == Playback);
    m_form->setRowVisible(m_rows.value(m_options), t == Playback);
    if (t == TcpClient) {
        m_hostLabel->setText(tr("Server &host:"));
        m_host->setPlaceholderText(tr("the server's address or host name"));
        m_host->setToolTip(tr("The TCP server to connect to (reconnects with back-off when the connection ends)"));
        m_port->setToolTip(tr("The server's port: 1 to 65535"));
    } else {
        m_hostLabel->setText(tr("Local &address:"));
        m_host->setPlaceholderText(tr("empty = every interface (0.0.0.0)"));
        m_host->setToolTip(tr("The local address to receive on: empty or 0.0.0.0 = every IPv4 interface, :: = every "
                              "interface"));
        m_port->setToolTip(tr("0 to 65535; 0 = any free port (the station shows the port it bound)"));
    }
    if (t == UdpMulticast)
        m_port->setToolTip(tr("The group's port: 1 to 65535"));
}

std::optional<io::Endpoint> StreamDialog::compose(FieldErrors* errors) const
{
    return transport() == Playback ? composePlayback(errors) : composeNetwork(errors);
}

std::optional<io::Endpoint> StreamDialog::composeNetwork(FieldErrors* errors) const
{
    const Transport t = transport();
    const qsizetype before = errors->size();
    io::Endpoint e;
    e.scheme = t == TcpClient ? io::Scheme::Tcp : t == TcpServer ? io::Scheme::TcpListen : io::Scheme::Udp;

    QString portError;
    if (const auto port = numberIn(m_port->text(), kMaxPort, tr("Enter the port: 0 to 65535"), tr("Port"), &portError)) {
        e.port = static_cast<std::uint16_t>(*port);
        if (t == TcpClient && e.port == 0)
            portError = tr("A TCP client needs the server's port: 0 is only for receiving on any free port");
        else if (t == UdpMulticast && e.port == 0)
            portError = tr("A multicast group is received on a port its senders know: choose one (not 0)");
    }
    if (!portError.isEmpty())
        errors->insert(m_port, portError);

    if (t == UdpMulticast) {
        const QString group = withoutBrackets(m_group->text());
        QHostAddress address;
        if (group.isEmpty())
            errors->insert(m_group, tr("Enter the multicast group to join (e.g. 239.192.0.1)"));
        else if (!address.setAddress(group) || !address.isMulticast())
            errors->insert(m_group, tr("'%1' is not a multicast group address (224.0.0.0/4 or ff00::/8)").arg(group));
        const QString iface = withoutBrackets(m_interface->text());
        QHostAddress ifaceAddress;
        if (!iface.isEmpty() && !ifaceAddress.setAddress(iface))
            errors->insert(m_interface, tr("The interface '%1' is not an IP address (the address of a local interface)").arg(iface));
        else if (!iface.isEmpty() && !errors->contains(m_group) && ifaceAddress.protocol() != address.protocol())
            errors->insert(m_interface, tr("The interface '%1' and the group '%2' are not of the same IP version").arg(iface, group));
        e.host = group.toStdString();
        e.iface = iface.toStdString();
    } else {
        QString host = withoutBrackets(m_host->text());
        if (host.isEmpty() && t != TcpClient)
            host = kEveryInterface; // what the hint promises, written out so that the station binds to it
        QHostAddress address;
        if (host.isEmpty())
            errors->insert(m_host, tr("Enter the address or host name of the server to connect to"));
        else if (!isHostLike(host))
            errors->insert(m_host, tr("'%1' is not an IP address or a host name").arg(host));
        else if (t == Udp && address.setAddress(host) && address.isMulticast())
            errors->insert(m_host, tr("'%1' is a multicast group: choose UDP multicast").arg(host));
        e.host = host.toStdString();
    }
    if (errors->size() != before)
        return std::nullopt;
    const std::string url = e.toString();
    auto parsed = io::parseEndpoint(url);
    if (!parsed) {
        errors->insert(t == UdpMulticast ? m_group : m_host, parseReason(parsed.error(), url, false));
        return std::nullopt;
    }
    return std::move(*parsed);
}

std::optional<io::Endpoint> StreamDialog::composePlayback(FieldErrors* errors) const
{
    const qsizetype before = errors->size();
    const QString path = m_path->text();
    if (path.trimmed().isEmpty())
        errors->insert(m_path, tr("Choose the recording to play back: a recording directory or a segment file"));
    const QString speed = m_speed->text().trimmed();
    if (!speed.isEmpty() && !text::parsePlainDecimal(speed.toStdString()))
        errors->insert(m_speed, tr("Speed '%1' is not a number of 0 or more (1 = real time, 2 = twice as fast, 0 = as "
                                   "fast as possible)")
                                    .arg(speed));
    if (errors->size() != before)
        return std::nullopt;

    io::Endpoint file;
    file.scheme = io::Scheme::File;
    file.path = path.toStdString();
    const std::string base = file.toString(); // escapes '%' and '?' in the path
    if (auto alone = io::parseEndpoint(base); !alone) {
        errors->insert(m_path, parseReason(alone.error(), base, false));
        return std::nullopt;
    }
    // The other options in their order, the speed where the URL had it (else first).
    QStringList query;
    const QString options = m_options->text().trimmed();
    if (!options.isEmpty())
        query = options.split(QLatin1Char('&'));
    if (!speed.isEmpty()) {
        const qsizetype at = m_sourceSpeedIndex >= 0 ? std::min<qsizetype>(m_sourceSpeedIndex, query.size()) : 0;
        query.insert(at, QStringLiteral("speed=") + speed);
    }
    const std::string url = query.isEmpty() ? base : base + '?' + query.join(QLatin1Char('&')).toStdString();
    auto parsed = io::parseEndpoint(url);
    if (!parsed) {
        errors->insert(m_options, parseReason(parsed.error(), url, false));
        return std::nullopt;
    }
    return std::move(*parsed);
}

QString StreamDialog::composedUrl(const io::Endpoint& endpoint) const
{
    // The same endpoint as the URL last written: that text exactly.
    if (m_sourceEndpoint && endpoint == *m_sourceEndpoint)
        return m_sourceText;
    return QString::fromStdString(endpoint.toString());
}

QString StreamDialog::composedUrl() const
{
    FieldErrors errors;
    const auto endpoint = compose(&errors);
    return endpoint ? composedUrl(*endpoint) : QString();
}

config::StreamProfile StreamDialog::profile() const
{
    config::StreamProfile p = m_initial; // packet settings and the unknown packets' forward list stay
    p.name = m_name->text().trimmed().toStdString();
    p.source = composedUrl().toStdString();
    p.transportHeaderBytes = static_cast<std::uint32_t>(std::max(0, m_transportHeader->text().trimmed().toInt()));
    p.enabled = m_enabled->isChecked();
    p.unknownMode = static_cast<config::ProcessingMode>(m_unknownMode->currentData().toInt());
    p.recordUnknown = m_recordUnknown->isChecked();
    return p;
}

bool StreamDialog::isValidStreamName(const QString& name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9_-]+$"));
    return pattern.match(name).hasMatch();
}

bool StreamDialog::isHostLike(const QString& host)
{
    if (isIpLiteral(host))
        return true;
    // Dotted digits that are not an address ("300.1.1.1", "10.1") are a mistyped address, not a name.
    static const QRegularExpression numeric(QStringLiteral("^[0-9.]+$"));
    if (numeric.match(host).hasMatch())
        return false;
    // Labels of letters, digits, '-' (not first or last) and '_', 1..63 characters, 253 in all.
    static const QRegularExpression name(
        QStringLiteral("^(?=.{1,253}\\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
                       "(?:\\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\\.?$"));
    return name.match(host).hasMatch();
}

void StreamDialog::validate(Origin origin)
{
    if (m_filling)
        return;
    m_refusal.clear(); // changed: OK tries again
    if (origin == Origin::Pieces)
        m_urlError.clear(); // the pieces speak now; the URL is written from them below

    FieldErrors errors;
    const QString name = m_name->text().trimmed();
    if (name.isEmpty())
        errors.insert(m_name, tr("Give the stream a name"));
    else if (!isValidStreamName(name))
        errors.insert(m_name, tr("A stream name is made of letters, digits, '-' and '_': '%1' is not").arg(name));
    else if (m_otherNames.contains(name))
        errors.insert(m_name, tr("Another stream is already called %1: choose another name").arg(name));
    if (!m_urlError.isEmpty())
        errors.insert(m_url, m_urlError);

    const auto endpoint = compose(&errors);
    if (origin == Origin::Pieces) {
        const QString url = endpoint ? composedUrl(*endpoint) : QString();
        if (m_url->text() != url)
            m_url->setText(url); // setText: no textEdited, so the pieces are not set from it again
    }

    QString headerError; // empty = 0, as the placeholder shows
    if (!m_transportHeader->text().trimmed().isEmpty()
        && !numberIn(m_transportHeader->text(), m_maxTransportHeader, {}, tr("The transport header"), &headerError))
        errors.insert(m_transportHeader, headerError);
    showErrors(errors);
}

void StreamDialog::showErrors(const FieldErrors& errors)
{
    QString first;
    for (const QWidget* field : std::as_const(m_fieldOrder)) {
        const QString text = errors.value(field);
        QLabel* label = m_fieldErrors.value(field);
        label->setText(text);
        label->setVisible(!text.isEmpty());
        if (first.isEmpty())
            first = text;
    }
    m_validationError = first;
    m_error->setText(first);
    m_error->setVisible(!first.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(first.isEmpty());
}

QString StreamDialog::fieldError(const QWidget* field) const
{
    const QLabel* label = m_fieldErrors.value(field);
    return label && !label->isHidden() ? label->text() : QString();
}

void StreamDialog::showRefusal(const QString& reason)
{
    m_refusal = reason;
    m_error->setText(reason);
    m_error->setVisible(true);
}

bool StreamDialog::needsOpeningCheck(const config::StreamProfile& stream) const
{
    if (!m_checkOpening || !stream.enabled)
        return false; // a stream that is not received is not opened
    const auto now = io::parseEndpoint(stream.source);
    if (!now)
        return false;
    const auto before = io::parseEndpoint(m_initial.source);
    if (!before)
        return true;
    if (*before == *now)
        return false; // unchanged: the station has it (open, or with its error shown)
    // While the edited stream runs it holds its own port: moving it to another address on the same port is
    // for the station to try, not a probe that would find the stream itself in the way.
    return !(now->scheme != io::Scheme::File && now->scheme == before->scheme && now->port != 0 && now->port == before->port);
}

void StreamDialog::accept()
{
    validate(Origin::Other);
    if (!m_validationError.isEmpty())
        return;
    const config::StreamProfile stream = profile();
    QString reason;
    if (needsOpeningCheck(stream)) {
        QGuiApplication::setOverrideCursor(Qt::WaitCursor); // a host name may take the resolver a moment
        reason = sourceOpenError(*io::parseEndpoint(stream.source));
        QGuiApplication::restoreOverrideCursor();
    }
    if (reason.isEmpty() && m_apply && !m_apply(stream, &reason) && reason.isEmpty())
        reason = tr("The station refused the stream.");
    if (!reason.isEmpty()) {
        showRefusal(reason);
        return;
    }
    QDialog::accept();
}

void StreamDialog::browseDirectory()
{
    const QString dir = FileDialogFolder::existingFolder(this, FileDialogFolder::kRecordings, tr("Recording Directory"),
                                                         m_path->text());
    if (!dir.isEmpty())
        m_path->setText(dir);
}

void StreamDialog::browseFile()
{
    const QString file = FileDialogFolder::openFile(this, FileDialogFolder::kRecordings, tr("Segment File"),
                                                    tr("Recording segments (*.tsrec);;All files (*)"), m_path->text());
    if (!file.isEmpty())
        m_path->setText(file);
}

} // namespace telestation::ui
