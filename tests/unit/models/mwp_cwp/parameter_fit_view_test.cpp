// The mwp-fit report: the three parameters with their fields, the fit summary, every sample.
#include "kerncast/models/mwp_cwp/parameter_fit_view.hpp"

#include <gtest/gtest.h>

namespace kerncast::models::mwp_cwp {
namespace {

TEST(ParameterFitView, ParametersFitAndSamples) {
    MwpFit fit;
    fit.parameters = {420, 10, 4};
    fit.start = {200, 40, 2};
    fit.rows = {{"a.json", "block=32x1x1", 2e-3, 2.2e-3}};
    fit.converged = true;
    fit.termination = "CONVERGENCE";
    const auto doc = mwp_fit_view(fit, "fx5600", {"b.json: no times"});
    EXPECT_EQ(doc.schema, "kerncast.mwp-fit/1");
    const auto& parameters = doc.table_at("parameters");
    ASSERT_EQ(parameters.rows.size(), 3u);
    EXPECT_EQ(std::get<std::string>(parameters.rows[0].at(1)), "mem_ld_cycles");
    EXPECT_DOUBLE_EQ(std::get<double>(parameters.rows[0].at(2)), 420);
    const auto& samples = doc.table_at("samples");
    ASSERT_EQ(samples.rows.size(), 1u);
    EXPECT_NEAR(std::get<double>(samples.rows[0].at(4)), 0.1, 1e-12); // (2.2 - 2) / 2
    ASSERT_EQ(doc.notes.size(), 1u);
    EXPECT_EQ(doc.notes[0], "skipped: b.json: no times");
}

TEST(ParameterFitView, ParametersTheRecordsDoNotDetermineAreMarkedAndNamed) {
    MwpFit fit;
    fit.parameters = {420, 5, 4};
    fit.status = {ParameterStatus::not_separable, ParameterStatus::undetermined,
                  ParameterStatus::not_separable};
    const auto doc = mwp_fit_view(fit, "fx5600", {});
    const auto& parameters = doc.table_at("parameters");
    EXPECT_EQ(std::get<std::string>(parameters.rows[0].at(4)), "not separable");
    EXPECT_EQ(std::get<std::string>(parameters.rows[1].at(4)), "undetermined");
    ASSERT_EQ(doc.notes.size(), 2u);
    EXPECT_EQ(doc.notes[0].rfind("the records do not determine Departure_del_uncoal: no "
                                 "record's time depends on it",
                                 0),
              0u)
        << doc.notes[0];
    EXPECT_EQ(doc.notes[1].rfind("the records fix only a combination of Mem_LD, "
                                 "Departure_del_coal (not separable)",
                                 0),
              0u)
        << doc.notes[1];
}

} // namespace
} // namespace kerncast::models::mwp_cwp
