// The capacity-curve fit (capacity_fitting.hpp): known coefficients are recovered from samples
// generated with them, with and without noise; fits without samples are reported and left
// alone; the cross-validation split is deterministic and shows a fit that does not generalise.
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/models/volumes/capacity_fitting.hpp"
#include "kerncast/models/volumes/capacity_fitting_view.hpp"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>

namespace kerncast::models {
namespace {

CapacityFit make_fit(double a, double b, double c, const std::string& source = "truth") {
    return CapacityFit{{a, source}, {b, source}, {c, source}};
}

CapacityTerm term(CapacityFitKind kind, double oversubscription, double volume) {
    CapacityTerm t;
    t.fit = kind;
    t.oversubscription = oversubscription;
    t.volume_bytes_per_point = volume;
    return t;
}

// Coefficients the samples are generated with (inside the bounds, away from them).
CapacityFits true_fits() {
    CapacityFits fits;
    fits.l1_redundant_loads = make_fit(0.97, 0.05, -1.5);
    fits.y_layer_overlap = make_fit(0.9, 0.1, -2.0);
    fits.z_layer_overlap = make_fit(0.99, 0.02, -3.5);
    fits.l2_redundant_stores = make_fit(0.95, 0.03, -2.5);
    return fits;
}

// The V100 built-in as it was before its fit to the published sets: the four kerncast default
// fits, no fit source (these tests must not depend on the catalogue's fitted values).
MachineModel unfitted_v100() {
    MachineModel machine = builtin_machine("v100-pcie-32gb");
    const auto defaults = [](double a, double b, double c) {
        const std::string source = "kerncast-capacity-defaults";
        return CapacityFit{{a, source}, {b, source}, {c, source}};
    };
    std::erase_if(machine.sources, [](const auto& source) {
        return source.first.starts_with("fit-volumes"); // whatever the file's refits named them
    });
    machine.capacity_fits.l1_redundant_loads = defaults(1.0, 0.02, -1.3);
    machine.capacity_fits.y_layer_overlap = defaults(1.0, 0.05, -1.2);
    machine.capacity_fits.z_layer_overlap = defaults(1.0, 0.012, -3.1);
    machine.capacity_fits.l2_redundant_stores = defaults(1.0, 0.01, -2.0);
    machine.capacity_fits.l2_redundant_loads.reset();
    return machine;
}

// The start: the V100's default fits.
CapacityFits start_fits() {
    return unfitted_v100().capacity_fits;
}

// Samples shaped like the volume model's: L2 loads with an L1 term, DRAM loads with y and z
// layer terms and a partial-store term, stores without terms. 8 block shapes (groups) x 6
// sizes; the oversubscriptions of the terms vary independently (z with the shape, y with the
// size, the stores with both) and cover the transition of every curve.
std::vector<VolumeSample> synthetic_samples(const CapacityFits& truth, double noise = 0,
                                            bool with_z = true, unsigned seed = 12345) {
    std::mt19937 random(seed);
    std::normal_distribution<double> gaussian(0.0, 1.0);
    std::vector<VolumeSample> samples;
    for (int shape = 0; shape < 8; ++shape) {
        for (int size = 0; size < 6; ++size) {
            const std::string group = "kernel block=" + std::to_string(shape);
            auto add = [&](VolumeMetric metric, VolumeDecomposition d) {
                VolumeSample sample;
                sample.label = "sample " + std::to_string(samples.size());
                sample.group = group;
                sample.metric = metric;
                sample.decomposition = d;
                const double exact = evaluate_decomposition(d, truth, "truth");
                sample.measured_bytes_per_point = exact * (1.0 + noise * gaussian(random));
                samples.push_back(sample);
            };
            const double l1_o = 0.1 + 0.1 * (shape * 6 + size); // 0.1 .. 4.8
            add(VolumeMetric::l2_load,
                {8.0 + 0.5 * shape,
                 {term(CapacityFitKind::l1_redundant_loads, l1_o, 20.0 + 2.0 * size)}});
            const double y_o = 0.2 + 0.4 * size;                          // 0.2 .. 2.2
            const double z_o = 0.15 + 0.25 * shape;                       // 0.15 .. 1.9
            const double store_o = 0.1 + 0.45 * ((shape * 5 + size) % 8); // 0.1 .. 3.25
            VolumeDecomposition dram{8.0,
                                     {term(CapacityFitKind::y_layer_overlap, y_o, 4.0 + shape),
                                      term(CapacityFitKind::l2_redundant_stores, store_o, 3.0)}};
            if (with_z)
                dram.terms.push_back(term(CapacityFitKind::z_layer_overlap, z_o, 6.0 + size));
            add(VolumeMetric::dram_load, dram);
            add(VolumeMetric::dram_store, {8.0, {}});
        }
    }
    return samples;
}

// The samples measured anew under `truth` (after their terms were changed), with noise.
std::vector<VolumeSample> remeasured(std::vector<VolumeSample> samples, const CapacityFits& truth,
                                     double noise) {
    std::mt19937 random(777);
    std::normal_distribution<double> gaussian(0.0, 1.0);
    for (auto& sample : samples)
        sample.measured_bytes_per_point =
            evaluate_decomposition(sample.decomposition, truth, "truth") *
            (1.0 + noise * gaussian(random));
    return samples;
}

const FittedCoefficients& entry_of(const CapacityFitResult& result, CapacityFitKind kind) {
    for (const auto& entry : result.coefficients)
        if (entry.kind == kind)
            return entry;
    throw std::out_of_range("no entry");
}

std::array<double, 3> abc(const std::optional<CapacityFit>& fit) {
    return {fit->a.value, fit->b.value, fit->c.value};
}

const std::array<CapacityFitKind, 4> kinds{
    CapacityFitKind::l1_redundant_loads, CapacityFitKind::y_layer_overlap,
    CapacityFitKind::z_layer_overlap, CapacityFitKind::l2_redundant_stores};

const std::optional<CapacityFit>& slot(const CapacityFits& fits, CapacityFitKind kind) {
    return capacity_fit_slot(fits, kind);
}

// The paper's three coefficients: a is fitted too (the tests below generate samples with
// a < 1 and recover it); the default holds a at 1 (TheDefaultHoldsTheAsymptoteAtOne).
CapacityFitOptions three_coefficients() {
    CapacityFitOptions options;
    options.fit_asymptote = true;
    return options;
}

TEST(CapacityFitting, RecoversKnownCoefficientsFromNoiseFreeSamples) {
    const CapacityFits truth = true_fits();
    const auto samples = synthetic_samples(truth);
    const CapacityFitResult result =
        fit_capacity_curves(samples, start_fits(), "v100", three_coefficients());
    EXPECT_TRUE(result.converged) << result.message;
    EXPECT_GT(result.iterations, 0);
    for (const auto kind : kinds) {
        const auto& entry = entry_of(result, kind);
        EXPECT_EQ(entry.status, FitStatus::fitted);
        const auto expected = abc(slot(truth, kind));
        for (int p = 0; p < 3; ++p) {
            EXPECT_NEAR(entry.fitted[static_cast<size_t>(p)], expected[static_cast<size_t>(p)],
                        1e-6 * std::abs(expected[static_cast<size_t>(p)]))
                << capacity_fit_name(kind) << " coefficient " << p;
        }
        // The fitted values are in the result's fits, attributed to the fit's source.
        EXPECT_EQ(abc(slot(result.fits, kind)), entry.fitted);
        EXPECT_EQ(slot(result.fits, kind)->a.source, "fit-volumes");
    }
    EXPECT_EQ(result.after.samples, samples.size());
    EXPECT_LT(result.after.p90_abs_relative_error, 1e-9);
    EXPECT_GT(result.before.median_abs_relative_error, 1e-3); // the start was wrong
    EXPECT_LT(result.final_cost, 1e-18);
    // Per metric: the stores have no capacity term, so their error is 0 before and after.
    const auto& stores = result.by_metric[static_cast<size_t>(VolumeMetric::dram_store)];
    ASSERT_TRUE(stores);
    EXPECT_EQ(stores->first.samples, 48u);
    EXPECT_NEAR(stores->second.p90_abs_relative_error, 0.0, 1e-15);
    EXPECT_FALSE(result.by_metric[static_cast<size_t>(VolumeMetric::l2_store)]);
}

TEST(CapacityFitting, TermsOfTwoLevelsAreFitted) {
    // Redundant L1 loads that miss in L1 and then in L2: (1 - hit_l1) (1 - hit_l2) x volume,
    // next to single-level L2 terms (volumes.hpp, the l2_redundant_loads extension).
    CapacityFits truth = true_fits();
    truth.l2_redundant_loads = make_fit(0.9, 0.05, -2.2);
    CapacityFits start = start_fits();
    start.l2_redundant_loads = make_fit(1.0, 0.01, -2.0, "machine");
    auto samples = synthetic_samples(truth);
    for (std::size_t i = 0; i < samples.size(); ++i) {
        auto& sample = samples[i];
        if (sample.metric != VolumeMetric::dram_load)
            continue;
        const double wave_o = 0.1 + 0.07 * static_cast<double>(i % 41); // 0.1 .. 2.9
        const double l1_o = 0.2 + 0.09 * static_cast<double>(i % 37);   // 0.2 .. 3.4
        sample.decomposition.terms.push_back(
            {CapacityFitKind::l2_redundant_loads, wave_o, 5.0, std::nullopt, 0.0});
        sample.decomposition.terms.push_back({CapacityFitKind::l2_redundant_loads, wave_o, 12.0,
                                              CapacityFitKind::l1_redundant_loads, l1_o});
    }
    samples = remeasured(samples, truth, 0);
    const CapacityFitResult result =
        fit_capacity_curves(samples, start, "v100", three_coefficients());
    const auto& l2 = entry_of(result, CapacityFitKind::l2_redundant_loads);
    EXPECT_EQ(l2.status, FitStatus::fitted);
    for (const auto kind :
         {CapacityFitKind::l2_redundant_loads, CapacityFitKind::l1_redundant_loads,
          CapacityFitKind::y_layer_overlap}) {
        const auto expected = abc(slot(truth, kind));
        const auto& entry = entry_of(result, kind);
        for (size_t p = 0; p < 3; ++p)
            EXPECT_NEAR(entry.fitted[p], expected[p], 1e-6 * std::abs(expected[p]))
                << capacity_fit_name(kind) << " coefficient " << p;
    }
    EXPECT_LT(result.after.p90_abs_relative_error, 1e-9);
}

TEST(CapacityFitting, NoisySamplesGiveCoefficientsWithinTheirStandardErrors) {
    const CapacityFits truth = true_fits();
    const double noise = 0.01; // 1 % relative, Gaussian
    const auto samples = synthetic_samples(truth, noise);
    const CapacityFitResult result =
        fit_capacity_curves(samples, start_fits(), "v100", three_coefficients());
    EXPECT_TRUE(result.converged) << result.message;
    ASSERT_TRUE(result.covariance_available);
    for (const auto kind : kinds) {
        const auto& entry = entry_of(result, kind);
        ASSERT_TRUE(entry.standard_errors) << capacity_fit_name(kind);
        const auto expected = abc(slot(truth, kind));
        for (size_t p = 0; p < 3; ++p) {
            const double error = (*entry.standard_errors)[p];
            EXPECT_GT(error, 0.0);
            EXPECT_LT(std::abs(entry.fitted[p] - expected[p]), 4 * error)
                << capacity_fit_name(kind) << " coefficient " << p << ": " << entry.fitted[p]
                << " vs " << expected[p] << " +- " << error;
        }
        // The curve itself is close where samples constrain it (the store term is 3 B of
        // about 20 B per point: 1 % noise there is 7 % of its hit rate per sample).
        for (double o = 0.0; o <= 3.0; o += 0.25)
            EXPECT_NEAR(capacity_hit_rate(*slot(result.fits, kind), o),
                        capacity_hit_rate(*slot(truth, kind), o), 0.05)
                << capacity_fit_name(kind) << " at O = " << o;
    }
    // The remaining error is the noise: median |noise| of a 1 % Gaussian is 0.67 %.
    EXPECT_GT(result.after.median_abs_relative_error, 0.003);
    EXPECT_LT(result.after.median_abs_relative_error, 0.01);
    EXPECT_LT(result.after.median_abs_relative_error, result.before.median_abs_relative_error);
}

TEST(CapacityFitting, StandardErrorsMatchTheScatterOverNoiseDraws) {
    // Oracle: fit 40 independent noise draws; the spread of the fitted coefficients is what
    // the standard errors estimate.
    const CapacityFits truth = true_fits();
    const int draws = 40;
    std::array<std::vector<double>, 3> fitted;
    std::array<double, 3> reported{0, 0, 0};
    for (int draw = 0; draw < draws; ++draw) {
        const auto samples =
            synthetic_samples(truth, 0.01, true, 1000u + static_cast<unsigned>(draw));
        const CapacityFitResult result =
            fit_capacity_curves(samples, start_fits(), "v100", three_coefficients());
        const auto& l1 = entry_of(result, CapacityFitKind::l1_redundant_loads);
        ASSERT_TRUE(l1.standard_errors);
        for (size_t p = 0; p < 3; ++p) {
            fitted[p].push_back(l1.fitted[p]);
            reported[p] += (*l1.standard_errors)[p] / draws;
        }
    }
    for (size_t p = 0; p < 3; ++p) {
        double mean = 0, squares = 0;
        for (double v : fitted[p])
            mean += v / draws;
        for (double v : fitted[p])
            squares += (v - mean) * (v - mean);
        const double spread = std::sqrt(squares / (draws - 1));
        EXPECT_GT(reported[p], spread / 1.5) << "coefficient " << p;
        EXPECT_LT(reported[p], spread * 1.5) << "coefficient " << p;
    }
}

TEST(CapacityFitting, TheDefaultHoldsTheAsymptoteAtOne) {
    // Samples of curves with a = 1: the default fit (b and c only) recovers them exactly.
    CapacityFits truth = true_fits();
    for (const auto kind : kinds) {
        auto& fit = *capacity_fit_slot(truth, kind);
        fit.a.value = 1.0;
    }
    const auto samples = synthetic_samples(truth);
    const CapacityFitResult result = fit_capacity_curves(samples, start_fits(), "v100");
    EXPECT_TRUE(result.converged) << result.message;
    for (const auto kind : kinds) {
        const auto& entry = entry_of(result, kind);
        EXPECT_EQ(entry.status, FitStatus::fitted);
        EXPECT_TRUE(entry.asymptote_held);
        EXPECT_EQ(entry.start[0], 1.0);
        EXPECT_EQ(entry.fitted[0], 1.0);
        const auto expected = abc(slot(truth, kind));
        for (size_t p = 1; p < 3; ++p)
            EXPECT_NEAR(entry.fitted[p], expected[p], 1e-6 * std::abs(expected[p]))
                << capacity_fit_name(kind) << " coefficient " << p;
    }
    EXPECT_LT(result.after.p90_abs_relative_error, 1e-9);

    // Samples of curves with a < 1 (a floor of misses at every O): a stays 1, whatever the
    // machine's start says, and b and c fit what they can.
    CapacityFits start = start_fits();
    start.l1_redundant_loads = make_fit(0.9, 0.02, -1.3, "machine");
    const auto floored = synthetic_samples(true_fits());
    const CapacityFitResult held = fit_capacity_curves(floored, start, "v100");
    for (const auto kind : kinds) {
        EXPECT_EQ(entry_of(held, kind).fitted[0], 1.0) << capacity_fit_name(kind);
        EXPECT_EQ(slot(held.fits, kind)->a.value, 1.0);
    }
    EXPECT_EQ(entry_of(held, CapacityFitKind::l1_redundant_loads).start[0], 1.0);
    EXPECT_FALSE(entry_of(held, CapacityFitKind::l1_redundant_loads).start_clamped);
    // The three-coefficient fit of the same samples recovers the floor and fits them better.
    const CapacityFitResult free =
        fit_capacity_curves(floored, start, "v100", three_coefficients());
    EXPECT_NEAR(entry_of(free, CapacityFitKind::l1_redundant_loads).fitted[0], 0.97, 1e-6);
    EXPECT_FALSE(entry_of(free, CapacityFitKind::l1_redundant_loads).asymptote_held);
    EXPECT_LT(free.final_cost, held.final_cost);
}

TEST(CapacityFitting, HeldAsymptoteStandardErrorsCoverBAndC) {
    CapacityFits truth = true_fits();
    for (const auto kind : kinds)
        capacity_fit_slot(truth, kind)->a.value = 1.0;
    const auto samples = synthetic_samples(truth, 0.01);
    const CapacityFitResult result = fit_capacity_curves(samples, start_fits(), "v100");
    ASSERT_TRUE(result.covariance_available);
    for (const auto kind : kinds) {
        const auto& entry = entry_of(result, kind);
        ASSERT_TRUE(entry.standard_errors) << capacity_fit_name(kind);
        EXPECT_EQ((*entry.standard_errors)[0], 0.0); // a is held, not estimated
        const auto expected = abc(slot(truth, kind));
        for (size_t p = 1; p < 3; ++p) {
            const double error = (*entry.standard_errors)[p];
            EXPECT_GT(error, 0.0);
            EXPECT_LT(std::abs(entry.fitted[p] - expected[p]), 4 * error)
                << capacity_fit_name(kind) << " coefficient " << p;
        }
    }
    // The report leaves a's standard error blank and says why; the provenance says so too.
    const report::Document doc = fit_volumes_view(samples, result, {}, "v100");
    const report::Table& table = doc.table_at("coefficients");
    EXPECT_EQ(table.rows[0][table.rows[0].size() - 3], report::Cell{});
    EXPECT_NE(table.rows[0][table.rows[0].size() - 2], report::Cell{});
    EXPECT_NE(std::find(doc.notes.begin(), doc.notes.end(),
                        "a held at 1, b and c fitted: l1_redundant_loads, y_layer_overlap, "
                        "z_layer_overlap, l2_redundant_stores (lines within a cache's capacity "
                        "hit, hit(0) = e^-b; --fit-asymptote fits a too)"),
              doc.notes.end());
    const MachineModel fitted = machine_with_fits(
        unfitted_v100(), result, {},
        FitDataset{"d", std::string(64, 'a'), 48, "2026-11-26T12:00:00Z", "0.1.0"}, "fit-volumes");
    EXPECT_NE(fitted.sources.at("fit-volumes").citation.find("(a held at 1, b and c fitted)"),
              std::string::npos);
}

TEST(CapacityFitting, FitWithoutSamplesIsNotIdentifiableAndUnchanged) {
    const CapacityFits start = start_fits();
    const auto samples = synthetic_samples(true_fits(), 0, /*with_z=*/false);
    const CapacityFitResult result =
        fit_capacity_curves(samples, start, "v100", three_coefficients());
    const auto& z = entry_of(result, CapacityFitKind::z_layer_overlap);
    EXPECT_EQ(z.status, FitStatus::not_identifiable);
    EXPECT_EQ(z.samples, 0u);
    EXPECT_EQ(z.fitted, abc(start.z_layer_overlap));
    EXPECT_FALSE(z.standard_errors);
    EXPECT_EQ(result.fits.z_layer_overlap, start.z_layer_overlap); // source kept too
    // The others are still recovered.
    EXPECT_EQ(entry_of(result, CapacityFitKind::y_layer_overlap).status, FitStatus::fitted);
    EXPECT_NEAR(result.fits.y_layer_overlap->c.value, -2.0, 1e-6);

    // A term of zero volume does not make a fit identifiable either.
    auto zero = samples;
    zero[1].decomposition.terms.push_back(term(CapacityFitKind::z_layer_overlap, 1.0, 0.0));
    EXPECT_EQ(entry_of(fit_capacity_curves(zero, start, "v100", three_coefficients()),
                       CapacityFitKind::z_layer_overlap)
                  .status,
              FitStatus::not_identifiable);

    const report::Document doc = fit_volumes_view(samples, result, {}, "v100");
    bool noted = false;
    for (const auto& note : doc.notes)
        noted = noted || note.rfind("z_layer_overlap: not identifiable", 0) == 0;
    EXPECT_TRUE(noted);
    const report::Table& table = doc.table_at("coefficients");
    ASSERT_EQ(table.rows.size(), 4u);
    EXPECT_EQ(table.rows[2][0], report::Cell{std::string("z_layer_overlap")});
    EXPECT_EQ(table.rows[2][1], report::Cell{std::string("not identifiable")});
}

TEST(CapacityFitting, FitsTheSamplesCannotSeeAreLeftAtTheMachinesValues) {
    // Every z term far beyond the L2 (O >= 20): its hit rate is 0 for the truth and for the
    // machine's values alike, so the samples fix none of its coefficients.
    auto samples = synthetic_samples(true_fits(), 0.01);
    for (auto& sample : samples)
        for (auto& term : sample.decomposition.terms)
            if (term.fit == CapacityFitKind::z_layer_overlap)
                term.oversubscription += 20.0;
    samples = remeasured(samples, true_fits(), 0.01);
    const CapacityFits start = start_fits();
    const CapacityFitResult result =
        fit_capacity_curves(samples, start, "v100", three_coefficients());
    const auto& z = entry_of(result, CapacityFitKind::z_layer_overlap);
    EXPECT_EQ(z.status, FitStatus::undetermined);
    EXPECT_EQ(z.fitted, abc(start.z_layer_overlap));
    EXPECT_EQ(result.fits.z_layer_overlap, start.z_layer_overlap);
    EXPECT_FALSE(z.standard_errors);
    // The others are determined, jointly.
    EXPECT_TRUE(result.covariance_available);
    const auto& l1 = entry_of(result, CapacityFitKind::l1_redundant_loads);
    EXPECT_EQ(l1.status, FitStatus::fitted);
    ASSERT_TRUE(l1.standard_errors);
    EXPECT_FALSE(l1.conditional_standard_errors);
    EXPECT_NEAR(l1.fitted[2], -1.5, 4 * (*l1.standard_errors)[2]);

    const report::Document doc = fit_volumes_view(samples, result, {}, "v100");
    EXPECT_NE(std::find(doc.notes.begin(), doc.notes.end(),
                        "z_layer_overlap: undetermined: its samples do not determine its "
                        "coefficients (rank-deficient Jacobian, O from 20.1 to 21.9) and the "
                        "machine's values fit them as well; left unchanged"),
              doc.notes.end());
    // Not in the fitted machine's provenance either.
    const MachineModel fitted = machine_with_fits(
        unfitted_v100(), result, {},
        FitDataset{"d", std::string(64, 'a'), 48, "2026-11-24T21:00:00Z", "0.1.0"}, "fit-volumes");
    EXPECT_EQ(
        fitted.sources.at("fit-volumes").fit->fits,
        (std::vector<std::string>{"l1_redundant_loads", "y_layer_overlap", "l2_redundant_stores"}));
}

TEST(CapacityFitting, AnUndeterminedFitIsKeptWhereTheMachinesValuesFitWorse) {
    // Every z term at one oversubscription: the samples see one hit rate (0.966), not the
    // curve; the machine's z curve gives 0.70 there, which the samples refute.
    auto samples = synthetic_samples(true_fits(), 0.01);
    for (auto& sample : samples)
        for (auto& term : sample.decomposition.terms)
            if (term.fit == CapacityFitKind::z_layer_overlap)
                term.oversubscription = 0.05;
    samples = remeasured(samples, true_fits(), 0.01);
    // The y and store fits are held at the truth, so that only z is degenerate.
    CapacityFits start = true_fits();
    start.l1_redundant_loads = make_fit(1.0, 0.02, -1.3, "machine");
    start.z_layer_overlap = make_fit(1.0, 0.3, -3.0, "machine");
    CapacityFitOptions options = three_coefficients();
    options.fits = {CapacityFitKind::l1_redundant_loads, CapacityFitKind::z_layer_overlap};
    const CapacityFitResult result = fit_capacity_curves(samples, start, "v100", options);
    const auto& z = entry_of(result, CapacityFitKind::z_layer_overlap);
    EXPECT_EQ(z.status, FitStatus::fitted);
    EXPECT_FALSE(z.standard_errors);
    EXPECT_NEAR(capacity_hit_rate(*result.fits.z_layer_overlap, 0.05),
                capacity_hit_rate(*true_fits().z_layer_overlap, 0.05), 0.01);
    EXPECT_FALSE(result.covariance_available);
    const auto& l1 = entry_of(result, CapacityFitKind::l1_redundant_loads);
    ASSERT_TRUE(l1.standard_errors);
    EXPECT_TRUE(l1.conditional_standard_errors);

    const report::Document doc = fit_volumes_view(samples, result, {}, "v100");
    EXPECT_NE(std::find(doc.notes.begin(), doc.notes.end(),
                        "not determined separately (no standard errors): z_layer_overlap; their "
                        "coefficients only reproduce the curve over the O range of their samples"),
              doc.notes.end());
    const report::Table& table = doc.table_at("coefficients");
    EXPECT_EQ(table.rows[2].back(), report::Cell{}); // z: c s.e. blank
}

TEST(CapacityFitting, OnlySelectedFitsChange) {
    const CapacityFits start = start_fits();
    const auto samples = synthetic_samples(true_fits());
    CapacityFitOptions options = three_coefficients();
    options.fits = {CapacityFitKind::l1_redundant_loads};
    options.source_key = "l1-only";
    const CapacityFitResult result = fit_capacity_curves(samples, start, "v100", options);
    EXPECT_EQ(entry_of(result, CapacityFitKind::l1_redundant_loads).status, FitStatus::fitted);
    EXPECT_EQ(result.fits.l1_redundant_loads->b.source, "l1-only");
    for (const auto kind : {CapacityFitKind::y_layer_overlap, CapacityFitKind::z_layer_overlap,
                            CapacityFitKind::l2_redundant_stores}) {
        EXPECT_EQ(entry_of(result, kind).status, FitStatus::not_selected);
        EXPECT_EQ(slot(result.fits, kind), slot(start, kind));
    }
    // L2 loads only depend on the L1 fit: they are matched exactly.
    const auto& l2 = result.by_metric[static_cast<size_t>(VolumeMetric::l2_load)];
    ASSERT_TRUE(l2);
    EXPECT_LT(l2->second.p90_abs_relative_error, 1e-9);
    EXPECT_NEAR(result.fits.l1_redundant_loads->a.value, 0.97, 1e-6);
}

TEST(CapacityFitting, StartOutsideTheBoundsIsClamped) {
    CapacityFits start = start_fits();
    start.l1_redundant_loads = make_fit(0.97, 12.5, 0.004, "doc-example"); // c > 0
    const CapacityFitResult result =
        fit_capacity_curves(synthetic_samples(true_fits()), start, "v100", three_coefficients());
    const auto& l1 = entry_of(result, CapacityFitKind::l1_redundant_loads);
    EXPECT_TRUE(l1.start_clamped);
    EXPECT_EQ(l1.start[2], CoefficientBounds{}.c_max);
    EXPECT_LE(l1.fitted[2], CoefficientBounds{}.c_max);
    EXPECT_LT(result.after.p90_abs_relative_error, 1e-6);
}

TEST(CapacityFitting, BadSamplesAreInputErrors) {
    auto samples = synthetic_samples(true_fits());
    samples[3].measured_bytes_per_point = 0;
    try {
        fit_capacity_curves(samples, start_fits(), "v100", three_coefficients());
        FAIL() << "a zero measurement must be refused";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_NE(error.message().find("sample 3"), std::string::npos) << error.message();
    }
    CapacityFits without_z = start_fits();
    without_z.z_layer_overlap.reset();
    try {
        fit_capacity_curves(synthetic_samples(true_fits()), without_z, "bare");
        FAIL() << "a fit the samples need must be in the machine";
    } catch (const Error& error) {
        EXPECT_EQ(error.kind(), ErrorKind::input);
        EXPECT_NE(error.message().find("'bare' has no capacity_fits.z_layer_overlap"),
                  std::string::npos)
            << error.message();
    }
}

TEST(CapacityFitting, NothingToFitWhenNoSampleHasTerms) {
    std::vector<VolumeSample> samples(2);
    samples[0] = {"s0", "g0", VolumeMetric::dram_store, {8.0, {}}, 8.5};
    samples[1] = {"s1", "g1", VolumeMetric::dram_store, {8.0, {}}, 7.5};
    const CapacityFitResult result =
        fit_capacity_curves(samples, start_fits(), "v100", three_coefficients());
    EXPECT_EQ(result.termination, "nothing to fit");
    EXPECT_EQ(result.iterations, 0);
    EXPECT_EQ(result.fits, start_fits());
    EXPECT_DOUBLE_EQ(result.after.median_abs_relative_error, (0.5 / 8.5 + 0.5 / 7.5) / 2);
    EXPECT_THROW(
        machine_with_fits(unfitted_v100(), result, {},
                          FitDataset{"d", std::string(64, 'a'), 2, "2026-11-24T21:00:00Z", "0.1.0"},
                          "fit-volumes"),
        Error);
}

TEST(CapacityFitting, SplitAlternatesSortedGroups) {
    std::vector<VolumeSample> samples;
    for (const char* group :
         {"k block=8x1x1", "k block=1x1x8", "k block=4x2x1", "k block=1x1x8", "k block=2x4x1"}) {
        VolumeSample sample;
        sample.group = group;
        samples.push_back(sample);
    }
    // Sorted: 1x1x8 (half 0), 2x4x1 (1), 4x2x1 (0), 8x1x1 (1).
    const auto halves = split_by_group(samples);
    EXPECT_EQ(halves[0], (std::vector<std::size_t>{1, 2, 3}));
    EXPECT_EQ(halves[1], (std::vector<std::size_t>{0, 4}));
}

TEST(CapacityFitting, CrossValidationOfModelConsistentSamplesHasNoHeldOutError) {
    const auto samples = synthetic_samples(true_fits());
    const CrossValidation validation =
        cross_validate_capacity_fits(samples, start_fits(), "v100", three_coefficients());
    ASSERT_EQ(validation.folds.size(), 2u);
    for (const auto& fold : validation.folds) {
        EXPECT_EQ(fold.train_groups.size(), 4u);
        EXPECT_EQ(fold.test_groups.size(), 4u);
        EXPECT_EQ(fold.test_after.samples, 72u);
        EXPECT_GT(fold.test_before.median_abs_relative_error, 1e-3);
        EXPECT_LT(fold.test_after.p90_abs_relative_error, 1e-6);
    }
    ASSERT_TRUE(validation.held_out);
    EXPECT_EQ(validation.held_out->samples, samples.size());
    const auto& dram = validation.held_out_by_metric[static_cast<size_t>(VolumeMetric::dram_load)];
    ASSERT_TRUE(dram);
    EXPECT_EQ(dram->samples, 48u);
    EXPECT_LT(dram->p90_abs_relative_error, 1e-6);
    EXPECT_FALSE(validation.held_out_by_metric[static_cast<size_t>(VolumeMetric::l2_store)]);

    // The errors table shows them beside the in-sample errors.
    const CapacityFitResult fit =
        fit_capacity_curves(samples, start_fits(), "v100", three_coefficients());
    const report::Document doc = fit_volumes_view(samples, fit, validation, "v100");
    const report::Table& errors = doc.table_at("errors");
    ASSERT_EQ(errors.columns.back().key, "p90_held_out");
    ASSERT_EQ(errors.rows.size(), 4u); // l2_load, dram_load, dram_store, all
    EXPECT_EQ(errors.rows[1][0], report::Cell{std::string("dram_load")});
    EXPECT_EQ(errors.rows[1].back(), report::Cell{dram->p90_abs_relative_error});
}

TEST(CapacityFitting, CrossValidationShowsAFitThatDoesNotGeneralise) {
    // Every block shape deviates from the model in its own way (+-6 % on its DRAM loads), which
    // no choice of coefficients explains: the fit absorbs part of the deviation of the groups
    // it sees, and the held-out groups show the rest.
    auto samples = synthetic_samples(true_fits());
    for (auto& sample : samples) {
        const int shape = sample.group.back() - '0';
        if (sample.metric == VolumeMetric::dram_load)
            sample.measured_bytes_per_point *= 1.0 + 0.06 * std::sin(1.7 * shape + 0.3);
    }
    const CapacityFitResult fit =
        fit_capacity_curves(samples, start_fits(), "v100", three_coefficients());
    const CrossValidation validation =
        cross_validate_capacity_fits(samples, start_fits(), "v100", three_coefficients());
    ASSERT_TRUE(validation.held_out);
    std::vector<double> dram_in, dram_out;
    for (std::size_t i = 0; i < samples.size(); ++i)
        if (samples[i].metric == VolumeMetric::dram_load) {
            dram_in.push_back(fit.residuals_after[i]);
            dram_out.push_back(*validation.held_out_residuals[i]);
        }
    const ErrorSummary in = summarize_relative_errors(dram_in);
    const ErrorSummary out = summarize_relative_errors(dram_out);
    EXPECT_GT(in.median_abs_relative_error, 0.01); // the deviation is not fitted away
    EXPECT_GT(out.median_abs_relative_error, in.median_abs_relative_error);
    for (const auto& fold : validation.folds)
        EXPECT_GT(fold.test_after.p90_abs_relative_error, fold.train.p90_abs_relative_error * 0.9);
}

TEST(CapacityFitting, FewerThanTwoGroupsGiveNoCrossValidation) {
    auto samples = synthetic_samples(true_fits());
    for (auto& sample : samples)
        sample.group = "one";
    const CrossValidation validation =
        cross_validate_capacity_fits(samples, start_fits(), "v100", three_coefficients());
    EXPECT_TRUE(validation.folds.empty());
    EXPECT_FALSE(validation.held_out);
}

TEST(CapacityFitting, FittedMachineCarriesProvenanceAndRoundTrips) {
    const MachineModel machine = unfitted_v100();
    const auto samples = synthetic_samples(true_fits(), 0.01);
    CapacityFitOptions options = three_coefficients();
    options.source_key = unused_source_key(machine, "fit-volumes");
    EXPECT_EQ(options.source_key, "fit-volumes");
    const CapacityFitResult fit =
        fit_capacity_curves(samples, machine.capacity_fits, machine.identity.id, options);
    const CrossValidation validation =
        cross_validate_capacity_fits(samples, machine.capacity_fits, machine.identity.id, options);
    const FitDataset dataset{"data/published/v100-warpspeed/records", std::string(64, 'c'), 48,
                             "2026-11-24T21:00:00Z", "0.1.0"};
    const MachineModel fitted =
        machine_with_fits(machine, fit, validation, dataset, options.source_key);

    const Provenance& source = fitted.sources.at("fit-volumes");
    EXPECT_EQ(source.kind, SourceKind::measured);
    EXPECT_EQ(source.run, dataset.path);
    ASSERT_TRUE(source.fit);
    EXPECT_EQ(source.fit->fits,
              (std::vector<std::string>{"l1_redundant_loads", "y_layer_overlap", "z_layer_overlap",
                                        "l2_redundant_stores"}));
    EXPECT_EQ(source.fit->records, 48);
    EXPECT_EQ(source.fit->samples, 144);
    // Where the samples place each curve: the O range of its terms (synthetic_samples: z at
    // 0.15 .. 1.9, y at 0.2 .. 2.2).
    ASSERT_EQ(source.fit->oversubscription_ranges.size(), 4u);
    for (const auto kind : kinds) {
        const auto& entry = entry_of(fit, kind);
        EXPECT_EQ(source.fit->oversubscription_ranges.at(std::string(capacity_fit_name(kind))),
                  (std::array<double, 2>{entry.min_oversubscription, entry.max_oversubscription}));
    }
    EXPECT_DOUBLE_EQ(source.fit->oversubscription_ranges.at("z_layer_overlap")[0], 0.15);
    EXPECT_DOUBLE_EQ(source.fit->oversubscription_ranges.at("z_layer_overlap")[1], 1.9);
    EXPECT_DOUBLE_EQ(source.fit->oversubscription_ranges.at("y_layer_overlap")[1], 2.2);
    EXPECT_EQ(source.fit->median_abs_relative_error, fit.after.median_abs_relative_error);
    EXPECT_EQ(source.fit->p90_abs_relative_error, fit.after.p90_abs_relative_error);
    EXPECT_EQ(source.fit->held_out_median_abs_relative_error,
              validation.held_out->median_abs_relative_error);
    EXPECT_EQ(source.fit->records_sha256, dataset.records_sha256);
    EXPECT_EQ(source.fit->date, dataset.date);
    EXPECT_EQ(source.fit->kerncast_version, "0.1.0");
    EXPECT_EQ(fitted.capacity_fits, fit.fits);
    // Everything else is the input machine.
    MachineModel rest = fitted;
    rest.sources.erase("fit-volumes");
    rest.capacity_fits = machine.capacity_fits;
    EXPECT_EQ(rest, machine);

    // The written file reads back to the same machine.
    const std::string text = machine_json_text(fitted);
    EXPECT_EQ(parse_machine_json(text, "fitted.json"), fitted) << text;
    EXPECT_NE(text.find("\"records_sha256\": \"" + std::string(64, 'c') + "\""), std::string::npos);

    // A second fit of the fitted machine gets its own source, and a later one never the name
    // of an older one a refit dropped (the V100 file holds fit-volumes and fit-volumes-4).
    EXPECT_EQ(unused_source_key(fitted, "fit-volumes"), "fit-volumes-2");
    MachineModel refitted = fitted;
    refitted.sources["fit-volumes-4"] = refitted.sources.at("fit-volumes");
    refitted.sources["fit-volumes-x"] = refitted.sources.at("fit-volumes");
    EXPECT_EQ(unused_source_key(refitted, "fit-volumes"), "fit-volumes-5");
    EXPECT_EQ(unused_source_key(refitted, "calibrate-tiled"), "calibrate-tiled");

    // Fitted to published measurements (someone else's), the source is derived, not measured,
    // and says how many records were published.
    FitDataset published = dataset;
    published.published_records = 48;
    const MachineModel from_published =
        machine_with_fits(machine, fit, validation, published, options.source_key);
    const Provenance& derived = from_published.sources.at("fit-volumes");
    EXPECT_EQ(derived.kind, SourceKind::derived);
    EXPECT_NE(derived.citation.find("48 of the records are published measurements"),
              std::string::npos);
}

TEST(CapacityFitting, ARefitReplacesTheProvenanceItMakesObsolete) {
    const MachineModel machine = unfitted_v100();
    const auto samples = synthetic_samples(true_fits(), 0.01);
    const FitDataset dataset{"records", std::string(64, 'c'), 48, "2026-11-24T21:00:00Z", "0.1.0"};
    auto fit_once = [&](const MachineModel& m, const std::vector<CapacityFitKind>& only) {
        CapacityFitOptions options = three_coefficients();
        options.source_key = unused_source_key(m, "fit-volumes");
        if (!only.empty())
            options.fits = only;
        const CapacityFitResult fit =
            fit_capacity_curves(samples, m.capacity_fits, m.identity.id, options);
        return machine_with_fits(m, fit, {}, dataset, options.source_key);
    };
    const MachineModel first = fit_once(machine, {});
    // Refitting every fit of the first run: its provenance goes, the new one takes the key
    // (fit-volumes-2 during the run, fit-volumes in the machine and in what the command says).
    const MachineModel second = fit_once(first, {});
    EXPECT_EQ(second.sources.count("fit-volumes-2"), 0u);
    ASSERT_EQ(second.sources.count("fit-volumes"), 1u);
    EXPECT_EQ(second.capacity_fits.l1_redundant_loads->a.source, "fit-volumes");
    CapacityFitOptions again = three_coefficients();
    again.source_key = unused_source_key(first, "fit-volumes");
    ASSERT_EQ(again.source_key, "fit-volumes-2");
    const CapacityFitResult refit =
        fit_capacity_curves(samples, first.capacity_fits, first.identity.id, again);
    EXPECT_EQ(
        fitted_source_key(machine_with_fits(first, refit, {}, dataset, again.source_key), refit),
        "fit-volumes");
    EXPECT_EQ(second.sources.size(), first.sources.size());
    EXPECT_EQ(parse_machine_json(machine_json_text(second), "refit.json"), second);
    // Refitting only some of them: the first run's provenance still describes the others.
    const MachineModel partial = fit_once(first, {CapacityFitKind::l1_redundant_loads});
    EXPECT_EQ(partial.sources.count("fit-volumes"), 1u);
    EXPECT_EQ(partial.sources.count("fit-volumes-2"), 1u);
    EXPECT_EQ(partial.capacity_fits.l1_redundant_loads->a.source, "fit-volumes-2");
    EXPECT_EQ(partial.capacity_fits.y_layer_overlap->a.source, "fit-volumes");
    CapacityFitOptions some = three_coefficients();
    some.source_key = unused_source_key(first, "fit-volumes");
    some.fits = {CapacityFitKind::l1_redundant_loads};
    const CapacityFitResult partial_fit =
        fit_capacity_curves(samples, first.capacity_fits, first.identity.id, some);
    EXPECT_EQ(fitted_source_key(machine_with_fits(first, partial_fit, {}, dataset, some.source_key),
                                partial_fit),
              "fit-volumes-2");
}

} // namespace
} // namespace kerncast::models
