// The words of a volume forecast's notes: what it assumed (VolumePrediction::assumptions), what
// it left out (unmodelled accesses) and where the machine's data end, in the order predict
// prints them. The model records facts; only this view writes English.
#pragma once

#include "kerncast/models/volumes/volumes.hpp"

#include <string>
#include <vector>

namespace kerncast::models {

// `machine_id` names the machine in the notes on uncovered capacity terms.
std::vector<std::string> volume_notes(const VolumePrediction& prediction,
                                      const std::string& machine_id);

} // namespace kerncast::models
