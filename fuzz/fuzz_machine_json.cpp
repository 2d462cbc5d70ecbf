// Fuzz target: the machine-file reader and validator (kerncast.machine/1).
#include "fuzz_target.hpp"
#include "kerncast/machine/machine_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return kerncast::fuzz::run_one([&] {
        (void)kerncast::parse_machine_json(kerncast::fuzz::text_of(data, size), "fuzz.json");
    });
}
