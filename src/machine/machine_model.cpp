#include "kerncast/machine/machine_model.hpp"

namespace kerncast {

const MemoryLevel* MachineModel::level(const std::string& name) const {
    for (const auto* levels : {&memory, &special_memories})
        for (const auto& level : *levels)
            if (level.name == name)
                return &level;
    return nullptr;
}

} // namespace kerncast
