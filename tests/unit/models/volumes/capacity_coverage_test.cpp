// Uncovered capacity terms (capacity_coverage.hpp): a default curve's terms count when their hit
// rate lies in its transition, a fitted curve's when their O lies beyond the largest O of the
// fit's samples; terms of one fit are taken together, weighted by volume.
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/models/volumes/capacity_coverage.hpp"

#include <cmath>
#include <gtest/gtest.h>

namespace kerncast::models {
namespace {

CapacityTerm term(CapacityFitKind kind, double oversubscription, double volume) {
    CapacityTerm t;
    t.fit = kind;
    t.oversubscription = oversubscription;
    t.volume_bytes_per_point = volume;
    return t;
}

// The V100 PCIe: z_layer_overlap is the kerncast default (1, 0.012, -3.1); y_layer_overlap and
// l2_redundant_loads are fitted (fit-volumes-4, with the O ranges of their samples).
MachineModel v100() {
    return builtin_machine("v100-pcie-32gb");
}

TEST(CapacityCoverage, ADefaultCurveCountsInItsTransitionOnly) {
    const MachineModel machine = v100();
    ASSERT_FALSE(machine.sources.at("kerncast-capacity-defaults").fit);
    const CapacityFit& z = *machine.capacity_fits.z_layer_overlap;
    // O = 0.93: hit exp(-0.012 e^(3.1 x 0.93)) = 0.808, inside 5-95 %.
    const VolumeDecomposition transition{8.0, {term(CapacityFitKind::z_layer_overlap, 0.93, 22.0)}};
    const double total = evaluate_decomposition(transition, machine.capacity_fits, "v100");
    const auto found = uncovered_capacity_terms(transition, total, machine);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].fit, CapacityFitKind::z_layer_overlap);
    EXPECT_DOUBLE_EQ(found[0].oversubscription, 0.93);
    EXPECT_NEAR(found[0].hit_rate, std::exp(-0.012 * std::exp(3.1 * 0.93)), 1e-12);
    EXPECT_NEAR(found[0].hit_rate, 0.808, 0.001);
    EXPECT_DOUBLE_EQ(found[0].volume_bytes_per_point, 22.0);
    EXPECT_DOUBLE_EQ(found[0].total_bytes_per_point, total);
    EXPECT_DOUBLE_EQ(found[0].share, 22.0 / total);
    EXPECT_EQ(found[0].source, "kerncast-capacity-defaults");
    EXPECT_FALSE(found[0].largest_fitted_oversubscription);
    EXPECT_EQ(capacity_hit_rate(z, 0.93), found[0].hit_rate);
    // Far beyond the L2 (O = 2.7: hit 0.0) or well within it (O = 0.2: hit 0.98) the curve's
    // shape does not matter.
    for (double o : {2.7, 0.2}) {
        const VolumeDecomposition d{8.0, {term(CapacityFitKind::z_layer_overlap, o, 22.0)}};
        EXPECT_TRUE(uncovered_capacity_terms(d, 20.0, machine).empty()) << "O = " << o;
    }
}

