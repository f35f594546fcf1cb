// The workstation's user API server (rpc::ApiServer) following the session: started for each station
// the session opens, with the profile's `api` settings; stopped before the station goes. Where it
// listens (or why it does not) is shown in the main window's status bar and logged; a server that
// cannot listen never stops the station.
#pragma once

#include "rpc/api_server.hpp"

#include <QObject>
#include <QString>

#include <memory>

namespace telestation::ui {

class MainWindow;
class StationSession;

class ApiHost : public QObject {
    Q_OBJECT

public:
    explicit ApiHost(StationSession& session, QObject* parent = nullptr);
    ~ApiHost() override;

    // Shows the server's state in `window`'s status bar from now on.
    void showIn(MainWindow& window);
    [[nodiscard]] const rpc::ApiServer* server() const noexcept { return m_server.get(); }
    // "API 127.0.0.1:50051", "API off", or "API not served: why".
    [[nodiscard]] QString state() const { return m_state; }

private:
    void restart();
    void stop();
    void show();

    StationSession& m_session;
    std::unique_ptr<rpc::ApiServer> m_server;
    MainWindow* m_window = nullptr;
    QString m_state;
    QString m_problem;
};

} // namespace telestation::ui
