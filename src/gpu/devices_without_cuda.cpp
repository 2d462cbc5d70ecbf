// Built without CUDA: every GPU entry point says so.
#include "kerncast/error.hpp"
#include "kerncast/gpu/devices.hpp"

namespace kerncast::gpu {

bool built_with_cuda() {
    return false;
}

std::vector<DeviceInfo> query_devices() {
    throw Error(ErrorKind::unavailable,
                "kerncast was built without CUDA; rebuild with -DKERNCAST_ENABLE_CUDA=ON and the "
                "CUDA toolkit installed to query GPUs");
}

} // namespace kerncast::gpu
