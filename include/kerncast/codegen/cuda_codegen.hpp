// CUDA C++ from a kernel file: one __global__ function with C linkage, one thread per domain
// point (or per folded group of points), bounds checks from the isl domain, sequential loops,
// reductions, shared-memory tiles with __syncthreads(), atomics; plus everything the runtime's
// time_kernel needs to launch it (grid, block, buffers with deterministic initialisation).
// docs/codegen.md describes the generated code.
#pragma once

#include "kerncast/codegen/schedule.hpp"
#include "kerncast/runtime/kernel_arguments.hpp"
#include "kerncast/runtime/measurement.hpp"

#include <string>
#include <vector>

namespace kerncast::codegen {

struct GeneratedKernel {
    std::string kernel_name; // the extern "C" symbol: the kernel file's name, sanitised
    std::string cuda_source;
    kernel::Dim3 grid{1, 1, 1};
    kernel::Dim3 block{1, 1, 1};
    kernel::Dim3 fold{1, 1, 1};
    kernel::FoldPlacement fold_placement = kernel::FoldPlacement::consecutive;
    std::int64_t static_shared_memory_bytes = 0;
    // Shared arrays beyond CodegenTarget::static_shared_memory_bytes are carved out of one
    // `extern __shared__` buffer of this size instead, which the launch passes (and opts in
    // to beyond 48 KiB: runtime TimingRequest::dynamic_shared_memory_bytes); 0 otherwise.
    std::int64_t dynamic_shared_memory_bytes = 0;
    // The kernel's parameters in order: one device buffer per global array (and per constant
    // array that is not a __constant__ symbol, below), in declaration order, initialised with
    // the deterministic hash (runtime BufferInit::hash). Arrays of 1- or 2-byte integers travel
    // as u32 words (count rounded up).
    std::vector<runtime::KernelArgument> arguments;
    std::vector<std::string> buffer_arrays; // the array behind each argument
    // `constant` arrays generated as module-scope `__constant__ T name[n]`, which the harness
    // fills with the same hash after loading (runtime TimingRequest::constant_symbols); the
    // symbol is the array's name, its size exactly count * size of dtype.
    std::vector<runtime::BufferSpec> constant_symbols;
    // Why constant arrays stayed kernel arguments (over the constant bank, written), if so.
    std::vector<std::string> notes;
};

// The GPU the code is for, as far as code generation depends on it.
struct CodegenTarget {
    // Bytes for __constant__ variables (cudaDeviceProp::totalConstMem): 64 KiB on every compute
    // capability so far (CUDA C++ Programming Guide, "Technical Specifications per Compute
    // Capability"), the default when no device is present.
    std::int64_t constant_memory_bytes = 65536;
    // The most shared memory a kernel declares statically: 48 KiB on every compute capability
    // since 2.0 (CUDA C++ Programming Guide, "Shared Memory": allocations above 48 KB per block
    // must use dynamic shared memory and opt in with cudaFuncSetAttribute). A block whose
    // shared arrays take more gets them as one dynamic buffer.
    std::int64_t static_shared_memory_bytes = 48 * 1024;
};

// What the generated source's header comment names.
struct SourceOrigin {
    std::string kernel_file;        // as given ("" when built in code)
    std::string kernel_file_sha256; // "" when unknown
};

// `constant` arrays become __constant__ symbols when none is written and together they fit
// target.constant_memory_bytes; otherwise they stay pointer arguments (header comment + note).
GeneratedKernel generate_cuda(const Schedule& schedule, const SourceOrigin& origin = {},
                              const CodegenTarget& target = {});

// The CUDA type of a kernel dtype ("float", "unsigned int", ...).
const char* cuda_type_name(kernel::DataType type);

} // namespace kerncast::codegen
