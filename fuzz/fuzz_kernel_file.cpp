// Fuzz target: the kernel-file reader (YAML -> KernelSpec) and the parameter checks that
// every command runs next (extents, the domain at the default values).
#include "fuzz_target.hpp"
#include "kerncast/kernel/kernel_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return kerncast::fuzz::run_one([&] {
        const kerncast::kernel::KernelSpec spec =
            kerncast::kernel::parse_kernel_text(kerncast::fuzz::text_of(data, size), "fuzz.yaml");
        (void)spec.param_values();
    });
}
