#include "kerncast/models/volumes/volume_view.hpp"

#include "kerncast/models/volumes/volume_notes.hpp"
#include "kerncast/report/table_builder.hpp"

#include <cmath>
#include <fmt/format.h>

namespace kerncast::models {

using report::Cell;
using report::TableBuilder;

std::string format_triple(const std::array<std::int64_t, 3>& values) {
    return fmt::format("{}x{}x{}", values[0], values[1], values[2]);
}

namespace {

const char* axis_label(size_t d) {
    return d == 0 ? "x" : d == 1 ? "y" : "z";
}

report::Table launch_table(const VolumePrediction& p) {
    TableBuilder t("launch", "Launch and wave (Ernst et al. 2023, sec. 4.4)");
    t.columns({"quantity", "value"});
    t.row("block", format_triple(p.launch.block));
    t.row("fold", kernel::fold_text(p.launch));
    t.row("grid_blocks", format_triple(p.grid));
    t.row("points", p.points);
    const RegisterCount& registers = p.placement.registers;
    t.row("registers_per_thread", report::cell_if(registers.per_thread > 0, registers.per_thread));
    t.row("registers_source", register_source_name(registers.source));
    if (registers.source == RegisterSource::ptxas) {
        t.row("ptxas_target", registers.target);
        t.row("stack_frame_bytes", registers.stack_frame_bytes);
        t.row("spill_store_bytes", registers.spill_store_bytes);
        t.row("spill_load_bytes", registers.spill_load_bytes);
    }
    t.row("blocks_per_sm", p.placement.occupancy.active_blocks_per_sm);
    t.row("occupancy_limit", to_string(p.placement.occupancy.binding_limit));
    if (p.placement.under_filled) { // a grid smaller than one wave: how the blocks spread
        t.row("resident_blocks_per_sm", p.placement.resident_blocks_per_sm);
        t.row("busy_sms", std::round(p.placement.busy_sms * 10) / 10);
    }
    t.row("wave_blocks", p.placement.wave_blocks);
    t.row("waves", p.placement.waves);
    t.row("sampled_waves", p.wave.sampled_waves);
    t.row("wave_first_block", p.wave.first_block);
    t.row("wave_points", p.wave.points);
    t.row("representative_block", format_triple(p.representative.origin));
    return t.build();
}

report::Table volume_table(const VolumePrediction& p) {
    TableBuilder t("volumes", "Data volumes per point, by array and level");
    t.column("array");
    t.columns_in_unit("B", 2,
                      {{"l1_load_request", "L1 requests"},
                       {"l1_load_warp_unique", "L1 warp-unique"},
                       {"l2_load_compulsory", "L2->L1 compulsory"},
                       {"l2_load_capacity", "L2->L1 capacity"},
                       {"l2_load", "L2->L1"},
                       {"l2_store", "L1->L2 store"},
                       {"dram_load_wave", "wave footprint"},
                       {"dram_hit_x", "x-layer hits"},
                       {"dram_hit_y", "y-layer hits"},
                       {"dram_hit_z", "z-layer hits"},
                       {"dram_l2_capacity", "L2 capacity misses"},
                       {"dram_partial_store", "partial-store reads"},
                       {"dram_load", "DRAM->L2"},
                       {"dram_store", "L2->DRAM"}});
    for (const auto& v : p.arrays)
        t.row(v.array, v.l1_load_request_bytes, v.l1_load_warp_unique_bytes,
              v.l2_load_compulsory_bytes, v.l2_load_capacity_bytes, v.l2_load_bytes,
              v.l2_store_bytes, v.dram_load_wave_bytes, v.dram_layer_hit_bytes[0],
              v.dram_layer_hit_bytes[1], v.dram_layer_hit_bytes[2], v.dram_l2_capacity_bytes,
              v.dram_partial_store_bytes, v.dram_load_bytes, v.dram_store_bytes);
    double request = 0, warp_unique = 0, compulsory = 0, capacity = 0, wave = 0, partial = 0,
           l2_capacity = 0;
    std::array<double, 3> hits{0, 0, 0};
    for (const auto& v : p.arrays) {
        request += v.l1_load_request_bytes;
        warp_unique += v.l1_load_warp_unique_bytes;
        compulsory += v.l2_load_compulsory_bytes;
        capacity += v.l2_load_capacity_bytes;
        wave += v.dram_load_wave_bytes;
        partial += v.dram_partial_store_bytes;
        l2_capacity += v.dram_l2_capacity_bytes;
        for (size_t d = 0; d < 3; ++d)
            hits[d] += v.dram_layer_hit_bytes[d];
    }
    t.row("total", request, warp_unique, compulsory, capacity, p.l2_load_bytes, p.l2_store_bytes,
          wave, hits[0], hits[1], hits[2], l2_capacity, partial, p.dram_load_bytes,
          p.dram_store_bytes);
    return t.build();
}

report::Table capacity_table(const VolumePrediction& p) {
    TableBuilder t("capacity", "Cache capacity: oversubscription and hit rates (sec. 4.4.1, 4.5)");
    t.columns({"set",
               "blocks",
               {"allocated", "allocated", "MiB", 3},
               {"capacity", "capacity", "MiB", 3},
               {"oversubscription", "O", "", 3},
               {"hit_rate", "hit rate", "", 3},
               {"overlap", "overlap per point", "B", 2}});
    constexpr double mib = 1024.0 * 1024.0;
    t.row("L1: resident blocks", p.placement.resident_blocks_per_sm,
          p.l1_capacity.allocated_bytes / mib, p.l1_capacity.capacity_bytes / mib,
          p.l1_capacity.oversubscription, p.l1_capacity.hit_rate, report::blank);
    t.row("L2: wave (stores)", p.placement.wave_blocks, p.wave.allocated_bytes / mib,
          p.wave.l2_capacity_bytes / mib, p.wave.oversubscription, p.wave.store_hit_rate,
          report::blank);
    for (size_t d = 0; d < 3; ++d) {
        const LayerSet& layer = p.wave.layers[d];
        t.row(fmt::format("L2: {}-layer set", axis_label(d)), layer.blocks,
              layer.allocated_bytes / mib, p.wave.l2_capacity_bytes / mib, layer.oversubscription,
              layer.hit_rate, layer.overlap_bytes_per_point);
    }
    return t.build();
}

report::Table l1_table(const VolumePrediction& p) {
    TableBuilder t("l1", "L1 wavefronts per point (sec. 4.2)");
    t.columns({"access",
               "direction",
               {"instructions", "instructions per thread"},
               {"cycles", "L1 cycles", "cycles", 4},
               {"request", "sectors requested", "B", 2}});
    for (const auto& a : p.l1.accesses)
        t.row(a.text, analysis::direction_name(a.direction), a.instructions_per_thread,
              a.wavefronts_per_point, a.sector_bytes_per_point);
    if (p.l1.miss_pass_cycles_per_point != 0)
        t.row("missing lanes' own pass (simulated L1)", "load", report::blank,
              p.l1.miss_pass_cycles_per_point, report::blank);
    t.row("total", "", report::blank, p.l1.cycles_per_point,
          p.l1.load_request_bytes_per_point + p.l1.store_request_bytes_per_point);
    return t.build();
}

report::Table limiter_table(const VolumePrediction& p) {
    TableBuilder t("limiters", "Limiters (sec. 2): time per point; the largest binds");
    t.columns({"limiter",
               {"per_point", "per point", "", 3},
               "unit",
               {"seconds_per_point", "time per point", "ps", 3},
               {"binding", "binds"}});
    const auto& l = p.limiter;
    auto row = [&](Limiter limiter, double amount, const char* unit, double seconds) {
        t.row(limiter_name(limiter), amount, unit, seconds * 1e12, l.binding == limiter);
    };
    row(Limiter::dram, p.dram_load_bytes + p.dram_store_bytes, "B", l.dram_seconds_per_point);
    row(Limiter::l2, p.l2_load_bytes + p.l2_store_bytes, "B", l.l2_seconds_per_point);
    row(Limiter::l1, p.l1.cycles_per_point, "cycles", l.l1_seconds_per_point);
    row(Limiter::fp, p.fp.cycles_per_point, "cycles", l.fp_seconds_per_point);
    const double blocks_per_point = static_cast<double>(p.blocks) / static_cast<double>(p.points);
    if (l.launch_seconds_per_point > 0)
        row(Limiter::launch, blocks_per_point, "blocks", l.launch_seconds_per_point);
    else // the machine gives no block launch rate: not a limiter
        t.row(limiter_name(Limiter::launch), blocks_per_point, "blocks", report::blank, false);
    if (l.dram_in_flight_seconds_per_point > 0) // only where the machine measured it
        row(Limiter::dram_in_flight, p.dram_load_bytes + p.dram_store_bytes, "B",
            l.dram_in_flight_seconds_per_point);
    return t.build();
}

report::Table result_table(const VolumePrediction& p) {
    TableBuilder t("prediction", "Prediction");
    t.columns({"limiter",
               {"throughput", "throughput", "Gpoints/s", 2},
               {"time", "time per launch", "ms", 4},
               {"flops_per_point", "flops per point", "", 2}});
    t.row(limiter_name(p.limiter.binding), p.limiter.points_per_second / 1e9,
          p.limiter.seconds_per_launch * 1e3, p.fp.flops_per_point);
    return t.build();
}

// Global accesses the model leaves out (present only when there are some).
report::Table unmodelled_table(const VolumePrediction& p) {
    TableBuilder t("unmodelled", fmt::format("Global accesses outside the model ({:.0f} % of the "
                                             "kernel's global access executions)",
                                             100 * p.unmodelled_share));
    t.columns({"access",
               "kind",
               {"executions_per_point", "executions per point", "", 3},
               {"updates_per_address", "updates per address", "", 1},
               "left_out"});
    for (const UnmodelledAccess& u : p.unmodelled)
        t.row(u.access, u.kind, u.executions_per_point,
              report::cell_if(u.updates_per_address > 0, u.updates_per_address), u.left_out);
    return t.build();
}

// Per-level volumes stacked by array, one bar per level and direction.
report::Chart volume_chart(const VolumePrediction& p) {
    report::Chart chart;
    chart.key = "volumes";
    chart.title = "Data volume per point by level, stacked by array";
    chart.kind = report::ChartKind::stacked_bar;
    chart.categories = {"L2->L1 load", "L1->L2 store", "DRAM->L2 load", "L2->DRAM store"};
    chart.x_axis = {"level", "", false};
    chart.y_axis = {"data volume", "B/pt", false};
    for (const auto& a : p.arrays)
        chart.series.push_back(
            {a.array,
             {},
             {a.l2_load_bytes, a.l2_store_bytes, a.dram_load_bytes, a.dram_store_bytes},
             {},
             ""});
    return chart;
}

// The time per point each limiter needs: the tallest binds.
report::Chart limiter_chart(const VolumePrediction& p) {
    const auto& l = p.limiter;
    report::Chart chart;
    chart.key = "limiters";
    chart.title = fmt::format("Time per point by limiter ({} binds)", limiter_name(l.binding));
    chart.kind = report::ChartKind::bar;
    chart.categories = {limiter_name(Limiter::dram), limiter_name(Limiter::l2),
                        limiter_name(Limiter::l1), limiter_name(Limiter::fp)};
    chart.x_axis = {"limiter", "", false};
    chart.y_axis = {"time per point", "ps", false};
    std::vector<double> picoseconds{l.dram_seconds_per_point * 1e12, l.l2_seconds_per_point * 1e12,
                                    l.l1_seconds_per_point * 1e12, l.fp_seconds_per_point * 1e12};
    if (l.launch_seconds_per_point > 0) { // no bar where the machine gives no launch rate
        chart.categories.push_back(limiter_name(Limiter::launch));
        picoseconds.push_back(l.launch_seconds_per_point * 1e12);
    }
    if (l.dram_in_flight_seconds_per_point > 0) {
        chart.categories.push_back(limiter_name(Limiter::dram_in_flight));
        picoseconds.push_back(l.dram_in_flight_seconds_per_point * 1e12);
    }
    chart.series.push_back({"time per point", {}, std::move(picoseconds), {}, ""});
    return chart;
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
    if (!p.unmodelled.empty())
        doc.tables.push_back(unmodelled_table(p));
    doc.notes = volume_notes(p, machine_id);
    doc.notes.push_back(
        "Bytes per point: a point is one thread and fold instance of the kernel's domain.");
    doc.charts = {volume_chart(p), limiter_chart(p)};
    return doc;
}

} // namespace kerncast::models
