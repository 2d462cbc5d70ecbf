// Internal: the machine files of machines/, embedded at build time by
// embed_machines.cmake (generated embedded_machines.cpp), in catalogue order.
#pragma once

#include <cstddef>
#include <string_view>

namespace kerncast::embedded {

struct MachineFile {
    std::string_view id;   // file name without ".json"
    std::string_view text; // the file's contents
};

extern const MachineFile machine_files[];
extern const std::size_t machine_file_count;

} // namespace kerncast::embedded
