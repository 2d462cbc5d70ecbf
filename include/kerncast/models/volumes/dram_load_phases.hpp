// A kernel's DRAM loads by barrier phase: the statements between two barriers. A thread issues
// no load after a barrier before every thread of its block has reached the barrier, so the
// loads of one phase are in flight without those of the others (a staged kernel's tile loads,
// then its statement's own global loads), and the in-flight limit counts each phase's loads on
// their own (limiter.hpp, InFlightLoadPhase; docs/volume-model.md, "DRAM in flight").
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"
#include "kerncast/models/volumes/l1_wavefronts.hpp"
#include "kerncast/models/volumes/volume_assumptions.hpp"
#include "kerncast/models/volumes/volumes.hpp"

#include <vector>

namespace kerncast::models {

// The phases of `statements` (a phase begins at the first statement and after each barrier,
// within a sequential loop or not) that load from DRAM, in order, with arrays,
// loads_per_thread (each global load's instructions a thread x executions a point) and
// dram_load_bytes_per_point filled; window_fraction and bytes_per_sm are left to the caller.
// An array's DRAM load bytes (`arrays`) go to the phases that load it by their shares of its
// requested global-load sectors (`accesses`); an array without global loads (the reads that
// complete partly written sectors of a stored array) to the phase of its first global access,
// else to the first phase. The phases' DRAM load bytes sum to the arrays'. A sequential loop
// that holds a barrier runs its phases once an iteration; they are counted here over all the
// iterations (the in-flight note says so where it matters).
std::vector<DramLoadPhase> dram_load_phases(const std::vector<kernel::StatementSpec>& statements,
                                            const std::vector<L1AccessCost>& accesses,
                                            const std::vector<ArrayVolumes>& arrays);

} // namespace kerncast::models
