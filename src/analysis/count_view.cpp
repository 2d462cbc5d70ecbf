#include "kerncast/analysis/count_view.hpp"

namespace kerncast::analysis {

using report::Cell;
using report::Column;
using report::Table;

static std::string triple(const std::array<std::int64_t, kernel::axis_count>& values) {
    return std::to_string(values[0]) + "," + std::to_string(values[1]) + "," +
           std::to_string(values[2]);
}

report::Document count_view(const CountReport& r) {
    report::Document doc;
    doc.schema = "kerncast.count/1";
    doc.title = "Counts of kernel " + r.kernel + (r.file.empty() ? "" : " (" + r.file + ")");

    Table launch{"launch", "Launch", {}, {}};
    launch.columns = {{"block", "Block", "threads", -1},
                      {"fold", "Fold", "points", -1},
                      {"threads_per_block", "Threads/block", "", -1},
                      {"subgroups_per_block", "Sub-groups/block", "", -1},
                      {"thread_blocks", "Thread blocks", "", -1},
                      {"kernel_launches", "Launches", "", -1}};
    launch.rows.push_back({triple(r.launch.block), triple(r.launch.fold), r.threads_per_block,
                           r.subgroups_per_block, r.thread_blocks, r.kernel_launches});
    doc.tables.push_back(std::move(launch));

    Table params{"parameters", "Parameters", {}, {}};
    params.columns = {{"name", "Name", "", -1},
                      {"value", "Value", "", -1},
                      {"representative", "Representative", "", -1}};
    for (const auto& p : r.parameters)
        params.rows.push_back({p.name, p.value, p.representative});
    doc.tables.push_back(std::move(params));

    Table ops{"operations", "Operations (Stevens & Klöckner sec. 5 conventions)", {}, {}};
    ops.columns = {{"dtype", "Type", "", -1},
                   {"operation", "Operation", "", -1},
                   {"granularity", "Per", "", -1},
                   {"count", "Count", "", -1}};
    for (const auto& o : r.operations)
        ops.rows.push_back({o.dtype, o.operation, o.granularity, o.count});
    doc.tables.push_back(std::move(ops));

    Table acc{"accesses", "Memory accesses", {}, {}};
    acc.columns = {{"statement", "Stmt", "", -1},
                   {"access", "Access", "", -1},
                   {"tag", "Tag", "", -1},
                   {"space", "Space", "", -1},
                   {"dtype", "Type", "", -1},
                   {"direction", "Direction", "", -1},
                   {"granularity", "Per", "", -1},
                   {"count", "Count", "", -1},
                   {"stride_tx", "ls x", "elements", -1},
                   {"stride_ty", "ls y", "elements", -1},
                   {"stride_tz", "ls z", "elements", -1},
                   {"stride_bx", "gs x", "elements", -1},
                   {"stride_by", "gs y", "elements", -1},
                   {"stride_bz", "gs z", "elements", -1},
                   {"afr", "AFR", "", 3}};
    for (const auto& a : r.accesses) {
        std::vector<Cell> row = {static_cast<std::int64_t>(a.statement),
                                 a.text,
                                 a.tag,
                                 a.space,
                                 a.dtype,
                                 a.direction,
                                 a.granularity,
                                 a.count};
        for (int k = 0; k < 3; ++k)
            row.push_back(a.indirect ? Cell{} : Cell{a.strides.thread[static_cast<size_t>(k)]});
        for (int k = 0; k < 3; ++k)
            row.push_back(a.indirect ? Cell{} : Cell{a.strides.block[static_cast<size_t>(k)]});
        row.push_back(a.access_to_footprint ? Cell{*a.access_to_footprint} : Cell{});
        acc.rows.push_back(std::move(row));
    }
    doc.tables.push_back(std::move(acc));

    Table patterns{
        "access_patterns",
        "Access patterns (accesses with equal space, type, direction, strides, AFR, tag)",
        {},
        {}};
    patterns.columns = {{"space", "Space", "", -1},
                        {"dtype", "Type", "", -1},
                        {"direction", "Direction", "", -1},
                        {"tag", "Tag", "", -1},
                        {"granularity", "Per", "", -1},
                        {"thread_strides", "ls x,y,z", "elements", -1},
                        {"block_strides", "gs x,y,z", "elements", -1},
                        {"afr", "AFR", "", 3},
                        {"accesses", "Accesses", "", -1},
                        {"count", "Count", "", -1}};
    for (const auto& p : r.patterns)
        patterns.rows.push_back(
            {p.space, p.dtype, p.direction, p.tag, p.granularity,
             p.indirect ? Cell{std::string("data-dependent")} : Cell{triple(p.thread_strides)},
             p.indirect ? Cell{} : Cell{triple(p.block_strides)},
             p.access_to_footprint ? Cell{*p.access_to_footprint} : Cell{},
             static_cast<std::int64_t>(p.accesses), p.count});
    doc.tables.push_back(std::move(patterns));

    Table addresses{
        "addresses", "Byte addresses (affine in block/thread/fold/loop indices)", {}, {}};
    addresses.columns = {{"statement", "Stmt", "", -1},
                         {"access", "Access", "", -1},
                         {"direction", "Direction", "", -1},
                         {"address", "Address", "B", -1}};
    for (const auto& a : r.accesses)
        addresses.rows.push_back(
            {static_cast<std::int64_t>(a.statement), a.text, a.direction, a.address});
    doc.tables.push_back(std::move(addresses));

    bool any_footprint = false;
    for (const auto& a : r.accesses)
        any_footprint = any_footprint || a.warp.has_value();
    if (any_footprint) {
        Table fp{"footprints",
                 "Footprints: warp 0 (first iteration) and block 0 (all iterations)",
                 {},
                 {}};
        fp.columns = {{"statement", "Stmt", "", -1},
                      {"access", "Access", "", -1},
                      {"direction", "Direction", "", -1},
                      {"warp_accesses", "Warp acc", "", -1},
                      {"warp_elements", "Warp elem", "", -1}};
        for (auto bytes : r.granule_bytes)
            fp.columns.push_back({"warp_granules_" + std::to_string(bytes),
                                  "Warp " + std::to_string(bytes) + "B", "", -1});
        fp.columns.push_back({"block_accesses", "Block acc", "", -1});
        fp.columns.push_back({"block_elements", "Block elem", "", -1});
        for (auto bytes : r.granule_bytes)
            fp.columns.push_back({"block_granules_" + std::to_string(bytes),
                                  "Block " + std::to_string(bytes) + "B", "", -1});
        for (const auto& a : r.accesses) {
            std::vector<Cell> row = {static_cast<std::int64_t>(a.statement), a.text, a.direction};
            auto add = [&](const std::optional<GroupFootprint>& g) {
                row.push_back(g ? Cell{g->accesses} : Cell{});
                row.push_back(g ? Cell{g->elements} : Cell{});
                for (size_t k = 0; k < r.granule_bytes.size(); ++k)
                    row.push_back(g ? Cell{g->granules[k]} : Cell{});
            };
            add(a.warp);
            add(a.block);
            fp.rows.push_back(std::move(row));
        }
        doc.tables.push_back(std::move(fp));
    }

    Table formulas{"formulas", "Counts as functions of the parameters", {}, {}};
    formulas.columns = {{"count", "Count of", "", -1},
                        {"closed_form", "Closed form", "", -1},
                        {"formula", "Formula (isl set when no closed form)", "", -1}};
    for (const auto& o : r.operations)
        formulas.rows.push_back(
            {o.dtype + " " + o.operation + " per " + o.granularity, o.closed_form, o.formula});
    for (const auto& a : r.accesses)
        formulas.rows.push_back({"stmt " + std::to_string(a.statement) + " " + a.text + " " +
                                     a.direction + " per " + a.granularity,
                                 a.closed_form, a.formula});
    doc.tables.push_back(std::move(formulas));

    if (!r.barriers.empty()) {
        Table bar{"barriers", "Barriers", {}, {}};
        bar.columns = {{"statement", "Stmt", "", -1},
                       {"per_work_item", "Per work-item", "", -1},
                       {"total", "All work-items", "", -1}};
        for (const auto& b : r.barriers)
            bar.rows.push_back(
                {static_cast<std::int64_t>(b.statement), b.per_work_item, b.total_work_items});
        doc.tables.push_back(std::move(bar));
    }
    doc.notes.push_back("Arithmetic and shared-memory accesses are counted per sub-group of " +
                        std::to_string(r.subgroup_size) +
                        " work-items, global accesses per work-item unless uniform along thread "
                        "x; 'madd' counts adds fed by a product (they are also in add and mul). "
                        "See docs/kernel-format.md.");
    return doc;
}

} // namespace kerncast::analysis
