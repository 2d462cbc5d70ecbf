// The microbenchmark's raw record: round trip, medians into the machine table, and errors.
#include "kerncast/error.hpp"
#include "kerncast/models/atomics/service_time_record.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::atomics {
namespace {

ServiceRecord small_record() {
    ServiceRecord r;
    r.device = "synthetic GPU (invented values)";
    r.cc_major = 9;
    r.cc_minor = 0;
    r.sm_count = 2;
    r.max_warps_per_sm = 64;
    r.date_utc = "2026-11-24T00:00:00Z";
    r.command = "test";
    r.method = "invented";
    r.repetitions = 3;
    r.series = {{"add", 1, 1, {{10, 12, 11}, {20, 19, 30}}},
                {"add", 1, 32, {{40, 41, 39}, {80, 80, 80}}},
                {"add", 2, 1, {{12, 12, 13}, {18, 17, 19}, {30, 31, 29}}},
                {"add", 2, 32, {{50, 50, 50}, {70, 71, 69}, {110, 110, 120}}}};
    return r;
}

TEST(AtomicServiceRecord, RoundTripThroughText) {
    const ServiceRecord r = small_record();
    const ServiceRecord back = parse_service_record(format_service_record(r), "raw.json");
    EXPECT_EQ(back.device, r.device);
    EXPECT_EQ(back.cc_major, 9);
    ASSERT_EQ(back.series.size(), r.series.size());
    EXPECT_EQ(back.series[3].total_cycles, r.series[3].total_cycles);
}

TEST(AtomicServiceRecord, TableHoldsMedians) {
    const AtomicServiceTable table = service_table_from_record(small_record(), "run");
    ASSERT_EQ(table.operations.size(), 1u);
    const auto& g = table.operations[0];
    EXPECT_EQ(g.queued_warps, (std::vector<int>{1, 2}));
    EXPECT_EQ(g.active_threads, (std::vector<int>{1, 32}));
    EXPECT_EQ(g.total_cycles[0][0], (std::vector<double>{11, 20}));
    EXPECT_EQ(g.total_cycles[1][1], (std::vector<double>{50, 70, 110}));
}

TEST(AtomicServiceRecord, AHoleInTheGridIsNamed) {
    ServiceRecord r = small_record();
    r.series.pop_back();
    try {
        service_table_from_record(r, "run");
        FAIL();
    } catch (const Error& error) {
        EXPECT_EQ(
            error.message(),
            "the record lacks operation add, n = 2, e = 32: its n and e must form a full grid");
    }
}

TEST(AtomicServiceRecord, WrongCasRowCountIsAnErrorAtItsPath) {
    const std::string text = R"({"schema": "kerncast.atomics-raw/1",
 "device": {"name": "x", "compute_capability": "9.0", "sm_count": 1, "max_warps_per_sm": 64},
 "date_utc": "d", "command": "c", "method": "m", "repetitions": 1,
 "series": [{"operation": "add", "queued_warps": 2, "active_threads": 1, "total_cycles": [[1], [2]]}]})";
    try {
        parse_service_record(text, "raw.json");
        FAIL();
    } catch (const Error& error) {
        EXPECT_EQ(error.where().json_path, "/series/0/total_cycles");
        EXPECT_EQ(error.where().line, 4);
    }
}

} // namespace
} // namespace kerncast::models::atomics
