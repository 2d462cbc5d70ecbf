// Fuzz target: the workload reader (kerncast.workload/1, the MWP-CWP model's input).
#include "fuzz_target.hpp"
#include "kerncast/models/mwp_cwp/workload.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return kerncast::fuzz::run_one([&] {
        (void)kerncast::models::parse_workload_json(kerncast::fuzz::text_of(data, size),
                                                    "fuzz.json");
    });
}
