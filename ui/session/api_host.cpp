#include "ui/session/api_host.hpp"

#include "ui/main_window.hpp"
#include "ui/session/station_session.hpp"

#include <spdlog/spdlog.h>

namespace telestation::ui {

ApiHost::ApiHost(StationSession& session, QObject* parent) : QObject(parent), m_session(session)
{
    connect(&m_session, &StationSession::stationAboutToChange, this, &ApiHost::stop);
    connect(&m_session, &StationSession::stationChanged, this, &ApiHost::restart);
    restart();
}

ApiHost::~ApiHost()
{
    stop();
}

void ApiHost::showIn(MainWindow& window)
{
    m_window = &window;
    show();
}

void ApiHost::stop()
{
    m_server.reset(); // every call ends before the station goes
}

void ApiHost::restart()
{
    stop();
    m_problem.clear();
    pipeline::Station* station = m_session.station();
    const config::ApiOptions& api = m_session.profile().api;
    if (!station || !api.enabled) {
        m_state = tr("API off");
    } else if (auto served = rpc::ApiServer::start(*station, rpc::serverOptions(api)); served) {
        m_server = std::move(*served);
        m_state = tr("API %1%2").arg(QString::fromStdString(m_server->target()), m_server->tls() ? tr(" (TLS)") : QString());
        spdlog::info("user API on {}{}", m_server->target(), m_server->tls() ? " (TLS)" : "");
    } else {
        m_problem = QString::fromStdString(served.error().message);
        m_state = tr("API not served");
        spdlog::warn("user API not served: {}", served.error().message);
    }
    show();
}

void ApiHost::show()
{
    if (!m_window)
        return;
    QString tip = m_problem.isEmpty()
                      ? tr("Where user applications reach this station (gRPC; docs/api.md). The profile's \"api\" section sets it.")
                      : tr("The user API is not served: %1").arg(m_problem);
    m_window->setApiStatus(m_state, tip, !m_problem.isEmpty());
}

} // namespace telestation::ui
