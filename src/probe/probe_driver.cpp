// The order of a probe run (docs/probe.md, "What is measured"): per selected group, the
// device plans of its benchmarks (src/probe/benchmarks/), on any ProbeDevice.
#include "benchmarks/benchmark_plans.hpp"
#include "kerncast/probe/runner.hpp"
#include "probe_session.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

namespace kerncast::probe {
namespace {

using namespace benchmarks;

void record_cache_group(ProbeSession& session, const std::string& memory, ProbeLoad load) {
    record_size_search(session, memory, load);
    record_line(session, memory, load);
    record_latency(session, memory, load, 4 * KiB, 128, false, true);
}

void record_constant_group(ProbeSession& session) {
    upload_constant_chain(session, 64);
    SizeSearchOptions l1;
    l1.start_bytes = 256;
    l1.step_bytes = 64;
    l1.max_bytes = 8 * KiB;
    record_constant_size_search(session, "constant_l1", l1);
    SizeSearchOptions l15;
    l15.start_bytes = 8 * KiB;
    l15.step_bytes = 512;
    l15.max_bytes = 62 * KiB;
    record_constant_size_search(session, "constant_l15", l15);
    record_constant_latency(session, "constant_l1", 1 * KiB);
    record_constant_latency(session, "constant_l15", 16 * KiB);
    record_constant_line(session);
}

void record_sharing_group(ProbeSession& session) {
    record_sharing(session, "l1", ProbeLoad::global_ca, "texture", ProbeLoad::texture);
    record_sharing(session, "l1", ProbeLoad::global_ca, "readonly", ProbeLoad::global_nc);
    record_sharing(session, "texture", ProbeLoad::texture, "readonly", ProbeLoad::global_nc);
    record_count_per_sm(session);
}

void record_l2_group(ProbeSession& session) {
    record_size_search(session, "l2", ProbeLoad::global_cg);
    record_l2_line(session);
    record_latency(session, "l2", ProbeLoad::global_cg, 4 * MiB, 128, true, true);
    record_l2_partition(session);
}

} // namespace

ProbeRecord run_probe_on(ProbeDevice& device, const ProbeOptions& options) {
    ProbeSession session(device, options);
    session.setup();
    const auto wanted = [&](const char* group) {
        return std::find(options.groups.begin(), options.groups.end(), group) !=
               options.groups.end();
    };
    const auto started = std::chrono::steady_clock::now();
    record_clock(session); // always: every other timing is interpreted with it
    record_overhead(session, "overhead", "", 5);
    if (wanted("l1")) {
        record_caching(session);
        record_cache_group(session, "l1", ProbeLoad::global_ca);
        record_tag_line(session, "l1", ProbeLoad::global_ca);
    }
    if (wanted("texture"))
        record_cache_group(session, "texture", ProbeLoad::texture);
    if (wanted("readonly"))
        record_cache_group(session, "readonly", ProbeLoad::global_nc);
    if (wanted("constant"))
        record_constant_group(session);
    if (wanted("shared")) {
        record_shared_latency(session);
        record_overhead(session, "shared.overhead", "shared", 3);
    }
    if (wanted("sharing"))
        record_sharing_group(session);
    if (wanted("mwp")) {
        record_departures(session); // before anything writes the cold region
        record_issue_rate(session);
    }
    if (wanted("l2"))
        record_l2_group(session);
    if (wanted("dram") || wanted("mwp"))
        record_dram_latency(session);
    if (wanted("dram"))
        record_loaded_latency(session);
    if (wanted("bandwidth"))
        record_bandwidths(session);
    if (wanted("carveout"))
        record_carveout_size_searches(session);
    if (wanted("tlb"))
        record_tlb(session);
    if (wanted("launch"))
        record_block_launch(session);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    session.progress(fmt::format("done in {:.1f} s", seconds));
    return std::move(session.record);
}

} // namespace kerncast::probe
