#include "kerncast/models/volume_view.hpp"

#include <fmt/format.h>

namespace kerncast::models {

report::Document explore_view(const ExploreResult& result, std::size_t top) {
    report::Document doc;
    doc.schema = "kerncast.explore/1";
    doc.title = fmt::format("Launch configurations of {} on {}, ranked by predicted throughput",
                            result.kernel, result.machine);
    report::Table t;
    t.key = "ranking";
    t.title = "Ranking (Ernst et al. 2023, sec. 5.8)";
    t.columns = {{"rank", "rank", "", -1},
                 {"block", "block", "", -1},
                 {"fold", "fold", "", -1},
                 {"throughput", "throughput", "Gpoints/s", 2},
                 {"limiter", "limiter", "", -1},
                 {"dram_load", "DRAM load", "B/pt", 2},
                 {"dram_store", "DRAM store", "B/pt", 2},
                 {"l2_load", "L2->L1", "B/pt", 2},
                 {"l2_store", "L1->L2", "B/pt", 2},
                 {"l1_cycles", "L1", "cycles/pt", 3},
                 {"blocks_per_sm", "blocks/SM", "", -1},
                 {"skipped", "skipped", "", -1}};
    std::size_t shown = 0, skipped = 0;
    for (const auto& row : result.rows) {
        if (!row.prediction) {
            ++skipped;
            t.rows.push_back({report::Cell{}, format_triple(row.launch.block),
                              format_triple(row.launch.fold), report::Cell{}, report::Cell{},
                              report::Cell{}, report::Cell{}, report::Cell{}, report::Cell{},
                              report::Cell{}, report::Cell{}, row.skipped});
            continue;
        }
        if (top && shown >= top)
            continue;
        ++shown;
        const VolumePrediction& p = *row.prediction;
        t.rows.push_back({static_cast<std::int64_t>(shown), format_triple(row.launch.block),
                          format_triple(row.launch.fold), p.limiter.points_per_second / 1e9,
                          limiter_name(p.limiter.binding), p.dram_load_bytes, p.dram_store_bytes,
                          p.l2_load_bytes, p.l2_store_bytes, p.l1.cycles_per_point,
                          std::int64_t{p.occupancy.active_blocks_per_sm}, report::Cell{}});
    }
    doc.tables.push_back(std::move(t));
    doc.notes.push_back(fmt::format("{} configurations predicted, {} skipped.",
                                    result.rows.size() - skipped, skipped));
    return doc;
}

} // namespace kerncast::models
