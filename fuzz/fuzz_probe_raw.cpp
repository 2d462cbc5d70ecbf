// Fuzz target: the probe's raw-series reader (raw.json, probe --replay) and the analysis a
// replay runs on what it read.
#include "fuzz_target.hpp"
#include "kerncast/probe/analysis.hpp"
#include "kerncast/probe/raw_series.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return kerncast::fuzz::run_one([&] {
        const kerncast::probe::ProbeRecord record =
            kerncast::probe::parse_probe_record(kerncast::fuzz::text_of(data, size), "raw.json");
        (void)kerncast::probe::analyse_probe_record(record);
    });
}
