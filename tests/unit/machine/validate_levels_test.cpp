// The rules of memory levels, their tables, the hierarchy, same_cache_as and TLBs
// (validate_levels.cpp).
#include "validate_fixture.hpp"

#include <fmt/format.h>

using namespace kerncast;
using namespace kerncast::machine_test;

TEST(ValidateMachine, SectorMustDivideLine) {
    MachineModel m = valid_machine();
    m.memory[0].sector_bytes->value = 48;
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "sector_bytes (48) must divide line_bytes (128)");
}

TEST(ValidateMachine, WaysMustDivideTheLines) {
    MachineModel m = valid_machine();
    const std::int64_t lines = m.memory[0].size_bytes->value / m.memory[0].line_bytes->value;
    m.memory[0].ways = Sourced<int>{static_cast<int>(lines), "sheet"}; // fully associative
    EXPECT_NO_THROW(validate_machine(m, "x"));
    m.memory[0].ways->value = 3;
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "ways (3) must divide the lines of the level (size_bytes / "
                                "line_bytes)");
    EXPECT_EQ(error->where().json_path, "/memory/0/ways");
}

TEST(ValidateMachine, SustainedBandwidthCannotExceedPeak) {
    MachineModel m = valid_machine();
    m.memory[2].sustained_bandwidth_gbs = Sourced<double>{600, "sheet"};
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "sustained_bandwidth_gbs (600) exceeds peak_bandwidth_gbs (500)");
    EXPECT_EQ(error->where().json_path, "/memory/2/sustained_bandwidth_gbs");
}

TEST(ValidateMachine, L1MustBeSmallerThanL2) {
    MachineModel m = valid_machine();
    m.memory[0].size_bytes->value = 8 << 20;
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(),
              "the L1 (8388608 B per SM) must be smaller than the L2 (4194304 B)");
}

TEST(ValidateMachine, SharedMemoryCannotExceedTheUnifiedL1) {
    MachineModel m = valid_machine();
    m.compute.shared_memory_per_sm_bytes = Sourced<int>{228 * 1024, "sheet"};
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().json_path, "/compute/shared_memory_per_sm_bytes");
}

TEST(ValidateMachine, DramIsRequiredAndLevelsAreOrdered) {
    MachineModel m = valid_machine();
    m.memory.pop_back();
    auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "missing the required memory level \"dram\"");
    EXPECT_EQ(error->where().json_path, "/memory");

    m = valid_machine();
    std::swap(m.memory[0], m.memory[1]);
    error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().json_path, "/memory/1/name");
}

TEST(ValidateMachine, UnknownLevelNameSuggestsOne) {
    MachineModel m = valid_machine();
    m.memory[1].name = "l22";
    const auto error = validation_error(m);
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "unknown memory level \"l22\"");
    EXPECT_TRUE(has_note(*error, "did you mean \"l2\"?"));
}

TEST(ValidateMachine, SameCacheAsNamesAnotherCacheOfTheMachine) {
    const auto unknown = expect_invalid(
        replaced(probed(), "\"same_cache_as\": \"l1\"", "\"same_cache_as\": \"l11\""),
        "same_cache_as names no memory level or special memory: \"l11\"",
        "/special_memories/0/same_cache_as", "\"l11\"");
    ASSERT_TRUE(unknown);
    EXPECT_TRUE(has_note(*unknown, "did you mean \"l1\"?"));
    EXPECT_TRUE(has_note(*unknown, "\"l1\", \"l2\", \"texture\""));

    expect_invalid(
        replaced(probed(), "\"same_cache_as\": \"l1\"", "\"same_cache_as\": \"texture\""),
        "\"texture\" cannot be the same cache as itself", "/special_memories/0/same_cache_as",
        "\"texture\"}");
    expect_invalid(replaced(probed(), "\"same_cache_as\": \"l1\"", "\"same_cache_as\": \"dram\""),
                   "same_cache_as must name a cache, not \"dram\"",
                   "/special_memories/0/same_cache_as", "\"dram\"}");
    expect_invalid(replaced(probed(), "\"peak_bandwidth_gbs\": 500",
                            "\"peak_bandwidth_gbs\": 500, \"same_cache_as\": \"l2\""),
                   "\"dram\" is not a cache; same_cache_as applies to caches",
                   "/memory/2/same_cache_as", "\"l2\"}");
}

