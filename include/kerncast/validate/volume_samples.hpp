// Measured data volumes of measurement records next to the volume model's decomposition of the
// same metrics: the samples `kerncast fit-volumes` fits the capacity curves to
// (models/capacity_fitting.hpp; docs/volume-model.md, "Fitting the capacity curves").
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/models/occupancy/register_count.hpp"
#include "kerncast/models/volumes/capacity_fitting.hpp"
#include "kerncast/models/volumes/volumes.hpp"
#include "kerncast/runtime/measurement_records.hpp"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kerncast::validate {

// One metric's measured bytes per point: the counter it came from and its value.
struct MeasuredVolume {
    std::string counter; // "dram__bytes_read.sum", "lts__t_sectors_op_read.sum", ...
    double bytes_per_point = 0;
};

// The record's counters as bytes per point of the four metrics (models::VolumeMetric order),
// absent where the record lacks the counter:
//   dram_load  = dram__bytes_read.sum / points                 (unit "byte")
//   dram_store = dram__bytes_write.sum / points                (unit "byte")
//   l2_load    = lts__t_sectors_srcunit_tex_op_read.sum, else lts__t_sectors_op_read.sum,
//                x sector_bytes / points                        (unit "sector")
//   l2_store   = the same with _write
// `points` are the prediction's points (one thread-and-fold instance each). A counter in
// another unit, or negative or not finite, is an input Error naming `origin` and the counter.
std::array<std::optional<MeasuredVolume>, models::volume_metrics>
measured_volumes(const runtime::Measurement& measurement, double points, double sector_bytes,
                 const std::string& origin);

// The prediction's decomposition of one metric (VolumePrediction::decompositions).
const models::VolumeDecomposition& decomposition_of(const models::VolumePrediction& prediction,
                                                    models::VolumeMetric metric);

// Checks that every decomposition reproduces the prediction's total under the machine's fits
// (relative 1e-9): an internal Error naming the metric and `origin` otherwise, because a fit
// through a decomposition that is not the model would fit the wrong function.
void check_decompositions(const models::VolumePrediction& prediction, const CapacityFits& fits,
                          const std::string& machine_id, const std::string& origin);

// The cross-validation group of a record: "<kernel> block=XxYxZ" (one block shape of one
// kernel; its folds and sizes stay in the same half).
std::string sample_group(const std::string& kernel_name, const kernel::Dim3& block);

struct RecordSamples {
    std::vector<models::VolumeSample> samples; // label = record path
    std::vector<std::string> records;          // paths of the records that gave samples
    std::vector<std::string> notes;            // records skipped and why, counters used
};

// For every record: the kernel file it is of (by name, validate::record_is_of), the volume
// model's prediction for its configuration (registers as `registers` asks: a count or ptxas;
// without a request the record's registers_per_thread, else the kernel file's), and one
// sample per metric the record measured
// (> 0). Records of no given kernel, and without any of the counters, are skipped with a
// note. Two kernel files of one name are an input Error.
RecordSamples record_volume_samples(
    const std::vector<runtime::LoadedRecord>& records,
    const std::vector<kernel::KernelSpec>& kernels, const MachineModel& machine,
    const models::RegisterRequest& registers = {},
    const std::function<void(std::size_t done, std::size_t total)>& progress = {});

// SHA-256 of a set of records, as `sha256sum` lists them: the hash of the lines
// "<SHA-256 of the file>  <file name>\n" in the records' order (load_measurement_directory:
// file-name order), so `(cd DIR && LC_ALL=C sha256sum *.json) | sha256sum` reproduces it for
// one directory, and `for d in DIR...; do (cd $d && LC_ALL=C sha256sum *.json); done |
// sha256sum` for several. File names only: the hash does not depend on where DIR is.
std::string dataset_sha256(const std::vector<runtime::LoadedRecord>& records);

} // namespace kerncast::validate
