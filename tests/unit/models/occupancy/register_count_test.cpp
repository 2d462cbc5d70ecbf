// Registers per thread: the --registers grammar, the precedence command line > kernel file >
// ptxas, the notes, and that the count reaches the occupancy of the volume model and explore.
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/occupancy/register_count.hpp"
#include "kerncast/models/volumes/explore.hpp"
#include "kerncast/models/volumes/volume_notes.hpp"
#include "kerncast/models/volumes/volumes.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::models;

namespace {

kernel::KernelSpec star3d() {
    return kernel::load_kernel_file(std::string(KERNCAST_SOURCE_DIR) +
                                    "/examples/kernels/star3d_r4.yaml");
}

RegisterRequest count_of(int registers) {
    return {RegisterRequest::Kind::count, registers};
}

} // namespace

TEST(RegisterCount, ParsesTheRegistersOption) {
    EXPECT_EQ(parse_register_request("", "--registers").kind, RegisterRequest::Kind::none);
    EXPECT_EQ(parse_register_request("auto", "--registers").kind, RegisterRequest::Kind::automatic);
    for (int value : {0, 1, 40, 255}) {
        const RegisterRequest request = parse_register_request(std::to_string(value), "--r");
        EXPECT_EQ(request.kind, RegisterRequest::Kind::count);
        EXPECT_EQ(request.count, value);
    }
    for (const char* bad : {"256", "-1", "1000", "12x", "auto1", "Auto", " 3", "0x10", "4e1",
                            "99999999999999999999"}) {
        try {
            (void)parse_register_request(bad, "--registers");
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::usage) << bad;
            EXPECT_EQ(e.message(), std::string("--registers: '") + bad +
                                       "' is neither 'auto' nor a register count from 0 to 255");
        }
    }
}

TEST(RegisterCount, CommandLineThenKernelFile) {
    kernel::KernelSpec with_file = star3d();
    with_file.registers_per_thread = 40;
    const kernel::KernelSpec without_file = star3d();
    ASSERT_FALSE(without_file.registers_per_thread);

    // The command line wins, even 0 (registers do not limit) over the file's count.
    auto count = fixed_register_count(count_of(64), with_file);
    ASSERT_TRUE(count);
    EXPECT_EQ(count->per_thread, 64);
    EXPECT_EQ(count->source, RegisterSource::command_line);
    count = fixed_register_count(count_of(0), with_file);
    ASSERT_TRUE(count);
    EXPECT_EQ(count->per_thread, 0);
    EXPECT_EQ(count->source, RegisterSource::command_line);

    // --registers auto asks for ptxas (nullopt: the caller compiles), over the file's count too.
    EXPECT_FALSE(fixed_register_count({RegisterRequest::Kind::automatic, 0}, with_file));
    EXPECT_FALSE(fixed_register_count({RegisterRequest::Kind::automatic, 0}, without_file));

    // Without --registers: the kernel file's count, else unknown.
    count = fixed_register_count({}, with_file);
    ASSERT_TRUE(count);
    EXPECT_EQ(count->per_thread, 40);
    EXPECT_EQ(count->source, RegisterSource::kernel_file);
    count = fixed_register_count({}, without_file);
    ASSERT_TRUE(count);
    EXPECT_EQ(count->per_thread, 0);
    EXPECT_EQ(count->source, RegisterSource::unknown);
}

TEST(RegisterCount, NotesSayWhereTheCountCameFrom) {
    EXPECT_EQ(register_source_name(RegisterSource::command_line), std::string("command line"));
    EXPECT_EQ(register_source_name(RegisterSource::kernel_file), std::string("kernel file"));
    EXPECT_EQ(register_source_name(RegisterSource::ptxas), std::string("ptxas"));
    EXPECT_EQ(register_source_name(RegisterSource::unknown), std::string("unknown"));

    EXPECT_NE(register_count_note({}).find("occupancy assumes they do not limit"),
              std::string::npos);
    EXPECT_EQ(register_count_note({40, RegisterSource::kernel_file}),
              "Registers per thread: 40 (the kernel file's registers_per_thread).");
    EXPECT_EQ(register_count_note({64, RegisterSource::command_line}),
              "Registers per thread: 64 (command line).");
    RegisterCount ptxas{72, RegisterSource::ptxas, "sm_80", 512, 0, 0};
    EXPECT_NE(register_count_note(ptxas).find("72, from ptxas (NVRTC, sm_80)"), std::string::npos);
    EXPECT_EQ(register_count_note(ptxas).find("spills"), std::string::npos);
    ptxas.spill_store_bytes = 24;
    ptxas.spill_load_bytes = 16;
    EXPECT_NE(register_count_note(ptxas).find("It spills: 24 B stored, 16 B loaded per thread"),
              std::string::npos);
}

