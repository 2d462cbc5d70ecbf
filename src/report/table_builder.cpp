#include "kerncast/report/table_builder.hpp"

#include "kerncast/error.hpp"

namespace kerncast::report {

TableBuilder::TableBuilder(std::string key, std::string title) {
    table_.key = std::move(key);
    table_.title = std::move(title);
}

TableBuilder& TableBuilder::column(ColumnSpec spec) {
    return column_if(true, std::move(spec));
}

TableBuilder& TableBuilder::columns(std::initializer_list<ColumnSpec> specs) {
    return columns_if(true, specs);
}

TableBuilder& TableBuilder::column_if(bool include, ColumnSpec spec) {
    KERNCAST_CHECK(!has_rows(), "table '" + table_.key + "': columns are declared before rows");
    included_.push_back(include);
    if (include)
        table_.columns.push_back(std::move(spec.column));
    return *this;
}

TableBuilder& TableBuilder::columns_if(bool include, std::initializer_list<ColumnSpec> specs) {
    for (const auto& spec : specs)
        column_if(include, spec);
    return *this;
}

TableBuilder& TableBuilder::columns_in_unit(const std::string& unit, int precision,
                                            std::initializer_list<ColumnSpec> specs) {
    for (ColumnSpec spec : specs) {
        spec.column.unit = unit;
        spec.column.precision = precision;
        column(std::move(spec));
    }
    return *this;
}

TableBuilder& TableBuilder::row_cells(std::vector<Cell> cells) {
    KERNCAST_CHECK(cells.size() == included_.size(),
                   "table '" + table_.key + "': a row has " + std::to_string(cells.size()) +
                       " values for " + std::to_string(included_.size()) + " columns");
    if (table_.columns.size() == included_.size()) {
        table_.rows.push_back(std::move(cells));
        return *this;
    }
    std::vector<Cell> shown;
    shown.reserve(table_.columns.size());
    for (std::size_t c = 0; c < cells.size(); ++c)
        if (included_[c])
            shown.push_back(std::move(cells[c]));
    table_.rows.push_back(std::move(shown));
    return *this;
}

Table TableBuilder::build() {
    Table table = std::move(table_);
    table_ = Table{};
    included_.clear();
    return table;
}

} // namespace kerncast::report
