// Capacity terms (capacity_terms.hpp): the hit-rate curve of Ernst et al. 2023, sec. 4.5,
// eq. (4)-(5), at hand-computed points, decompositions evaluated term by term, and the fit
// slots and names.
#include "kerncast/error.hpp"
#include "kerncast/models/volumes/capacity_terms.hpp"

#include <gtest/gtest.h>
#include <set>

namespace kerncast::models {
namespace {

CapacityFit make_fit(double a, double b, double c) {
    return CapacityFit{{a, "test"}, {b, "test"}, {c, "test"}};
}

constexpr CapacityFitKind all_kinds[] = {
    CapacityFitKind::l1_redundant_loads, CapacityFitKind::y_layer_overlap,
    CapacityFitKind::z_layer_overlap, CapacityFitKind::l2_redundant_stores,
    CapacityFitKind::l2_redundant_loads};

TEST(CapacityTerms, HitRateFollowsTheGompertzCurve) {
    const CapacityFit fit = make_fit(0.97, 0.05, -1.5);
    // a exp(-b exp(-c O)): at O = 0 it is a exp(-b).
    EXPECT_NEAR(capacity_hit_rate(fit, 0.0), 0.9226925417656926, 1e-15);
    EXPECT_NEAR(capacity_hit_rate(fit, 2.0), 0.3553201540087065, 1e-15);
    // c < 0: the hit rate falls as the cache is oversubscribed further.
    EXPECT_GT(capacity_hit_rate(fit, 1.0), capacity_hit_rate(fit, 1.1));
    EXPECT_NEAR(capacity_hit_rate(fit, 20.0), 0.0, 1e-12);
}

TEST(CapacityTerms, DecompositionAddsEachMissTerm) {
    CapacityFits fits;
    fits.l1_redundant_loads = make_fit(0.97, 0.05, -1.5);
    fits.y_layer_overlap = make_fit(0.9, 0.1, -2.0);
    VolumeDecomposition d;
    d.base_bytes_per_point = 10;
    EXPECT_DOUBLE_EQ(evaluate_decomposition(d, fits, "m"), 10.0);

    CapacityTerm l1;
    l1.fit = CapacityFitKind::l1_redundant_loads;
    l1.oversubscription = 2.0;
    l1.volume_bytes_per_point = 4;
    d.terms.push_back(l1);
    EXPECT_NEAR(evaluate_decomposition(d, fits, "m"), 12.578719383965174, 1e-12);

    // A miss in L2 of what missed in L1: both miss probabilities multiply.
    CapacityTerm chained;
    chained.fit = CapacityFitKind::y_layer_overlap;
    chained.oversubscription = 1.5;
    chained.volume_bytes_per_point = 8;
    chained.second_fit = CapacityFitKind::l1_redundant_loads;
    chained.second_oversubscription = 2.0;
    d.terms.push_back(chained);
    EXPECT_NEAR(evaluate_decomposition(d, fits, "m"), 17.11332344570609, 1e-12);
}

TEST(CapacityTerms, MissingFitNamesMachineAndFit) {
    CapacityFits fits;
    VolumeDecomposition d;
    CapacityTerm term;
    term.fit = CapacityFitKind::z_layer_overlap;
    term.volume_bytes_per_point = 1;
    d.terms.push_back(term);
    try {
        (void)evaluate_decomposition(d, fits, "my-gpu");
        FAIL() << "expected an input error";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_NE(error.message().find("'my-gpu'"), std::string::npos) << error.message();
        EXPECT_NE(error.message().find("capacity_fits.z_layer_overlap"), std::string::npos)
            << error.message();
    }
}

TEST(CapacityTerms, SlotsAndNamesAreDistinctPerKind) {
    CapacityFits fits;
    std::set<std::string_view> names;
    double a = 0.5;
    for (const auto kind : all_kinds) {
        names.insert(capacity_fit_name(kind));
        capacity_fit_slot(fits, kind) = make_fit(a, 0.1, -1.0);
        a += 0.1;
    }
    EXPECT_EQ(names.size(), std::size(all_kinds));
    EXPECT_EQ(capacity_fit_name(CapacityFitKind::l2_redundant_loads), "l2_redundant_loads");
    // Every slot is its own member: the values written above are all still there.
    EXPECT_DOUBLE_EQ(fits.l1_redundant_loads->a.value, 0.5);
    EXPECT_DOUBLE_EQ(fits.y_layer_overlap->a.value, 0.6);
    EXPECT_DOUBLE_EQ(fits.z_layer_overlap->a.value, 0.7);
    EXPECT_DOUBLE_EQ(fits.l2_redundant_stores->a.value, 0.8);
    EXPECT_DOUBLE_EQ(fits.l2_redundant_loads->a.value, 0.9);
    const CapacityFits& constant = fits;
    EXPECT_EQ(&*capacity_fit_slot(constant, CapacityFitKind::z_layer_overlap),
              &*fits.z_layer_overlap);
    EXPECT_DOUBLE_EQ(capacity_fit(fits, CapacityFitKind::l2_redundant_stores, "m").a.value, 0.8);
}

} // namespace
} // namespace kerncast::models