TEST(ValidateMachine, SameCacheAsHasNoCycles) {
    // l1 -> texture -> l1: reported at the first level of the cycle.
    const auto cycle =
        expect_invalid(replaced(probed(), "\"size_bytes\": \"128 KiB\",",
                                "\"size_bytes\": \"128 KiB\", \"same_cache_as\": \"texture\","),
                       "same_cache_as forms a cycle: l1 -> texture -> l1",
                       "/memory/0/same_cache_as", "\"texture\",");
    ASSERT_TRUE(cycle);
    EXPECT_TRUE(has_note(*cycle, "name the cache once"));

    // A longer cycle that does not pass through the first level that names a cache.
    MachineModel m = parse_machine_json(probed(), "probed.json");
    m.special_memories.push_back(m.special_memories[0]);
    m.special_memories[1].name = "readonly";
    m.special_memories[0].same_cache_as->value = "readonly";
    m.special_memories[1].same_cache_as->value = "texture";
    m.memory[0].same_cache_as = Sourced<std::string>{"texture", "probe"};
    const auto longer = caught_error([&] { validate_machine(m, "x"); });
    ASSERT_TRUE(longer);
    EXPECT_EQ(longer->message(), "same_cache_as forms a cycle: texture -> readonly -> texture");
    EXPECT_EQ(longer->where().json_path, "/special_memories/0/same_cache_as");

    // A chain without a cycle is fine (l1 -> texture -> readonly -> l2).
    m.special_memories[1].same_cache_as->value = "l2";
    EXPECT_NO_THROW(validate_machine(m, "x"));
}

TEST(ValidateMachine, TlbRules) {
    expect_invalid(replaced(probed(), "\"l2_tlb\"", "\"l1_tlb\""), "TLB \"l1_tlb\" is given twice",
                   "/tlbs/1/name", "\"l1_tlb\", \"shared_by\": \"gpu\"");
    expect_invalid(replaced(probed(), "\"l2_tlb\"", "\"L2 TLB\""),
                   "expected a TLB name of lower-case letters, digits and '_' such as \"l1_tlb\", "
                   "got \"L2 TLB\"",
                   "/tlbs/1/name", "\"L2 TLB\"");
    expect_invalid(replaced(probed(), "\"page_bytes\": \"2 MiB\"", "\"page_bytes\": \"3 MiB\""),
                   "page_bytes must be a power of two, got 3145728", "/tlbs/0/page_bytes",
                   "\"3 MiB\"");
    expect_invalid(replaced(probed(), "\"reach_bytes\": \"32 MiB\"", "\"reach_bytes\": \"1 MiB\""),
                   "reach_bytes (1048576) is less than one page (page_bytes 2097152)",
                   "/tlbs/0/reach_bytes", "\"1 MiB\"");
    expect_invalid(replaced(probed(), "\"reach_bytes\": \"32 MiB\"", "\"reach_bytes\": 0"),
                   "must be positive, got 0", "/tlbs/0/reach_bytes",
                   "0,\n     \"page_bytes\": \"2 MiB\", \"miss_latency_cycles\": 40");
    expect_invalid(replaced(probed(), "\"page_bytes\": \"2 MiB\"", "\"page_bytes\": -4096"),
                   "must be positive, got -4096", "/tlbs/0/page_bytes", "-4096");
    expect_invalid(replaced(probed(), "\"miss_latency_cycles\": 40", "\"miss_latency_cycles\": 0"),
                   "must be positive, got 0", "/tlbs/0/miss_latency_cycles", "0},");
    expect_invalid(replaced(probed(), "\"shared_by\": \"gpu\", \"source\": \"probe\", \"reach",
                            "\"shared_by\": \"device\", \"source\": \"probe\", \"reach"),
                   "expected one of \"sm\", \"tpc\", \"gpc\", \"gpu\", got \"device\"",
                   "/tlbs/1/shared_by", "\"device\"");
    // A value with a source of its own is fine.
    EXPECT_NO_THROW(parse_machine_json(
        replaced(probed(), "\"reach_bytes\": \"32 MiB\"",
                 "\"reach_bytes\": {\"value\": \"32 MiB\", \"source\": \"sheet\"}"),
        "probed.json"));
}

