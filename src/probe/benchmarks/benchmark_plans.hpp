// The device plans of the benchmark kinds: each records one benchmark (or a family of them)
// into the session's record through the ProbeDevice. probe_driver.cpp calls them in the
// order of docs/probe.md's groups.
#pragma once

#include "../probe_session.hpp"

#include <string>

namespace kerncast::probe::benchmarks {

// clock_benchmark.cpp
void record_clock(ProbeSession& session);
void record_overhead(ProbeSession& session, const std::string& name, const std::string& memory,
                     int repetitions);
// caching_benchmark.cpp
void record_caching(ProbeSession& session);
// size_benchmark.cpp
void record_size_search(ProbeSession& session, const std::string& memory, ProbeLoad load);
void record_constant_size_search(ProbeSession& session, const std::string& memory,
                                 const SizeSearchOptions& search);
void record_carveout_size_searches(ProbeSession& session);
// line_benchmark.cpp
void record_line(ProbeSession& session, const std::string& memory, ProbeLoad load);
void record_l2_line(ProbeSession& session);
void record_constant_line(ProbeSession& session);
// tag_line_benchmark.cpp: strides tag_line_min_stride_bytes, twice that, ... up to the max.
inline constexpr int tag_line_min_stride_bytes = 32;
inline constexpr int tag_line_max_stride_bytes = 1024;
void record_tag_line(ProbeSession& session, const std::string& memory, ProbeLoad load);
// latency_benchmark.cpp
void record_latency(ProbeSession& session, const std::string& memory, ProbeLoad load,
                    std::int64_t bytes, int stride_bytes, bool random, bool warm);
void record_constant_latency(ProbeSession& session, const std::string& memory,
                             std::int64_t wrap_bytes);
void record_shared_latency(ProbeSession& session);
void record_dram_latency(ProbeSession& session);
// Uploads the __constant__ chain with the given stride (constant chases read it).
void upload_constant_chain(ProbeSession& session, int stride_bytes);
// sharing_benchmark.cpp
void record_sharing(ProbeSession& session, const std::string& a, ProbeLoad a_load,
                    const std::string& b, ProbeLoad b_load);
void record_count_per_sm(ProbeSession& session);
// departure_benchmark.cpp
void record_departures(ProbeSession& session);
// issue_rate_benchmark.cpp
void record_issue_rate(ProbeSession& session);
// l2_partition_benchmark.cpp
void record_l2_partition(ProbeSession& session);
// bandwidth_benchmark.cpp
void record_bandwidths(ProbeSession& session);
// loaded_latency_benchmark.cpp
void record_loaded_latency(ProbeSession& session);
// tlb_benchmark.cpp
void record_tlb(ProbeSession& session);
// block_launch_benchmark.cpp
void record_block_launch(ProbeSession& session);

} // namespace kerncast::probe::benchmarks
