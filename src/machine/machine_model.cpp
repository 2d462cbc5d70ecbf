#include "kerncast/machine/machine_model.hpp"

#include "kerncast/error.hpp"

namespace kerncast {

const char* source_kind_name(SourceKind kind) {
    switch (kind) {
    case SourceKind::datasheet:
        return "datasheet";
    case SourceKind::paper:
        return "paper";
    case SourceKind::measured:
        return "measured";
    case SourceKind::derived:
        return "derived";
    case SourceKind::benchmark:
        return "benchmark";
    }
    throw Error(ErrorKind::internal, "unknown SourceKind");
}

const MemoryLevel* MachineModel::level(const std::string& name) const {
    for (const auto* levels : {&memory, &special_memories})
        for (const auto& level : *levels)
            if (level.name == name)
                return &level;
    return nullptr;
}

} // namespace kerncast
