// Speed of explore over autotuning search spaces (issue 44's target: 10,000 configurations in
// under 10 s on two cores): each example space of examples/autotuning/spaces on the A100 with
// all cores, and a 1,953-configuration space of Kernel Tuner's stencil (block_x 32..1024 by
// 32, block_y 1..32, folds 1..4 along x and y, both placements) on the A100 and the H100
// (simulated L1). Configurations per second in the counters.
#include "bench_inputs.hpp"
#include "kerncast/kernel/search_space.hpp"
#include "kerncast/models/volumes/explore.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace kerncast;

struct LoadedSpace {
    std::vector<kernel::KernelSpec> kernels;
    kernel::SpaceEnumeration combinations;
};

LoadedSpace load(const kernel::SearchSpace& space) {
    LoadedSpace loaded;
    std::vector<kernel::FoldPlacement> placements;
    for (const auto& file : space.kernel_files) {
        loaded.kernels.push_back(kernel::load_kernel_file(file));
        placements.push_back(loaded.kernels.back().launch.fold_placement);
    }
    loaded.combinations = kernel::enumerate_space(space, placements);
    return loaded;
}

void run(benchmark::State& state, const LoadedSpace& space, const MachineModel& machine) {
    models::ExploreOptions options;
    options.jobs = 0; // all cores
    std::size_t configurations = 0;
    for (auto _ : state) {
        const auto result =
            models::explore_space(space.kernels, space.combinations, {}, machine, options);
        configurations += result.rows.size();
    }
    state.counters["configurations"] = static_cast<double>(space.combinations.points.size());
    state.counters["configurations_per_s"] =
        benchmark::Counter(static_cast<double>(configurations), benchmark::Counter::kIsRate);
}

const char* const example_spaces[] = {"kt_convolution",
                                      "kt_matmul",
                                      "kt_pnpoly",
                                      "kt_stencil",
                                      "kt_transpose",
                                      "kt_vector_add",
                                      "ktt_bicg_q",
                                      "ktt_bicg_s",
                                      "ktt_coulomb_sum",
                                      "bat_hotspot",
                                      "kt_convolution_staged",
                                      "kt_convolution_shared"};

void BM_ExampleSpace(benchmark::State& state) {
    const std::string name = example_spaces[state.range(0)];
    state.SetLabel(name);
    static std::map<std::string, LoadedSpace> loaded;
    if (!loaded.count(name)) {
        kernel::LoadedSearchSpace space = kernel::load_search_space_with_kernels(
            std::string(KERNCAST_SOURCE_DIR) + "/examples/autotuning/spaces/" + name + ".yaml");
        loaded[name] = {std::move(space.kernels), std::move(space.combinations)};
    }
    run(state, loaded[name], bench::a100_40gb());
}
BENCHMARK(BM_ExampleSpace)->DenseRange(0, 11)->Unit(benchmark::kMillisecond)->UseRealTime();

const LoadedSpace& stencil_10k() {
    static const LoadedSpace space = [] {
        std::string block_x = "[32";
        for (int x = 64; x <= 1024; x += 32)
            block_x += ", " + std::to_string(x);
        block_x += "]";
        return load(kernel::parse_search_space(
            "kernels: [../kt_stencil.yaml]\nblock_x: " + block_x +
                "\nblock_y: [1, 2, 4, 8, 16, 32]\nfold_x: [1, 2, 3, 4]\nfold_y: [1, 2, 3, 4]\n"
                "fold_placement: [consecutive, strided]\nrestrictions: [\"threads <= 1024\"]\n",
            std::string(KERNCAST_SOURCE_DIR) + "/examples/autotuning/spaces/stencil_10k.yaml"));
    }();
    return space;
}

void BM_Stencil10k(benchmark::State& state) {
    run(state, stencil_10k(), state.range(0) ? bench::h100_sxm5() : bench::a100_40gb());
}
BENCHMARK(BM_Stencil10k)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);

} // namespace
