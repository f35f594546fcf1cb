#include "core/xtce/data_encodings.hpp"

#include "core/xtce/xml_numbers.hpp"

#include <charconv>
#include <string>

namespace telestation::xtce {

using mdb::ByteOrder;
using mdb::DataType;
using mdb::SizeKind;

namespace {

// "0" when absent; nullopt when present but not a positive integer that fits.
std::optional<std::uint64_t> positiveAttribute(const XmlElement& e, std::string_view name, std::uint64_t fallback)
{
    auto text = e.attribute(name);
    if (!text)
        return fallback;
    auto value = parseInteger(*text);
    if (!value || *value <= 0)
        return std::nullopt;
    return static_cast<std::uint64_t>(*value);
}

std::optional<std::uint8_t> parseTerminationChar(std::string_view hex)
{
    if (hex.size() != 2)
        return std::nullopt;
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(hex.data(), hex.data() + 2, value, 16);
    if (ec != std::errc() || end != hex.data() + 2)
        return std::nullopt;
    return static_cast<std::uint8_t>(value);
}

} // namespace

Encoding EncodingReader::unsupported(const XmlElement& at, std::uint32_t bits, std::string_view why)
{
    m_report.unsupported(at, m_typePath, why);
    return placeOnly(bits);
}

Encoding EncodingReader::placeOnly(std::uint32_t bits)
{
    Encoding out;
    out.status = Encoding::Status::Unsupported;
    out.type = DataType::Bytes;
    out.bitLength = bits;
    return out;
}

Encoding EncodingReader::failed(const XmlElement& at, std::string_view why, bool isError)
{
    if (isError)
        m_report.error(at, m_typePath, why);
    else
        m_report.unsupported(at, m_typePath, why);
    return Encoding {};
}

Encoding EncodingReader::read(const XmlElement& encoding)
{
    const auto name = encoding.localName();
    if (name == "IntegerDataEncoding")
        return integer(encoding);
    if (name == "FloatDataEncoding")
        return floating(encoding);
    if (name == "StringDataEncoding")
        return string(encoding);
    if (name == "BinaryDataEncoding")
        return binary(encoding);
    return failed(encoding, std::string(name) + " is not a data encoding");
}

bool EncodingReader::bitOrder(const XmlElement& e)
{
    return e.attributeOr("bitOrder", "mostSignificantBitFirst") == "mostSignificantBitFirst";
}

bool EncodingReader::byteOrder(const XmlElement& e, std::uint32_t bits, Encoding& out)
{
    std::optional<ByteOrder> order;
    if (auto attribute = e.attribute("byteOrder")) {
        if (*attribute == "leastSignificantByteFirst")
            order = ByteOrder::LittleEndian;
        else if (*attribute != "mostSignificantByteFirst") {
            m_report.unsupported(e, m_typePath,
                "byteOrder '" + *attribute
                    + "' is not supported (only mostSignificantByteFirst and leastSignificantByteFirst)");
            return false;
        }
    }
    if (const XmlElement list = e.child("ByteOrderList")) {
        // XTCE 1.1: one Byte per byte of the field, first byte first, each with its significance.
        const auto bytes = list.children("Byte");
        bool big = true;
        bool little = true;
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            const auto significance = parseInteger(bytes[i].attributeOr("byteSignificance", ""));
            big = big && significance && *significance == static_cast<std::int64_t>(bytes.size() - 1 - i);
            little = little && significance && *significance == static_cast<std::int64_t>(i);
        }
        if (little && !big)
            order = ByteOrder::LittleEndian;
        else if (!big) {
            m_report.unsupported(list, m_typePath,
                "a ByteOrderList that is neither most nor least significant byte first is not supported");
            return false;
        }
    }
    if (order == ByteOrder::LittleEndian && bits > 8) {
        if (bits % 8 != 0) {
            m_report.unsupported(e, m_typePath,
                "a little-endian field of " + std::to_string(bits)
                    + " bits is not supported (a whole number of bytes only)");
            return false;
        }
        out.byteOrder = ByteOrder::LittleEndian;
    }
    return true;
}

