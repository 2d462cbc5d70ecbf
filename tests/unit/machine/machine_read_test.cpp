// Reading machine files (machine_read.cpp): values with section and explicit sources, sizes,
// the atomic table, probed fields, and every mistake named at its JSON path, line and column.
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/machine/validate.hpp"
#include "toy_machine.hpp"

#include <gtest/gtest.h>

using namespace kerncast;

TEST(MachineRead, ParsesValuesWithSectionAndExplicitSources) {
    const MachineModel m = parse(minimal);
    EXPECT_EQ(m.identity.id, "toy");
    EXPECT_EQ(m.identity.cc_major, 8);
    EXPECT_EQ(m.identity.cc_minor, 0);
    ASSERT_TRUE(m.compute.sm_count);
    EXPECT_EQ(m.compute.sm_count->value, 4);
    EXPECT_EQ(m.compute.sm_count->source, "sheet");
    EXPECT_EQ(m.compute.shared_memory_per_sm_bytes->value, 100 * 1024);
    EXPECT_FALSE(m.compute.boost_clock_mhz); // absent, never zero
    ASSERT_EQ(m.memory.size(), 3u);
    EXPECT_EQ(m.memory[1].size_bytes->value, 4 * 1024 * 1024);
    EXPECT_EQ(m.memory[2].sustained_bandwidth_gbs->value, 430.5);
    EXPECT_EQ(m.memory[2].sustained_bandwidth_gbs->source, "run");
    EXPECT_EQ(m.sources.at("run").kind, SourceKind::measured);
    EXPECT_EQ(m.sources.at("run").run, "data/probe/toy-1.json");
}

