#include "expect_error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/machine/validate.hpp"
#include "machine_fixture.hpp"

#include <fstream>
#include <gtest/gtest.h>

using namespace kerncast;

namespace {

// A small valid machine file; tests edit it with replace() to make one mistake each.
const std::string minimal = R"({
  "schema": "kerncast.machine/1",
  "identity": {"id": "toy", "name": "Toy GPU", "vendor": "test", "architecture": "Toy",
               "compute_capability": "8.0"},
  "sources": {
    "sheet": {"kind": "datasheet", "citation": "Toy datasheet, Table 1"},
    "run": {"kind": "measured", "citation": "probe", "run": "data/probe/toy-1.json"}
  },
  "compute": {
    "source": "sheet",
    "sm_count": 4,
    "warp_size": 32,
    "max_threads_per_sm": 2048,
    "max_warps_per_sm": 64,
    "shared_memory_per_sm_bytes": "100 KiB"
  },
  "memory": [
    {"name": "l1", "shared_by": "sm", "source": "sheet", "size_bytes": "128 KiB"},
    {"name": "l2", "shared_by": "gpu", "source": "sheet", "size_bytes": "4 MiB"},
    {"name": "dram", "shared_by": "gpu", "source": "sheet", "peak_bandwidth_gbs": 500,
     "sustained_bandwidth_gbs": {"value": 430.5, "source": "run"}}
  ]
}
)";

MachineModel parse(const std::string& text) {
    return parse_machine_json(text, "toy.json");
}

} // namespace

