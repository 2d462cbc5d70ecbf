// Reading machine files (docs/machine-format.md): parsing, the schema check, and the
// dispatch to a plain document (machine_read.cpp) or one that extends a built-in
// (machine_extends.cpp); writing is machine_write.cpp.
#include "kerncast/machine/machine_json.hpp"

#include "kerncast/error.hpp"
#include "kerncast/input_file.hpp"
#include "machine_extends.hpp"
#include "machine_read.hpp"
#include "validate_at.hpp"

namespace kerncast {
namespace {

using namespace machine_format;

MachineModel parse_document(const std::string& text, const std::string& origin) {
    const json_reader::Document parsed = json_reader::parse(text, origin);
    const json& document = parsed.value;
    Reader reader(parsed.positions);
    if (!document.is_object())
        reader.fail("", "expected a JSON object (a machine file), got " + describe_type(document));

    const json& schema =
        reader.required(document, "", "schema", "\"" + std::string(machine_schema) + "\"");
    const auto schema_text = reader.scalar<std::string>(schema, "/schema");
    if (schema_text != machine_schema)
        reader.fail("/schema", "unsupported schema \"" + schema_text + "\"",
                    {std::string("this kerncast reads \"") + machine_schema + "\""});

    if (document.contains("extends"))
        return read_extended_machine(reader, document);

    MachineModel machine = read_machine(reader, document);
    validate_machine_at(machine, [&](const std::string& path) { return reader.locate(path); });
    return machine;
}

} // namespace

MachineModel parse_machine_json(const std::string& text, const std::string& origin) {
    return parse_document(text, origin);
}

std::string read_machine_file(const std::string& path) {
    // Machine files are tens of KiB (the largest built-in is under 100 KiB).
    constexpr std::size_t machine_file_limit_bytes = std::size_t{16} << 20;
    return read_input_file(path, "machine file", machine_file_limit_bytes);
}

MachineModel load_machine_file(const std::string& path) {
    return parse_machine_json(read_machine_file(path), path);
}

} // namespace kerncast
