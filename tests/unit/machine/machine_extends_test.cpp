// "extends" (machine_extends.cpp): a file written as changes to a built-in machine, merged
// onto it; errors point into the file or say that a value comes from the built-in.
#include "../../../src/machine/machine_extends.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "toy_machine.hpp"

#include <gtest/gtest.h>

using namespace kerncast;

TEST(MachineExtends, OverlaysABuiltInMachine) {
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

TEST(MachineExtends, CanRemoveAValueWithNull) {
    const MachineModel m = parse(R"({"schema": "kerncast.machine/1", "extends": "v100-pcie-32gb",
        "identity": {"id": "v100-no-boost"}, "compute": {"boost_clock_mhz": null}})");
    EXPECT_FALSE(m.compute.boost_clock_mhz);
    EXPECT_TRUE(m.compute.sm_count);
}

TEST(MachineExtends, NeedsItsOwnId) {
    const auto error =
        caught_error([&] { parse(R"({"schema": "kerncast.machine/1", "extends": "titan-v"})"); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "missing required field \"id\" (expected a string)");
    EXPECT_EQ(error->where().json_path, "/identity/id");
}

TEST(MachineExtends, UnknownIdNamesTheClosestIds) {
    const auto error = caught_error(
        [&] { parse("{\"schema\": \"kerncast.machine/1\",\n \"extends\": \"a100-sxm4-40\"}"); });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "\"extends\" names no built-in machine: \"a100-sxm4-40\"");
    EXPECT_EQ(error->where().json_path, "/extends");
    EXPECT_EQ(error->where().line, 2);
    EXPECT_EQ(error->where().column, 13);
    EXPECT_TRUE(has_note(*error, "closest built-in ids: \"a100-sxm4-40gb\", \"a100-sxm4-80gb\""));
}

TEST(MachineExtends, ValuesNeedASourceToo) {
    const auto error = caught_error([&] {
        parse(R"({"schema": "kerncast.machine/1", "extends": "a100-sxm4-40gb",
                  "identity": {"id": "odd"}, "compute": {"sm_count": 100}})");
    });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(), "value has no source");
    EXPECT_EQ(error->where().json_path, "/compute/sm_count");
    EXPECT_EQ(error->where().line, 2);
}

TEST(MachineExtends, ErrorInAnOverriddenValuePointsIntoTheFile) {
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

TEST(MachineExtends, ErrorInAnInheritedValueSaysWhereItComesFrom) {
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

TEST(MachineExtends, AddsProbedFieldsToABuiltIn) {
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

TEST(MachineExtends, ValueWithoutSourceDoesNotInheritTheBaseSource) {
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

TEST(MachineExtends, MergesSectionsKeyedByNamesEvenANameValue) {
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

// merge_into directly: objects merge key by key, keyed arrays element by element (path_map
// records where each merged element was in the overlay), a {"value", "source"} pair replaces
// the whole base value.
TEST(MachineExtends, MergeMatchesKeyedElementsAndMapsTheirPaths) {
    nlohmann::json base = nlohmann::json::parse(R"({
      "compute": {"sm_count": {"value": 108, "source": "sheet"}, "warp_size": 32},
      "memory": [{"name": "l1", "size_bytes": 1}, {"name": "l2", "size_bytes": 2}]})");
    const nlohmann::json overlay = nlohmann::json::parse(R"({
      "compute": {"sm_count": {"value": 100}},
      "memory": [{"name": "l2", "size_bytes": 3}, {"name": "hbm", "size_bytes": 4}]})");
    std::map<std::string, std::string> path_map;
    machine_format::merge_into(base, overlay, "", path_map);
    EXPECT_EQ(base, nlohmann::json::parse(R"({
      "compute": {"sm_count": {"value": 100}, "warp_size": 32},
      "memory": [{"name": "l1", "size_bytes": 1}, {"name": "l2", "size_bytes": 3},
                 {"name": "hbm", "size_bytes": 4}]})"));
    EXPECT_EQ(path_map,
              (std::map<std::string, std::string>{
                  {"/memory/0", ""}, {"/memory/1", "/memory/0"}, {"/memory/2", "/memory/1"}}));
}

TEST(MachineExtends, ErrorInAListWrittenWithItsSourcePointsAtTheEntry) {
    // The validator's path has no "/value" (the model does not keep which form the text
    // used); the error still points at the entry in the file and says nothing is inherited.
    const auto error = caught_error([&] {
        parse("{\"schema\": \"kerncast.machine/1\", \"extends\": \"h100-sxm5-80gb\",\n"
              " \"identity\": {\"id\": \"mine\"},\n"
              " \"memory\": [{\"name\": \"dram\", \"shared_by\": \"gpu\",\n"
              "   \"mixed_bandwidth_by_store_fraction\": {\"source\": \"h100-probe-2026-11-26\",\n"
              "     \"value\": [{\"store_fraction\": 0.5, \"bandwidth_gbs\": 2000},\n"
              "               {\"store_fraction\": 0.25, \"bandwidth_gbs\": 2500}]}}]}");
    });
    ASSERT_TRUE(error);
    EXPECT_EQ(error->message(),
              "entries must be sorted by store_fraction, each once (0.25 comes after 0.5)");
    EXPECT_EQ(error->where().json_path,
              "/memory/2/mixed_bandwidth_by_store_fraction/1/store_fraction");
    EXPECT_EQ(error->where().line, 6);
    EXPECT_EQ(error->where().column, 35);
    EXPECT_FALSE(has_note(*error, "comes from the built-in machine"));
}