// A100: 65536 registers per SM, 64 warps per SM. A 512-thread block (16 warps) fits 4 times by
// warps; at 64 registers per thread a block takes 16 x 2048 = 32768 registers: 2 blocks; at
// 128 registers: 1 block. The wave shrinks with them (Ernst et al. 2023, sec. 4.4).
TEST(RegisterCount, LimitsTheOccupancyOfTheVolumeModel) {
    const MachineModel a100 = resolve_machine("a100-sxm4-40gb");
    const auto analysis = analysis::analyze(star3d(), {{32, 4, 4}, {1, 1, 2}});
    const auto bound = analysis::bind(analysis);
    const std::int64_t sms = a100.compute.sm_count->value;
    struct Case {
        RegisterCount registers;
        int blocks_per_sm;
        OccupancyLimit limit;
    };
    for (const Case& c :
         {Case{{}, 4, OccupancyLimit::warps},
          Case{{32, RegisterSource::kernel_file}, 4, OccupancyLimit::warps},
          Case{{64, RegisterSource::command_line}, 2, OccupancyLimit::registers},
          Case{{128, RegisterSource::ptxas, "sm_80"}, 1, OccupancyLimit::registers}}) {
        VolumeOptions options;
        options.registers = c.registers;
        const VolumePrediction p = predict_volumes(analysis, bound, a100, options);
        EXPECT_EQ(p.placement.registers.per_thread, c.registers.per_thread);
        EXPECT_EQ(p.placement.registers.source, c.registers.source);
        EXPECT_EQ(p.placement.occupancy.active_blocks_per_sm, c.blocks_per_sm)
            << c.registers.per_thread;
        EXPECT_EQ(p.placement.occupancy.binding_limit, c.limit) << c.registers.per_thread;
        EXPECT_EQ(p.placement.wave_blocks, c.blocks_per_sm * sms);
        const std::vector<std::string> notes = volume_notes(p, "a100-sxm4-40gb");
        EXPECT_NE(std::find(notes.begin(), notes.end(), register_count_note(c.registers)),
                  notes.end());
    }
}

TEST(RegisterCount, ExploreAsksForEachLaunch) {
    const MachineModel a100 = resolve_machine("a100-sxm4-40gb");
    ExploreOptions options;
    options.blocks = {{32, 4, 4}, {32, 2, 8}, {64, 4, 4}};
    options.folds = {{{1, 1, 1}, std::nullopt}};
    options.jobs = 2;
    options.volume.registers = {255, RegisterSource::command_line}; // overridden below
    // 512-thread blocks get 64 registers (2 blocks per SM); the 1024-thread block fails.
    options.registers_for_launch = [](const kernel::LaunchConfig& launch) {
        if (launch.block[0] == 64)
            throw_input_error("no count for 64x4x4");
        return RegisterCount{64 + static_cast<int>(launch.block[2]), RegisterSource::ptxas,
                             "sm_80"};
    };
    const ExploreResult result = explore(star3d(), {}, a100, options);
    ASSERT_EQ(result.rows.size(), 3u);
    for (std::size_t k = 0; k < 2; ++k) {
        const ExploreRow& row = result.rows[k];
        ASSERT_TRUE(row.prediction) << row.skipped;
        EXPECT_EQ(row.prediction->placement.registers.source, RegisterSource::ptxas);
        EXPECT_EQ(row.prediction->placement.registers.per_thread, 64 + row.launch.block[2]);
        EXPECT_EQ(row.prediction->placement.occupancy.active_blocks_per_sm,
                  1); // 68 or 72 registers
    }
    EXPECT_FALSE(result.rows[2].prediction);
    EXPECT_EQ(result.rows[2].skipped, "no count for 64x4x4");
}
