// Throwaway diagnosis of the device codegen mismatches (not part of the tree).
#include "kerncast/codegen/kernel_run.hpp"
#include "kerncast/codegen/reference_interpreter.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>

using namespace kerncast;
using namespace kerncast::codegen;

void check(const std::string& path, std::vector<std::pair<std::string, std::int64_t>> params,
           std::vector<std::string> nvrtc, int repetitions) {
    const auto spec = kernel::load_kernel_file(path);
    const Schedule schedule = lower_kernel(spec, spec.launch, params);
    const GeneratedKernel generated = generate_cuda(schedule);
    runtime::TimingOptions options;
    options.warmup = 0;
    options.repetitions = repetitions;
    options.read_back_buffers = true;
    options.measure_sm_clock = false;
    auto request = timing_request(generated, "dbg.cu", options);
    request.compile_options = nvrtc;
    const runtime::TimedRun run = runtime::time_kernel(request);
    const ReferenceResult reference = run_reference(schedule);
    std::string opts;
    for (auto& o : nvrtc)
        opts += o + " ";
    std::printf("== %s opts=[%s] reps=%d target=%s grid=%lldx%lldx%lld block=%lldx%lldx%lld\n",
                path.c_str(), opts.c_str(), repetitions, run.target.c_str(),
                (long long)request.grid[0], (long long)request.grid[1], (long long)request.grid[2],
                (long long)request.block[0], (long long)request.block[1],
                (long long)request.block[2]);
    if (!run.compile_log.empty())
        std::printf("log: %s\n", run.compile_log.c_str());
    for (size_t b = 0; b < run.buffers.size(); ++b) {
        const ArrayStorage& array = *schedule.find_array(generated.buffer_arrays[b]);
        const auto device = decode_buffer(array, run.buffers[b]);
        const auto& expected = reference.buffers.at(array.decl.name);
        const auto initial = decode_buffer(array, initial_buffer_bytes(array));
        size_t bad = 0, nan = 0, eq_init = 0;
        std::string first;
        for (size_t k = 0; k < device.size(); ++k) {
            const bool off =
                !(std::fabs(device[k] - expected[k]) <= 1e-3 * (1 + std::fabs(expected[k])));
            if (off) {
                ++bad;
                if (std::isnan(device[k]))
                    ++nan;
                if (device[k] == initial[k])
                    ++eq_init;
                if (bad <= 6)
                    first += " [" + std::to_string(k) + "] dev=" + std::to_string(device[k]) +
                             " ref=" + std::to_string(expected[k]) +
                             " init=" + std::to_string(initial[k]);
            }
        }
        std::printf("  %s: %zu elements, %zu off (%zu nan, %zu still initial)%s\n",
                    array.decl.name.c_str(), device.size(), bad, nan, eq_init, first.c_str());
    }
    std::printf("--- source\n%s\n---\n", generated.cuda_source.c_str());
}

int main() {
    const std::string ex = "/work/main/examples/kernels/";
    const std::string td = "/work/main/tests/unit/codegen/data/";
    struct C {
        std::string path;
        std::vector<std::pair<std::string, std::int64_t>> p;
    };
    std::vector<C> cases = {
        {ex + "matmul_tiled16.yaml", {{"n", 48}, {"m", 32}, {"l", 64}}},
        {ex + "hk_matmul.yaml", {}},
        {ex + "dg_diff_2.yaml", {{"nelements", 64}, {"nunit_nodes", 32}}},
        {td + "half_precision.yaml", {}},
    };
    for (auto& c : cases) {
        for (auto opts : std::vector<std::vector<std::string>>{{}, {"-G"}}) {
            for (int reps : {1, 2}) {
                try {
                    check(c.path, c.p, opts, reps);
                } catch (const std::exception& e) {
                    std::printf("error %s: %s\n", c.path.c_str(), e.what());
                }
                if (!opts.empty())
                    break;
            }
        }
    }
}