TEST(ValidateMachine, CarveoutSizeRules) {
    const std::string path = "/memory/0/effective_size_by_carveout";
    expect_invalid(replaced(probed(), "{\"shared_kib\": 0,", "{\"shared_kib\": 100,"),
                   "entries must be sorted by shared_kib (64 comes after 100)",
                   path + "/1/shared_kib", "64, \"effective_size_bytes\"");
    expect_invalid(replaced(probed(), "{\"shared_kib\": 64,", "{\"shared_kib\": 0,"),
                   "carve-out 0 KiB is given twice", path + "/1/shared_kib",
                   "0, \"effective_size_bytes\": \"64 KiB\"");
    const auto not_offered =
        expect_invalid(replaced(probed(), "{\"shared_kib\": 64,", "{\"shared_kib\": 32,"),
                       "carve-out 32 KiB is not one of the machine's shared_memory_carveouts_kib",
                       path + "/1/shared_kib", "32,");
    ASSERT_TRUE(not_offered);
    EXPECT_TRUE(has_note(*not_offered, "carve-outs: 0, 8, 64, 100 KiB"));
    expect_invalid(replaced(probed(), "{\"shared_kib\": 0,", "{\"shared_kib\": -8,"),
                   "must not be negative, got -8", path + "/0/shared_kib", "-8");
    // A size larger than the level's size_bytes is possible (size_bytes measured at another
    // carve-out).
    EXPECT_NO_THROW(
        parse_machine_json(replaced(probed(), "\"64 KiB\"", "\"256 KiB\""), "probed.json"));
    expect_invalid(replaced(probed(), "\"64 KiB\"", "0"), "must be positive, got 0",
                   path + "/1/effective_size_bytes", "0}]");
    expect_invalid(replaced_span(probed(), "[{\"shared_kib\": 0", "}]", "[]"),
                   "expected at least one {\"shared_kib\", \"effective_size_bytes\"} entry", path,
                   "[]");
    // Without a list of carve-outs on the machine, any non-negative carve-out is accepted.
    EXPECT_NO_THROW(parse_machine_json(
        replaced(replaced(probed(), ",\n    \"shared_memory_carveouts_kib\": [0, 8, 64, 100]", ""),
                 "{\"shared_kib\": 64,", "{\"shared_kib\": 32,"),
        "probed.json"));
}

