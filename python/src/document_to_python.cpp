#include "bindings.hpp"

#include <variant>

namespace py = pybind11;

namespace kerncast::python {

namespace {

py::object cell_to_python(const report::Cell& cell) {
    return std::visit(
        [](const auto& value) -> py::object {
            using T = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<T, std::monostate>)
                return py::none();
            else if constexpr (std::is_same_v<T, bool>)
                return py::bool_(value);
            else if constexpr (std::is_same_v<T, std::int64_t>)
                return py::int_(value);
            else if constexpr (std::is_same_v<T, double>)
                return py::float_(value);
            else
                return py::str(value);
        },
        cell);
}

py::dict table_to_python(const report::Table& table) {
    py::list columns;
    std::vector<py::str> keys; // one Python string per column, shared by every row
    for (const auto& column : table.columns) {
        py::dict entry;
        entry["key"] = column.key;
        entry["header"] = column.header;
        entry["unit"] = column.unit;
        columns.append(entry);
        keys.emplace_back(column.key);
    }
    py::list rows;
    for (const auto& row : table.rows) {
        py::dict entry;
        for (std::size_t c = 0; c < row.size() && c < keys.size(); ++c)
            entry[keys[c]] = cell_to_python(row[c]);
        rows.append(entry);
    }
    py::dict result;
    result["title"] = table.title;
    result["columns"] = columns;
    result["rows"] = rows;
    return result;
}

} // namespace

py::dict document_to_python(const report::Document& document) {
    py::dict tables;
    for (const auto& table : document.tables)
        tables[py::str(table.key)] = table_to_python(table);
    py::list notes;
    for (const auto& note : document.notes)
        notes.append(note);
    py::dict result;
    result["schema"] = document.schema;
    result["title"] = document.title;
    result["tables"] = tables;
    result["notes"] = notes;
    return result;
}

} // namespace kerncast::python
