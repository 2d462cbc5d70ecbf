#include "kerncast/kernel/launch_config.hpp"

namespace kerncast::kernel {

const char* fold_placement_name(FoldPlacement placement) {
    return placement == FoldPlacement::strided ? "strided" : "consecutive";
}

std::string fold_text(const LaunchConfig& launch) {
    const Dim3& f = launch.fold;
    std::string text =
        std::to_string(f[0]) + "x" + std::to_string(f[1]) + "x" + std::to_string(f[2]);
    if (launch.fold_placement == FoldPlacement::strided && volume(f) > 1)
        text += ":strided";
    return text;
}

} // namespace kerncast::kernel