TEST(MachineJson, ParsesValuesWithSectionAndExplicitSources) {
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

TEST(MachineJson, BenchmarkSourcesAreTheirOwnKind) {
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

TEST(MachineJson, TopLevelSourceIsTheDefaultOfEverySection) {
    std::string text = replaced(minimal, "\"schema\": \"kerncast.machine/1\",",
                                "\"schema\": \"kerncast.machine/1\", \"source\": \"run\",");
    text = replaced(text, "\"source\": \"sheet\",\n    \"sm_count\"", "\"sm_count\"");
    const MachineModel m = parse(text);
    EXPECT_EQ(m.compute.sm_count->source, "run");
    EXPECT_EQ(m.memory[0].size_bytes->source, "sheet"); // the level's own default wins
}

TEST(MachineJson, AtomicTableRowsFollowTheAxes) {
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

TEST(MachineJson, SizeStringsUseBinaryUnits) {
    const MachineModel m = parse(replaced(minimal, "\"4 MiB\"", "\"1.5 GiB\""));
    EXPECT_EQ(m.memory[1].size_bytes->value, std::int64_t{3} * 512 * 1024 * 1024);

    const auto error = caught_error([&] { parse(replaced(minimal, "\"4 MiB\"", "\"4 MB\"")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(),
              "expected a size such as \"48 KiB\" or an integer number of bytes, got \"4 MB\"");
    EXPECT_EQ(error->where().json_path, "/memory/1/size_bytes");
    EXPECT_TRUE(has_note(*error, "KiB, MiB, GiB"));
}

TEST(MachineJson, MalformedJsonGivesLineColumnAndCaret) {
    // Line 3 lacks the comma after the identity object.
    const std::string text = "{\n  \"schema\": \"kerncast.machine/1\",\n  \"identity\": {}\n"
                             "  \"sources\": {}\n}\n";
    const auto error = caught_error([&] { parse(text); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->kind(), ErrorKind::input);
    EXPECT_EQ(error->message().rfind("malformed JSON: ", 0), 0u) << error->message();
    EXPECT_EQ(error->where().file, "toy.json");
    EXPECT_EQ(error->where().line, 4);
    EXPECT_EQ(error->where().column, 3);
    EXPECT_EQ(error->where().source_line, "  \"sources\": {}");
    EXPECT_TRUE(has_note(*error, "is a ',' missing before this?"));
    EXPECT_NE(error->describe().find("toy.json:4:3: error: malformed JSON"), std::string::npos)
        << error->describe();
    EXPECT_NE(error->describe().find("  \"sources\": {}\n    ^\n"), std::string::npos)
        << error->describe();
}

TEST(MachineJson, TruncatedFileReportsTheEnd) {
    const auto error = caught_error([&] { parse("{\n  \"schema\": \"kerncast.machine/1\",\n"); });
    ASSERT_TRUE(error);
    // The caret goes after the last character read, at the end of line 2.
    EXPECT_EQ(error->where().line, 2);
    EXPECT_EQ(error->where().column, 34);
    EXPECT_NE(error->message().find("malformed JSON"), std::string::npos);
    EXPECT_NE(error->message().find("end of input"), std::string::npos) << error->message();
}

TEST(MachineJson, MissingRequiredFieldNamesItsPath) {
    const auto error = caught_error([&] { parse(replaced(minimal, "\"sm_count\": 4,", "")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "missing required field \"sm_count\" (expected an integer)");
    EXPECT_EQ(error->where().json_path, "/compute/sm_count");
    EXPECT_EQ(error->where().line, 9); // the "compute" object that lacks it
    EXPECT_EQ(error->where().column, 14);
}

TEST(MachineJson, WrongTypeNamesPathLineAndColumn) {
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

TEST(MachineJson, NegativeSizeIsRejectedWithItsPath) {
    const auto error = caught_error([&] { parse(replaced(minimal, "\"128 KiB\"", "-4")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "must be positive, got -4");
    EXPECT_EQ(error->where().json_path, "/memory/0/size_bytes");
    EXPECT_EQ(error->where().line, 18);
    EXPECT_EQ(error->where().column, 72);
}

TEST(MachineJson, ImpossibleCombinationIsRejected) {
    const auto error = caught_error([&] {
        parse(replaced(minimal, "\"max_threads_per_sm\": 2048", "\"max_threads_per_sm\": 1536"));
    });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(),
              "max_threads_per_sm (1536) must equal max_warps_per_sm x warp_size (64 x 32)");
    EXPECT_EQ(error->where().json_path, "/compute/max_threads_per_sm");
    EXPECT_EQ(error->where().line, 13);
}

TEST(MachineJson, UnknownKeySuggestsTheClosestKnownKey) {
    const auto error =
        caught_error([&] { parse(replaced(minimal, "\"warp_size\"", "\"warp_sise\"")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "unknown key \"warp_sise\"");
    EXPECT_EQ(error->where().json_path, "/compute/warp_sise");
    EXPECT_EQ(error->where().line, 12);
    EXPECT_EQ(error->where().column, 5); // the key itself
    EXPECT_TRUE(has_note(*error, "did you mean \"warp_size\"?"));
}

TEST(MachineJson, UnknownSourceAndMissingSourceAreErrors) {
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

TEST(MachineJson, DuplicateKeyIsAnError) {
    const auto error = caught_error(
        [&] { parse(replaced(minimal, "\"sm_count\": 4,", "\"sm_count\": 4, \"sm_count\": 8,")); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "duplicate key \"sm_count\" (at /compute)");
    EXPECT_EQ(error->where().line, 11);
    EXPECT_EQ(error->where().column, 20);
}

TEST(MachineJson, SchemaIsRequiredAndChecked) {
    const auto missing =
        caught_error([&] { parse(replaced(minimal, "\"schema\": \"kerncast.machine/1\",", "")); });
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->message(),
              "missing required field \"schema\" (expected \"kerncast.machine/1\")");
    const auto other =
        caught_error([&] { parse(replaced(minimal, "kerncast.machine/1", "kerncast.machine/2")); });
    ASSERT_TRUE(other);
    EXPECT_EQ(other->message(), "unsupported schema \"kerncast.machine/2\"");
    EXPECT_EQ(other->where().json_path, "/schema");
}

TEST(MachineJson, RoundTripIsLosslessForEverySection) {
    MachineModel m = parse(minimal);
    m.sources["fit"] = Provenance{SourceKind::derived, "fitted by hand", ""};
    m.compute.shared_memory_carveouts_kib = Sourced<std::vector<int>>{{0, 8, 100}, "run"};
    m.compute.issue_rates.push_back(IssueRate{"fma", "f64", {0.1 + 0.2, "run"}});
    m.compute.register_allocation_granularity = Sourced<std::string>{"warp", "sheet"};
    m.shared_memory_banks.banks = Sourced<int>{32, "sheet"};
    m.mwp_cwp.mem_ld_cycles = Sourced<double>{420, "fit"};
    m.mwp_cwp.issue_cycles = Sourced<double>{4, "sheet"};
    m.capacity_fits.l1_redundant_loads =
        CapacityFit{{0.97, "fit"}, {1.0 / 3.0, "fit"}, {2.5e-6, "run"}};
    m.calibrated_costs["f32_fma_s"] = Sourced<double>{1.25e-12, "fit"};
    m.calibrated_costs["overlap"] = Sourced<double>{0.5, "run"};
    m.atomic_service_times = AtomicServiceTable{
        "run",
        {AtomicServiceGrid{
            "add", {1, 2}, {1, 32}, {{{2.5, 3.0}, {40.125, 41}}, {{5, 6, 7}, {8, 9, 10.5}}}}}};
    m.identity.incomplete = true;
    m.identity.notes = "round trip";
    m.special_memories.emplace_back();
    m.special_memories.back().name = "texture";
    m.special_memories.back().shared_by = "sm";
    m.special_memories.back().latency_cycles = Sourced<double>{89, "run"};

    const std::string text = machine_to_json(m).dump(2);
    const MachineModel back = parse(text);
    EXPECT_EQ(back, m) << text;
    EXPECT_EQ(machine_to_json(back), machine_to_json(m));
    EXPECT_EQ(back.compute.issue_rates.back().per_cycle_per_sm.value, 0.1 + 0.2); // bit-exact
}

TEST(MachineJson, WriterNamesTheMostCommonSourceOnce) {
    const nlohmann::json j = machine_to_json(parse(minimal));
    EXPECT_EQ(j.at("compute").at("source"), "sheet");
    EXPECT_EQ(j.at("compute").at("sm_count"), 4);
    EXPECT_EQ(j.at("memory").at(2).at("sustained_bandwidth_gbs"),
              (nlohmann::json{{"value", 430.5}, {"source", "run"}}));
}

TEST(MachineJson, ExtendsOverlaysABuiltInMachine) {
    const std::string text = R"({
  "schema": "kerncast.machine/1",
  "extends": "a100-sxm4-40gb",
  "identity": {"id": "my-a100", "name": "Our A100"},
  "sources": {"probe": {"kind": "measured", "citation": "kerncast probe", "run": "runs/42.json"}},
  "memory": [{"name": "dram", "source": "probe", "sustained_bandwidth_gbs": 1500}],
  "mwp_cwp": {"source": "probe", "mem_ld_cycles": 600}
})";
    const MachineModel base = builtin_machine("a100-sxm4-40gb");
    const MachineModel m = parse(text);
    EXPECT_EQ(m.identity.id, "my-a100");
    EXPECT_EQ(m.identity.name, "Our A100");
    EXPECT_EQ(m.identity.architecture, "Ampere");
    EXPECT_EQ(m.compute, base.compute);
    const MemoryLevel* dram = m.level("dram");
    ASSERT_NE(dram, nullptr);
    EXPECT_EQ(dram->sustained_bandwidth_gbs, (Sourced<double>{1500, "probe"}));
    EXPECT_EQ(dram->peak_bandwidth_gbs, base.level("dram")->peak_bandwidth_gbs);
    EXPECT_EQ(m.memory.size(), base.memory.size());
    EXPECT_EQ(m.mwp_cwp.mem_ld_cycles, (Sourced<double>{600, "probe"}));
    EXPECT_EQ(m.sources.count("a100-whitepaper"), 1u);
    // The derived machine round-trips like any other.
    EXPECT_EQ(parse(machine_to_json(m).dump()), m);
}

TEST(MachineJson, ExtendsCanRemoveAValueWithNull) {
    const MachineModel m = parse(R"({"schema": "kerncast.machine/1", "extends": "v100-pcie-32gb",
        "identity": {"id": "v100-no-boost"}, "compute": {"boost_clock_mhz": null}})");
    EXPECT_FALSE(m.compute.boost_clock_mhz);
    EXPECT_TRUE(m.compute.sm_count);
}

TEST(MachineJson, ExtendsNeedsItsOwnId) {
    const auto error =
        caught_error([&] { parse(R"({"schema": "kerncast.machine/1", "extends": "titan-v"})"); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "missing required field \"id\" (expected a string)");
    EXPECT_EQ(error->where().json_path, "/identity/id");
}

TEST(MachineJson, ExtendsUnknownIdNamesTheClosestIds) {
    const auto error = caught_error(
        [&] { parse("{\"schema\": \"kerncast.machine/1\",\n \"extends\": \"a100-sxm4-40\"}"); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "\"extends\" names no built-in machine: \"a100-sxm4-40\"");
    EXPECT_EQ(error->where().json_path, "/extends");
    EXPECT_EQ(error->where().line, 2);
    EXPECT_EQ(error->where().column, 13);
    EXPECT_TRUE(has_note(*error, "closest built-in ids: \"a100-sxm4-40gb\", \"a100-sxm4-80gb\""));
}

TEST(MachineJson, ExtendsValuesNeedASourceToo) {
    const auto error = caught_error([&] {
        parse(R"({"schema": "kerncast.machine/1", "extends": "a100-sxm4-40gb",
                  "identity": {"id": "odd"}, "compute": {"sm_count": 100}})");
    });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "value has no source");
    EXPECT_EQ(error->where().json_path, "/compute/sm_count");
    EXPECT_EQ(error->where().line, 2);
}

TEST(MachineJson, ExtendsErrorInAnOverriddenValuePointsIntoTheFile) {
    const auto error = caught_error([&] {
        parse("{\"schema\": \"kerncast.machine/1\", \"extends\": \"a100-sxm4-40gb\",\n"
              " \"identity\": {\"id\": \"odd\"},\n"
              " \"compute\": {\"source\": \"a100-whitepaper\", \"max_threads_per_sm\": 1536}}");
    });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(),
              "max_threads_per_sm (1536) must equal max_warps_per_sm x warp_size (64 x 32)");
    EXPECT_EQ(error->where().line, 3);
    EXPECT_EQ(error->where().column, 65);
}

TEST(MachineJson, ExtendsErrorInAnInheritedValueSaysWhereItComesFrom) {
    // Shrinking max_warps_per_sm makes the inherited max_threads_per_sm inconsistent.
    const auto error = caught_error([&] {
        parse(R"({"schema": "kerncast.machine/1", "extends": "a100-sxm4-40gb",
                  "identity": {"id": "odd"},
                  "compute": {"max_warps_per_sm": {"value": 48, "source": "cuda-guide"}}})");
    });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().json_path, "/compute/max_threads_per_sm");
    EXPECT_TRUE(has_note(*error, "comes from the built-in machine 'a100-sxm4-40gb'"));
}

TEST(MachineJson, LoadMachineFileNamesThePath) {
    const std::string path = testing::TempDir() + "kerncast_bad_machine.json";
    std::ofstream(path) << replaced(minimal, "\"sm_count\": 4", "\"sm_count\": -4");
    const auto error = caught_error([&] { load_machine_file(path); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->where().file, path);
    EXPECT_EQ(error->message(), "must be positive, got -4");

    const auto missing = caught_error([&] { load_machine_file(path + ".absent"); });
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->message(), "cannot open machine file");
}

// ----- fields the topology probe fills (docs/machine-format.md, "Probed topology") -----

namespace {

const std::string& probed() {
    static const std::string text = machine_fixture("probed_fields.json");
    return text;
}

// The error of parsing `text`, which must name the JSON path and the text at `needle`.
void expect_error_at(const std::string& text, const std::string& message,
                     const std::string& json_path, const std::string& needle) {
    const auto error = caught_error([&] { parse(text); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), message);
    EXPECT_EQ(error->where().file, "toy.json");
    EXPECT_EQ(error->where().json_path, json_path);
    EXPECT_EQ((LineColumn{error->where().line, error->where().column}), position_of(text, needle))
        << error->describe();
}

} // namespace

TEST(MachineJson, ReadsProbedTopologyFields) {
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

TEST(MachineJson, ProbedTopologyFieldsRoundTrip) {
    MachineModel m = parse(probed());
    // Values whose source differs from their section's default are written {"value", "source"}.
    m.sources["paper"] = Provenance{SourceKind::paper, "a paper, Table 2", ""};
    m.memory[0].effective_size_by_carveout->source = "paper";
    m.tlbs[1].page_bytes->source = "paper";
    m.sources["probe"].uncertainty->relative_spread = 0.1 + 0.2; // bit-exact
    for (const std::string& text : {machine_to_json(m).dump(2), machine_json_text(m)}) {
        const MachineModel back = parse(text);
        EXPECT_EQ(back, m) << text;
    }
    const nlohmann::json j = machine_to_json(m);
    EXPECT_EQ(j.at("memory").at(0).at("effective_size_by_carveout").at("source"), "paper");
    EXPECT_EQ(j.at("sources").at("probe").at("uncertainty").at("repetitions"), 5);
    EXPECT_EQ(j.at("tlbs").at(1).at("page_bytes"),
              (nlohmann::json{{"value", 2 << 20}, {"source", "paper"}}));
}

TEST(MachineJson, UncertaintyIsStrict) {
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

TEST(MachineJson, CarveoutSizesAreStrict) {
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

TEST(MachineJson, TlbsAreStrict) {
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

TEST(MachineJson, SameCacheAsIsAString) {
    expect_error_at(replaced(probed(), "\"same_cache_as\": \"l1\"", "\"same_cache_as\": 1"),
                    "expected a string, got the integer 1", "/special_memories/0/same_cache_as",
                    "1}");
}

TEST(MachineJson, ExtendsAddsProbedFieldsToABuiltIn) {
    const MachineModel m = parse(R"({
  "schema": "kerncast.machine/1", "extends": "a100-sxm4-40gb",
  "identity": {"id": "lab-a100"},
  "sources": {"probe": {"kind": "measured", "citation": "kerncast probe", "run": "runs/7.json",
                        "uncertainty": {"relative_spread": 0.05, "confidence": "medium",
                                        "repetitions": 3}}},
  "compute": {"source": "probe", "measured_sm_clock_mhz": 1395},
  "memory": [{"name": "l1", "source": "probe",
              "effective_size_by_carveout": [{"shared_kib": 0, "effective_size_bytes": "192 KiB"},
                                             {"shared_kib": 164, "effective_size_bytes": "28 KiB"}]},
             {"name": "l2", "source": "probe", "latency_near_cycles": 200,
              "latency_far_cycles": 400}],
  "special_memories": [{"name": "texture", "shared_by": "sm", "source": "probe",
                        "same_cache_as": "l1"}],
  "tlbs": [{"name": "l1_tlb", "shared_by": "sm", "source": "probe", "page_bytes": "2 MiB"}]
})");
    const MachineModel base = builtin_machine("a100-sxm4-40gb");
    EXPECT_EQ(m.compute.measured_sm_clock_mhz, (Sourced<double>{1395, "probe"}));
    EXPECT_EQ(m.compute.sm_count, base.compute.sm_count);
    EXPECT_EQ(m.sources.at("probe").uncertainty, (Uncertainty{0.05, "medium", 3}));
    const MemoryLevel* l1 = m.level("l1");
    ASSERT_NE(l1, nullptr);
    EXPECT_EQ(l1->size_bytes, base.level("l1")->size_bytes); // kept, with its own source
    EXPECT_EQ(l1->effective_size_by_carveout->value.size(), 2u);
    EXPECT_EQ(m.level("l2")->latency_far_cycles, (Sourced<double>{400, "probe"}));
    EXPECT_EQ(m.level("l2")->effective_size_bytes, base.level("l2")->effective_size_bytes);
    EXPECT_EQ(m.level("texture")->same_cache_as->value, "l1");
    ASSERT_EQ(m.tlbs.size(), 1u);
    EXPECT_EQ(parse(machine_to_json(m).dump()), m);
}

TEST(MachineJson, TlbSharedByIsOptional) {
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

TEST(MachineJson, ExtendsValueWithoutSourceDoesNotInheritTheBaseSource) {
    // {"value": 1500} in the file replaces the base value whole: it takes the file's default
    // source, or none, never the base value's citation (ernst2023 did not measure 1500).
    const std::string text =
        "{\"schema\": \"kerncast.machine/1\", \"extends\": \"a100-sxm4-40gb\",\n"
        " \"identity\": {\"id\": \"odd\"},\n"
        " \"memory\": [{\"name\": \"dram\", \"sustained_bandwidth_gbs\": "
        "{\"value\": 1500}}]}";
    // The path is the merged machine's (dram is the base's third level), the position the file's.
    expect_error_at(text, "value has no source", "/memory/2/sustained_bandwidth_gbs",
                    "{\"value\": 1500}");
    const MachineModel m = parse(
        replaced(text, "{\"name\": \"dram\",", "{\"name\": \"dram\", \"source\": \"cuda-guide\","));
    EXPECT_EQ(m.level("dram")->sustained_bandwidth_gbs, (Sourced<double>{1500, "cuda-guide"}));
}

TEST(MachineJson, ExtendsMergesSectionsKeyedByNamesEvenANameValue) {
    // "/sources" and "/calibrated_costs" are keyed by the file's names; one named "value" must
    // not make the section look like a {"value", "source"} pair and replace the base's.
    const MachineModel m = parse(R"({"schema": "kerncast.machine/1", "extends": "a100-sxm4-40gb",
        "identity": {"id": "named-value"},
        "sources": {"value": {"kind": "paper", "citation": "a paper named oddly"}},
        "calibrated_costs": {"source": "value", "value": 2.5, "f32_fma": 1e-12}})");
    EXPECT_EQ(m.sources.count("a100-whitepaper"), 1u);
    EXPECT_EQ(m.sources.at("value").citation, "a paper named oddly");
    EXPECT_EQ(m.calibrated_costs.at("value"), (Sourced<double>{2.5, "value"}));
    EXPECT_EQ(m.calibrated_costs.at("f32_fma"), (Sourced<double>{1e-12, "value"}));
}
