#include "core/xtce/xtce_import.hpp"

#include "core/xtce/container_flattener.hpp"
#include "core/xtce/import_report.hpp"
#include "core/xtce/packet_builder.hpp"
#include "core/xtce/parameter_types.hpp"
#include "core/xtce/space_system_tree.hpp"
#include "core/xtce/telestation_ancillary.hpp"
#include "core/xtce/xml_document.hpp"

#include <array>
#include <exception>
#include <fstream>
#include <map>
#include <set>

namespace telestation::xtce {

namespace {

bool isTrue(const std::string& text)
{
    return text == "true" || text == "1";
}

// Whether any restriction criterion of the chain is an equality: without one no APID can come out,
// and the container is not even laid out.
bool hasEquality(const XmlElement& element)
{
    const auto name = element.localName();
    if (name == "Comparison" && element.attributeOr("comparisonOperator", "==") == "==")
        return true;
    if (name == "ComparisonOperator" && element.text() == "==")
        return true;
    for (const auto& child : element.children())
        if (hasEquality(child))
            return true;
    return false;
}

std::vector<XmlElement> containerElements(const SpaceSystemNode& system)
{
    std::vector<XmlElement> out;
    for (const auto& tm : system.element.children("TelemetryMetaData"))
        for (const auto& set : tm.children("ContainerSet"))
            for (const auto& c : set.children("SequenceContainer"))
                out.push_back(c);
    return out;
}

// Containers that some ContainerRefEntry includes: building blocks, not packets by themselves.
std::set<std::string> buildingBlocks(const SpaceSystemTree& tree)
{
    std::set<std::string> out;
    for (const SpaceSystemNode* system : tree.systems())
        for (const auto& container : containerElements(*system))
            for (const auto& entry : container.child("EntryList").children("ContainerRefEntry"))
                if (auto found = tree.resolve(NameKind::Container, entry.attributeOr("containerRef", ""), *system))
                    out.insert(found->path);
    return out;
}

class Importer {
public:
    Importer(const XmlDocument& document, ImportReport& report)
        : m_document(document)
        , m_report(report)
    { }

    mdb::MissionDatabase run()
    {
        mdb::MissionDatabase db;
        const XmlElement root = m_document.root();
        if (!root.isXtce() || root.localName() != "SpaceSystem") {
            m_report.error(root, "",
                "the root element is <" + std::string(root.localName())
                    + ">, not an XTCE SpaceSystem (in the XTCE 1.1 or 1.2 namespace, or in none)");
            return db;
        }
        SpaceSystemTree tree(root, m_report);
        TypeConverter types(tree, m_report);
        ContainerFlattener flattener(tree, m_report);
        PacketBuilder builder(tree, types, m_report);
        const std::set<std::string> blocks = buildingBlocks(tree);

        for (const SpaceSystemNode* system : tree.systems()) {
            for (const auto& element : containerElements(*system)) {
                const std::string name = element.attributeOr("name", "");
                auto it = system->containers.find(name);
                if (it == system->containers.end() || it->second.node() != element.node())
                    continue; // a duplicate, already reported
                if (isTrue(element.attributeOr("abstract", "false")))
                    continue;
                const Definition container { element, system->pathOf(name), system };
                importContainer(container, flattener, builder, blocks, db);
            }
        }
        nameUniquely(db);
        noteWhatIsNeverImported(tree, builder);
        db.name = root.attributeOr("name", "");
        return db;
    }

private:
    void importContainer(const Definition& container, ContainerFlattener& flattener, PacketBuilder& builder,
        const std::set<std::string>& blocks, mdb::MissionDatabase& db)
    {
        const auto noApid = [&] {
            if (!blocks.contains(container.path))
                m_report.unsupported(container.element, container.path,
                    "no restriction criterion gives the APID (== on the 11 bits at bit 5): the station could not tell "
                    "its packets apart; not imported");
        };
        auto chain = flattener.chainOf(container);
        if (!chain)
            return;
        bool equality = false;
        for (const auto& link : *chain)
            equality = equality || hasEquality(link.element.child("BaseContainer"));
        if (!equality) {
            noApid();
            return;
        }
        auto layout = flattener.flatten(container);
        if (!layout) {
            m_report.unsupported(container.element, container.path, "the container is not imported as a packet");
            return;
        }
        auto outcome = builder.build(container, *layout);
        if (outcome.noApid)
            noApid();
        if (outcome.packet)
            db.packets.push_back(std::move(*outcome.packet));
    }

    // A packet's name is its container's name when no other packet has it, else its path.
    static void nameUniquely(mdb::MissionDatabase& db)
    {
        std::map<std::string, int> count;
        for (const auto& p : db.packets)
            ++count[p.name];
        for (auto& p : db.packets)
            if (count[p.name] > 1)
                p.name = p.path;
    }

