#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/machine/machine_text_edit.hpp"
#include "toy_machine.hpp"

#include <gtest/gtest.h>
#include <sstream>

using namespace kerncast;

namespace {

Provenance fitted_source(const std::string& citation) {
    Provenance source;
    source.kind = SourceKind::derived;
    source.citation = citation;
    source.run = "data/records";
    FitProvenance fit;
    fit.records_sha256 = std::string(64, 'a');
    fit.records = 3;
    fit.samples = 12;
    fit.median_abs_relative_error = 0.01;
    fit.p90_abs_relative_error = 0.05;
    fit.date = "2026-11-26T14:00:00Z";
    fit.kerncast_version = "test";
    fit.fits = {"y_layer_overlap"};
    source.fit = fit;
    return source;
}

CapacityFit fit_of(const std::string& source, double a, double b, double c) {
    return CapacityFit{{a, source}, {b, source}, {c, source}};
}

// The common prefix of two texts, in bytes.
std::size_t common_prefix(const std::string& a, const std::string& b) {
    std::size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n])
        ++n;
    return n;
}

} // namespace

TEST(MachineTextEdit, ARefitChangesOnlyItsFitsAndItsSourceInPlace) {
    const MachineText original = resolve_machine_text("v100-pcie-32gb");
    MachineModel updated = parse_machine_json(original.text, original.origin);
    ASSERT_EQ(updated.capacity_fits.y_layer_overlap->a.source, "fit-volumes-4");
    // What fit-volumes does on a refit of both fits of "fit-volumes-4": a new source in its
    // place, new coefficients.
    updated.sources.erase("fit-volumes-4");
    updated.sources["fit-volumes-5"] = fitted_source("refit");
    updated.capacity_fits.y_layer_overlap = fit_of("fit-volumes-5", 1.0, 2e-9, -20.5);
    updated.capacity_fits.l2_redundant_loads = fit_of("fit-volumes-5", 1.0, 0.003, -2.25);

    const MachineTextEdit edit = edit_machine_text(original.text, original.origin, updated);
    ASSERT_TRUE(edit.kept_layout) << edit.reason;
    EXPECT_EQ(parse_machine_json(edit.text, "edited.json"), updated);
    // The new source stands where the replaced one stood: everything before it is unchanged.
    const std::size_t old_at = original.text.find("\"fit-volumes-4\": {");
    EXPECT_EQ(edit.text.find("\"fit-volumes-5\": {"), old_at);
    EXPECT_EQ(common_prefix(original.text, edit.text),
              old_at + std::string("\"fit-volumes-").size());
    // Spellings machine_json_text() would change are kept.
    for (const char* kept :
         {R"("size_bytes": "6 MiB")", R"("boost_clock_mhz": {"value": 1380, "source": "ernst2023")",
          R"("shared_memory_per_sm_bytes": "96 KiB")"}) {
        EXPECT_NE(edit.text.find(kept), std::string::npos) << kept;
        EXPECT_EQ(machine_json_text(updated).find(kept), std::string::npos) << kept;
    }
    // Lines not about the fits are all still there.
    std::size_t lost = 0;
    std::istringstream lines(original.text);
    for (std::string line; std::getline(lines, line);)
        lost += edit.text.find(line) == std::string::npos;
    EXPECT_LE(lost, 20u); // the old source's block and the two fit members
    EXPECT_GT(original.text.size(), 10000u);
}

