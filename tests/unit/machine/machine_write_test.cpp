// Writing machine files (machine_write.cpp): lossless round trips of every section and each
// section's most common source written once as its default.
#include "kerncast/machine/machine_json.hpp"
#include "toy_machine.hpp"

#include <gtest/gtest.h>

using namespace kerncast;

TEST(MachineWrite, RoundTripIsLosslessForEverySection) {
    MachineModel m = parse(minimal);
    m.sources["fit"] = Provenance{SourceKind::derived, "fitted by hand", ""};
    m.compute.shared_memory_carveouts_kib = Sourced<std::vector<int>>{{0, 8, 100}, "run"};
    m.compute.issue_rates.push_back(IssueRate{"fma", "f64", {0.1 + 0.2, "run"}});
    m.compute.register_allocation_granularity = Sourced<std::string>{"warp", "sheet"};
    m.shared_memory_banks.banks = Sourced<int>{32, "sheet"};
    m.mwp_cwp.mem_ld_cycles = Sourced<double>{420, "fit"};
    m.mwp_cwp.issue_cycles = Sourced<double>{4, "sheet"};
    m.capacity_fits.l1_redundant_loads =
        CapacityFit{{0.97, "fit"}, {1.0 / 3.0, "fit"}, {-2.5e-6, "run"}};
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

TEST(MachineWrite, WriterNamesTheMostCommonSourceOnce) {
    const nlohmann::json j = machine_to_json(parse(minimal));
    EXPECT_EQ(j.at("compute").at("source"), "sheet");
    EXPECT_EQ(j.at("compute").at("sm_count"), 4);
    EXPECT_EQ(j.at("memory").at(2).at("sustained_bandwidth_gbs"),
              (nlohmann::json{{"value", 430.5}, {"source", "run"}}));
}

TEST(MachineWrite, ProbedTopologyFieldsRoundTrip) {
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

TEST(MachineWrite, LatencyUnderLoadRoundTrips) {
    MachineModel m = parse(probed());
    m.sources["loaded"] = Provenance{SourceKind::measured, "a chase under load", "data/loaded"};
    m.memory[2].latency_under_load = Sourced<std::vector<LoadedLatency>>{
        {{0, 0, 600.5, 0}, {0, 0.1 + 0.2, 700, 0}, {0.5, 0, 610, 35.5}, {0.5, 400, 1200.25, 210}},
        "loaded"};
    for (const std::string& text : {machine_to_json(m).dump(2), machine_json_text(m)}) {
        const MachineModel back = parse(text);
        EXPECT_EQ(back, m) << text;
    }
    const nlohmann::json j = machine_to_json(m);
    const nlohmann::json& table = j.at("memory").at(2).at("latency_under_load");
    EXPECT_EQ(table.at("source"), "loaded");
    EXPECT_EQ(table.at("value").at(3), (nlohmann::json{{"store_fraction", 0.5},
                                                       {"bandwidth_gbs", 400},
                                                       {"latency_cycles", 1200.25},
                                                       {"latency_stddev_cycles", 210}}));
    EXPECT_FALSE(table.at("value").at(0).contains("latency_stddev_cycles")); // 0: not measured
}

TEST(MachineWrite, InFlightBandwidthsRoundTrip) {
    MachineModel m = parse(probed());
    m.sources["in_flight"] = Provenance{SourceKind::measured, "streams by threads", "data/streams"};
    m.memory[2].bandwidth_by_loads_in_flight = Sourced<std::vector<InFlightBandwidth>>{
        {{0, 16384, 320.5}, {0, 32768, 450}, {0.1 + 0.2, 65536, 430.25}}, "in_flight"};
    for (const std::string& text : {machine_to_json(m).dump(2), machine_json_text(m)}) {
        const MachineModel back = parse(text);
        EXPECT_EQ(back, m) << text;
    }
    const nlohmann::json j = machine_to_json(m);
    const nlohmann::json& table = j.at("memory").at(2).at("bandwidth_by_loads_in_flight");
    EXPECT_EQ(table.at("source"), "in_flight");
    EXPECT_EQ(table.at("value").at(2), (nlohmann::json{{"store_fraction", 0.1 + 0.2},
                                                       {"loads_in_flight_bytes_per_sm", 65536},
                                                       {"bandwidth_gbs", 430.25}}));
}

TEST(MachineWrite, MixedBandwidthsRoundTrip) {
    MachineModel m = parse(probed());
    m.sources["mix"] = Provenance{SourceKind::measured, "a mixed stream", "data/mix"};
    m.memory[2].mixed_bandwidth_by_store_fraction =
        Sourced<std::vector<MixedBandwidth>>{{{0, 450}, {0.1 + 0.2, 430.25}, {1, 470}}, "mix"};
    for (const std::string& text : {machine_to_json(m).dump(2), machine_json_text(m)}) {
        const MachineModel back = parse(text);
        EXPECT_EQ(back, m) << text;
    }
    const nlohmann::json j = machine_to_json(m);
    const nlohmann::json& table = j.at("memory").at(2).at("mixed_bandwidth_by_store_fraction");
    EXPECT_EQ(table.at("source"), "mix");
    EXPECT_EQ(table.at("value").at(1),
              (nlohmann::json{{"store_fraction", 0.1 + 0.2}, {"bandwidth_gbs", 430.25}}));
}
