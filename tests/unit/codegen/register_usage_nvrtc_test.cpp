// Registers counted by ptxas through NVRTC (needs the CUDA toolkit, no GPU). The exact counts
// are those of this toolkit (CUDA 13.0) for kerncast's generated code: a new toolkit or a change
// to the generator may move them, and then this test says so.
#include "kerncast/codegen/register_usage.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/runtime/nvrtc_compile.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <thread>

using namespace kerncast;
using namespace kerncast::codegen;

namespace {

kernel::KernelSpec example(const std::string& name) {
    return kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR "/examples/kernels/") + name +
                                    ".yaml");
}

kernel::KernelSpec test_kernel(const std::string& name) {
    return kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR "/tests/unit/codegen/data/") +
                                    name + ".yaml");
}

const MachineModel& a100() {
    static const MachineModel machine = resolve_machine("a100-sxm4-40gb");
    return machine;
}

models::RegisterCount count_at(const kernel::KernelSpec& spec, const kernel::LaunchConfig& launch,
                               const MachineModel& machine = a100()) {
    return RegisterCounter(spec, {}, machine).count(launch);
}

Error error_of(const MachineModel& machine) {
    try {
        (void)register_count_sm(machine);
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error for " << machine.identity.id;
    return Error(ErrorKind::internal, "none");
}

} // namespace

TEST(RegisterUsageNvrtc, ExactCountsOfExamplesForSm80) {
    struct Case {
        const char* kernel;
        int registers;
    };
    for (const Case& c : {Case{"star3d_r4", 32}, Case{"lbm_d3q15_pull", 40},
                          Case{"matmul_tiled16", 31}, Case{"dg_diff_4", 95}}) {
        SCOPED_TRACE(c.kernel);
        const kernel::KernelSpec spec = example(c.kernel);
        const models::RegisterCount count = count_at(spec, spec.launch);
        EXPECT_EQ(count.source, models::RegisterSource::ptxas);
        EXPECT_EQ(count.target, "sm_80");
        EXPECT_EQ(count.per_thread, c.registers);
        EXPECT_EQ(count.stack_frame_bytes, 0);
        EXPECT_EQ(count.spill_store_bytes, 0);
        EXPECT_EQ(count.spill_load_bytes, 0);
    }
}

// The code is specialised on the block: __launch_bounds__(1024) leaves 64 registers per thread
// (65536 per SM / 1024 threads), so dg_diff_4's 95 no longer fit and ptxas spills.
TEST(RegisterUsageNvrtc, TheBlockSizeCapsRegistersAndForcesSpills) {
    // dg_diff_4 without its shared tile (which fixes dg_diff_4's block at 16 x 16).
    const kernel::KernelSpec spec = test_kernel("dg_diff_global");
    const models::RegisterCount at_256 = count_at(spec, {{256, 1, 1}, {1, 1, 1}});
    const models::RegisterCount at_1024 = count_at(spec, {{1024, 1, 1}, {1, 1, 1}});
    EXPECT_EQ(at_256.per_thread, 125);
    EXPECT_EQ(at_256.spill_store_bytes, 0);
    EXPECT_EQ(at_1024.per_thread, 64);
    EXPECT_EQ(at_1024.spill_store_bytes, 108);
    EXPECT_EQ(at_1024.spill_load_bytes, 108);
    EXPECT_EQ(at_1024.stack_frame_bytes, 112);
}

// A run-time-indexed private array lives in local memory: 256 doubles are a 2048-byte stack
// frame, and the kernel needs more registers than a plain copy (8, the fewest any kernel here
// uses: pointers and the index).
TEST(RegisterUsageNvrtc, PrivateArrayVersusTrivialKernel) {
    const kernel::KernelSpec big = test_kernel("private_array_256");
    const kernel::KernelSpec copy = test_kernel("trivial_copy");
    const models::RegisterCount array = count_at(big, big.launch);
    const models::RegisterCount trivial = count_at(copy, copy.launch);
    EXPECT_EQ(trivial.per_thread, 8);
    EXPECT_EQ(trivial.stack_frame_bytes, 0);
    EXPECT_EQ(array.per_thread, 38);
    EXPECT_EQ(array.stack_frame_bytes, 256 * 8);
    EXPECT_GT(array.per_thread, trivial.per_thread);
}

TEST(RegisterUsageNvrtc, CompilesForTheMachinesSm) {
    const kernel::KernelSpec spec = example("star3d_r4");
    const models::RegisterCount h100 =
        count_at(spec, spec.launch, resolve_machine("h100-sxm5-80gb"));
    EXPECT_EQ(h100.target, "sm_90");
    EXPECT_EQ(h100.per_thread, 32);
    EXPECT_EQ(register_count_sm(resolve_machine("rtx-a6000")), 86);
}

