// The fit-volumes view (capacity_fitting_view.hpp) arranges a fit result's numbers without
// computing: a hand-made result shows up cell for cell, absent fits are left out, and the
// notes say which fits could not be fitted and that there was no cross-validation.
#include "../../view_test_support.hpp"
#include "kerncast/models/volumes/capacity_fitting_view.hpp"

#include <algorithm>
#include <gtest/gtest.h>

namespace kerncast::models {
namespace {

using kerncast::test::column;
using kerncast::test::has_note;

struct Fixture {
    std::vector<VolumeSample> samples;
    CapacityFitResult fit;
};

Fixture hand_made_fit() {
    Fixture f;
    for (int k = 0; k < 2; ++k) {
        VolumeSample sample;
        sample.label = "r" + std::to_string(k) + ".json dram_load";
        sample.group = "32x4x1";
        sample.metric = VolumeMetric::dram_load;
        sample.measured_bytes_per_point = 10.0 + k;
        f.samples.push_back(sample);
    }
    FittedCoefficients l1;
    l1.kind = CapacityFitKind::l1_redundant_loads;
    l1.status = FitStatus::fitted;
    l1.samples = 2;
    l1.min_oversubscription = 0.5;
    l1.max_oversubscription = 1.5;
    l1.start = {1.0, 0.02, -1.3};
    l1.fitted = {0.9, 0.05, -1.1};
    l1.standard_errors = std::array<double, 3>{0.01, 0.002, 0.1};
    FittedCoefficients y;
    y.kind = CapacityFitKind::y_layer_overlap;
    y.status = FitStatus::not_identifiable;
    y.start = y.fitted = {1.0, 0.05, -1.2};
    FittedCoefficients z; // absent: not in the machine, not shown
    z.kind = CapacityFitKind::z_layer_overlap;
    f.fit.coefficients = {l1, y, z};
    f.fit.predicted_before = {12.0, 12.5};
    f.fit.predicted_after = {10.1, 10.9};
    f.fit.residuals_before = {0.2, 12.5 / 11.0 - 1.0};
    f.fit.residuals_after = {0.01, 10.9 / 11.0 - 1.0};
    f.fit.before = {2, 0.17, 0.19};
    f.fit.after = {2, 0.0095, 0.0099};
    f.fit.by_metric[static_cast<std::size_t>(VolumeMetric::dram_load)] =
        std::pair{f.fit.before, f.fit.after};
    f.fit.starts = 7;
    f.fit.start = "the machine's fits";
    f.fit.iterations = 12;
    f.fit.termination = "CONVERGENCE";
    f.fit.converged = true;
    f.fit.covariance_available = true;
    return f;
}

TEST(CapacityFittingView, ShowsTheResultCellForCell) {
    const Fixture f = hand_made_fit();
    const report::Document doc = fit_volumes_view(f.samples, f.fit, {}, "v100", {"extra note"});
    EXPECT_EQ(doc.schema, "kerncast.fit-volumes/1");
    EXPECT_EQ(doc.title, "Capacity-miss fits of v100 from measured volumes");
    std::vector<std::string> keys;
    for (const auto& table : doc.tables)
        keys.push_back(table.key);
    EXPECT_EQ(keys, (std::vector<std::string>{"coefficients", "errors", "solver", "samples"}));

    const auto& coefficients = doc.table_at("coefficients");
    ASSERT_EQ(coefficients.rows.size(), 2u); // the absent z fit is left out
    const auto& l1 = coefficients.rows[0];
    EXPECT_EQ(std::get<std::string>(l1[0]), "l1_redundant_loads");
    EXPECT_EQ(std::get<std::string>(l1[1]), "fitted");
    EXPECT_EQ(std::get<std::int64_t>(l1[2]), 2);
    EXPECT_DOUBLE_EQ(std::get<double>(l1[column(coefficients, "oversubscription_max")]), 1.5);
    EXPECT_DOUBLE_EQ(std::get<double>(l1[column(coefficients, "b_start")]), 0.02);
    EXPECT_DOUBLE_EQ(std::get<double>(l1[column(coefficients, "c")]), -1.1);
    EXPECT_DOUBLE_EQ(std::get<double>(l1[column(coefficients, "b_standard_error")]), 0.002);
    const auto& y = coefficients.rows[1];
    EXPECT_EQ(std::get<std::string>(y[1]), "not identifiable");
    // No samples: no oversubscription range, no standard errors.
    EXPECT_TRUE(
        std::holds_alternative<std::monostate>(y[column(coefficients, "oversubscription_min")]));
    EXPECT_TRUE(
        std::holds_alternative<std::monostate>(y[column(coefficients, "a_standard_error")]));

    const auto& errors = doc.table_at("errors");
    ASSERT_EQ(errors.rows.size(), 2u); // dram_load and all
    EXPECT_EQ(std::get<std::string>(errors.rows[0][0]), "dram_load");
    EXPECT_EQ(std::get<std::string>(errors.rows[1][0]), "all");
    EXPECT_DOUBLE_EQ(std::get<double>(errors.rows[1][column(errors, "median_after")]), 0.0095);
    EXPECT_EQ(errors.columns.size(), 6u); // no held-out columns without cross-validation

    const auto& solver = doc.table_at("solver");
    EXPECT_EQ(std::get<std::string>(solver.rows[3][1]), "CONVERGENCE");
    EXPECT_EQ(std::get<std::int64_t>(solver.rows[2][1]), 12);

    const auto& samples = doc.table_at("samples");
    ASSERT_EQ(samples.rows.size(), 2u);
    EXPECT_EQ(std::get<std::string>(samples.rows[1][0]), "r1.json dram_load");
    EXPECT_DOUBLE_EQ(std::get<double>(samples.rows[1][column(samples, "measured")]), 11.0);
    EXPECT_DOUBLE_EQ(std::get<double>(samples.rows[1][column(samples, "predicted_after")]), 10.9);
    EXPECT_TRUE(
        std::holds_alternative<std::monostate>(samples.rows[0][column(samples, "error_held_out")]));

    EXPECT_TRUE(has_note(doc, "y_layer_overlap: not identifiable"));
    EXPECT_TRUE(has_note(doc, "no cross-validation"));
    EXPECT_EQ(doc.notes.back(), "extra note");
    EXPECT_FALSE(has_note(doc, "joint covariance"));
}

TEST(CapacityFittingView, SingularCovarianceNamesConditionalAndUndeterminedFits) {
    Fixture f = hand_made_fit();
    f.fit.covariance_available = false;
    f.fit.coefficients[1].status = FitStatus::fitted; // fitted, without standard errors
    const report::Document doc = fit_volumes_view(f.samples, f.fit, {}, "v100");
    EXPECT_TRUE(has_note(doc, "joint covariance of the coefficients is singular"));
    EXPECT_TRUE(has_note(doc, "standard errors of l1_redundant_loads are conditional"));
    EXPECT_TRUE(has_note(doc, "not determined separately (no standard errors): y_layer_overlap"));
}

} // namespace
} // namespace kerncast::models
