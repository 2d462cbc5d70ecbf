// Built without CUDA: the probe says so; the analysis and --replay work regardless.
#include "kerncast/error.hpp"
#include "kerncast/probe/runner.hpp"

namespace kerncast::probe {

bool probe_built_with_cuda() {
    return false;
}

ProbeRecord run_probe(const ProbeOptions&) {
    throw Error(ErrorKind::unavailable,
                "kerncast was built without CUDA, so it cannot probe a GPU; rebuild with "
                "-DKERNCAST_ENABLE_CUDA=ON and the CUDA toolkit installed",
                {}, {"`kerncast probe --replay DIR` analyses a recorded probe run without a GPU"});
}

} // namespace kerncast::probe
