#include "ui/session/link_responder_host.hpp"

#include "core/pipeline/station.hpp"
#include "ui/session/station_session.hpp"

#include <spdlog/spdlog.h>

namespace telestation::ui {

LinkResponderHost::LinkResponderHost(StationSession& session, QObject* parent) : QObject(parent), m_session(session)
{
    connect(&m_session, &StationSession::stationAboutToChange, this, &LinkResponderHost::stop);
    connect(&m_session, &StationSession::stationChanged, this, &LinkResponderHost::restart);
    restart();
}

LinkResponderHost::~LinkResponderHost()
{
    stop();
}

void LinkResponderHost::stop()
{
    m_responder.reset(); // a test running ends; its controller sees the connection close
}

void LinkResponderHost::restart()
{
    stop();
    const pipeline::Station* station = m_session.station();
    const config::LinkResponderOptions& options = m_session.profile().linkResponder;
    if (!station || options.listen.empty())
        return;
    link::ResponderOptions responder;
    responder.listen = options.listen;
    responder.allow = options.allow;
    responder.mission = std::make_shared<const mdb::MissionDatabase>(station->database());
    if (auto started = link::Responder::start(std::move(responder)); started)
        m_responder = std::move(*started);
    else
        spdlog::warn("link test responder not started: {}", started.error().message);
}

} // namespace telestation::ui
