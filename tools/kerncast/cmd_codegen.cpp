// kerncast codegen: the CUDA C++ that `kerncast run KERNEL` compiles (docs/codegen.md).
#include "commands.hpp"
#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/models/volumes/explore.hpp"
#include "kerncast/sha256.hpp"
#include "launch_options.hpp"

#include <fstream>
#include <iostream>
#include <memory>

namespace kerncast::cli {

namespace {

struct CodegenOptions {
    std::string kernel_path;
    LaunchOptions launch;
    std::string output_path;
};

void run_codegen(const CodegenOptions& o) {
    const kernel::KernelSpec spec = kernel::load_kernel_file(o.kernel_path);
    const kernel::LaunchConfig launch = launch_of(spec, o.launch);
    const kernel::ParameterOverrides values = parameter_overrides(o.launch);
    const kernel::BoundKernel bound = analysis::bind(
        analysis::analyze(analysis::staging_judged_at(spec, values), launch), values);
    const codegen::Schedule schedule = codegen::lower_kernel(bound);
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
    add_launch_options(*cmd, options->launch);
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