TEST(RegisterUsageNvrtc, CachesBySourceAndIsThreadSafe) {
    const kernel::KernelSpec spec = example("star3d_r4");
    RegisterCounter counter(spec, {}, a100());
    const kernel::LaunchConfig a{{32, 4, 4}, {1, 1, 2}}, b{{64, 2, 8}, {1, 1, 1}};
    const models::RegisterCount first = counter.count(a);
    EXPECT_EQ(counter.compilations(), 1u);
    const models::RegisterCount again = counter.count(a);
    EXPECT_EQ(counter.compilations(), 1u);
    EXPECT_EQ(counter.cache_hits(), 1u);
    EXPECT_EQ(again.per_thread, first.per_thread);
    (void)counter.count(b);
    EXPECT_EQ(counter.compilations(), 2u);

    // Parameters are compiled in: another n is another source.
    RegisterCounter other_size(spec, {{"nx", 320}}, a100());
    (void)other_size.count(a);
    EXPECT_EQ(other_size.compilations(), 1u);

    // Four threads, three launches, each counted by two threads: all agree with one thread.
    RegisterCounter shared(spec, {}, a100());
    const std::vector<kernel::LaunchConfig> launches = {
        {{32, 4, 4}, {1, 1, 2}}, {{16, 2, 32}, {1, 2, 1}}, {{1024, 1, 1}, {1, 1, 1}}};
    std::vector<std::vector<int>> seen(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (std::size_t k = 0; k < launches.size(); ++k)
                if ((k + t) % 2 == 0 || t == 3)
                    seen[t].push_back(shared.count(launches[k]).per_thread);
        });
    for (auto& thread : threads)
        thread.join();
    for (const auto& counts : seen)
        for (int registers : counts)
            EXPECT_GT(registers, 0);
    EXPECT_EQ(seen[3], (std::vector<int>{count_at(spec, launches[0]).per_thread,
                                         count_at(spec, launches[1]).per_thread,
                                         count_at(spec, launches[2]).per_thread}));
    // Eight calls: each one a compilation or a cache hit; two threads may race to compile the
    // same launch, but every launch is compiled at least once.
    EXPECT_EQ(shared.compilations() + shared.cache_hits(), 8u);
    EXPECT_GE(shared.compilations(), 3u);
}

// Counting ahead in batches gives each launch what counting it alone gives, in fewer NVRTC
// runs: star3d_r4 (registers that differ by block shape and fold) and a kernel with f16
// arrays (whose source includes cuda_fp16.h, which a batch must hoist out of its namespaces),
// a launch the generator refuses left to count(), and a repeated launch counted once.
TEST(RegisterUsageNvrtc, BatchesCountWhatSingleCompilationsCount) {
    using Launches = std::vector<kernel::LaunchConfig>;
    const std::vector<std::pair<kernel::KernelSpec, Launches>> cases{
        {example("star3d_r4"),
         {{{32, 4, 4}, {1, 1, 2}},
          {{64, 2, 8}, {1, 1, 1}},
          {{16, 2, 32}, {1, 2, 1}},
          {{1024, 1, 1}, {1, 1, 1}},
          {{32, 2, 2}, {1, 1, 4}},
          {{256, 2, 2}, {1, 1, 1}},
          {{32, 4, 4}, {1, 1, 2}}}}, // again: counted once
        {test_kernel("fold_fast_path_half"),
         {{{32, 1, 1}, {4, 1, 1}},
          {{128, 1, 1}, {1, 1, 1}},
          {{256, 1, 1}, {4, 1, 1}},
          {{64, 1, 1}, {2, 1, 1}}}}};
    for (const auto& [spec, launches] : cases) {
        SCOPED_TRACE(spec.name);
        std::set<std::string> distinct;
        for (const auto& launch : launches)
            distinct.insert(fmt::format("{}", launch.block[0] * 1000000 + launch.block[1] * 1000 +
                                                  launch.block[2] + launch.fold[0] * 7 +
                                                  launch.fold[1] * 11 + launch.fold[2] * 13));
        const std::size_t batches = (distinct.size() + 2) / 3;
        RegisterCounter batched(spec, {}, a100());
        batched.prepare(launches, 2, 3);
        EXPECT_EQ(batched.compilations(), batches);
        for (const auto& launch : launches) {
            RegisterCounter alone(spec, {}, a100());
            const models::RegisterCount expected = alone.count(launch);
            const models::RegisterCount counted = batched.count(launch);
            EXPECT_EQ(counted.per_thread, expected.per_thread);
            EXPECT_EQ(counted.stack_frame_bytes, expected.stack_frame_bytes);
            EXPECT_EQ(counted.spill_store_bytes, expected.spill_store_bytes);
            EXPECT_EQ(counted.target, expected.target);
        }
        EXPECT_EQ(batched.compilations(), batches); // count() compiled nothing more
    }
    // A launch the generator refuses (a block along y for a kernel that maps no index there) is
    // left out of the batches, and count() reports it.
    RegisterCounter counter(test_kernel("fold_fast_path_half"), {}, a100());
    const kernel::LaunchConfig refused{{32, 2, 1}, {1, 1, 1}};
    counter.prepare({refused, {{32, 1, 1}, {1, 1, 1}}}, 1);
    EXPECT_EQ(counter.compilations(), 1u);
    EXPECT_THROW(counter.count(refused), Error);
}

