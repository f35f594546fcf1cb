// The link test's responder in the workstation (docs/link-test.md), following the session as the
// user API does: started for each station the session opens when its profile has a `linkResponder`,
// with that station's mission (for the telemetry test), and stopped before the station goes. Where it
// listens, or why it does not, is logged; a responder that cannot listen never stops the station.
#pragma once

#include "core/link/responder.hpp"

#include <QObject>

#include <memory>

namespace telestation::ui {

class StationSession;

class LinkResponderHost : public QObject {
    Q_OBJECT

public:
    explicit LinkResponderHost(StationSession& session, QObject* parent = nullptr);
    ~LinkResponderHost() override;

    [[nodiscard]] const link::Responder* responder() const noexcept { return m_responder.get(); }

private:
    void restart();
    void stop();

    StationSession& m_session;
    std::unique_ptr<link::Responder> m_responder;
};

} // namespace telestation::ui
