#include "ui/dialogs/source_check.hpp"

#include "core/io/receiver.hpp"
#include "core/record/playback.hpp"

#include <QHostAddress>
#include <QHostInfo>
#include <QObject>

namespace telestation::ui {

namespace {

// A probe holds the socket for an instant: no need for the station's large receive buffer.
constexpr int kProbeReceiveBufferBytes = 64 * 1024;

// The engine's reason without the URL it starts with: the operator has the URL in front of them.
QString reason(const Error& error, const io::Endpoint& endpoint)
{
    QString text = QString::fromStdString(error.message);
    const QString prefix = QString::fromStdString(endpoint.toString()) + QStringLiteral(": ");
    if (text.startsWith(prefix))
        text.remove(0, prefix.size());
    return text;
}

} // namespace

QString sourceOpenError(const io::Endpoint& endpoint)
{
    if (endpoint.scheme == io::Scheme::File) {
        auto options = record::playbackOptionsFromQuery(endpoint.query);
        auto playback = options ? record::PlaybackSource::open(endpoint.path, *options)
                                : Result<std::unique_ptr<record::PlaybackSource>>(options.error());
        if (playback)
            return {};
        return QObject::tr("The recording %1 cannot be played back: %2")
            .arg(QString::fromStdString(endpoint.path), reason(playback.error(), endpoint));
    }
    if (endpoint.scheme == io::Scheme::Tcp) {
        // A client only needs its server's address: no probe connection to a real server.
        const QString host = QString::fromStdString(endpoint.host);
        if (QHostAddress().setAddress(host))
            return {};
        const QHostInfo info = QHostInfo::fromName(host);
        if (info.error() != QHostInfo::NoError || info.addresses().isEmpty())
            return QObject::tr("The host name %1 does not resolve: %2").arg(host, info.errorString());
        return {};
    }
    io::ReceiverOptions options;
    options.receiveBufferBytes = kProbeReceiveBufferBytes;
    auto receiver = io::openReceiver(endpoint, options);
    return receiver ? QString() : reason(receiver.error(), endpoint); // closed again as it goes out of scope
}

} // namespace telestation::ui
