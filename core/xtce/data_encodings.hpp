// XTCE data encodings (IntegerDataEncoding, FloatDataEncoding, StringDataEncoding, BinaryDataEncoding)
// to a field's data type, size and byte order. XTCE 1.1 and 1.2 spellings are both read: the 1.1
// ByteOrderList and the 1.2 byteOrder attribute, "twosCompliment" and "twosComplement", the 1.1 and
// 1.2 forms of a string's size.
#pragma once

#include "core/mdb/model.hpp"
#include "core/xtce/field_type.hpp"
#include "core/xtce/import_report.hpp"
#include "core/xtce/space_system_tree.hpp"

#include <cstdint>
#include <optional>
#include <string_view>

namespace telestation::xtce {

inline constexpr std::uint32_t kMaxFieldBits = 65536u * 8u; // a field of more than 65,536 bytes is absurd

struct Encoding {
    enum class Status {
        Ok,
        Unsupported, // reported; of a known fixed size (bitLength), so the field can keep its place
        Failed, // reported; the layout cannot go on past this field
    };
    Status status = Status::Failed;
    mdb::DataType type = mdb::DataType::UnsignedInt;
    std::uint32_t bitLength = 0;
    mdb::FieldSize size;
    std::optional<SizeReference> sizeFrom;
    std::optional<mdb::ByteOrder> byteOrder;
};

class EncodingReader {
public:
    EncodingReader(const SpaceSystemNode& system, std::string_view typePath, ImportReport& report)
        : m_system(system)
        , m_typePath(typePath)
        , m_report(report)
    { }

    // Any of the four encodings, told apart by the element's local name.
    [[nodiscard]] Encoding read(const XmlElement& encoding);

private:
    [[nodiscard]] Encoding integer(const XmlElement& e);
    [[nodiscard]] Encoding floating(const XmlElement& e);
    [[nodiscard]] Encoding string(const XmlElement& e);
    [[nodiscard]] Encoding binary(const XmlElement& e);
    // False after reporting when the byte order cannot be expressed.
    [[nodiscard]] bool byteOrder(const XmlElement& e, std::uint32_t bits, Encoding& out);
    [[nodiscard]] bool bitOrder(const XmlElement& e);
    // DynamicValue (ParameterInstanceRef + LinearAdjustment): SizeKind::FromParameter.
    [[nodiscard]] bool readDynamicSize(const XmlElement& dynamic, Encoding& out);
    [[nodiscard]] Encoding unsupported(const XmlElement& at, std::uint32_t bits, std::string_view why);
    [[nodiscard]] static Encoding placeOnly(std::uint32_t bits); // already reported
    [[nodiscard]] Encoding failed(const XmlElement& at, std::string_view why, bool isError = false);

    const SpaceSystemNode& m_system;
    std::string_view m_typePath;
    ImportReport& m_report;
};

} // namespace telestation::xtce
