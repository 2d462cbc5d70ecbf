// Fitting the memory-model parameters of MWP-CWP (Mem_LD, Departure_del_uncoal,
// Departure_del_coal) to timed runs of micro-benchmarks, as Hong & Kim 2009 sec. 5.1 do: "We vary
// three parameters ... for each GPU to find the best fitting values". Levenberg-Marquardt
// (Ceres Solver) on the relative time errors; the model's derivatives are numerical (it is
// piecewise: min() and the case split of (22)-(24)). Pure.
#pragma once

#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/mwp_cwp/workload.hpp"
#include "kerncast/support/parameter_status.hpp"

#include <array>
#include <string>
#include <vector>

namespace kerncast::models::mwp_cwp {

// One timed run: the workload derived from its kernel file and launch, and its measured time.
struct FitSample {
    std::string record;        // the record's path
    std::string configuration; // "block=128x1x1 ..."
    Workload workload;
    double measured_s = 0; // the record's median
    std::string kernel;    // the kernel's name: cross-validation keeps a kernel in one half
};

// Mem_LD, Departure_del_uncoal, Departure_del_coal in cycles.
using MemoryParameters = std::array<double, 3>;

struct MwpFitOptions {
    // Starting points; the lowest final cost wins. Empty: a grid over typical values.
    std::vector<MemoryParameters> starts;
    int max_iterations = 200;
};

struct FitRow {
    std::string record;
    std::string configuration;
    double measured_s = 0;
    double predicted_s = 0; // with the fitted parameters
};

// Whether the timed runs determine a parameter (at the fitted values, by the Jacobian of the
// relative time errors): undetermined when no run's time depends on it (e.g. no run has an
// uncoalesced load: Departure_del_uncoal), not_separable when the runs fix only a combination
// of it with others (support::column_separability), at_bound when the fit stopped at 0.01 or
// 10^6 cycles (the runs pull it towards 0 or infinity: the model cannot match them with it).
using support::parameter_status_name;
using support::ParameterStatus;

struct MwpFit {
    MemoryParameters parameters{0, 0, 0};
    std::array<ParameterStatus, 3> status{ParameterStatus::fitted, ParameterStatus::fitted,
                                          ParameterStatus::fitted};
    bool determined() const;         // every parameter fitted
    MemoryParameters start{0, 0, 0}; // the start that won
    std::vector<FitRow> rows;
    double median_abs_relative_error = 0;
    double max_abs_relative_error = 0;
    bool converged = false;
    std::string termination; // Ceres' termination type
    int iterations = 0;
};

// Input Error when there are fewer samples than parameters or the machine lacks what MWP-CWP
// needs besides the three fitted values (Issue_cycles, clocks, bandwidth, occupancy limits).
MwpFit fit_mwp_parameters(const std::vector<FitSample>& samples, const MachineModel& machine,
                          const MwpFitOptions& options = {});

// Two-fold cross-validation by kernel (support/cross_validation.hpp, as fit-volumes and
// calibrate split): the parameters fitted on one half's kernels predict the other half's runs.
struct MwpFold {
    std::vector<std::string> train_kernels, test_kernels;
    MemoryParameters parameters{0, 0, 0}; // fitted on the training half
    std::array<ParameterStatus, 3> status{ParameterStatus::fitted, ParameterStatus::fitted,
                                          ParameterStatus::fitted};
    std::size_t test_samples = 0;
    double median_abs_relative_error = 0; // of the held-out half's times under them
    double max_abs_relative_error = 0;
};
struct MwpCrossValidation {
    std::vector<MwpFold> folds; // two, or none (not_run says why)
    std::string not_run;
    // Every run predicted by the half that did not hold it.
    std::size_t samples = 0;
    double median_abs_relative_error = 0;
    double max_abs_relative_error = 0;
};
MwpCrossValidation cross_validate_mwp_fit(const std::vector<FitSample>& samples,
                                          const MachineModel& machine,
                                          const MwpFitOptions& options = {});

} // namespace kerncast::models::mwp_cwp