Encoding EncodingReader::integer(const XmlElement& e)
{
    auto size = positiveAttribute(e, "sizeInBits", 8);
    if (!size)
        return failed(e,
            "IntegerDataEncoding sizeInBits '" + e.attributeOr("sizeInBits", "") + "' is not a positive integer", true);
    if (*size > 64)
        return failed(e,
            "IntegerDataEncoding of " + std::to_string(*size) + " bits: integers wider than 64 bits are not supported",
            true);
    const auto bits = static_cast<std::uint32_t>(*size);
    const std::string encoding = e.attributeOr("encoding", "unsigned");
    Encoding out;
    out.status = Encoding::Status::Ok;
    out.bitLength = bits;
    if (encoding == "unsigned")
        out.type = DataType::UnsignedInt;
    else if (encoding == "twosComplement" || encoding == "twosCompliment")
        out.type = DataType::SignedInt;
    else if (encoding == "signMagnitude")
        out.type = DataType::SignMagnitudeInt;
    else if (encoding == "onesComplement" || encoding == "onesCompliment")
        out.type = DataType::OnesComplementInt;
    else
        return unsupported(e, bits, "IntegerDataEncoding encoding '" + encoding + "' is not supported");
    if ((out.type == DataType::SignMagnitudeInt || out.type == DataType::OnesComplementInt) && bits < 2)
        return unsupported(e, bits, encoding + " needs at least 2 bits");
    if (!bitOrder(e))
        return unsupported(e, bits, "bitOrder leastSignificantBitFirst is not supported");
    if (!byteOrder(e, bits, out))
        return placeOnly(bits);
    return out;
}

Encoding EncodingReader::floating(const XmlElement& e)
{
    auto size = positiveAttribute(e, "sizeInBits", 32);
    if (!size)
        return failed(e,
            "FloatDataEncoding sizeInBits '" + e.attributeOr("sizeInBits", "") + "' is not a positive integer", true);
    if (*size > kMaxFieldBits)
        return failed(e, "FloatDataEncoding of " + std::to_string(*size) + " bits is absurd", true);
    const auto bits = static_cast<std::uint32_t>(*size);
    const std::string encoding = e.attributeOr("encoding", "IEEE754_1985");
    if (encoding != "IEEE754_1985" && encoding != "IEEE754")
        return unsupported(
            e, bits, "FloatDataEncoding encoding '" + encoding + "' is not supported (only IEEE754_1985 / IEEE754)");
    if (bits != 32 && bits != 64)
        return unsupported(e, bits, "a float of " + std::to_string(bits) + " bits is not supported (32 or 64)");
    Encoding out;
    out.status = Encoding::Status::Ok;
    out.type = DataType::Float;
    out.bitLength = bits;
    if (!bitOrder(e))
        return unsupported(e, bits, "bitOrder leastSignificantBitFirst is not supported");
    if (!byteOrder(e, bits, out))
        return placeOnly(bits);
    return out;
}