    void noteWhatIsNeverImported(const SpaceSystemTree& tree, const PacketBuilder& builder)
    {
        bool commandsNoted = false;
        for (const SpaceSystemNode* system : tree.systems()) {
            if (const XmlElement commands = system->element.child("CommandMetaData"); commands && !commandsNoted) {
                m_report.note(commands, system->path, "CommandMetaData: commands are not imported (telemetry only)");
                commandsNoted = true;
            }
            std::string unused;
            std::size_t n = 0;
            XmlElement firstSet;
            for (const auto& [name, parameter] : system->parameters) {
                if (builder.usedParameters().contains(system->pathOf(name)))
                    continue;
                unused += (n == 0 ? "" : ", ") + name;
                ++n;
            }
            for (const auto& tm : system->element.children("TelemetryMetaData"))
                if (!firstSet)
                    firstSet = tm.child("ParameterSet");
            if (n > 0)
                m_report.note(firstSet, system->path,
                    std::to_string(n) + (n == 1 ? " parameter is" : " parameters are")
                        + " in no packet and not imported: " + unused);
        }
    }

    const XmlDocument& m_document;
    ImportReport& m_report;
};

} // namespace

namespace {
ImportResult readFile(const std::string& path, const ImportOptions& options);
} // namespace

ImportResult importXtce(std::string_view xml, std::string_view fileName, const ImportOptions& options)
{
    ImportResult result;
    const std::string file(fileName);
    try {
        auto parsed = XmlDocument::parse(xml, file);
        if (!parsed.document) {
            result.diagnostics = std::move(parsed.diagnostics);
            return result;
        }
        ImportReport report(file, options.lenient);
        for (auto& d : parsed.diagnostics)
            report.add(std::move(d));
        Importer importer(*parsed.document, report);
        result.database = importer.run();
        result.diagnostics = report.takeDiagnostics();
        result.skipped = report.takeSkipped();
        // A document Telestation wrote gives back the database it was written from (nothing on others).
        if (result.ok()) {
            Diagnostics restored = applyTelestationAncillary(*parsed.document, result.database);
            result.diagnostics.insert(result.diagnostics.end(), restored.begin(), restored.end());
        }
    } catch (const std::exception& e) {
        result.diagnostics.push_back(Diagnostic { Severity::Error,
            std::string("internal error in the XTCE importer: ") + e.what(), SourceLocation { file, 0, 0 } });
    } catch (...) {
        result.diagnostics.push_back(
            Diagnostic { Severity::Error, "internal error in the XTCE importer", SourceLocation { file, 0, 0 } });
    }
    return result;
}

ImportResult readXtceFile(const std::string& path, const ImportOptions& options)
{
    try {
        return readFile(path, options);
    } catch (const std::exception& e) { // e.g. no memory for the text
        ImportResult result;
        result.diagnostics.push_back(Diagnostic {
            Severity::Error, std::string("cannot read the file: ") + e.what(), SourceLocation { path, 0, 0 } });
        return result;
    }
}

namespace {

ImportResult readFile(const std::string& path, const ImportOptions& options)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ImportResult result;
        result.diagnostics.push_back(
            Diagnostic { Severity::Error, "cannot open the file", SourceLocation { path, 0, 0 } });
        return result;
    }
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::uint64_t>(std::max<std::streamoff>(0, in.tellg()));
    in.seekg(0, std::ios::beg);
    if (size > kMaxXmlBytes) {
        ImportResult result;
        result.diagnostics.push_back(Diagnostic { Severity::Error,
            "XML: the file has " + std::to_string(size) + " bytes, more than the limit of "
                + std::to_string(kMaxXmlBytes),
            SourceLocation { path, 0, 0 } });
        return result;
    }
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (!in) {
        ImportResult result;
        result.diagnostics.push_back(
            Diagnostic { Severity::Error, "cannot read the file", SourceLocation { path, 0, 0 } });
        return result;
    }
    return importXtce(text, path, options);
}

} // namespace

bool looksLikeXtce(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::array<char, 65536> buffer {};
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    std::string_view text(buffer.data(), static_cast<std::size_t>(in.gcount()));
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    while (true) {
        const std::size_t lt = text.find('<');
        if (lt == std::string_view::npos)
            return false;
        for (char c : text.substr(0, lt))
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
                return false; // text before the root: not XML
        text.remove_prefix(lt);
        std::string_view terminator;
        if (text.starts_with("<?"))
            terminator = "?>";
        else if (text.starts_with("<!--"))
            terminator = "-->";
        else if (text.starts_with("<!"))
            terminator = ">";
        if (terminator.empty())
            break;
        const std::size_t end = text.find(terminator);
        if (end == std::string_view::npos)
            return false;
        text.remove_prefix(end + terminator.size());
    }
    text.remove_prefix(1);
    std::size_t n = 0;
    while (n < text.size() && text[n] != ' ' && text[n] != '>' && text[n] != '/' && text[n] != '\t' && text[n] != '\r'
        && text[n] != '\n')
        ++n;
    std::string_view name = text.substr(0, n);
    if (const std::size_t colon = name.find(':'); colon != std::string_view::npos)
        name.remove_prefix(colon + 1);
    return name == "SpaceSystem";
}

} // namespace telestation::xtce
