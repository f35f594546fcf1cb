// What a parameter type means for a packet layout: one field (a scalar with its data type, size, byte
// order, calibrators, limits and units) or, for arrays and aggregates, an ordered list of members that
// are laid out one after the other. Built by TypeConverter from XTCE parameter types; turned into
// mdb::ParameterDef by PacketBuilder, which resolves the references (size parameter, contexts) within
// the packet.
#pragma once

#include "core/mdb/model.hpp"
#include "core/xtce/match_criteria.hpp"
#include "core/xtce/space_system_tree.hpp"
#include "core/xtce/xml_document.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace telestation::xtce {

// XTCE DynamicValue: the size comes from another parameter of the packet.
struct SizeReference {
    std::string parameterRef;
    XmlElement at;
    const SpaceSystemNode* system = nullptr;
};

// A ContextCalibrator: the conditions are resolved in each packet.
struct ContextCalibratorSpec {
    std::vector<Comparison> when;
    mdb::Calibrator calibrator;
    XmlElement at;
};

struct ScalarType {
    // False: an encoding the model cannot express, but of a known fixed size: the field keeps its place
    // in the layout and is not imported (reported once by the type).
    bool imported = true;
    mdb::DataType type = mdb::DataType::UnsignedInt;
    std::uint32_t bitLength = 0; // fixed size; 0 for the other size kinds
    mdb::FieldSize size; // size.sizeParameter is filled in by the packet
    std::optional<SizeReference> sizeFrom;
    std::optional<mdb::ByteOrder> byteOrder;
    mdb::Calibrator calibrator;
    std::vector<ContextCalibratorSpec> contexts;
    mdb::Limits limits;
    std::string units;
    std::string typePath;
    XmlElement typeElement;

    [[nodiscard]] bool fixedSize() const { return size.kind == mdb::SizeKind::Fixed; }
};

struct FieldType {
    std::string path; // of the parameter type
    XmlElement element;
    std::optional<ScalarType> scalar; // set for a scalar; else members
    struct Member {
        std::string suffix; // "[3]", "[1][2]" or ".name"
        std::shared_ptr<const FieldType> type;
    };
    std::vector<Member> members;
    std::uint64_t scalarCount = 1; // scalars once flattened
};

// The scalars of a field type in layout order, with the suffix to append to the parameter's name.
struct FlatScalar {
    std::string suffix;
    const ScalarType* scalar = nullptr;
};

inline void flattenFieldType(const FieldType& type, const std::string& suffix, std::vector<FlatScalar>& out)
{
    if (type.scalar) {
        out.push_back(FlatScalar { suffix, &*type.scalar });
        return;
    }
    for (const auto& member : type.members)
        flattenFieldType(*member.type, suffix + member.suffix, out);
}

} // namespace telestation::xtce