Encoding EncodingReader::string(const XmlElement& e)
{
    const std::string charset = e.attributeOr("encoding", "UTF-8");
    const bool byteCharset
        = charset == "UTF-8" || charset == "US-ASCII" || charset == "ISO-8859-1" || charset == "Windows-1252";
    Encoding out;
    out.status = Encoding::Status::Ok;
    out.type = DataType::String;

    const auto fixedSize = [&](const XmlElement& at, std::string_view text) -> Encoding {
        auto bits = parseInteger(text);
        if (!bits || *bits <= 0)
            return failed(at, "string size '" + std::string(text) + "' is not a positive integer", true);
        if (static_cast<std::uint64_t>(*bits) > kMaxFieldBits)
            return failed(
                at, "a string of " + std::to_string(*bits) + " bits is absurd (more than 65,536 bytes)", true);
        const auto size = static_cast<std::uint32_t>(*bits);
        if (size % 8 != 0)
            return unsupported(at, size,
                "a string of " + std::to_string(size) + " bits is not supported (a whole number of bytes only)");
        if (!byteCharset)
            return unsupported(
                e, size, "string encoding " + charset + " is not supported (single-byte encodings and UTF-8 only)");
        out.bitLength = size;
        return out;
    };
    const auto terminator = [&](const XmlElement& at) -> std::optional<std::uint8_t> {
        auto byte = parseTerminationChar(at.text());
        if (!byte)
            m_report.unsupported(
                at, m_typePath, "TerminationChar '" + at.text() + "' is not supported (one byte in hex)");
        return byte;
    };
    const auto leadingBits = [&](const XmlElement& at) -> std::optional<std::uint8_t> {
        auto bits = positiveAttribute(at, "sizeInBitsOfSizeTag", 16);
        if (!bits || *bits > 32) {
            m_report.unsupported(at, m_typePath, "LeadingSize sizeInBitsOfSizeTag must be 1..32");
            return std::nullopt;
        }
        return static_cast<std::uint8_t>(*bits);
    };

    if (const XmlElement sizeInBits = e.child("SizeInBits")) {
        const XmlElement fixed = sizeInBits.child("Fixed");
        const XmlElement term = sizeInBits.child("TerminationChar");
        const XmlElement leading = sizeInBits.child("LeadingSize");
        if (fixed || sizeInBits.child("FixedValue")) {
            const XmlElement value = fixed ? fixed.child("FixedValue") : sizeInBits.child("FixedValue");
            if (!value) {
                if (fixed && fixed.child("DynamicValue"))
                    return failed(
                        fixed, "a string sized by DynamicValue in SizeInBits/Fixed is not supported (use Variable)");
                return failed(fixed, "SizeInBits/Fixed without FixedValue is not supported");
            }
            Encoding sized = fixedSize(value, value.text());
            if (sized.status != Encoding::Status::Ok)
                return sized;
            // XTCE 1.2: a fixed buffer in which the string ends at a terminator or has a leading size.
            if (leading)
                return unsupported(
                    leading, sized.bitLength, "a LeadingSize inside a fixed-size string buffer is not supported");
            if (term) {
                auto byte = terminator(term);
                if (!byte)
                    return placeOnly(sized.bitLength);
                if (*byte != 0)
                    return unsupported(term, sized.bitLength,
                        "a fixed-size string buffer ended by a non-NUL TerminationChar is not supported");
            }
            return sized; // NUL padding is trimmed when shown
        }
        if (!byteCharset)
            return failed(e, "string encoding " + charset + " is not supported (single-byte encodings and UTF-8 only)");
        if (term) {
            auto byte = terminator(term);
            if (!byte)
                return Encoding {};
            out.size.kind = SizeKind::Terminated;
            out.size.terminator = *byte;
            return out;
        }
        if (leading) {
            auto bits = leadingBits(leading);
            if (!bits)
                return Encoding {};
            out.size.kind = SizeKind::LeadingSize;
            out.size.leadingSizeBits = *bits;
            return out;
        }
        return failed(sizeInBits, "SizeInBits needs Fixed, TerminationChar or LeadingSize", true);
    }
    if (const XmlElement variable = e.child("Variable")) {
        if (!byteCharset)
            return failed(e, "string encoding " + charset + " is not supported (single-byte encodings and UTF-8 only)");
        auto maxBits = positiveAttribute(variable, "maxSizeInBits", 0);
        if (!maxBits || *maxBits == 0)
            return failed(variable, "Variable needs a positive maxSizeInBits", true);
        if (*maxBits > kMaxFieldBits)
            return failed(
                variable, "maxSizeInBits " + std::to_string(*maxBits) + " is absurd (more than 65,536 bytes)", true);
        out.size.maxBytes = static_cast<std::uint32_t>(*maxBits / 8);
        if (const XmlElement term = variable.child("TerminationChar")) {
            auto byte = terminator(term);
            if (!byte)
                return Encoding {};
            out.size.kind = SizeKind::Terminated;
            out.size.terminator = *byte;
            return out;
        }
        if (const XmlElement leading = variable.child("LeadingSize")) {
            auto bits = leadingBits(leading);
            if (!bits)
                return Encoding {};
            out.size.kind = SizeKind::LeadingSize;
            out.size.leadingSizeBits = *bits;
            return out;
        }
        if (const XmlElement dynamic = variable.child("DynamicValue")) {
            // The size in bits comes from another parameter.
            if (!readDynamicSize(dynamic, out))
                return Encoding {};
            return out;
        }
        return failed(variable,
            "a Variable string size other than TerminationChar, LeadingSize or DynamicValue is not supported");
    }
    return failed(e, "StringDataEncoding without SizeInBits or Variable", true);
}