TEST(ValidateMachine, StoreBandwidthAndPartitionLatencies) {
    expect_invalid(replaced(probed(), "\"peak_bandwidth_gbs\": 500",
                            "\"peak_bandwidth_gbs\": 500, \"store_bandwidth_gbs\": 512.5"),
                   "store_bandwidth_gbs (512.5) exceeds peak_bandwidth_gbs (500)",
                   "/memory/2/store_bandwidth_gbs", "512.5");
    expect_invalid(
        replaced(probed(), "\"store_bandwidth_gbs\": 900.5", "\"store_bandwidth_gbs\": 0"),
        "must be positive, got 0", "/memory/1/store_bandwidth_gbs", "0}");
    expect_invalid(
        replaced(probed(), "\"latency_near_cycles\": 200", "\"latency_near_cycles\": 400"),
        "latency_near_cycles (400) exceeds latency_far_cycles (300)",
        "/memory/1/latency_near_cycles", "400");
    expect_invalid(replaced(probed(), "\"latency_far_cycles\": 300", "\"latency_far_cycles\": -3"),
                   "must be positive, got -3", "/memory/1/latency_far_cycles", "-3");
    expect_invalid(replaced(probed(), "{\"value\": 1410,", "{\"value\": 0,"),
                   "must be positive, got 0", "/compute/measured_sm_clock_mhz", "{\"value\": 0,");
    // A measured clock above the boost clock is possible (boost clocks are not hard limits).
    MachineModel m = parse_machine_json(probed(), "probed.json");
    m.compute.boost_clock_mhz = Sourced<double>{1400, "sheet"};
    EXPECT_NO_THROW(validate_machine(m, "x"));
}

namespace {
// A mixed-bandwidth table of these entries on the level `name`.
std::string with_mixes(const std::string& entries, const std::string& name = "dram") {
    return with_level_list("mixed_bandwidth_by_store_fraction", entries, name);
}

} // namespace

TEST(ValidateMachine, MixedBandwidthRules) {
    const std::string two = "{\"store_fraction\": 0, \"bandwidth_gbs\": 450}, "
                            "{\"store_fraction\": 0.5, \"bandwidth_gbs\": 410}";
    EXPECT_NO_THROW(parse_machine_json(with_mixes(two), "probed.json"));
    const std::string path = "/memory/2/mixed_bandwidth_by_store_fraction";
    expect_invalid(with_mixes("{\"store_fraction\": 0.5, \"bandwidth_gbs\": 410}, "
                              "{\"store_fraction\": 0.2, \"bandwidth_gbs\": 440}"),
                   "entries must be sorted by store_fraction, each once (0.2 comes after 0.5)",
                   path + "/1/store_fraction", "0.2,");
    expect_invalid(with_mixes("{\"store_fraction\": 0.5, \"bandwidth_gbs\": 410}, "
                              "{\"store_fraction\": 0.5, \"bandwidth_gbs\": 440}"),
                   "entries must be sorted by store_fraction, each once (0.5 comes after 0.5)",
                   path + "/1/store_fraction", "0.5, \"bandwidth_gbs\": 440");
    expect_invalid(with_mixes("{\"store_fraction\": 1.5, \"bandwidth_gbs\": 410}"),
                   "must be between 0 (loads alone) and 1 (stores alone), got 1.5",
                   path + "/0/store_fraction", "1.5");
    expect_invalid(with_mixes("{\"store_fraction\": 0, \"bandwidth_gbs\": 0}"),
                   "must be positive, got 0", path + "/0/bandwidth_gbs", "0}]");
    expect_invalid(with_mixes("{\"store_fraction\": 0, \"bandwidth_gbs\": 520}"),
                   "bandwidth_gbs (520) exceeds peak_bandwidth_gbs (500)",
                   path + "/0/bandwidth_gbs", "520");
    expect_invalid(with_mixes(""),
                   "expected at least one {\"store_fraction\", \"bandwidth_gbs\"} entry", path,
                   "[]");
    // The L2 limiter reads the l2 level's mixes too (it has no peak to exceed here).
    EXPECT_NO_THROW(parse_machine_json(with_mixes(two, "l2"), "probed.json"));
    expect_invalid(with_mixes(two, "l1"),
                   "only the dram and l2 levels take mixed_bandwidth_by_store_fraction (the "
                   "limiter model reads no other level's), not 'l1'",
                   "/memory/0/mixed_bandwidth_by_store_fraction", "[{\"store_fraction\": 0,");
}

