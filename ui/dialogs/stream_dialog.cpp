#include "ui/dialogs/stream_dialog.hpp"

#include "ui/models/tones.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHostAddress>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace telestation::ui {

namespace {

constexpr int kSpeedDecimals = 3;

QLabel* errorLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(QStringLiteral("errorLabel"));
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tone::setTextColour(label, tone::kErrorText);
    label->hide();
    return label;
}

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

// Speed as the URL writes it: at most kSpeedDecimals decimals, no trailing zeros ("2.5", "1").
std::string formatSpeed(double value)
{
    QString text = QLocale::c().toString(value, 'f', kSpeedDecimals);
    if (text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text.toStdString();
}

} // namespace

StreamDialog::StreamDialog(const config::StreamProfile& initial, QStringList otherNames, QWidget* parent)
    : QDialog(parent), m_initial(initial), m_otherNames(std::move(otherNames))
{
    setObjectName(QStringLiteral("streamDialog"));
    setWindowTitle(initial.name.empty() ? tr("Add Stream") : tr("Edit Stream %1").arg(QString::fromStdString(initial.name)));

    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("nameEdit"));
    m_name->setPlaceholderText(tr("letters, digits, '-' and '_'"));

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
    m_interface->setPlaceholderText(tr("the system's choice"));
    m_interface->setToolTip(tr("The address of the local interface to join the group on (optional)"));

    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("portSpin"));
    m_port->setRange(0, 65535);
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
    auto* pathRow = new QHBoxLayout;
    pathRow->setContentsMargins(0, 0, 0, 0);
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(m_browse);
    m_pathRow = pathRow;

    m_speed = new QDoubleSpinBox(this);
    m_speed->setObjectName(QStringLiteral("speedSpin"));
    m_speed->setRange(0, 1e6);
    m_speed->setDecimals(kSpeedDecimals);
    m_speed->setSuffix(tr(" × real time"));
    m_speed->setSpecialValueText(tr("as fast as possible"));
    m_speed->setMaximumWidth(220);
    m_speed->setToolTip(tr("1 = real time, 2 = twice as fast, 0 = as fast as possible"));
    m_options = new QLineEdit(this);
    m_options->setObjectName(QStringLiteral("optionsEdit"));
    m_options->setPlaceholderText(QStringLiteral("from=2026-11-22T12:00:00Z&to=…&stream=NAME&segment=FILE"));
    m_options->setToolTip(tr("Other playback options, joined by '&': from=T, to=T (ns since the Unix epoch or ISO-8601 "
                             "UTC), stream=NAME (may repeat), segment=FILE (may repeat)"));

    m_transportHeader = new QSpinBox(this);
    m_transportHeader->setObjectName(QStringLiteral("transportHeaderSpin"));
    // A profile may hold up to 65,535: an edited stream keeps its value rather than be clamped.
    m_transportHeader->setRange(0, std::max<int>(kMaxTransportHeaderBytes,
                                                 static_cast<int>(std::min<std::uint32_t>(initial.transportHeaderBytes, 65535))));
    m_transportHeader->setSuffix(tr(" bytes"));
    m_transportHeader->setMaximumWidth(160);
    m_transportHeader->setToolTip(tr("Bytes before each packet that are kept with it but skipped for decoding"));

    m_unknownMode = new QComboBox(this);
    m_unknownMode->setObjectName(QStringLiteral("unknownModeCombo"));
    m_unknownMode->addItem(tr("Pass Thru"), static_cast<int>(config::ProcessingMode::PassThru));
    m_unknownMode->addItem(tr("Discard"), static_cast<int>(config::ProcessingMode::Discard));
    m_unknownMode->setToolTip(tr("Packets the mission database does not define: delivered whole to consumers, or "
                                 "dropped (counted)"));
    m_recordUnknown = new QCheckBox(tr("Record unknown packets"), this);
    m_recordUnknown->setObjectName(QStringLiteral("recordUnknownCheck"));
    auto* unknownRow = new QHBoxLayout;
    unknownRow->setContentsMargins(0, 0, 0, 0);
    unknownRow->addWidget(m_unknownMode);
    unknownRow->addWidget(m_recordUnknown);
    unknownRow->addStretch(1);

    m_enabled = new QCheckBox(tr("Receive this stream when the station starts"), this);
    m_enabled->setObjectName(QStringLiteral("enabledCheck"));

    m_url = new QLineEdit(this);
    m_url->setObjectName(QStringLiteral("urlEdit"));
    m_url->setReadOnly(true);
    m_url->setPlaceholderText(tr("(the entries above do not make a source yet)"));
    m_url->setFocusPolicy(Qt::ClickFocus);
    m_url->setToolTip(tr("The source URL made of the entries above, as the station profile stores it"));
    QPalette urlPalette = m_url->palette();
    urlPalette.setColor(QPalette::Base, urlPalette.color(QPalette::Window));
    m_url->setPalette(urlPalette);

    m_error = errorLabel(this);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    m_buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));

    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->addRow(tr("&Name:"), m_name);
    m_form->addRow(tr("&Transport:"), m_transport);
    m_hostLabel = new QLabel(tr("&Address:"), this);
    m_hostLabel->setBuddy(m_host);
    m_form->addRow(m_hostLabel, m_host);
    m_form->addRow(tr("Multicast &group:"), m_group);
    m_form->addRow(tr("&Interface:"), m_interface);
    m_form->addRow(tr("&Port:"), m_port);
    auto* pathLabel = new QLabel(tr("&Recording:"), this);
    pathLabel->setBuddy(m_path);
    m_form->addRow(pathLabel, pathRow);
    m_form->addRow(tr("&Speed:"), m_speed);
    m_form->addRow(tr("&Options:"), m_options);
    m_form->addRow(tr("Transport &header:"), m_transportHeader);
    auto* unknownLabel = new QLabel(tr("&Unknown packets:"), this);
    unknownLabel->setBuddy(m_unknownMode);
    m_form->addRow(unknownLabel, unknownRow);
    m_form->addRow(QString(), m_enabled);
    m_form->addRow(tr("Source URL:"), m_url);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(m_form);
    layout->addStretch(1);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    fillFrom(initial);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &StreamDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &StreamDialog::reject);
    for (QLineEdit* edit : {m_name, m_host, m_group, m_interface, m_path, m_options})
        connect(edit, &QLineEdit::textChanged, this, &StreamDialog::validate);
    connect(m_port, &QSpinBox::valueChanged, this, &StreamDialog::validate);
    connect(m_speed, &QDoubleSpinBox::valueChanged, this, &StreamDialog::validate);
    connect(m_transport, &QComboBox::currentIndexChanged, this, [this] {
        updateVisibility();
        validate();
    });
    updateVisibility();
    validate();
    resize(560, sizeHint().height());
}

