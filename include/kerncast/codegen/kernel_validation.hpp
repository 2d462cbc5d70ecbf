// Predictions against measurements for one kernel file (`kerncast validate`): the volume
// model's prediction (Ernst et al. 2023: DRAM and L2 volumes and the limiter time) for each
// recorded configuration, and the sweep of configurations the live mode measures.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/volumes/volumes.hpp"
#include "kerncast/runtime/validation.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::codegen {

// Whether a record is of this kernel file: its name is the spec's name, or the generated
// kernel's symbol (the name made a C identifier, with or without the "kc_" prefix).
bool record_is_of(const kernel::KernelSpec& spec, const runtime::KernelRecord& record);

// The record's integer parameters that the kernel file declares, as -D overrides.
std::vector<std::pair<std::string, std::int64_t>>
record_parameter_overrides(const kernel::KernelSpec& spec, const runtime::KernelRecord& record);

// Registers per thread for the record's prediction: the record's registers_per_thread (as
// measured), else the kernel file's, else unknown (registers do not limit occupancy).
models::RegisterCount record_register_count(const kernel::KernelSpec& spec,
                                            const runtime::KernelRecord& record);

// The volume model's prediction for the configuration a record describes: its block, fold and
// integer parameters bound to the kernel file. nullopt when the record is of another kernel.
std::optional<models::VolumePrediction>
predict_record_volumes(const kernel::KernelSpec& spec, const MachineModel& machine,
                       const runtime::KernelRecord& record,
                       const models::VolumeOptions& options = {});

// Bytes of one L2 sector, which the lts__t_sectors_* counters count (the machine's l2
// sector_bytes); an input Error naming the machine when it lacks it.
double l2_sector_bytes(const MachineModel& machine);

// The volume model's prediction for the configuration a record describes (its block, fold and
// integer parameters; parameters the record lacks keep the kernel file's values), as the Nsight
// Compute counters it compares with:
//   dram__bytes_read.sum / dram__bytes_write.sum      = DRAM load / store bytes per point x points
//   lts__t_sectors_srcunit_tex_op_read/write.sum      = L2 load / store bytes per point x points
//                                                       / the L2 sector size
//   lts__t_sectors_op_read/write.sum                  = the same values: the model's L2 traffic
//                                                       is the L1/TEX unit's, and for the
//                                                       stencils modelled every L2 read or write
//                                                       sector comes from L1/TEX (no other
//                                                       client), so the all-units metrics that
//                                                       the published notebooks recorded equal
//                                                       the srcunit_tex ones
// with the limiter's time per launch and the flops per launch. Registers for the occupancy:
// the record's registers_per_thread, else the kernel file's, else unlimited. nullopt when the
// record is of another kernel (its name differs from the kernel file's). Input Errors from the
// model (a launch it cannot take, a machine lacking a field) propagate.
std::optional<runtime::Prediction> predict_record(const kernel::KernelSpec& spec,
                                                  const MachineModel& machine,
                                                  const runtime::KernelRecord& record);

runtime::PredictionSource volume_model_predictions(const kernel::KernelSpec& spec,
                                                   const MachineModel& machine);

// Several kernel files: each record is predicted by the spec whose name matches it (the first
// that does); nullopt for records of none of them.
runtime::PredictionSource volume_model_predictions(const std::vector<kernel::KernelSpec>& specs,
                                                   const MachineModel& machine);

// Records of `spec` (by kernel name) that were recorded from a kernel file with another SHA-256
// than the file at `kernel_path`: their predictions may be of a different kernel. One warning
// per record: "<record path> was recorded from a kernel file with another SHA-256 than
// <kernel_path>". Records without a file_sha256 are not compared.
std::vector<std::string> kernel_file_mismatches(const kernel::KernelSpec& spec,
                                                const std::string& kernel_path,
                                                const std::vector<runtime::LoadedRecord>& records);

// The live sweep. "default": the block sizes of Ernst et al. sec. 5.1 with 256 threads
// (models::default_block_sizes) x no folding, 2x in y, 2x in z (models::default_folds), where
// the kernel can take them; a FILE lists one configuration per line, "BLOCK [FOLD]" in the
// triple forms of `kerncast explore` ("32x4x2 1x1x2"), '#' starts a comment.
std::vector<kernel::LaunchConfig> default_sweep(const kernel::KernelSpec& spec);
std::vector<kernel::LaunchConfig> read_sweep_file(const std::string& path);

} // namespace kerncast::codegen
