// The packet view: the newest packet of one packet type of one stream, decoded down to the header and
// dumped byte by byte. Shows the CCSDS primary header field by field, the secondary id and packet time
// when the packet definition has them, the receive time, the stream's transport header bytes, a hex +
// ASCII dump of the space packet (16 bytes a line, offsets from the first byte of the primary header, as
// the mission database counts bit offsets) and "N packets seen, last T ago". Two combos at the top point
// the view at another stream or packet type.
//
// It takes packets through an api::PacketSubscription with newest-value delivery, polled at 10 Hz. The
// subscription exists only while the view is visible: it is created in showEvent and dropped in
// hideEvent, so a hidden view costs the processor nothing (a kept subscription would still be offered
// every packet of its type). The last packet taken is kept and shown again when the view reappears.
//
// The count of packets seen is the station's per-type "processed" counter (packets delivered to
// consumers) from the session's snapshot of each tick (once a second; the first packet shown asks for
// a tick at once); the age is measured from when this view took the packet, because a playback stream
// keeps the recording's original receive times.
//
// The view holds a Station reference: the owner deletes the view before the station (the main window
// recreates its displays when the station is rebuilt); the destructor removes the subscription.
#pragma once

#include "ui/session/snapshot_feed.hpp"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

class QComboBox;
class QLabel;
class QPlainTextEdit;

namespace telestation::pipeline {
class Station;
}
namespace telestation::api {
class PacketSubscription;
}

namespace telestation::ui {

class PhasedTimer;

class PacketView : public QWidget {
    Q_OBJECT

public:
    static constexpr int kRefreshHz = 10;
    static constexpr int kBytesPerLine = 16;

    // Header field names for headerField(): "version", "type", "secondaryHeader", "apid",
    // "sequenceFlags", "sequenceCount", "packetLength", "secondaryId", "packetTime", "receiveTime",
    // "transportHeader".
    static const QStringList& headerFieldNames();

    // `packetName`: a packet definition name or "unknown". A stream or packet the station does not have
    // is kept (spec() still returns it) and the reason is shown in the view.
    PacketView(pipeline::Station& station, SnapshotFeed& snapshots, const QString& stream, const QString& packetName,
               QWidget* parent = nullptr);
    ~PacketView() override;

    [[nodiscard]] QString stream() const { return m_stream; }
    [[nodiscard]] QString packetName() const { return m_packet; }
    // Points the view at another stream / packet type (what the combos do); forgets the shown packet.
    void setTarget(const QString& stream, const QString& packetName);

    // {"stream": NAME, "packet": NAME}: what the main window saves in its layout.
    [[nodiscard]] QJsonObject spec() const;
    // nullptr when `spec` has no "stream" or "packet" string.
    [[nodiscard]] static PacketView* fromSpec(
        pipeline::Station& station, SnapshotFeed& snapshots, const QJsonObject& spec, QWidget* parent = nullptr);

    // What the view shows (tests, copy to clipboard).
    [[nodiscard]] QString dumpText() const;
    [[nodiscard]] QString headerField(const QString& name) const;
    [[nodiscard]] QString statusText() const;
    [[nodiscard]] QString message() const;
    [[nodiscard]] std::uint64_t packetsSeen() const noexcept { return m_packetsSeen; }
    // The feed's snapshot the count is from (nullptr before the first).
    [[nodiscard]] SharedSnapshot feedSnapshot() const { return m_counted; }
    [[nodiscard]] bool hasPacket() const noexcept { return !m_frame.empty(); }

    [[nodiscard]] bool isPolling() const;
    [[nodiscard]] bool hasSubscription() const noexcept { return m_subscription != nullptr; }
    [[nodiscard]] QComboBox* streamCombo() const noexcept { return m_streamCombo; }
    [[nodiscard]] QComboBox* packetCombo() const noexcept { return m_packetCombo; }

    // The dump of `bytes` as this view shows it: "OFFSET  HH HH .. HH  HH .. HH  ASCII" lines.
    [[nodiscard]] static QString hexDump(std::span<const std::uint8_t> bytes);

public Q_SLOTS:
    // What the timer does: takes the newest packet, if any, and updates the age.
    void refresh();
    // Streams were added, changed or removed: the stream selector lists them again (choice kept).
    void refreshStreams();

Q_SIGNALS:
    // The stream or packet type changed (the main window's saved layout is then out of date).
    void specChanged();

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void subscribe();
    void unsubscribe();
    void syncCombos();
    void onComboChanged();
    void showPacket();
    void clearPacket();
    void updateCount(const SharedSnapshot& snapshot);
    void updateStatus();
    void setField(const QString& name, const QString& text, const QString& toolTip = {});
    void showMessage(const QString& text);

    pipeline::Station& m_station;
    SnapshotFeed& m_snapshots;
    QString m_stream;
    QString m_packet;
    std::unique_ptr<api::PacketSubscription> m_subscription;

    // The packet shown: the frame as received (transport header + space packet).
    std::vector<std::uint8_t> m_frame;
    std::size_t m_transportBytes = 0;
    std::int64_t m_receiveTimeNs = 0;
    std::uint32_t m_typeIndex = 0;
    QElapsedTimer m_takenAt; // when this view took the shown packet
    SharedSnapshot m_counted; // the snapshot the count is from
    std::uint64_t m_packetsSeen = 0;

    QComboBox* m_streamCombo = nullptr;
    QComboBox* m_packetCombo = nullptr;
    QHash<QString, QLabel*> m_fields;
    QPlainTextEdit* m_dump = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_message = nullptr;
    PhasedTimer* m_timer = nullptr;
};

} // namespace telestation::ui