void StreamDialog::fillFrom(const config::StreamProfile& initial)
{
    m_name->setText(QString::fromStdString(initial.name));
    m_transportHeader->setValue(static_cast<int>(initial.transportHeaderBytes));
    m_unknownMode->setCurrentIndex(initial.unknownMode == config::ProcessingMode::Discard ? 1 : 0);
    m_recordUnknown->setChecked(initial.recordUnknown);
    m_enabled->setChecked(initial.enabled);
    m_transport->setCurrentIndex(Udp);
    if (initial.source.empty())
        return;

    auto endpoint = io::parseEndpoint(initial.source);
    if (!endpoint) {
        // A valid profile cannot hold one; its error is shown until the pieces make a source.
        m_initialSourceError = QString::fromStdString(endpoint.error().message);
        return;
    }
    m_initialEndpoint = *endpoint;
    const io::Endpoint& e = *endpoint;
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
        m_port->setValue(e.port);
        break;
    case io::Scheme::Tcp:
    case io::Scheme::TcpListen:
        m_transport->setCurrentIndex(e.scheme == io::Scheme::Tcp ? TcpClient : TcpServer);
        m_host->setText(host);
        m_port->setValue(e.port);
        break;
    case io::Scheme::File: {
        m_transport->setCurrentIndex(Playback);
        m_path->setText(QString::fromStdString(e.path));
        QStringList others;
        for (std::size_t i = 0; i < e.query.size(); ++i) {
            const auto& [key, value] = e.query[i];
            if (key == "speed" && m_initialSpeedIndex < 0) {
                m_initialSpeedIndex = static_cast<int>(others.size());
                m_initialSpeedText = value;
                m_speed->setValue(QString::fromStdString(value).toDouble());
                continue;
            }
            others.push_back(QString::fromStdString(key + '=' + value));
        }
        m_options->setText(others.join(QLatin1Char('&')));
        break;
    }
    }
}

