// A directory of measurement records (docs/measurement-format.md) and the label that names the
// configuration a record describes: what validate, fit-volumes, calibrate and mwp-fit replay.
#pragma once

#include "kerncast/runtime/measurement.hpp"

#include <string>
#include <vector>

namespace kerncast::runtime {

struct LoadedRecord {
    std::string path;
    Measurement measurement;
};

// Every *.json file directly in `directory`, in file-name order, read strictly. A missing
// directory, one without records, or a bad record is an input Error naming the file.
std::vector<LoadedRecord> load_measurement_directory(const std::string& directory);

// "block=32x4x4 fold=1x1x2": a launch configuration (also explore's row label).
// A strided fold reads "fold=1x4x1:strided".
std::string launch_label(const kernel::LaunchConfig& launch);

// "block=32x4x4 fold=1x1x2 nx=640 ny=512": identifies a configuration of one kernel (the
// launch_label and the record's parameters in its order; reals with 17 significant digits).
std::string configuration_label(const KernelRecord& kernel);

} // namespace kerncast::runtime
