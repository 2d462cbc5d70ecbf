// Table 1 from Nsight Compute CSVs with known answers (synthetic CSVs, not measurements).
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/models/atomics/ncu_counters.hpp"
#include "kerncast/runtime/ncu_csv.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace kerncast::models::atomics {
namespace {

const std::string data_dir = std::string(KERNCAST_TEST_DATA_DIR) + "/atomics/data/";

std::string read(const std::string& name) {
    std::ifstream file(data_dir + name);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

MachineModel hand_machine() {
    return load_machine_file(data_dir + "hand-table-machine.json");
}

TEST(AtomicNcuCounters, UtilizationFromACsvWithKnownAnswers) {
    const auto launches = runtime::parse_ncu_csv(read("ncu_atomics.csv"), "ncu_atomics.csv");
    ASSERT_EQ(launches.size(), 2u);
    const MachineModel machine = hand_machine();
    const AtomicServiceGrid& grid = service_grid(machine, "add");

    // Launch 0: 132 SMs from the CSV; per SM N = 1000, N_c = 0, e = 4224000 / 132000 = 32,
    // n^ = 2 warps per active cycle, T = 50000; S(2, 32, 0) = 50 / 2, B = 25000, U = 0.5.
    const AtomicCounterReading first =
        read_atomic_counters(launches[0].metrics, machine, "add", "t");
    EXPECT_EQ(first.sm_count, 132);
    EXPECT_EQ(first.sm_count_from, "device__attribute_multiprocessor_count");
    EXPECT_DOUBLE_EQ(first.input.active_threads, 32);
    EXPECT_DOUBLE_EQ(first.average_warps, 2);
    EXPECT_EQ(first.average_warps_from, "sm__warps_active.avg.per_cycle_active");
    const AtomicUtilization u0 = predict_utilization(grid, first.input);
    EXPECT_DOUBLE_EQ(u0.sms[0].jobs, 1000);
    EXPECT_DOUBLE_EQ(u0.sms[0].busy_cycles, 25000);
    EXPECT_DOUBLE_EQ(*u0.sms[0].utilization, 0.5);

    // Launch 1: SM count from the machine (132), n^ = 3.125 % x 64 = 2, e = 1,
    // c = 2 x 100 / 1000 = 0.2, T(2, 1, 0.2) = 12 + 0.2 x 6 = 13.2, S = 6.6, B = 6600,
    // T = 13200: U = 0.5.
    const AtomicCounterReading second =
        read_atomic_counters(launches[1].metrics, machine, "add", "t");
    EXPECT_EQ(second.sm_count_from, "compute.sm_count of hand-table-h100");
    EXPECT_DOUBLE_EQ(second.average_warps, 2);
    EXPECT_DOUBLE_EQ(second.input.active_threads, 1);
    const AtomicUtilization u1 = predict_utilization(grid, second.input);
    EXPECT_DOUBLE_EQ(u1.sms[0].queued_cas, 0.2);
    EXPECT_NEAR(u1.sms[0].service.service_cycles, 6.6, 1e-12);
    EXPECT_NEAR(u1.sms[0].busy_cycles, 6600, 1e-9);
    EXPECT_NEAR(*u1.sms[0].utilization, 0.5, 1e-12);
}

TEST(AtomicNcuCounters, MissingMetricIsNamed) {
    const auto launches =
        runtime::parse_ncu_csv(read("ncu_missing_wavefronts.csv"), "ncu_missing_wavefronts.csv");
    ASSERT_EQ(launches.size(), 1u);
    try {
        read_atomic_counters(launches[0].metrics, hand_machine(), "add",
                             "ncu_missing_wavefronts.csv, launch 0");
        FAIL() << "a missing metric must be an error";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_EQ(error.message(),
                  "ncu_missing_wavefronts.csv, launch 0: missing metric "
                  "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum (O, shared-memory "
                  "atomic wavefronts (for e))");
    }
}

TEST(AtomicNcuCounters, MalformedCsvIsAnErrorNamingTheLine) {
    try {
        runtime::parse_ncu_csv(read("ncu_malformed.csv"), "ncu_malformed.csv");
        FAIL() << "malformed CSV must be an error";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_EQ(error.where().file, "ncu_malformed.csv");
        EXPECT_EQ(error.where().line, 3);
    }
}

TEST(AtomicNcuCounters, CasAboveAllAtomicsIsAnError) {
    std::map<std::string, runtime::NamedValue> metrics{
        {"smsp__inst_executed_op_shared_atom.sum", {10, "inst"}},
        {"smsp__inst_executed_op_shared_atom_dot_cas.sum", {11, "inst"}}};
    EXPECT_THROW(read_atomic_counters(metrics, hand_machine(), "add", "x"), Error);
}

} // namespace
} // namespace kerncast::models::atomics
