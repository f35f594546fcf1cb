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

QString reason(const Error& error)
{
    return QString::fromStdString(error.message);
}

} // namespace

QString sourceOpenError(const io::Endpoint& endpoint)
{
    if (endpoint.scheme == io::Scheme::File) {
        auto options = record::playbackOptionsFromQuery(endpoint.query);
        if (!options)
            return reason(options.error());
        auto playback = record::PlaybackSource::open(endpoint.path, *options);
        return playback ? QString() : reason(playback.error());
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
    return receiver ? QString() : reason(receiver.error()); // closed again as it goes out of scope
}

} // namespace telestation::ui