StreamDialog::Transport StreamDialog::transport() const
{
    return static_cast<Transport>(std::clamp(m_transport->currentIndex(), 0, TransportCount - 1));
}

void StreamDialog::updateVisibility()
{
    const Transport t = transport();
    const bool network = t == Udp || t == TcpClient || t == TcpServer;
    m_form->setRowVisible(m_host, network);
    m_form->setRowVisible(m_group, t == UdpMulticast);
    m_form->setRowVisible(m_interface, t == UdpMulticast);
    m_form->setRowVisible(m_port, t != Playback);
    m_form->setRowVisible(m_pathRow, t == Playback);
    m_form->setRowVisible(m_speed, t == Playback);
    m_form->setRowVisible(m_options, t == Playback);
    if (t == TcpClient) {
        m_hostLabel->setText(tr("Server &host:"));
        m_host->setPlaceholderText(tr("the server's address or host name"));
        m_host->setToolTip(tr("The TCP server to connect to (reconnects with back-off when the connection ends)"));
        m_port->setToolTip(tr("The server's port"));
    } else {
        m_hostLabel->setText(tr("Local &address:"));
        m_host->setPlaceholderText(tr("0.0.0.0 = every interface"));
        m_host->setToolTip(tr("The local address to receive on (0.0.0.0 or :: for every interface)"));
        m_port->setToolTip(tr("0 = any free port (the station shows the port it bound)"));
    }
    if (t == UdpMulticast)
        m_port->setToolTip(tr("The group's port"));
}

std::string StreamDialog::speedText() const
{
    // The URL's own text while the value shown is still the one it had ("0.25" stays "0.25", "2.0" stays
    // "2.0"), so that an unchanged stream keeps its source exactly.
    if (m_initialSpeedIndex >= 0) {
        const double initial = QString::fromStdString(m_initialSpeedText).toDouble();
        const double factor = std::pow(10.0, kSpeedDecimals);
        if (std::round(initial * factor) == std::round(m_speed->value() * factor))
            return m_initialSpeedText;
    }
    return formatSpeed(m_speed->value());
}

