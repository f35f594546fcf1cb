// The stream selector every display has: a combo box of the station's streams (item data = stream id),
// filled again when streams are added, changed or removed, keeping the operator's choice by name.
#pragma once

class QComboBox;

namespace telestation::pipeline {
class Station;
}

namespace telestation::ui {

// Fills `combo` with the station's streams in profile order without emitting its signals; the stream
// chosen before stays chosen when it still exists, else the first is. True when the chosen stream
// (name or id) is another than before: the caller acts on the new choice.
bool fillStreamChoice(QComboBox& combo, const pipeline::Station& station);

} // namespace telestation::ui
