// A kernel's DRAM loads by barrier phase (dram_load_phases.hpp).
#include "kerncast/models/volumes/dram_load_phases.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace kerncast::models {

namespace {

bool global_load(const L1AccessCost& access) {
    return access.direction == analysis::Direction::load &&
           access.space == kernel::MemorySpace::global;
}

} // namespace

std::vector<DramLoadPhase> dram_load_phases(const std::vector<kernel::StatementSpec>& statements,
                                            const std::vector<L1AccessCost>& accesses,
                                            const std::vector<ArrayVolumes>& arrays) {
    // Each statement's phase: the barriers before it in the file.
    std::vector<int> phase_of(statements.size(), 0);
    int phase_count = 1;
    for (size_t s = 0; s < statements.size(); ++s) {
        phase_of[s] = phase_count - 1;
        if (statements[s].kind == kernel::StatementKind::barrier)
            ++phase_count;
    }
    const auto phase_at = [&](int statement) {
        return statement >= 0 && static_cast<size_t>(statement) < phase_of.size()
                   ? phase_of[static_cast<size_t>(statement)]
                   : 0;
    };
    std::vector<DramLoadPhase> phases(static_cast<size_t>(phase_count));

    // Each array's requested load sectors by phase, and the phase of its first global access.
    std::map<std::string, std::map<int, double>> sectors_by_phase;
    std::map<std::string, int> first_access_phase;
    for (const L1AccessCost& access : accesses) {
        if (access.space != kernel::MemorySpace::global)
            continue;
        const int phase = phase_at(access.statement);
        first_access_phase.try_emplace(access.array, phase);
        if (!global_load(access))
            continue;
        DramLoadPhase& to = phases[static_cast<size_t>(phase)];
        to.loads_per_thread += access.instructions_per_thread * access.executions_per_point;
        if (access.instructions_per_thread > 0 &&
            std::find(to.arrays.begin(), to.arrays.end(), access.array) == to.arrays.end())
            to.arrays.push_back(access.array);
        // Executions weigh a load that requests no sector (a guard that never holds) at none.
        sectors_by_phase[access.array][phase] += access.sector_bytes_per_point;
    }

    for (const ArrayVolumes& array : arrays) {
        if (!(array.dram_load_bytes > 0))
            continue;
        double sectors = 0;
        if (auto found = sectors_by_phase.find(array.array); found != sectors_by_phase.end())
            for (const auto& [phase, bytes] : found->second)
                sectors += bytes;
        if (sectors > 0) {
            for (const auto& [phase, bytes] : sectors_by_phase.at(array.array))
                phases[static_cast<size_t>(phase)].dram_load_bytes_per_point +=
                    array.dram_load_bytes * bytes / sectors;
        } else {
            const auto first = first_access_phase.find(array.array);
            phases[first != first_access_phase.end() ? static_cast<size_t>(first->second) : 0]
                .dram_load_bytes_per_point += array.dram_load_bytes;
        }
    }
    std::erase_if(
        phases, [](const DramLoadPhase& phase) { return !(phase.dram_load_bytes_per_point > 0); });
    return phases;
}

} // namespace kerncast::models
