// The samples mwp-fit fits MWP-CWP's memory parameters to (Hong & Kim 2009 sec. 5.1;
// models/mwp_cwp/parameter_fit.hpp): each timed record's workload derived from the kernel file
// it names, at its launch and parameters, with its measured time.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/mwp_cwp/parameter_fit.hpp"
#include "kerncast/runtime/measurement_records.hpp"

#include <functional>
#include <string>
#include <vector>

namespace kerncast::validate {

// The records with times that one of `specs` describes (by kernel name), their workloads
// derived for `machine`. Records of other kernels and records without times are skipped and
// listed in `skipped`.
std::vector<models::mwp_cwp::FitSample>
mwp_fit_samples(const std::vector<runtime::LoadedRecord>& records,
                const std::vector<kernel::KernelSpec>& specs, const MachineModel& machine,
                std::vector<std::string>& skipped,
                const std::function<void(std::size_t done, std::size_t total)>& progress = {});

} // namespace kerncast::validate
