#include "kerncast/kernel/launch_config.hpp"

namespace kerncast::kernel {

const char* fold_placement_name(FoldPlacement placement) {
    return placement == FoldPlacement::strided ? "strided" : "consecutive";
}

bool strided_fold(const LaunchConfig& launch) {
    return launch.fold_placement == FoldPlacement::strided && volume(launch.fold) > 1;
}

std::string fold_text(const LaunchConfig& launch) {
    const Dim3& f = launch.fold;
    std::string text =
        std::to_string(f[0]) + "x" + std::to_string(f[1]) + "x" + std::to_string(f[2]);
    if (strided_fold(launch))
        text += ":strided";
    return text;
}

} // namespace kerncast::kernel