std::optional<io::Endpoint> StreamDialog::compose(QString* error) const
{
    const auto fail = [error](const QString& reason) {
        *error = reason;
        return std::optional<io::Endpoint>();
    };
    const Transport t = transport();
    std::string url;
    if (t == Playback) {
        const QString path = m_path->text();
        if (path.trimmed().isEmpty())
            return fail(tr("Choose the recording to play back: a recording directory or a segment file"));
        io::Endpoint file;
        file.scheme = io::Scheme::File;
        file.path = path.toStdString();
        url = file.toString(); // escapes '%' and '?' in the path
        // The other options in their order, the speed where the initial URL had it (else first).
        QStringList query;
        const QString options = m_options->text().trimmed();
        if (!options.isEmpty())
            query = options.split(QLatin1Char('&'));
        if (m_speed->value() != 0 || m_initialSpeedIndex >= 0) {
            const qsizetype at = m_initialSpeedIndex >= 0 ? std::min<qsizetype>(m_initialSpeedIndex, query.size()) : 0;
            query.insert(at, QStringLiteral("speed=") + QString::fromStdString(speedText()));
        }
        if (!query.isEmpty())
            url += '?' + query.join(QLatin1Char('&')).toStdString();
    } else {
        io::Endpoint e;
        e.scheme = t == TcpClient ? io::Scheme::Tcp : t == TcpServer ? io::Scheme::TcpListen : io::Scheme::Udp;
        e.port = static_cast<std::uint16_t>(m_port->value());
        if (t == UdpMulticast) {
            const QString group = withoutBrackets(m_group->text());
            if (group.isEmpty())
                return fail(tr("Enter the multicast group to join (e.g. 239.192.0.1)"));
            QHostAddress address;
            if (!address.setAddress(group) || !address.isMulticast())
                return fail(tr("'%1' is not a multicast group address (224.0.0.0/4 or ff00::/8)").arg(group));
            const QString iface = withoutBrackets(m_interface->text());
            if (!iface.isEmpty()) {
                QHostAddress ifaceAddress;
                if (!ifaceAddress.setAddress(iface))
                    return fail(tr("The interface '%1' is not an IP address (the address of a local interface)").arg(iface));
                if (ifaceAddress.protocol() != address.protocol())
                    return fail(tr("The interface '%1' and the group '%2' are not of the same IP version").arg(iface, group));
            }
            if (e.port == 0)
                return fail(tr("A multicast group is received on a port its senders know: choose one (not 0)"));
            e.host = group.toStdString();
            e.iface = iface.toStdString();
        } else {
            const QString host = withoutBrackets(m_host->text());
            if (host.isEmpty())
                return fail(t == TcpClient ? tr("Enter the address or host name of the server to connect to")
                                           : tr("Enter the local address to receive on (0.0.0.0 = every interface)"));
            if (!isHostLike(host))
                return fail(tr("'%1' is not an IP address or a host name").arg(host));
            if (QHostAddress address; t == Udp && address.setAddress(host) && address.isMulticast())
                return fail(tr("'%1' is a multicast group: choose UDP multicast").arg(host));
            if (t == TcpClient && e.port == 0)
                return fail(tr("A TCP client needs the server's port: 0 is only for receiving on any free port"));
            e.host = host.toStdString();
        }
        url = e.toString();
    }
    auto parsed = io::parseEndpoint(url);
    if (!parsed)
        return fail(QString::fromStdString(parsed.error().message));
    return std::move(*parsed);
}

QString StreamDialog::composedUrl() const
{
    QString error;
    const auto endpoint = compose(&error);
    if (!endpoint)
        return {};
    // Unchanged endpoint: the source exactly as the profile wrote it.
    if (m_initialEndpoint && *endpoint == *m_initialEndpoint)
        return QString::fromStdString(m_initial.source);
    return QString::fromStdString(endpoint->toString());
}

config::StreamProfile StreamDialog::profile() const
{
    config::StreamProfile p = m_initial; // packet settings and the unknown packets' forward list stay
    p.name = m_name->text().trimmed().toStdString();
    p.source = composedUrl().toStdString();
    p.transportHeaderBytes = static_cast<std::uint32_t>(m_transportHeader->value());
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

void StreamDialog::validate()
{
    QString reason;
    const QString name = m_name->text().trimmed();
    if (name.isEmpty())
        reason = tr("Give the stream a name");
    else if (!isValidStreamName(name))
        reason = tr("A stream name is made of letters, digits, '-' and '_': '%1' is not").arg(name);
    else if (m_otherNames.contains(name))
        reason = tr("Another stream is already called %1").arg(name);

    QString sourceError;
    const auto endpoint = compose(&sourceError);
    if (reason.isEmpty() && !endpoint && !m_initialSourceError.isEmpty())
        reason = tr("The stream's source does not parse (%1): enter it again").arg(m_initialSourceError);
    if (reason.isEmpty())
        reason = sourceError;
    m_url->setText(endpoint ? composedUrl() : QString());

    m_validationError = reason;
    m_error->setText(reason);
    m_error->setVisible(!reason.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(reason.isEmpty());
}

void StreamDialog::accept()
{
    validate();
    if (!m_validationError.isEmpty())
        return;
    QDialog::accept();
}

void StreamDialog::browseDirectory()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Recording Directory"), m_path->text());
    if (!dir.isEmpty())
        m_path->setText(dir);
}

void StreamDialog::browseFile()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Segment File"), m_path->text(),
                                                      tr("Recording segments (*.tsrec);;All files (*)"));
    if (!file.isEmpty())
        m_path->setText(file);
}

} // namespace telestation::ui