TEST(MachineTextEdit, SectionsTheFileLacksAreAppended) {
    MachineModel updated = parse(minimal);
    updated.sources["fit"] = fitted_source("a fit");
    updated.capacity_fits.y_layer_overlap = fit_of("fit", 1.0, 0.05, -1.5);
    updated.calibrated_costs["m.p_edge"] = Sourced<double>{2.5, "sheet"};
    AtomicServiceTable table;
    table.source = "run";
    table.operations.push_back(AtomicServiceGrid{
        "add", {1, 2}, {1, 32}, {{{10, 20}, {40, 80}}, {{12, 18, 30}, {50, 70, 110}}}});
    updated.atomic_service_times = table;

    const MachineTextEdit edit = edit_machine_text(minimal, "toy.json", updated);
    ASSERT_TRUE(edit.kept_layout) << edit.reason;
    EXPECT_EQ(parse(edit.text), updated);
    // The original text is all there: up to the last source unchanged, then the rest as is.
    const std::string run = R"("run": {"kind": "measured", "citation": "probe", )"
                            R"("run": "data/probe/toy-1.json"})";
    const std::size_t after_run = minimal.find(run) + run.size();
    EXPECT_EQ(edit.text.substr(0, after_run), minimal.substr(0, after_run));
    const std::size_t compute = minimal.find("\"compute\"");
    EXPECT_NE(edit.text.find(minimal.substr(compute, minimal.rfind(']') + 1 - compute)),
              std::string::npos);
}

TEST(MachineTextEdit, AChangedCostCarriesItsOwnSourceWhateverTheSectionDefault) {
    std::string text = minimal;
    text.replace(text.rfind("\n  ]\n}"), 6,
                 "\n  ],\n  \"calibrated_costs\": {\"source\": \"sheet\", \"m.a\": 1.0, "
                 "\"m.b\": 2.0}\n}");
    MachineModel updated = parse(text);
    ASSERT_EQ(updated.calibrated_costs.at("m.a").source, "sheet");
    updated.calibrated_costs["m.a"] = Sourced<double>{1.5, "run"};
    updated.calibrated_costs["m.c"] = Sourced<double>{3.0, "run"};
    updated.calibrated_costs.erase("m.b");

    const MachineTextEdit edit = edit_machine_text(text, "toy.json", updated);
    ASSERT_TRUE(edit.kept_layout) << edit.reason;
    EXPECT_EQ(parse(edit.text), updated);
    EXPECT_NE(edit.text.find(R"("source": "sheet", "m.a": {"value": 1.5, "source": "run"}, )"
                             R"("m.c": {"value": 3.0, "source": "run"})"),
              std::string::npos)
        << edit.text;
}

TEST(MachineTextEdit, OtherChangesOrAnExtendsBaseGiveTheCanonicalLayoutAndWhy) {
    MachineModel renamed = parse(minimal);
    renamed.identity.name = "Another GPU";
    const MachineTextEdit other = edit_machine_text(minimal, "toy.json", renamed);
    EXPECT_FALSE(other.kept_layout);
    EXPECT_EQ(other.text, machine_json_text(renamed));
    EXPECT_NE(other.reason.find("beyond its sources, capacity fits"), std::string::npos);

    // A fit of the built-in base removed through a file that only extends it.
    const std::string overlay = R"({
  "schema": "kerncast.machine/1",
  "extends": "a100-sxm4-40gb",
  "identity": {"id": "lab-a100", "name": "Our A100"}
}
)";
    MachineModel updated = parse_machine_json(overlay, "lab.json");
    ASSERT_TRUE(updated.capacity_fits.z_layer_overlap);
    updated.capacity_fits.z_layer_overlap.reset();
    const MachineTextEdit base = edit_machine_text(overlay, "lab.json", updated);
    EXPECT_FALSE(base.kept_layout);
    EXPECT_EQ(parse_machine_json(base.text, "written.json"), updated);
    EXPECT_NE(base.reason.find("\"extends\" base"), std::string::npos) << base.reason;
}

TEST(MachineTextEdit, AnUnchangedMachineIsTheOriginalText) {
    const MachineText original = resolve_machine_text("h200-sxm-141gb");
    const MachineTextEdit edit = edit_machine_text(
        original.text, original.origin, parse_machine_json(original.text, original.origin));
    EXPECT_TRUE(edit.kept_layout);
    EXPECT_EQ(edit.text, original.text);
}
