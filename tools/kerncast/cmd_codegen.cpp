// kerncast codegen: the CUDA C++ that `kerncast run KERNEL` compiles (docs/codegen.md).
#include "commands.hpp"
#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/models/volumes/explore.hpp"
#include "kerncast/sha256.hpp"

#include <fstream>
#include <iostream>
#include <memory>

namespace kerncast::cli {

namespace {

struct CodegenOptions {
    std::string kernel_path;
    std::vector<std::string> defines;
    std::string block;
    std::string fold;
    std::string output_path;
};

void run_codegen(const CodegenOptions& o) {
    const kernel::KernelSpec spec = kernel::load_kernel_file(o.kernel_path);
    const kernel::LaunchConfig launch = kernel::override_launch(spec.launch, o.block, o.fold);
    const codegen::Schedule schedule =
        codegen::lower_kernel(spec, launch, kernel::parse_parameter_defines(o.defines));
    const codegen::GeneratedKernel generated =
        codegen::generate_cuda(schedule, {o.kernel_path, sha256_file_hex(o.kernel_path)});
    if (o.output_path.empty() || o.output_path == "-") {
        std::cout << generated.cuda_source;
        return;
    }
    write_file_safely(o.output_path, "the CUDA source",
                      [&](std::ostream& out) { out << generated.cuda_source; });
}

void setup_codegen(CLI::App& app) {
    auto options = std::make_shared<CodegenOptions>();
    auto* cmd = app.add_subcommand("codegen", "CUDA C++ generated from a kernel file");
    cmd->add_option("KERNEL", options->kernel_path, "Kernel file (YAML, docs/kernel-format.md)")
        ->required();
    cmd->add_option("-D,--define", options->defines, "Set a parameter: -D name=value (repeatable)")
        ->type_name("NAME=VALUE");
    cmd->add_option("--block", options->block, "Threads per block: 32x4x4 (overrides the file)");
    cmd->add_option("--fold", options->fold,
                    "Points per thread: 1x1x2, z=2 or 2z (overrides the file)");
    cmd->add_option("-o,--output", options->output_path,
                    "Write the source to FILE (default stdout)")
        ->type_name("FILE");
    cmd->callback([options] {
        refuse_clobbering({{"-o", options->output_path}}, {options->kernel_path});
        run_codegen(*options);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(690, setup_codegen);

} // namespace kerncast::cli
