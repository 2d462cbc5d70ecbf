#include "kerncast/models/volume_view.hpp"

#include <fmt/format.h>

namespace kerncast::models {

using report::Cell;

std::string format_triple(const std::array<std::int64_t, 3>& values) {
    return fmt::format("{}x{}x{}", values[0], values[1], values[2]);
}

namespace {

const char* axis_label(size_t d) {
    return d == 0 ? "x" : d == 1 ? "y" : "z";
}

report::Table launch_table(const VolumePrediction& p) {
    report::Table t;
    t.key = "launch";
    t.title = "Launch and wave (Ernst et al. 2023, sec. 4.4)";
    t.columns = {{"quantity", "quantity", "", -1}, {"value", "value", "", -1}};
    auto row = [&](const char* key, Cell value) { t.rows.push_back({key, std::move(value)}); };
    row("block", format_triple(p.launch.block));
    row("fold", format_triple(p.launch.fold));
    row("grid_blocks", format_triple(p.grid));
    row("points", p.points);
    row("blocks_per_sm", std::int64_t{p.occupancy.active_blocks_per_sm});
    row("occupancy_limit", to_string(p.occupancy.binding_limit));
    row("wave_blocks", p.wave_blocks);
    row("waves", p.waves);
    row("wave_first_block", p.wave_first_block);
    row("wave_points", p.wave_points);
    row("representative_block", format_triple(p.representative_block));
    return t;
}

report::Table volume_table(const VolumePrediction& p) {
    report::Table t;
    t.key = "volumes";
    t.title = "Data volumes per point, by array and level";
    t.columns = {{"array", "array", "", -1},
                 {"l1_load_request", "L1 requests", "B", 2},
                 {"l2_load_compulsory", "L2->L1 compulsory", "B", 2},
                 {"l2_load_capacity", "L2->L1 capacity", "B", 2},
                 {"l2_load", "L2->L1", "B", 2},
                 {"l2_store", "L1->L2 store", "B", 2},
                 {"dram_load_wave", "wave footprint", "B", 2},
                 {"dram_hit_x", "x-layer hits", "B", 2},
                 {"dram_hit_y", "y-layer hits", "B", 2},
                 {"dram_hit_z", "z-layer hits", "B", 2},
                 {"dram_partial_store", "partial-store reads", "B", 2},
                 {"dram_load", "DRAM->L2", "B", 2},
                 {"dram_store", "L2->DRAM", "B", 2}};
    for (const auto& v : p.arrays)
        t.rows.push_back({v.array, v.l1_load_request_bytes, v.l2_load_compulsory_bytes,
                          v.l2_load_capacity_bytes, v.l2_load_bytes, v.l2_store_bytes,
                          v.dram_load_wave_bytes, v.dram_layer_hit_bytes[0],
                          v.dram_layer_hit_bytes[1], v.dram_layer_hit_bytes[2],
                          v.dram_partial_store_bytes, v.dram_load_bytes, v.dram_store_bytes});
    double request = 0, compulsory = 0, capacity = 0, wave = 0, partial = 0;
    std::array<double, 3> hits{0, 0, 0};
    for (const auto& v : p.arrays) {
        request += v.l1_load_request_bytes;
        compulsory += v.l2_load_compulsory_bytes;
        capacity += v.l2_load_capacity_bytes;
        wave += v.dram_load_wave_bytes;
        partial += v.dram_partial_store_bytes;
        for (size_t d = 0; d < 3; ++d)
            hits[d] += v.dram_layer_hit_bytes[d];
    }
    t.rows.push_back({"total", request, compulsory, capacity, p.l2_load_bytes, p.l2_store_bytes,
                      wave, hits[0], hits[1], hits[2], partial, p.dram_load_bytes,
                      p.dram_store_bytes});
    return t;
}

report::Table capacity_table(const VolumePrediction& p) {
    report::Table t;
    t.key = "capacity";
    t.title = "Cache capacity: oversubscription and hit rates (sec. 4.4.1, 4.5)";
    t.columns = {{"set", "set", "", -1},
                 {"blocks", "blocks", "", -1},
                 {"allocated", "allocated", "MiB", 3},
                 {"capacity", "capacity", "MiB", 3},
                 {"oversubscription", "O", "", 3},
                 {"hit_rate", "hit rate", "", 3},
                 {"overlap", "overlap per point", "B", 2}};
    constexpr double mib = 1024.0 * 1024.0;
    t.rows.push_back({"L1: resident blocks", std::int64_t{p.occupancy.active_blocks_per_sm},
                      p.l1_allocated_bytes / mib, p.l1_capacity_bytes / mib, p.l1_oversubscription,
                      p.l1_hit_rate, Cell{}});
    t.rows.push_back({"L2: wave (stores)", p.wave_blocks, p.wave_allocated_bytes / mib,
                      p.l2_capacity_bytes / mib, p.wave_oversubscription, p.store_hit_rate,
                      Cell{}});
    for (size_t d = 0; d < 3; ++d) {
        const LayerSet& layer = p.layers[d];
        t.rows.push_back({fmt::format("L2: {}-layer set + wave", axis_label(d)), layer.blocks,
                          layer.allocated_bytes / mib, p.l2_capacity_bytes / mib,
                          layer.oversubscription, layer.hit_rate, layer.overlap_bytes_per_point});
    }
    return t;
}

report::Table l1_table(const VolumePrediction& p) {
    report::Table t;
    t.key = "l1";
    t.title = "L1 wavefronts per point (sec. 4.2)";
    t.columns = {{"access", "access", "", -1},
                 {"direction", "direction", "", -1},
                 {"instructions", "instructions per thread", "", -1},
                 {"cycles", "L1 cycles", "cycles", 4},
                 {"request", "sectors requested", "B", 2}};
    for (const auto& a : p.l1.accesses)
        t.rows.push_back({a.text, analysis::direction_name(a.direction),
                          std::int64_t{a.instructions_per_thread}, a.wavefronts_per_point,
                          a.sector_bytes_per_point});
    t.rows.push_back({"total", "", Cell{}, p.l1.cycles_per_point,
                      p.l1.load_request_bytes_per_point + p.l1.store_request_bytes_per_point});
    return t;
}

report::Table limiter_table(const VolumePrediction& p) {
    report::Table t;
    t.key = "limiters";
    t.title = "Limiters (sec. 2): time per point; the largest binds";
    t.columns = {{"limiter", "limiter", "", -1},
                 {"per_point", "per point", "", 3},
                 {"unit", "unit", "", -1},
                 {"seconds_per_point", "time per point", "ps", 3},
                 {"binding", "binds", "", -1}};
    const auto& l = p.limiter;
    auto row = [&](Limiter limiter, double amount, const char* unit, double seconds) {
        t.rows.push_back(
            {limiter_name(limiter), amount, unit, seconds * 1e12, l.binding == limiter});
    };
    row(Limiter::dram, p.dram_load_bytes + p.dram_store_bytes, "B", l.dram_seconds_per_point);
    row(Limiter::l2, p.l2_load_bytes + p.l2_store_bytes, "B", l.l2_seconds_per_point);
    row(Limiter::l1, p.l1.cycles_per_point, "cycles", l.l1_seconds_per_point);
    row(Limiter::fp, p.fp_cycles_per_point, "cycles", l.fp_seconds_per_point);
    return t;
}

report::Table result_table(const VolumePrediction& p) {
    report::Table t;
    t.key = "prediction";
    t.title = "Prediction";
    t.columns = {{"limiter", "limiter", "", -1},
                 {"throughput", "throughput", "Gpoints/s", 2},
                 {"time", "time per launch", "ms", 4},
                 {"flops_per_point", "flops per point", "", 2}};
    t.rows.push_back({limiter_name(p.limiter.binding), p.limiter.points_per_second / 1e9,
                      p.limiter.seconds_per_launch * 1e3, p.flops_per_point});
    return t;
}

} // namespace

report::Document predict_view(const VolumePrediction& p, const std::string& kernel_name,
                              const std::string& machine_id) {
    report::Document doc;
    doc.schema = "kerncast.predict/1";
    doc.title = fmt::format("Predicted data volumes and throughput of {} on {} (Ernst et al. 2023)",
                            kernel_name, machine_id);
    doc.tables = {launch_table(p), volume_table(p),  capacity_table(p),
                  l1_table(p),     limiter_table(p), result_table(p)};
    doc.notes = p.notes;
    doc.notes.push_back(
        "Bytes per point: a point is one thread and fold instance of the kernel's domain.");
    return doc;
}

} // namespace kerncast::models
