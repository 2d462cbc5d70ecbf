#include "kerncast/models/atomics/atomics_view.hpp"

#include "kerncast/report/table_builder.hpp"

#include <fmt/format.h>

namespace kerncast::models::atomics {
namespace {

using report::TableBuilder;

std::optional<double> value_if(bool known, double value) {
    return known ? std::optional<double>(value) : std::nullopt;
}

} // namespace

report::Document counters_view(const std::vector<LaunchUtilization>& launches,
                               const std::string& machine_label, const std::string& origin,
                               const std::string& table_note) {
    report::Document doc;
    doc.schema = atomics_schema;
    doc.title = "Shared-memory atomic utilization (Dong & Pai) from counters: " + origin + " on " +
                machine_label;
    TableBuilder t("launches", "Per launch, the average SM (Dong & Pai Tables 1 and 2)");
    t.columns({{"kernel", "kernel"},
               {"launch", "launch"},
               {"jobs", "N", "warp-instr."},
               {"cas_jobs", "N_c", "warp-instr."},
               {"operations", "O", "wavefronts"},
               {"active_threads", "e"},
               {"average_warps", "n^", "warps"},
               {"queued_cas", "c", "warps"},
               {"active_cycles", "T", "cycles"},
               {"total_cycles", "T(n,e,c)", "cycles"},
               {"service_cycles", "S", "cycles"},
               {"busy_cycles", "B", "cycles"},
               {"utilization", "U"}});
    for (const auto& launch : launches) {
        const auto& r = launch.reading;
        const auto& sm = r.input.sms.front();
        const SmUtilization* u = launch.utilization ? &launch.utilization->sms.front() : nullptr;
        const bool has_jobs = u && u->jobs > 0;
        t.row(launch.kernel, launch.launch_id, sm.fetch_and_op_warps + sm.cas_warps, sm.cas_warps,
              r.operations / r.sm_count, r.input.active_threads, sm.average_warps,
              sm.fetch_and_op_warps + sm.cas_warps > 0
                  ? std::optional<double>(sm.average_warps * sm.cas_warps /
                                          (sm.fetch_and_op_warps + sm.cas_warps))
                  : std::nullopt,
              sm.active_cycles, value_if(has_jobs, has_jobs ? u->service.total_cycles : 0),
              value_if(has_jobs, has_jobs ? u->service.service_cycles : 0),
              value_if(u != nullptr, u ? u->busy_cycles : 0), u ? u->utilization : std::nullopt);
    }
    doc.tables.push_back(t.build());
    if (!launches.empty()) {
        const auto& r = launches.front().reading;
        doc.notes.push_back(fmt::format(
            "per SM = over all SMs / {} SMs ({}): ncu reports these counters as totals and "
            "averages over SMs only, so the model runs for the average SM (docs/atomics.md)",
            r.sm_count, r.sm_count_from));
        doc.notes.push_back("n^ from " + r.average_warps_from + "; T from " + r.active_cycles_from);
        doc.notes.push_back("e = O / N with O = l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom"
                            ".sum: the serialised passes per atomic warp-instruction");
    }
    doc.notes.push_back(table_note);
    return doc;
}

report::Document forecast_view(const AtomicForecast& f,
                               const std::optional<AtomicUtilization>& utilization,
                               const std::string& machine_label, const std::string& table_note) {
    report::Document doc;
    doc.schema = atomics_schema;
    doc.title = "Shared-memory atomic forecast (Dong & Pai): " + f.kernel + " on " + machine_label +
                ", " + f.distribution + " input";

    TableBuilder launch("launch", "Launch and parallelism");
    launch.columns({"quantity", "value", "unit"});
    launch.row("threads_per_block", static_cast<double>(f.threads_per_block), "threads");
    launch.row("thread_blocks", static_cast<double>(f.thread_blocks), "blocks");
    launch.row("shared_memory_per_block", static_cast<double>(f.shared_memory_per_block_bytes),
               "B");
    launch.row("active_blocks_per_sm_limit", static_cast<double>(f.occupancy.active_blocks_per_sm),
               "blocks");
    launch.row("sms_used", static_cast<double>(f.sms_used), "SMs");
    launch.row("resident_warps", f.resident_warps, "warps (n^)");
    launch.row("jobs", f.jobs, "warp-instr. (N, launch)");
    launch.row("cas_jobs", f.cas_jobs, "warp-instr. (N_c, launch)");
    doc.tables.push_back(launch.build());

    TableBuilder accesses("accesses", "Shared-memory atomics");
    accesses.columns({{"statement", "stmt"},
                      {"access", "access"},
                      {"operation", "operation"},
                      {"dtype", "dtype"},
                      {"cas", "CAS"},
                      {"data_dependent", "data-dep."},
                      {"warp_instructions", "warp-instr."},
                      {"active_threads", "e"}});
    for (const auto& a : f.accesses)
        accesses.row(a.statement, a.text, a.operation, a.dtype, a.compare_and_swap,
                     a.data_dependent, static_cast<double>(a.warp_instructions), a.active_threads);
    doc.tables.push_back(accesses.build());

    const auto& sm = f.input.sms.front();
    TableBuilder t("utilization", "The average SM (Dong & Pai Table 2), operation " + f.operation);
    t.columns({{"jobs", "N", "warp-instr."},
               {"cas_jobs", "N_c", "warp-instr."},
               {"active_threads", "e"},
               {"average_warps", "n^", "warps"},
               {"queued_cas", "c", "warps"},
               {"total_cycles", "T(n,e,c)", "cycles"},
               {"service_cycles", "S", "cycles"},
               {"busy_cycles", "B", "cycles"},
               {"kernel_cycles", "T", "cycles"},
               {"utilization", "U"}});
    const double jobs = sm.fetch_and_op_warps + sm.cas_warps;
    const SmUtilization* u = utilization ? &utilization->sms.front() : nullptr;
    t.row(jobs, sm.cas_warps, f.input.active_threads, sm.average_warps,
          jobs > 0 ? sm.average_warps * sm.cas_warps / jobs : 0.0,
          value_if(u != nullptr, u ? u->service.total_cycles : 0),
          value_if(u != nullptr, u ? u->service.service_cycles : 0),
          value_if(u != nullptr, u ? u->busy_cycles : 0),
          value_if(sm.active_cycles > 0, sm.active_cycles), u ? u->utilization : std::nullopt);
    doc.tables.push_back(t.build());

    doc.notes.push_back(
        f.distribution == "solid"
            ? "input: solid image — every pixel one colour; a data value read into an atomic's "
              "address depends only on its innermost subscript k (its channel), value = k, so "
              "the channels fall in distinct banks (the most contention per channel)"
            : "input: uniform image — every data value read into an atomic's address "
              "independent and uniform in 0..255 (e averaged over sampled warps, fixed seed)");
    doc.notes.push_back("e = the largest number of a warp's active threads on one shared-memory "
                        "bank (warp 0 of block 0), averaged over the atomic's sequential "
                        "iterations and weighted by warp-instructions");
    doc.notes.push_back("operation " + f.operation + ": " + f.operation_reason);
    if (sm.active_cycles <= 0)
        doc.notes.push_back("U needs the kernel's active cycles per SM: give --kernel-cycles "
                            "(e.g. sm__cycles_active.avg of a run); B alone bounds the kernel "
                            "from below");
    for (const auto& note : f.notes)
        doc.notes.push_back(note);
    doc.notes.push_back(table_note);
    return doc;
}

report::Document forecast_sweep_view(const std::string& parameter,
                                     const std::vector<SweepForecast>& sweep,
                                     const std::string& machine_label,
                                     const std::string& table_note) {
    report::Document doc;
    doc.schema = atomics_schema;
    const AtomicForecast* first = sweep.empty() ? nullptr : &sweep.front().forecast;
    doc.title = fmt::format("Shared-memory atomic forecast (Dong & Pai) against {}: {} on {}, {} "
                            "input",
                            parameter, first ? first->kernel : "", machine_label,
                            first ? first->distribution : "");
    TableBuilder t("sweep", "The average SM (Dong & Pai Table 2) for each " + parameter);
    t.columns({{"value", parameter},
               {"jobs", "N", "warp-instr."},
               {"active_threads", "e"},
               {"average_warps", "n^", "warps"},
               {"total_cycles", "T(n,e,c)", "cycles"},
               {"service_cycles", "S", "cycles"},
               {"busy_cycles", "B", "cycles"},
               {"kernel_cycles", "T", "cycles"},
               {"utilization", "U"}});
    report::Chart jobs, busy, utilization;
    jobs.key = "jobs";
    jobs.title = "Atomic warp-instructions per SM (N) against " + parameter;
    busy.key = "busy_cycles";
    busy.title = "Busy cycles of the atomic unit per SM (B) against " + parameter;
    utilization.key = "utilization";
    utilization.title = "Utilization of the atomic unit (U) against " + parameter;
    for (report::Chart* chart : {&jobs, &busy, &utilization}) {
        chart->kind = report::ChartKind::scatter;
        chart->x_axis = {parameter, "", false};
        chart->series.emplace_back().name = first ? first->distribution + " input" : "";
    }
    jobs.y_axis = {"N", "warp-instr.", false};
    busy.y_axis = {"B", "cycles", false};
    utilization.y_axis = {"U", "", false};
    bool all_busy = !sweep.empty(), all_utilization = !sweep.empty();
    double smallest = 0, largest = 0;
    for (const auto& entry : sweep) {
        const auto& sm = entry.forecast.input.sms.front();
        const SmUtilization* u = entry.utilization ? &entry.utilization->sms.front() : nullptr;
        const double n = sm.fetch_and_op_warps + sm.cas_warps;
        t.row(entry.value, n, entry.forecast.input.active_threads, sm.average_warps,
              value_if(u != nullptr, u ? u->service.total_cycles : 0),
              value_if(u != nullptr, u ? u->service.service_cycles : 0),
              value_if(u != nullptr, u ? u->busy_cycles : 0),
              value_if(sm.active_cycles > 0, sm.active_cycles), u ? u->utilization : std::nullopt);
        const auto x = static_cast<double>(entry.value);
        smallest = &entry == &sweep.front() ? x : std::min(smallest, x);
        largest = std::max(largest, x);
        jobs.series[0].x.push_back(x);
        jobs.series[0].y.push_back(n);
        all_busy = all_busy && u != nullptr;
        all_utilization = all_utilization && u && u->utilization;
        if (u) {
            busy.series[0].x.push_back(x);
            busy.series[0].y.push_back(u->busy_cycles);
        }
        if (u && u->utilization) {
            utilization.series[0].x.push_back(x);
            utilization.series[0].y.push_back(*u->utilization);
        }
    }
    doc.tables.push_back(t.build());
    // Sizes that span decades read best on a log axis.
    const bool logarithmic = smallest > 0 && largest / smallest >= 100;
    for (report::Chart* chart : {&jobs, &busy, &utilization})
        chart->x_axis.logarithmic = logarithmic;
    doc.charts.push_back(std::move(jobs));
    if (all_busy)
        doc.charts.push_back(std::move(busy));
    if (all_utilization)
        doc.charts.push_back(std::move(utilization));
    if (!all_busy)
        doc.notes.push_back("B and U need the machine's measured service-time table; U also "
                            "--kernel-cycles (docs/atomics.md)");
    if (first)
        for (const auto& note : first->notes)
            doc.notes.push_back(note);
    doc.notes.push_back(table_note);
    return doc;
}

report::Document service_table_view(const ServiceRecord& record, const AtomicServiceTable& table) {
    report::Document doc;
    doc.schema = atomics_schema;
    doc.title = "Shared-memory atomic service times (Dong & Pai sec. 3.2) of " + record.device +
                " from a raw record";
    TableBuilder t("service_times", "Median T(n, e, c) per sample; S = T / n (eq. 3)");
    t.columns({{"operation", "operation"},
               {"queued_warps", "n"},
               {"active_threads", "e"},
               {"total_cycles_no_cas", "T(c=0)", "cycles"},
               {"total_cycles_all_cas", "T(c=n)", "cycles"},
               {"service_cycles_no_cas", "S(c=0)", "cycles"},
               {"service_cycles_all_cas", "S(c=n)", "cycles"}});
    for (const auto& grid : table.operations)
        for (std::size_t n = 0; n < grid.total_cycles.size(); ++n)
            for (std::size_t e = 0; e < grid.total_cycles[n].size(); ++e) {
                const auto& by_cas = grid.total_cycles[n][e];
                const double queued = grid.queued_warps[n];
                t.row(grid.operation, grid.queued_warps[n], grid.active_threads[e], by_cas.front(),
                      by_cas.back(), by_cas.front() / queued, by_cas.back() / queued);
            }
    doc.tables.push_back(t.build());
    doc.notes.push_back(fmt::format("device {} (compute capability {}.{}, {} SMs), measured {}, "
                                    "{} repetitions per point",
                                    record.device, record.cc_major, record.cc_minor,
                                    record.sm_count, record.date_utc, record.repetitions));
    doc.notes.push_back("method: " + record.method);
    return doc;
}

} // namespace kerncast::models::atomics