namespace {

// A latency-under-load curve of these entries on the level `name` (dram by default).
std::string with_loaded(const std::string& entries, const std::string& name = "dram") {
    return with_level_list("latency_under_load", entries, name);
}

std::string loaded_point(double fraction, double gbs, double cycles) {
    return fmt::format("{{\"store_fraction\": {}, \"bandwidth_gbs\": {}, "
                       "\"latency_cycles\": {}}}",
                       fraction, gbs, cycles);
}

} // namespace

// Sorted by store fraction and then bandwidth, each (fraction, bandwidth) once; 0 GB/s (nothing
// streaming) is a point; fractions in [0, 1], latencies positive, bandwidths within the peak;
// the dram level's only.
TEST(ValidateMachine, LatencyUnderLoadRules) {
    const std::string curve = loaded_point(0, 0, 600) + ", " + loaded_point(0, 300, 900) + ", " +
                              loaded_point(0.5, 0, 610) + ", " + loaded_point(0.5, 280, 1000);
    EXPECT_NO_THROW(parse_machine_json(with_loaded(curve), "probed.json"));
    const std::string path = "/memory/2/latency_under_load";
    expect_invalid(with_loaded(loaded_point(0.5, 0, 600) + ", " + loaded_point(0, 300, 900)),
                   "entries must be sorted by store_fraction (0 comes after 0.5)",
                   path + "/1/store_fraction", "0, \"bandwidth_gbs\": 300");
    expect_invalid(with_loaded(loaded_point(0, 300, 600) + ", " + loaded_point(0, 300, 900)),
                   "entries of one store_fraction must be sorted by bandwidth_gbs, each once "
                   "(300 comes after 300)",
                   path + "/1/bandwidth_gbs", "300, \"latency_cycles\": 900");
    expect_invalid(with_loaded(loaded_point(0, 300, 600) + ", " + loaded_point(0, 200, 900)),
                   "entries of one store_fraction must be sorted by bandwidth_gbs, each once "
                   "(200 comes after 300)",
                   path + "/1/bandwidth_gbs", "200, \"latency_cycles\": 900");
    expect_invalid(with_loaded(loaded_point(-0.5, 0, 600)),
                   "must be between 0 (loads alone) and 1 (stores alone), got -0.5",
                   path + "/0/store_fraction", "-0.5");
    expect_invalid(with_loaded(loaded_point(0, -1, 600)), "must not be negative, got -1",
                   path + "/0/bandwidth_gbs", "-1");
    expect_invalid(with_loaded(loaded_point(0, 520, 600)),
                   "bandwidth_gbs (520) exceeds peak_bandwidth_gbs (500)",
                   path + "/0/bandwidth_gbs", "520");
    expect_invalid(with_loaded(loaded_point(0, 100, 0)), "must be positive, got 0",
                   path + "/0/latency_cycles", "0}]");
    EXPECT_NO_THROW(parse_machine_json(
        with_loaded("{\"store_fraction\": 0, \"bandwidth_gbs\": 100, \"latency_cycles\": 600, "
                    "\"latency_stddev_cycles\": 80.5}"),
        "probed.json"));
    expect_invalid(with_loaded("{\"store_fraction\": 0, \"bandwidth_gbs\": 100, "
                               "\"latency_cycles\": 600, \"latency_stddev_cycles\": -3}"),
                   "must not be negative, got -3", path + "/0/latency_stddev_cycles", "-3}");
    expect_invalid(with_loaded(""),
                   "expected at least one {\"store_fraction\", \"bandwidth_gbs\", "
                   "\"latency_cycles\"} entry",
                   path, "[]");
    expect_invalid(with_loaded(curve, "l2"),
                   "only the dram level takes latency_under_load (the probe measures no other "
                   "level's), not 'l2'",
                   "/memory/1/latency_under_load", "[{\"store_fraction\": 0,");
}

