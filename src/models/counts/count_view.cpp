#include "kerncast/models/counts/count_view.hpp"

#include "kerncast/report/table_builder.hpp"

namespace kerncast::models::counts {
namespace {

using report::Cell;
using report::TableBuilder;

std::string triple(const std::array<std::int64_t, kernel::axis_count>& values) {
    return std::to_string(values[0]) + "," + std::to_string(values[1]) + "," +
           std::to_string(values[2]);
}

// One cell per axis; blank for data-dependent (indirect) accesses, which have no stride.
std::vector<Cell> stride_cells(const std::array<std::int64_t, kernel::axis_count>& strides,
                               bool indirect) {
    std::vector<Cell> cells;
    for (std::int64_t stride : strides)
        cells.push_back(indirect ? Cell{} : Cell{stride});
    return cells;
}

// Accesses, elements and one granule count per granule size; blank when not computed.
std::vector<Cell> footprint_cells(const std::optional<GroupFootprint>& group,
                                  std::size_t granule_sizes) {
    std::vector<Cell> cells{report::make_cell(group, &GroupFootprint::accesses),
                            report::make_cell(group, &GroupFootprint::elements)};
    for (std::size_t k = 0; k < granule_sizes; ++k)
        cells.push_back(group ? Cell{group->granules[k]} : Cell{});
    return cells;
}

report::Table launch_table(const CountReport& r) {
    TableBuilder t("launch", "Launch");
    t.columns({{"block", "Block", "threads"},
               {"fold", "Fold", "points"},
               {"threads_per_block", "Threads/block"},
               {"subgroups_per_block", "Sub-groups/block"},
               {"thread_blocks", "Thread blocks"},
               {"kernel_launches", "Launches"}});
    t.row(triple(r.launch.block),
          triple(r.launch.fold) + (kernel::strided_fold(r.launch) ? " strided" : ""),
          r.threads_per_block, r.subgroups_per_block, r.thread_blocks, r.kernel_launches);
    return t.build();
}

report::Table parameters_table(const CountReport& r) {
    TableBuilder t("parameters", "Parameters");
    t.columns({{"name", "Name"}, {"value", "Value"}, {"representative", "Representative"}});
    for (const auto& p : r.parameters)
        t.row(p.name, p.value, p.representative);
    return t.build();
}

report::Table operations_table(const CountReport& r) {
    TableBuilder t("operations", "Operations (Stevens & Klöckner sec. 5 conventions)");
    t.columns({{"dtype", "Type"},
               {"operation", "Operation"},
               {"granularity", "Per"},
               {"count", "Count"}});
    for (const auto& o : r.operations)
        t.row(o.dtype, o.operation, o.granularity, o.count);
    return t.build();
}

report::Table accesses_table(const CountReport& r) {
    TableBuilder t("accesses", "Memory accesses");
    t.columns({{"statement", "Stmt"},
               {"access", "Access"},
               {"tag", "Tag"},
               {"space", "Space"},
               {"dtype", "Type"},
               {"direction", "Direction"},
               {"granularity", "Per"},
               {"count", "Count"},
               {"stride_tx", "ls x", "elements"},
               {"stride_ty", "ls y", "elements"},
               {"stride_tz", "ls z", "elements"},
               {"stride_bx", "gs x", "elements"},
               {"stride_by", "gs y", "elements"},
               {"stride_bz", "gs z", "elements"},
               {"afr", "AFR", "", 3}});
    for (const auto& a : r.accesses)
        t.row(a.statement, a.text, a.tag, a.space, a.dtype, a.direction, a.granularity, a.count,
              stride_cells(a.strides.thread, a.indirect), stride_cells(a.strides.block, a.indirect),
              a.access_to_footprint);
    return t.build();
}

report::Table patterns_table(const CountReport& r) {
    TableBuilder t(
        "access_patterns",
        "Access patterns (accesses with equal space, type, direction, strides, AFR, tag)");
    t.columns({{"space", "Space"},
               {"dtype", "Type"},
               {"direction", "Direction"},
               {"tag", "Tag"},
               {"granularity", "Per"},
               {"thread_strides", "ls x,y,z", "elements"},
               {"block_strides", "gs x,y,z", "elements"},
               {"afr", "AFR", "", 3},
               {"accesses", "Accesses"},
               {"count", "Count"}});
    for (const auto& p : r.patterns)
        t.row(p.space, p.dtype, p.direction, p.tag, p.granularity,
              p.indirect ? std::string("data-dependent") : triple(p.thread_strides),
              p.indirect ? Cell{} : Cell{triple(p.block_strides)}, p.access_to_footprint,
              p.accesses, p.count);
    return t.build();
}

report::Table addresses_table(const CountReport& r) {
    TableBuilder t("addresses", "Byte addresses (affine in block/thread/fold/loop indices)");
    t.columns({{"statement", "Stmt"},
               {"access", "Access"},
               {"direction", "Direction"},
               {"address", "Address", "B"}});
    for (const auto& a : r.accesses)
        t.row(a.statement, a.text, a.direction, a.address);
    return t.build();
}

report::Table footprints_table(const CountReport& r) {
    TableBuilder t("footprints",
                   "Footprints: warp 0 (first iteration) and block 0 (all iterations)");
    t.columns({{"statement", "Stmt"},
               {"access", "Access"},
               {"direction", "Direction"},
               {"warp_accesses", "Warp acc"},
               {"warp_elements", "Warp elem"}});
    for (auto bytes : r.granule_bytes)
        t.column({"warp_granules_" + std::to_string(bytes), "Warp " + std::to_string(bytes) + "B"});
    t.columns({{"block_accesses", "Block acc"}, {"block_elements", "Block elem"}});
    for (auto bytes : r.granule_bytes)
        t.column(
            {"block_granules_" + std::to_string(bytes), "Block " + std::to_string(bytes) + "B"});
    for (const auto& a : r.accesses)
        t.row(a.statement, a.text, a.direction, footprint_cells(a.warp, r.granule_bytes.size()),
              footprint_cells(a.block, r.granule_bytes.size()));
    return t.build();
}

report::Table formulas_table(const CountReport& r) {
    TableBuilder t("formulas", "Counts as functions of the parameters");
    t.columns({{"count", "Count of"},
               {"closed_form", "Closed form"},
               {"formula", "Formula (isl set when no closed form)"}});
    for (const auto& o : r.operations)
        t.row(o.dtype + " " + o.operation + " per " + o.granularity, o.closed_form, o.formula);
    for (const auto& a : r.accesses)
        t.row("stmt " + std::to_string(a.statement) + " " + a.text + " " + a.direction + " per " +
                  a.granularity,
              a.closed_form, a.formula);
    return t.build();
}

report::Table barriers_table(const CountReport& r) {
    TableBuilder t("barriers", "Barriers");
    t.columns(
        {{"statement", "Stmt"}, {"per_work_item", "Per work-item"}, {"total", "All work-items"}});
    for (const auto& b : r.barriers)
        t.row(b.statement, b.per_work_item, b.total_work_items);
    return t.build();
}

} // namespace

report::Document count_view(const CountReport& r) {
    report::Document doc;
    doc.schema = "kerncast.count/1";
    doc.title = "Counts of kernel " + r.kernel + (r.file.empty() ? "" : " (" + r.file + ")");
    doc.tables = {launch_table(r),   parameters_table(r), operations_table(r),
                  accesses_table(r), patterns_table(r),   addresses_table(r)};
    bool any_footprint = false;
    for (const auto& a : r.accesses)
        any_footprint = any_footprint || a.warp.has_value();
    if (any_footprint)
        doc.tables.push_back(footprints_table(r));
    doc.tables.push_back(formulas_table(r));
    if (!r.barriers.empty())
        doc.tables.push_back(barriers_table(r));
    doc.notes.push_back("Arithmetic and shared-memory accesses are counted per sub-group of " +
                        std::to_string(r.subgroup_size) +
                        " work-items, global accesses per work-item unless uniform along thread "
                        "x; 'madd' counts adds fed by a product (they are also in add and mul). "
                        "See docs/kernel-format.md.");
    return doc;
}

} // namespace kerncast::models::counts
