// A generated kernel as the GPU runtime takes it: the timing request of time_kernel and the
// run context its measurement record carries (kernel file, hash, parameters, fold).
#pragma once

#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/runtime/measurement_builder.hpp"
#include "kerncast/runtime/timing_harness.hpp"

#include <string>

namespace kerncast::codegen {

// source_name names the generated source in NVRTC messages ("star3d_r4.cu").
runtime::TimingRequest timing_request(const GeneratedKernel& generated,
                                      const std::string& source_name,
                                      const runtime::TimingOptions& options);

// kernel_file / kernel_file_sha256 / parameters / fold of the record; the caller adds the
// command line, date and bytes moved.
runtime::RunContext run_context(const Schedule& schedule, const GeneratedKernel& generated,
                                const SourceOrigin& origin);

} // namespace kerncast::codegen