namespace {

// A bandwidth-by-loads-in-flight table of these entries on the level `name` (dram by default).
std::string with_in_flight(const std::string& entries, const std::string& name = "dram") {
    return with_level_list("bandwidth_by_loads_in_flight", entries, name);
}

std::string in_flight_point(double fraction, double bytes, double gbs) {
    return fmt::format("{{\"store_fraction\": {}, \"loads_in_flight_bytes_per_sm\": {}, "
                       "\"bandwidth_gbs\": {}}}",
                       fraction, bytes, gbs);
}

} // namespace

// Sorted by store fraction and then bytes in flight, each pair once; fractions in [0, 1) (stores
// alone keep no loads in flight), bytes and bandwidths positive, bandwidths within the peak; the
// dram level's only.
TEST(ValidateMachine, BandwidthByLoadsInFlightRules) {
    const std::string curve = in_flight_point(0, 16384, 300) + ", " +
                              in_flight_point(0, 32768, 450) + ", " +
                              in_flight_point(0.5, 16384, 320);
    EXPECT_NO_THROW(parse_machine_json(with_in_flight(curve), "probed.json"));
    const std::string path = "/memory/2/bandwidth_by_loads_in_flight";
    expect_invalid(
        with_in_flight(in_flight_point(0.5, 16384, 300) + ", " + in_flight_point(0, 16384, 300)),
        "entries must be sorted by store_fraction (0 comes after 0.5)", path + "/1/store_fraction",
        "0, \"loads_in_flight_bytes_per_sm\": 16384");
    expect_invalid(
        with_in_flight(in_flight_point(0, 32768, 300) + ", " + in_flight_point(0, 16384, 400)),
        "entries of one store_fraction must be sorted by loads_in_flight_bytes_per_sm, each once "
        "(16384 comes after 32768)",
        path + "/1/loads_in_flight_bytes_per_sm", "16384, \"bandwidth_gbs\": 400");
    expect_invalid(with_in_flight(in_flight_point(1, 16384, 300)),
                   "must be from 0 (loads alone) to below 1 (a mix with loads), got 1",
                   path + "/0/store_fraction", "1, \"loads");
    expect_invalid(with_in_flight(in_flight_point(0, 0, 300)), "must be positive, got 0",
                   path + "/0/loads_in_flight_bytes_per_sm", "0, \"bandwidth_gbs\"");
    expect_invalid(with_in_flight(in_flight_point(0, 16384, 0)), "must be positive, got 0",
                   path + "/0/bandwidth_gbs", "0}]");
    expect_invalid(with_in_flight(in_flight_point(0, 16384, 520)),
                   "bandwidth_gbs (520) exceeds peak_bandwidth_gbs (500)",
                   path + "/0/bandwidth_gbs", "520");
    expect_invalid(with_in_flight(""),
                   "expected at least one {\"store_fraction\", \"loads_in_flight_bytes_per_sm\", "
                   "\"bandwidth_gbs\"} entry",
                   path, "[]");
    expect_invalid(with_in_flight(curve, "l2"),
                   "only the dram level takes bandwidth_by_loads_in_flight (the in-flight limiter "
                   "reads no other level's), not 'l2'",
                   "/memory/1/bandwidth_by_loads_in_flight", "[{\"store_fraction\": 0,");
}

TEST(ValidateMachine, ErrorsInAListWrittenWithItsSourcePointAtTheEntry) {
    // {"value": [...], "source": K}: the validator's path has no "/value", the location does.
    const std::string text = replaced(
        replaced(replaced(probed(), "\"effective_size_by_carveout\": [",
                          "\"effective_size_by_carveout\": {\"source\": \"probe\", \"value\": ["),
                 "\"64 KiB\"}]},", "\"64 KiB\"}]}},"),
        "{\"shared_kib\": 64,", "{\"shared_kib\": 0,");
    expect_invalid(text, "carve-out 0 KiB is given twice",
                   "/memory/0/effective_size_by_carveout/1/shared_kib",
                   "0, \"effective_size_bytes\": \"64 KiB\"");
}