bool EncodingReader::readDynamicSize(const XmlElement& dynamic, Encoding& out)
{
    const XmlElement ref = dynamic.child("ParameterInstanceRef");
    if (!ref || !ref.attribute("parameterRef")) {
        m_report.error(dynamic, m_typePath, "DynamicValue without ParameterInstanceRef parameterRef");
        return false;
    }
    out.size.kind = SizeKind::FromParameter;
    out.sizeFrom = SizeReference { ref.attributeOr("parameterRef", ""), ref, &m_system };
    if (const XmlElement adjustment = dynamic.child("LinearAdjustment")) {
        if (!adjustment.attribute("slope"))
            m_report.warning(adjustment, m_typePath, "LinearAdjustment without slope; taken as 1");
        auto slope = parseReal(adjustment.attributeOr("slope", "1"));
        auto intercept = parseReal(adjustment.attributeOr("intercept", "0"));
        if (!slope || !intercept) {
            m_report.error(adjustment, m_typePath, "LinearAdjustment slope and intercept must be numbers");
            return false;
        }
        out.size.sizeSlope = *slope;
        out.size.sizeIntercept = *intercept;
    }
    return true;
}

Encoding EncodingReader::binary(const XmlElement& e)
{
    const XmlElement sizeInBits = e.child("SizeInBits");
    if (!sizeInBits)
        return failed(e, "BinaryDataEncoding without SizeInBits", true);
    XmlElement value = sizeInBits.child("FixedValue");
    if (!value && sizeInBits.child("Fixed")) // a 1.1-like spelling some files use
        value = sizeInBits.child("Fixed").child("FixedValue");
    Encoding out;
    out.status = Encoding::Status::Ok;
    out.type = DataType::Bytes;
    const bool transformed = e.child("FromBinaryTransformAlgorithm") ? true : false;
    if (value) {
        auto bits = parseInteger(value.text());
        if (!bits || *bits <= 0)
            return failed(value, "binary size '" + value.text() + "' is not a positive integer", true);
        if (static_cast<std::uint64_t>(*bits) > kMaxFieldBits)
            return failed(
                value, "a binary field of " + std::to_string(*bits) + " bits is absurd (more than 65,536 bytes)", true);
        const auto size = static_cast<std::uint32_t>(*bits);
        if (transformed)
            return unsupported(
                e.child("FromBinaryTransformAlgorithm"), size, "FromBinaryTransformAlgorithm is not supported");
        if (size % 8 != 0)
            return unsupported(value, size,
                "a binary field of " + std::to_string(size) + " bits is not supported (a whole number of bytes only)");
        out.bitLength = size;
        return out;
    }
    if (transformed)
        return failed(e.child("FromBinaryTransformAlgorithm"), "FromBinaryTransformAlgorithm is not supported");
    if (const XmlElement dynamic = sizeInBits.child("DynamicValue")) {
        if (!readDynamicSize(dynamic, out))
            return Encoding {};
        return out;
    }
    return failed(sizeInBits, "a binary size other than FixedValue or DynamicValue is not supported");
}

} // namespace telestation::xtce