TEST(CapacityCoverage, AFittedCurveCountsBeyondItsSamplesOnly) {
    const MachineModel machine = v100();
    const CapacityFit& loads = *machine.capacity_fits.l2_redundant_loads;
    const auto& ranges = machine.sources.at(loads.c.source).fit->oversubscription_ranges;
    const double largest = ranges.at("l2_redundant_loads")[1];
    // Within the samples (even in the transition: hit 0.74 at O = 2.0), or less than 10 %
    // beyond the largest: covered.
    for (double o : {2.0, 1.09 * largest}) {
        const VolumeDecomposition within{10.0,
                                         {term(CapacityFitKind::l2_redundant_loads, o, 20.0)}};
        EXPECT_TRUE(uncovered_capacity_terms(within, 15.0, machine).empty()) << "O = " << o;
    }
    // Beyond them, where the curve still promises hits (0.07 at largest + 0.5): extrapolated.
    const VolumeDecomposition beyond{
        10.0, {term(CapacityFitKind::l2_redundant_loads, largest + 0.5, 20.0)}};
    EXPECT_GT(capacity_hit_rate(loads, largest + 0.5), 0.05);
    const auto found = uncovered_capacity_terms(beyond, 30.0, machine);
    ASSERT_EQ(found.size(), 1u);
    ASSERT_TRUE(found[0].largest_fitted_oversubscription);
    EXPECT_EQ(*found[0].largest_fitted_oversubscription, largest);
    EXPECT_EQ(found[0].source, loads.c.source);
    // Far beyond them every curve misses (hit < 5 % at largest + 1.5): nothing to doubt.
    const VolumeDecomposition far{10.0,
                                  {term(CapacityFitKind::l2_redundant_loads, largest + 1.5, 20.0)}};
    EXPECT_LT(capacity_hit_rate(loads, largest + 1.5), 0.05);
    EXPECT_TRUE(uncovered_capacity_terms(far, 30.0, machine).empty());
    // A fitted source without recorded ranges: nothing to compare with, nothing reported.
    MachineModel unrecorded = machine;
    unrecorded.sources.at(loads.c.source).fit->oversubscription_ranges.clear();
    EXPECT_TRUE(uncovered_capacity_terms(beyond, 30.0, unrecorded).empty());
}

TEST(CapacityCoverage, TermsOfOneFitAreWeightedAndSmallOnesLeftOut) {
    const MachineModel machine = v100();
    // Two sampled waves' z terms: O weighted by volume, (0.8 x 10 + 1.1 x 30) / 40 = 1.025.
    const VolumeDecomposition waves{8.0,
                                    {term(CapacityFitKind::z_layer_overlap, 0.8, 10.0),
                                     term(CapacityFitKind::z_layer_overlap, 1.1, 30.0),
                                     term(CapacityFitKind::z_layer_overlap, 5.0, 0.0)}};
    const auto found = uncovered_capacity_terms(waves, 20.0, machine);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_DOUBLE_EQ(found[0].oversubscription, 1.025);
    EXPECT_DOUBLE_EQ(found[0].volume_bytes_per_point, 40.0);
    // Below min_share of the total (5 %): left out.
    const VolumeDecomposition small{8.0, {term(CapacityFitKind::z_layer_overlap, 0.93, 0.9)}};
    EXPECT_TRUE(uncovered_capacity_terms(small, 20.0, machine).empty());
    EXPECT_EQ(uncovered_capacity_terms(small, 20.0, machine, 0.04).size(), 1u);
    // No total, no shares.
    EXPECT_TRUE(uncovered_capacity_terms(waves, 0.0, machine).empty());
}

TEST(CapacityCoverage, NotesSayWhatIsUncertainAndWhy) {
    UncoveredCapacityTerm z;
    z.fit = CapacityFitKind::z_layer_overlap;
    z.oversubscription = 0.93;
    z.hit_rate = 0.81;
    z.volume_bytes_per_point = 21.96;
    z.total_bytes_per_point = 12.83;
    z.share = 21.96 / 12.83;
    z.source = "kerncast-capacity-defaults";
    EXPECT_EQ(uncovered_capacity_note("DRAM load", z, "v100-pcie-32gb"),
              "DRAM load: z_layer_overlap terms of 21.96 B/point at O = 0.93 hit 81 % (4.17 of "
              "the 12.83 B/point total miss); that hit rate lies in the transition of a curve no "
              "measurement of v100-pcie-32gb places (source kerncast-capacity-defaults), so this "
              "part of the forecast is uncertain (docs/volume-model.md)");
    UncoveredCapacityTerm y = z;
    y.fit = CapacityFitKind::y_layer_overlap;
    y.source = "fit-volumes-h200";
    y.largest_fitted_oversubscription = 0.51;
    EXPECT_EQ(uncovered_capacity_note("DRAM load", y, "h200-sxm-141gb"),
              "DRAM load: y_layer_overlap terms of 21.96 B/point at O = 0.93 hit 81 % (4.17 of "
              "the 12.83 B/point total miss); that O lies beyond the largest its fit "
              "(fit-volumes-h200) saw, 0.51: the curve is extrapolated, so this part of the "
              "forecast is uncertain");
}

} // namespace
} // namespace kerncast::models
