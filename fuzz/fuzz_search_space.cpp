// Fuzz target: search-space files (docs/autotuning.md) — YAML, values, placements, parameters,
// restrictions — and the enumeration of what parses, when it is small enough to enumerate at
// fuzzing speed (the reader itself refuses more than max_space_combinations).
#include "fuzz_target.hpp"
#include "kerncast/kernel/search_space.hpp"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return kerncast::fuzz::run_one([&] {
        using namespace kerncast::kernel;
        const SearchSpace space =
            parse_search_space(kerncast::fuzz::text_of(data, size), "fuzz/space.yaml");
        std::size_t combinations = space.kernel_files.size();
        for (const auto& values : space.block)
            combinations *= values.size();
        for (const auto& values : space.fold)
            combinations *= values.size();
        for (const auto& [name, values] : space.params)
            combinations *= values.size();
        if (combinations > 20000)
            return;
        const std::vector<FoldPlacement> placements(space.kernel_files.size(),
                                                    FoldPlacement::strided);
        (void)enumerate_space(space, placements);
    });
}
