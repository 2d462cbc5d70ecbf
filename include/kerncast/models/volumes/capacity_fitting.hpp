// Fitting the capacity-miss curves hit(O) = a exp(-b exp(-c O)) of a machine (Ernst et al.
// 2023, sec. 4.5, eq. (4)-(5); secs. 5.5-5.6 fit them to measured L2 and DRAM volumes) to
// measured data volumes. Each sample is one predicted metric, decomposed into a
// capacity-independent part and capacity-miss terms (capacity_terms.hpp), next to the
// measured value. The coefficients minimise the sum of squared relative errors
// (predicted - measured) / measured with Levenberg-Marquardt (Ceres Solver), within
// 0 < a <= 1, b > 0, c < 0, starting from the machine's current fits and from six standard
// starts, the lowest cost winning (docs/volume-model.md, "Fitting the capacity curves").
// By default a is held at 1 and only b and c are fitted (hit(0) = e^-b): a and b both set the
// level below the transition, and a < 1 is a floor of misses at every O, also where the set
// fits; on the published V100 rows it was a compensation that the unfolded rows refute
// (docs/volume-model.md; CapacityFitOptions::fit_asymptote fits a too).
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/volumes/capacity_terms.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kerncast::models {

// The four totals the volume model predicts (VolumePrediction::decompositions).
enum class VolumeMetric { l2_load, l2_store, dram_load, dram_store };
inline constexpr int volume_metrics = 4;

// "l2_load", "l2_store", "dram_load", "dram_store".
std::string_view volume_metric_name(VolumeMetric metric);

// A fit kind by its machine-file key; nullopt for an unknown name.
std::optional<CapacityFitKind> capacity_fit_kind(std::string_view name);

// One measured volume and the model's decomposition of the same metric.
struct VolumeSample {
    std::string label; // what the sample is, for reports: "record.json dram_load"
    std::string group; // cross-validation group: samples of one group stay in one half
    VolumeMetric metric = VolumeMetric::dram_load;
    VolumeDecomposition decomposition;
    double measured_bytes_per_point = 0; // > 0
};

// Bounds of the coefficients (closed intervals for the solver; the strict inequalities of
// the model are kept by the small margins).
struct CoefficientBounds {
    double a_min = 1e-6, a_max = 1.0;
    double b_min = 1e-9, b_max = 1e3;
    double c_min = -50.0, c_max = -1e-4;
};

struct CapacityFitOptions {
    std::vector<CapacityFitKind> fits; // the fits to determine; empty = all
    // Fit a too (the paper's three coefficients). When false, a fitted curve has a = 1: its
    // start and result hold a at 1, and only b and c are fitted and get standard errors.
    bool fit_asymptote = false;
    int max_iterations = 200;
    CoefficientBounds bounds;
    // The source key the fitted coefficients name (MachineModel::sources).
    std::string source_key = "fit-volumes";
};

enum class FitStatus {
    fitted,           // determined by the samples
    not_identifiable, // selected, but no sample has a term of it with volume > 0: unchanged
    undetermined,     // its samples do not determine its coefficients, and the machine's
                      // values fit them as well (chi^2 rises by <= 3): unchanged
    not_selected,     // not asked for: held at the machine's value
    absent,           // the machine has no such fit and no sample needs it
};

// "fitted", "not identifiable", "undetermined", "not selected", "absent".
std::string_view fit_status_name(FitStatus status);

struct FittedCoefficients {
    CapacityFitKind kind = CapacityFitKind::l1_redundant_loads;
    FitStatus status = FitStatus::absent;
    std::size_t samples = 0; // samples with a term of this fit with volume > 0
    double min_oversubscription = 0, max_oversubscription = 0; // of those terms
    std::array<double, 3> start{0, 0, 0};  // a, b, c the solver started from: the machine's
                                           // value (clamped to bounds; a = 1 when held)
    std::array<double, 3> fitted{0, 0, 0}; // a, b, c after the fit (= start unless fitted)
    bool asymptote_held = false; // fitted with a held at 1 (not fit_asymptote): a has no error
    // Standard errors of a, b, c (a: 0 when held) from the covariance at the solution
    // (s^2 (J^T J)^-1, s^2 = 2 cost / (residuals - coefficients)). When the joint Jacobian of
    // all fitted coefficients is rank-deficient, those of this fit alone with the others held
    // at their values (conditional, smaller than joint ones where fits are correlated);
    // absent when even this fit's own Jacobian is rank-deficient (its coefficients are not
    // determined separately, e.g. every hit rate ~0 or ~1) or there are no more residuals
    // than coefficients.
    std::optional<std::array<double, 3>> standard_errors;
    bool conditional_standard_errors = false;
    bool start_clamped = false; // the machine's value lay outside the bounds
};

// |relative error| over a set of samples.
struct ErrorSummary {
    std::size_t samples = 0;
    double median_abs_relative_error = 0;
    double p90_abs_relative_error = 0; // linear interpolation (runtime::percentile)
};

struct CapacityFitResult {
    CapacityFits fits; // the start fits with the fitted coefficients (source_key) in place
    std::vector<FittedCoefficients> coefficients; // one per kind, in CapacityFitKind order
    // Per sample, relative errors (predicted - measured) / measured, in sample order.
    std::vector<double> predicted_before, predicted_after;
    std::vector<double> residuals_before, residuals_after;
    ErrorSummary before, after;
    std::array<std::optional<std::pair<ErrorSummary, ErrorSummary>>, volume_metrics>
        by_metric;           // before, after; absent for a metric without samples
    std::size_t starts = 0;  // solver runs: from the machine's fits and 6 standard starts
    std::string start;       // the start of the best run: "the machine's fits", "a = 1, b = ..."
    int iterations = 0;      // solver iterations of the best run (0 when nothing was fitted)
    std::string termination; // "CONVERGENCE", "NO_CONVERGENCE", ... or "nothing to fit"
    std::string message;     // the solver's message
    bool converged = false;  // the solver reached a minimum (or nothing to fit)
    // 1/2 sum of squared relative errors over all samples, under the machine's fits and
    // under the result.
    double initial_cost = 0, final_cost = 0;
    bool covariance_available = false; // the joint covariance of all fitted coefficients
};

// Fits the selected capacity curves to the samples. Every fit a sample's terms use must be in
// `start` (an input Error naming machine_id otherwise); a measured value <= 0 or not finite is
// an input Error naming the sample. Pure function: the same input gives the same result.
CapacityFitResult fit_capacity_curves(const std::vector<VolumeSample>& samples,
                                      const CapacityFits& start, const std::string& machine_id,
                                      const CapacityFitOptions& options = {});

// The deterministic split of the samples for cross-validation: the distinct groups in sorted
// order, alternately into half 0 (1st, 3rd, ...) and half 1 (2nd, 4th, ...); the result lists
// the sample indices of each half.
std::array<std::vector<std::size_t>, 2> split_by_group(const std::vector<VolumeSample>& samples);

// One direction of the two-fold cross-validation: fit on one half, test on the other.
struct CrossValidationFold {
    int trained_on = 0; // half 0 or 1; tested on the other
    std::vector<std::string> train_groups, test_groups;
    CapacityFitResult fit;                 // on the training half
    ErrorSummary train;                    // the training half under the fit (= fit.after)
    ErrorSummary test_before;              // the held-out half under the start fits
    ErrorSummary test_after;               // the held-out half under the training half's fit
    std::vector<std::size_t> test_samples; // indices into the samples
    std::vector<double> test_residuals;    // relative errors of those, under the fit
};

struct CrossValidation {
    std::vector<CrossValidationFold> folds; // two, or none with fewer than two groups
    // Every sample's relative error when its half was held out (absent without folds).
    std::vector<std::optional<double>> held_out_residuals;
    std::optional<ErrorSummary> held_out; // over all samples, each predicted by the other half
    std::array<std::optional<ErrorSummary>, volume_metrics> held_out_by_metric; // the same
};

CrossValidation cross_validate_capacity_fits(const std::vector<VolumeSample>& samples,
                                             const CapacityFits& start,
                                             const std::string& machine_id,
                                             const CapacityFitOptions& options = {});

// What the fitted machine's new source records about the data (FitProvenance).
struct FitDataset {
    std::string path;           // the records' directory: the source's "run"
    std::string records_sha256; // validate::dataset_sha256
    int records = 0;            // records that gave samples
    std::string date;           // ISO 8601 UTC
    std::string kerncast_version;
    int published_records = 0; // of `records`, published measurements (not kerncast's own)
};

// A source key of the machine not yet used: `base`, else base-N with N one more than the
// largest N of a base-N the machine has (at least 2), so that a new fit never takes the name of
// an older one that a refit dropped (fit-volumes and fit-volumes-4 -> fit-volumes-5).
std::string unused_source_key(const MachineModel& machine, const std::string& base);

// The machine with the fitted coefficients (fit.fits) and a new source (kind "measured"; kind
// "derived" when any record is a published measurement, so that a fit to someone else's
// figures is never taken for kerncast's own measurement)
// `source_key` (the key the fit was run with) carrying the provenance: dataset, hash, sample
// count, median and p90 |relative error| after the fit and on the held-out halves, date,
// version, the fits it determined. An input Error when no fit was determined.
MachineModel machine_with_fits(const MachineModel& machine, const CapacityFitResult& fit,
                               const CrossValidation& validation, const FitDataset& dataset,
                               const std::string& source_key);

// The key of the source that the determined fits of `fit` cite in `fitted` (the result of
// machine_with_fits): the key the fit ran with, or its base when the refit dropped the older
// source that held the base and took the name back.
std::string fitted_source_key(const MachineModel& fitted, const CapacityFitResult& fit);

// |relative errors| summarised; zero samples give an empty summary.
ErrorSummary summarize_relative_errors(const std::vector<double>& relative_errors);

} // namespace kerncast::models