TEST(MachineRead, BenchmarkSourcesAreTheirOwnKind) {
    // A published result file of a benchmark suite: neither a paper nor a kerncast run, so it
    // needs no "run"; the kind survives a round trip and misspellings name it.
    const std::string text = replaced(
        minimal,
        "\"run\": {\"kind\": \"measured\", \"citation\": \"probe\", \"run\": "
        "\"data/probe/toy-1.json\"}",
        "\"run\": {\"kind\": \"benchmark\", \"citation\": \"suite@abc1234, results/toy.txt L7\"}");
    const MachineModel m = parse(text);
    EXPECT_EQ(m.sources.at("run").kind, SourceKind::benchmark);
    EXPECT_TRUE(m.sources.at("run").run.empty());
    EXPECT_STREQ(source_kind_name(SourceKind::benchmark), "benchmark");
    EXPECT_NO_THROW(validate_machine(m, "toy.json"));
    EXPECT_EQ(parse_machine_json(machine_json_text(m), "toy.json"), m);

    const auto error =
        caught_error([&] { parse(replaced(text, "\"benchmark\"", "\"benchmrk\"")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "unknown source kind \"benchmrk\" (expected \"datasheet\", "
                                "\"paper\", \"measured\", \"derived\" or \"benchmark\")");
    EXPECT_TRUE(has_note(*error, "did you mean \"benchmark\"?"));
}

TEST(MachineRead, TopLevelSourceIsTheDefaultOfEverySection) {
    std::string text = replaced(minimal, "\"schema\": \"kerncast.machine/1\",",
                                "\"schema\": \"kerncast.machine/1\", \"source\": \"run\",");
    text = replaced(text, "\"source\": \"sheet\",\n    \"sm_count\"", "\"sm_count\"");
    const MachineModel m = parse(text);
    EXPECT_EQ(m.compute.sm_count->source, "run");
    EXPECT_EQ(m.memory[0].size_bytes->source, "sheet"); // the level's own default wins
}

TEST(MachineRead, AtomicTableRowsFollowTheAxes) {
    // n = 2 needs T for c = 0, 1, 2: a row of two values is an error at that row.
    const std::string table =
        "\"schema\": \"kerncast.machine/1\",\n  \"atomic_service_times\": {\"source\": "
        "\"sheet\", \"operations\": [{\"operation\": \"add\", \"queued_warps\": [1, 2], "
        "\"active_threads\": [32], \"total_cycles\": [[[1, 2]], [[3, 4]]]}]},";
    const auto error = caught_error(
        [&] { parse(replaced(minimal, "\"schema\": \"kerncast.machine/1\",", table)); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "has 2 values, one per CAS count c = 0..2 (3) expected");
    EXPECT_EQ(error->where().json_path, "/atomic_service_times/operations/0/total_cycles/1/0");

    const MachineModel m = parse(replaced(minimal, "\"schema\": \"kerncast.machine/1\",",
                                          replaced(table, "[[3, 4]]", "[[3, 4, 5]]")));
    ASSERT_TRUE(m.atomic_service_times);
    EXPECT_EQ(m.atomic_service_times->grid("add")->total_cycles[1][0],
              (std::vector<double>{3, 4, 5}));
}

TEST(MachineRead, SizeStringsUseBinaryUnits) {
    const MachineModel m = parse(replaced(minimal, "\"4 MiB\"", "\"1.5 GiB\""));
    EXPECT_EQ(m.memory[1].size_bytes->value, std::int64_t{3} * 512 * 1024 * 1024);

    const auto error = caught_error([&] { parse(replaced(minimal, "\"4 MiB\"", "\"4 MB\"")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(),
              "expected a size such as \"48 KiB\" or an integer number of bytes, got \"4 MB\"");
    EXPECT_EQ(error->where().json_path, "/memory/1/size_bytes");
    EXPECT_TRUE(has_note(*error, "KiB, MiB, GiB"));
}

TEST(MachineRead, MissingRequiredFieldNamesItsPath) {
    const auto error = caught_error([&] { parse(replaced(minimal, "\"sm_count\": 4,", "")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "missing required field \"sm_count\" (expected an integer)");
    EXPECT_EQ(error->where().json_path, "/compute/sm_count");
    EXPECT_EQ(error->where().line, 9); // the "compute" object that lacks it
    EXPECT_EQ(error->where().column, 14);
}

TEST(MachineRead, WrongTypeNamesPathLineAndColumn) {
    const auto error = caught_error(
        [&] { parse(replaced(minimal, "\"sm_count\": 4", "\"sm_count\": \"four\"")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "expected an integer, got the string \"four\"");
    EXPECT_EQ(error->where().json_path, "/compute/sm_count");
    EXPECT_EQ(error->where().line, 11);
    EXPECT_EQ(error->where().column, 17);
    EXPECT_EQ(error->where().source_line, "    \"sm_count\": \"four\",");

    const auto fractional =
        caught_error([&] { parse(replaced(minimal, "\"sm_count\": 4", "\"sm_count\": 4.5")); });
    ASSERT_TRUE(fractional);
    EXPECT_EQ(fractional->message(), "expected an integer, got the number 4.5");
}

TEST(MachineRead, NegativeSizeIsRejectedWithItsPath) {
    const auto error = caught_error([&] { parse(replaced(minimal, "\"128 KiB\"", "-4")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "must be positive, got -4");
    EXPECT_EQ(error->where().json_path, "/memory/0/size_bytes");
    EXPECT_EQ(error->where().line, 18);
    EXPECT_EQ(error->where().column, 72);
}

TEST(MachineRead, ImpossibleCombinationIsRejected) {
    const auto error = caught_error([&] {
        parse(replaced(minimal, "\"max_threads_per_sm\": 2048", "\"max_threads_per_sm\": 1536"));
    });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(),
              "max_threads_per_sm (1536) must equal max_warps_per_sm x warp_size (64 x 32)");
    EXPECT_EQ(error->where().json_path, "/compute/max_threads_per_sm");
    EXPECT_EQ(error->where().line, 13);
}

TEST(MachineRead, UnknownKeySuggestsTheClosestKnownKey) {
    const auto error =
        caught_error([&] { parse(replaced(minimal, "\"warp_size\"", "\"warp_sise\"")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "unknown key \"warp_sise\"");
    EXPECT_EQ(error->where().json_path, "/compute/warp_sise");
    EXPECT_EQ(error->where().line, 12);
    EXPECT_EQ(error->where().column, 5); // the key itself
    EXPECT_TRUE(has_note(*error, "did you mean \"warp_size\"?"));
}

TEST(MachineRead, UnknownSourceAndMissingSourceAreErrors) {
    const auto unknown = caught_error(
        [&] { parse(replaced(minimal, "\"source\": \"run\"}", "\"source\": \"runn\"}")); });
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->message(), "unknown source \"runn\"");
    EXPECT_EQ(unknown->where().json_path, "/memory/2/sustained_bandwidth_gbs/source");
    EXPECT_TRUE(has_note(*unknown, "did you mean \"run\"?"));

    const auto missing = caught_error([&] {
        parse(replaced(minimal, "\"source\": \"sheet\",\n    \"sm_count\"", "\"sm_count\""));
    });
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->message(), "value has no source");
    EXPECT_EQ(missing->where().json_path, "/compute/sm_count");
}

TEST(MachineRead, ReadsProbedTopologyFields) {
    const MachineModel m = parse(probed());
    const Provenance& probe = m.sources.at("probe");
    ASSERT_TRUE(probe.uncertainty);
    EXPECT_EQ(*probe.uncertainty, (Uncertainty{0.012, "high", 5}));
    EXPECT_FALSE(m.sources.at("sheet").uncertainty);
    EXPECT_EQ(m.compute.measured_sm_clock_mhz, (Sourced<double>{1410, "probe"}));

    const MemoryLevel* l1 = m.level("l1");
    ASSERT_NE(l1, nullptr);
    ASSERT_TRUE(l1->effective_size_by_carveout);
    EXPECT_EQ(l1->effective_size_by_carveout->source, "probe"); // the level's default
    const std::vector<CarveoutSize> sizes{{0, 128 * 1024}, {64, 64 * 1024}};
    EXPECT_EQ(l1->effective_size_by_carveout->value, sizes);

    const MemoryLevel* l2 = m.level("l2");
    ASSERT_NE(l2, nullptr);
    EXPECT_EQ(l2->latency_near_cycles, (Sourced<double>{200, "probe"}));
    EXPECT_EQ(l2->latency_far_cycles, (Sourced<double>{300, "probe"}));
    EXPECT_EQ(l2->store_bandwidth_gbs, (Sourced<double>{900.5, "probe"}));
    EXPECT_FALSE(l2->same_cache_as);

    EXPECT_EQ(m.level("texture")->same_cache_as, (Sourced<std::string>{"l1", "probe"}));

    ASSERT_EQ(m.tlbs.size(), 2u);
    EXPECT_EQ(m.tlbs[0].name, "l1_tlb");
    EXPECT_EQ(m.tlbs[0].shared_by, "sm");
    EXPECT_EQ(m.tlbs[0].reach_bytes, (Sourced<std::int64_t>{32 << 20, "probe"}));
    EXPECT_EQ(m.tlbs[0].page_bytes, (Sourced<std::int64_t>{2 << 20, "probe"}));
    EXPECT_EQ(m.tlbs[0].miss_latency_cycles, (Sourced<double>{40, "probe"}));
    EXPECT_EQ(m.tlbs[1].reach_bytes->value, std::int64_t{8} << 30);
    EXPECT_EQ(m.tlbs[1].miss_latency_cycles->value, 120.5);
}

TEST(MachineRead, UncertaintyIsStrict) {
    expect_error_at(replaced(probed(), "\"confidence\": \"high\"", "\"confidance\": \"high\""),
                    "unknown key \"confidance\"", "/sources/probe/uncertainty/confidance",
                    "\"confidance\"");
    const auto typo = caught_error(
        [&] { parse(replaced(probed(), "\"confidence\": \"high\"", "\"confidance\": \"high\"")); });
    ASSERT_TRUE(typo);
    EXPECT_TRUE(has_note(*typo, "did you mean \"confidence\"?"));

    expect_error_at(replaced(probed(), ", \"repetitions\": 5", ""),
                    "missing required field \"repetitions\" (expected an integer)",
                    "/sources/probe/uncertainty/repetitions", "{\"relative_spread\"");
    expect_error_at(replaced(probed(), "\"repetitions\": 5", "\"repetitions\": \"five\""),
                    "expected an integer, got the string \"five\"",
                    "/sources/probe/uncertainty/repetitions", "\"five\"");
    expect_error_at(replaced(probed(), "\"relative_spread\": 0.012", "\"relative_spread\": \"1%\""),
                    "expected a number, got the string \"1%\"",
                    "/sources/probe/uncertainty/relative_spread", "\"1%\"");
    expect_error_at(replaced_span(probed(), "{\"relative_spread\"", "}", "[0.012]"),
                    "expected an object, got an array", "/sources/probe/uncertainty", "[0.012]");
}

TEST(MachineRead, CarveoutSizesAreStrict) {
    expect_error_at(replaced(probed(), "{\"shared_kib\": 64", "{\"shared_kb\": 64"),
                    "unknown key \"shared_kb\"", "/memory/0/effective_size_by_carveout/1/shared_kb",
                    "\"shared_kb\"");
    expect_error_at(
        replaced(probed(), "{\"shared_kib\": 64, \"effective_size_bytes\": \"64 KiB\"}", "64"),
        "expected an object, got the integer 64", "/memory/0/effective_size_by_carveout/1", "64]");
    expect_error_at(
        replaced(probed(), "\"64 KiB\"", "\"64 KB\""),
        "expected a size such as \"48 KiB\" or an integer number of bytes, got \"64 KB\"",
        "/memory/0/effective_size_by_carveout/1/effective_size_bytes", "\"64 KB\"");
    expect_error_at(replaced(probed(), ", \"effective_size_bytes\": \"64 KiB\"", ""),
                    "missing required field \"effective_size_bytes\" (expected an integer (bytes) "
                    "or a size such as \"48 KiB\")",
                    "/memory/0/effective_size_by_carveout/1/effective_size_bytes",
                    "{\"shared_kib\": 64");
    expect_error_at(replaced_span(probed(), "[{\"shared_kib\": 0", "}]",
                                  "{\"valeu\": [], \"source\": \"probe\"}"),
                    "unknown key \"valeu\"", "/memory/0/effective_size_by_carveout/valeu",
                    "\"valeu\"");
    expect_error_at(replaced(probed(), "\"effective_size_by_carveout\"", "\"effective_sizes\""),
                    "unknown key \"effective_sizes\"", "/memory/0/effective_sizes",
                    "\"effective_sizes\"");
    // A list needs a source like any value: the level's default, or its own.
    const std::string without_default =
        replaced(probed(),
                 "{\"name\": \"l1\", \"shared_by\": \"sm\", \"source\": \"probe\", "
                 "\"size_bytes\": \"128 KiB\"",
                 "{\"name\": \"l1\", \"shared_by\": \"sm\", \"size_bytes\": {\"value\": \"128 "
                 "KiB\", \"source\": \"probe\"}");
    expect_error_at(without_default, "value has no source", "/memory/0/effective_size_by_carveout",
                    "[{\"shared_kib\": 0");
}

TEST(MachineRead, TlbsAreStrict) {
    expect_error_at(replaced(probed(), "\"tlbs\"", "\"tlb\""), "unknown key \"tlb\"", "/tlb",
                    "\"tlb\"");
    const auto top = caught_error([&] { parse(replaced(probed(), "\"tlbs\"", "\"tlb\"")); });
    ASSERT_TRUE(top);
    EXPECT_TRUE(has_note(*top, "did you mean \"tlbs\"?"));

    expect_error_at(replaced(probed(), "\"reach_bytes\": \"32 MiB\"", "\"reach\": \"32 MiB\""),
                    "unknown key \"reach\"", "/tlbs/0/reach", "\"reach\"");
    expect_error_at(replaced(probed(), "{\"name\": \"l2_tlb\", ", "{"),
                    "missing required field \"name\" (expected a string such as \"l1_tlb\")",
                    "/tlbs/1/name", "{\"shared_by\": \"gpu\", \"source\": \"probe\", \"reach");
    expect_error_at(
        replaced(probed(), "\"miss_latency_cycles\": 40", "\"miss_latency_cycles\": true"),
        "expected a number, got a boolean", "/tlbs/0/miss_latency_cycles", "true");
}

TEST(MachineRead, SameCacheAsIsAString) {
    expect_error_at(replaced(probed(), "\"same_cache_as\": \"l1\"", "\"same_cache_as\": 1"),
                    "expected a string, got the integer 1", "/special_memories/0/same_cache_as",
                    "1}");
}

TEST(MachineRead, TlbSharedByIsOptional) {
    // A probe measures a TLB's reach, page size and miss latency, not which units share it:
    // the machine file leaves shared_by out, and writing it back keeps it out.
    const MachineModel m = parse(R"({
  "schema": "kerncast.machine/1", "extends": "a100-sxm4-40gb",
  "identity": {"id": "lab-a100"},
  "sources": {"probe": {"kind": "measured", "citation": "kerncast probe", "run": "runs/7.json"}},
  "tlbs": [{"name": "l1_tlb", "source": "probe", "reach_bytes": "32 MiB", "page_bytes": "2 MiB"}]
})");
    ASSERT_EQ(m.tlbs.size(), 1u);
    EXPECT_EQ(m.tlbs[0].shared_by, "");
    EXPECT_EQ(m.tlbs[0].reach_bytes, (Sourced<std::int64_t>{32 << 20, "probe"}));
    const auto written = machine_to_json(m);
    EXPECT_FALSE(written.at("tlbs").at(0).contains("shared_by"));
    EXPECT_EQ(parse(written.dump()), m);
    EXPECT_NO_THROW(validate_machine(m, "lab-a100.json"));
}

TEST(MachineRead, DeviceNamesAreNonEmptyStringsAndRoundTrip) {
    const std::string named =
        replaced(minimal, "\"compute_capability\": \"8.0\"}",
                 "\"compute_capability\": \"8.0\", \"device_names\": [\"Toy GPU 8GB\", "
                 "\"Toy GPU 16GB\"]}");
    const MachineModel m = parse(named);
    EXPECT_EQ(m.identity.device_names, (std::vector<std::string>{"Toy GPU 8GB", "Toy GPU 16GB"}));
    EXPECT_EQ(parse(machine_to_json(m).dump()).identity.device_names, m.identity.device_names);

    const auto empty = caught_error([&] { parse(replaced(named, "\"Toy GPU 16GB\"", "\"\"")); });
    ASSERT_TRUE(empty);
    EXPECT_EQ(empty->message(), "a device name must not be empty");
    EXPECT_EQ(empty->where().json_path, "/identity/device_names/1");
    const auto single = caught_error(
        [&] { parse(replaced(named, "[\"Toy GPU 8GB\", \"Toy GPU 16GB\"]", "\"Toy GPU 8GB\"")); });
    ASSERT_TRUE(single);
    EXPECT_EQ(single->message(),
              "expected an array of device names, got the string \"Toy GPU 8GB\"");
}
