// Run-time compilation of CUDA C++ source with NVRTC for a given GPU architecture.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kerncast::runtime {

struct CompileRequest {
    std::string source;      // CUDA C++ source text
    std::string source_name; // names the source in messages and the compile log ("saxpy.cu")
    std::string kernel_name; // a __global__ function: plain name, or a C++ name expression
    int cc_major = 0;        // the GPU the code is for
    int cc_minor = 0;
    std::vector<std::string> extra_options; // appended to kerncast's NVRTC options
    // __device__ / __constant__ variables the host will look up (by name, e.g. "weights"):
    // registered as name expressions, so NVRTC keeps them even when unused and reports their
    // symbols; a name that is not a variable of the source is a compile error.
    std::vector<std::string> global_variables;
};

struct CompiledKernel {
    std::string image;        // cubin (ELF) bytes, or NUL-terminated PTX text when is_ptx
    bool is_ptx = false;      // true when NVRTC does not know the GPU's SM: PTX for the driver
    std::string target;       // "sm_90" (cubin) or "compute_90" (PTX)
    std::string lowered_name; // the kernel's symbol in the image (mangled for C++ names)
    std::vector<std::string> lowered_globals; // the symbol of each global_variables entry
    std::string log;                          // NVRTC's log (warnings), possibly empty
    std::vector<std::string> options;         // the options NVRTC was given
};

// Compiles for sm_<cc_major><cc_minor> (cubin). When this NVRTC cannot generate code for that
// SM, it compiles PTX for the newest virtual architecture it supports that is not newer than
// the GPU, for the driver to JIT-compile. A compile error is an input Error whose notes carry
// NVRTC's log; built without CUDA: an unavailable Error. Needs no GPU.
CompiledKernel compile_cuda_source(const CompileRequest& request);

// The CUDA toolkit include directory NVRTC searches (NVRTC has no default, so without it even
// <cuda_fp16.h> is not found): $KERNCAST_CUDA_INCLUDE_DIR if set (an unavailable Error when it
// has no cuda_fp16.h), else the directory of the toolkit kerncast was built with, if it is
// still there; nullopt otherwise (sources without #include still compile). Without CUDA:
// nullopt.
std::optional<std::string> cuda_include_directory();

// The SM versions (e.g. 75, 80, ..., 120) this NVRTC can generate code for; empty without CUDA.
std::vector<int> nvrtc_supported_architectures();

// This NVRTC's version, "major.minor" (e.g. "12.8"); "" without CUDA.
std::string nvrtc_version();

} // namespace kerncast::runtime