// A cache directory keeps counts between counters (runs): a second counter compiles nothing
// it finds there, and gets what the compilation gave; a damaged entry is compiled again and
// rewritten; a directory that cannot be made only costs the compilations.
TEST(RegisterUsageNvrtc, CountsPersistInTheCacheDirectory) {
    const std::filesystem::path directory =
        std::filesystem::temp_directory_path() / "kerncast_register_cache_test";
    std::filesystem::remove_all(directory);
    const kernel::KernelSpec spec = example("star3d_r4");
    const kernel::LaunchConfig a{{32, 4, 4}, {1, 1, 2}}, b{{64, 2, 8}, {1, 1, 1}};
    RegisterCounter first(spec, {}, a100(), directory.string());
    const models::RegisterCount counted = first.count(a);
    (void)first.count(b);
    EXPECT_EQ(first.compilations(), 2u);
    EXPECT_EQ(first.disk_hits(), 0u);
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory))
        files.push_back(entry.path());
    ASSERT_EQ(files.size(), 2u);
    EXPECT_NE(files[0].filename().string().find("-sm_80-nvrtc_" + runtime::nvrtc_version()),
              std::string::npos)
        << files[0];

    RegisterCounter second(spec, {}, a100(), directory.string());
    const models::RegisterCount read = second.count(a);
    EXPECT_EQ(second.compilations(), 0u);
    EXPECT_EQ(second.disk_hits(), 1u);
    EXPECT_EQ(read.per_thread, counted.per_thread);
    EXPECT_EQ(read.target, counted.target);
    EXPECT_EQ(read.spill_store_bytes, counted.spill_store_bytes);
    EXPECT_EQ(read.source, models::RegisterSource::ptxas);

    for (const auto& file : files) // damaged entries: read as absent
        std::ofstream(file) << "not a count\n";
    RegisterCounter third(spec, {}, a100(), directory.string());
    EXPECT_EQ(third.count(a).per_thread, counted.per_thread);
    EXPECT_EQ(third.compilations(), 1u);
    RegisterCounter fourth(spec, {}, a100(), directory.string());
    (void)fourth.count(a);
    EXPECT_EQ(fourth.disk_hits(), 1u); // rewritten by the third

    RegisterCounter unwritable(spec, {}, a100(), "/proc/kerncast/no/such/cache");
    EXPECT_EQ(unwritable.count(a).per_thread, counted.per_thread);
    EXPECT_EQ(unwritable.compilations(), 1u);
    std::filesystem::remove_all(directory);
}

TEST(RegisterUsageNvrtc, MachinesThisNvrtcCannotCompileFor) {
    // CUDA 13.0's NVRTC compiles for compute capability 7.5 and newer.
    Error gtx280 = error_of(resolve_machine("gtx280"));
    EXPECT_EQ(gtx280.kind(), ErrorKind::unavailable);
    EXPECT_EQ(gtx280.message(),
              "machine 'gtx280' has compute capability 1.3: this NVRTC cannot compile for it to "
              "count registers; the oldest compute capability it supports is 7.5");
    EXPECT_NE(error_of(resolve_machine("v100-pcie-32gb")).message().find("7.0"), std::string::npos);
    EXPECT_NE(error_of(resolve_machine("hk-example")).message().find("'hk-example'"),
              std::string::npos);

    // Newer than 7.5 but not one of NVRTC's targets: no machine code, so no count.
    MachineModel odd = a100();
    odd.identity.id = "sm101-part";
    odd.identity.cc_major = 10;
    odd.identity.cc_minor = 1;
    const Error e = error_of(odd);
    EXPECT_EQ(e.kind(), ErrorKind::unavailable);
    EXPECT_EQ(e.message(), "machine 'sm101-part' has compute capability 10.1: this NVRTC cannot "
                           "generate machine code for it to count registers");
    ASSERT_FALSE(e.notes().empty());
    EXPECT_NE(e.notes()[0].find("7.5, 8.0, 8.6"), std::string::npos);
    // The counter checks up front, before any launch.
    EXPECT_THROW(RegisterCounter(example("star3d_r4"), {}, resolve_machine("gtx280")), Error);
}

TEST(RegisterUsageNvrtc, LaunchesTheGeneratorRejectsAreInputErrors) {
    const kernel::KernelSpec spec = example("star3d_r4");
    RegisterCounter unknown_parameter(spec, {{"nw", 5}}, a100());
    try {
        (void)unknown_parameter.count(spec.launch);
        FAIL() << "unknown parameter accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        EXPECT_NE(e.message().find("nw"), std::string::npos) << e.describe();
    }
    EXPECT_EQ(unknown_parameter.compilations(), 0u);
}
