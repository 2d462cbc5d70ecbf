// JSON: the schema, the title, each table under its key (columns with units, rows as
// objects keyed by column key, full precision), and the notes.
#include "kerncast/report/printers.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>

namespace kerncast::report {

static nlohmann::ordered_json cell_to_json(const Cell& cell) {
    struct Visitor {
        nlohmann::ordered_json operator()(std::monostate) const { return nullptr; }
        nlohmann::ordered_json operator()(bool b) const { return b; }
        nlohmann::ordered_json operator()(std::int64_t i) const { return i; }
        nlohmann::ordered_json operator()(double d) const {
            if (std::isfinite(d))
                return d;
            // JSON has no NaN or infinity; keep the information as a string.
            return std::isnan(d) ? "nan" : (d > 0 ? "inf" : "-inf");
        }
        nlohmann::ordered_json operator()(const std::string& s) const { return s; }
    };
    return std::visit(Visitor{}, cell);
}

void print_json(std::ostream& out, const Document& doc) {
    nlohmann::ordered_json root;
    root["schema"] = doc.schema;
    root["title"] = doc.title;
    root["tables"] = nlohmann::ordered_json::object();
    for (const auto& table : doc.tables) {
        nlohmann::ordered_json t;
        t["title"] = table.title;
        t["columns"] = nlohmann::ordered_json::array();
        for (const auto& column : table.columns)
            t["columns"].push_back(
                {{"key", column.key}, {"header", column.header}, {"unit", column.unit}});
        t["rows"] = nlohmann::ordered_json::array();
        for (const auto& row : table.rows) {
            nlohmann::ordered_json r = nlohmann::ordered_json::object();
            for (size_t c = 0; c < table.columns.size() && c < row.size(); ++c)
                r[table.columns[c].key] = cell_to_json(row[c]);
            t["rows"].push_back(std::move(r));
        }
        root["tables"][table.key] = std::move(t);
    }
    root["notes"] = doc.notes;
    // Text from input files (kernel names, descriptions) may hold invalid UTF-8; it is shown
    // with U+FFFD rather than aborting the report.
    out << root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

} // namespace kerncast::report
