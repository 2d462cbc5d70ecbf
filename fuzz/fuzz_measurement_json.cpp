// Fuzz target: the measurement-record reader (kerncast.measurement/1, validate --records).
#include "fuzz_target.hpp"
#include "kerncast/runtime/measurement.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return kerncast::fuzz::run_one([&] {
        (void)kerncast::runtime::parse_measurement_json(kerncast::fuzz::text_of(data, size),
                                                        "fuzz.json");
    });
}
