#include "kerncast/runtime/ncu_csv.hpp"

#include "kerncast/error.hpp"

#include <cmath>
#include <sstream>

namespace kerncast::runtime {

bool split_csv_record(const std::string& line, std::vector<std::string>& fields) {
    fields.clear();
    std::string field;
    bool quoted = false;
    bool in_quotes = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (in_quotes) {
            if (c == '"') {
                if (i + 1 < line.size() && line[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    in_quotes = false;
                }
            } else {
                field += c;
            }
        } else if (c == '"' && field.empty() && !quoted) {
            in_quotes = quoted = true;
        } else if (c == ',') {
            fields.push_back(field);
            field.clear();
            quoted = false;
        } else if (c != '\r') {
            field += c;
        }
    }
    if (in_quotes)
        return false;
    fields.push_back(field);
    return true;
}

namespace {

// "1,234.5" -> 1234.5; false when not a number (e.g. "n/a").
bool parse_value(std::string text, double& value) {
    std::string digits;
    for (char c : text)
        if (c != ',' && c != ' ')
            digits += c;
    if (digits.empty())
        return false;
    std::size_t used = 0;
    try {
        value = std::stod(digits, &used);
    } catch (const std::exception&) {
        return false;
    }
    return used == digits.size() && std::isfinite(value);
}

// "Kbyte" -> ("byte", 1e3). Units without a recognised prefix are kept as they are.
std::pair<std::string, double> split_unit_prefix(const std::string& unit) {
    static const char* base_units[] = {"byte",   "sector",    "cycle",      "inst", "warp",
                                       "thread", "request",   "second",     "hz",   "Hz",
                                       "block",  "wavefront", "transaction"};
    if (unit.size() < 2)
        return {unit, 1.0};
    double scale = 0;
    switch (unit[0]) {
    case 'K':
        scale = 1e3;
        break;
    case 'M':
        scale = 1e6;
        break;
    case 'G':
        scale = 1e9;
        break;
    case 'T':
        scale = 1e12;
        break;
    default:
        return {unit, 1.0};
    }
    const std::string rest = unit.substr(1);
    for (const char* base : base_units)
        if (rest == base)
            return {rest, scale};
    return {unit, 1.0};
}

int column_of(const std::vector<std::string>& header, const std::string& name) {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (header[i] == name)
            return static_cast<int>(i);
    return -1;
}

const std::string identity_columns[] = {
    "ID",     "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time", "Context",
    "Stream", "Block Size", "Grid Size",    "Device",    "CC",          "Section Name"};

bool is_identity_column(const std::string& name) {
    for (const auto& identity : identity_columns)
        if (name == identity)
            return true;
    return false;
}

} // namespace

std::vector<ProfiledLaunch> parse_ncu_csv(const std::string& text, const std::string& origin) {
    std::vector<std::string> lines;
    {
        std::istringstream stream(text);
        std::string line;
        while (std::getline(stream, line))
            lines.push_back(line);
    }
    const auto fail = [&](std::size_t line_index, const std::string& message) {
        throw_input_error(message, SourceLocation{origin, static_cast<int>(line_index + 1), 0, "",
                                                  lines[line_index]});
    };

    std::size_t header_line = 0;
    while (header_line < lines.size() && lines[header_line].rfind("\"ID\",", 0) != 0)
        ++header_line;
    if (header_line == lines.size())
        throw_input_error("no Nsight Compute CSV table found (no header line starting with "
                          "\"ID\"); did ncu profile any kernel?",
                          SourceLocation{origin, 0, 0, "", ""});

    std::vector<std::string> header;
    if (!split_csv_record(lines[header_line], header))
        fail(header_line, "unterminated quote in the CSV header");
    const int id_column = column_of(header, "ID");
    const int kernel_column = column_of(header, "Kernel Name");
    const int block_column = column_of(header, "Block Size");
    const int grid_column = column_of(header, "Grid Size");
    const int metric_name_column = column_of(header, "Metric Name");
    const int metric_unit_column = column_of(header, "Metric Unit");
    const int metric_value_column = column_of(header, "Metric Value");
    const bool details_form =
        metric_name_column >= 0 && metric_unit_column >= 0 && metric_value_column >= 0;

    std::vector<ProfiledLaunch> launches;
    const auto launch_for = [&](const std::vector<std::string>& fields) -> ProfiledLaunch& {
        const auto field = [&](int column) {
            return column >= 0 ? fields[static_cast<std::size_t>(column)] : std::string();
        };
        const std::string id = field(id_column);
        for (auto& launch : launches)
            if (launch.id == id)
                return launch;
        launches.push_back({id, field(kernel_column), field(block_column), field(grid_column), {}});
        return launches.back();
    };
    const auto store = [](ProfiledLaunch& launch, const std::string& name, const std::string& unit,
                          const std::string& value_text) {
        double value = 0;
        if (!parse_value(value_text, value))
            return; // "n/a": ncu could not collect it
        const auto [base_unit, scale] = split_unit_prefix(unit);
        launch.metrics[name] = NamedValue{value * scale, base_unit};
    };

    std::size_t first_data = header_line + 1;
    std::vector<std::string> units;
    if (!details_form) {
        // Raw page: the row after the header carries the units and has an empty ID.
        if (first_data < lines.size()) {
            std::vector<std::string> fields;
            if (split_csv_record(lines[first_data], fields) && fields.size() == header.size() &&
                fields[static_cast<std::size_t>(id_column)].empty()) {
                units = fields;
                ++first_data;
            }
        }
        if (units.empty())
            units.assign(header.size(), "");
    }

    std::vector<std::string> fields;
    for (std::size_t i = first_data; i < lines.size(); ++i) {
        if (lines[i].empty() || lines[i].rfind("==PROF==", 0) == 0 ||
            lines[i].rfind("==WARNING==", 0) == 0)
            continue;
        if (!split_csv_record(lines[i], fields))
            fail(i, "unterminated quote in a CSV record");
        if (fields.size() != header.size())
            fail(i, "CSV record has " + std::to_string(fields.size()) + " fields; the header has " +
                        std::to_string(header.size()));
        ProfiledLaunch& launch = launch_for(fields);
        if (details_form) {
            store(launch, fields[static_cast<std::size_t>(metric_name_column)],
                  fields[static_cast<std::size_t>(metric_unit_column)],
                  fields[static_cast<std::size_t>(metric_value_column)]);
        } else {
            for (std::size_t c = 0; c < header.size(); ++c)
                if (!is_identity_column(header[c]))
                    store(launch, header[c], units[c], fields[c]);
        }
    }
    return launches;
}

} // namespace kerncast::runtime
