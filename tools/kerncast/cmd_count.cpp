// kerncast count: operation counts, access patterns and footprints of a kernel file.
#include "commands.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/models/counts/count_kernel.hpp"
#include "kerncast/models/counts/count_view.hpp"
#include "launch_options.hpp"

#include <memory>

namespace kerncast::cli {
namespace {

struct CountCommandOptions {
    std::string kernel_path;
    LaunchOptions launch;
    std::string granules = "32,128";
    bool index_arithmetic = false;
    bool no_footprints = false;
    std::int64_t subgroup_size = 32;
    OutputOptions output;
};

std::vector<std::int64_t> parse_list(const std::string& text, const char* option) {
    std::vector<std::int64_t> values;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        const std::string part =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        try {
            size_t used = 0;
            values.push_back(std::stoll(part, &used));
            if (used != part.size() || values.back() < 1)
                throw std::invalid_argument(part);
        } catch (const std::exception&) {
            throw_usage_error(std::string(option) +
                              " expects positive integers separated by commas, got '" + text + "'");
        }
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return values;
}

void run_count(const CountCommandOptions& o) {
    const kernel::KernelSpec spec = kernel::load_kernel_file(o.kernel_path);
    const kernel::LaunchConfig launch = launch_of(spec, o.launch);
    analysis::CountOptions options;
    options.count_index_arithmetic = o.index_arithmetic;
    if (o.subgroup_size < 1)
        throw_usage_error("--subgroup-size must be positive");
    options.subgroup_size = o.subgroup_size;
    models::counts::FootprintOptions footprints;
    for (const auto& size : parse_list(o.granules, "--granules"))
        footprints.granule_bytes.push_back(size);
    footprints.warp_size = o.subgroup_size;
    footprints.enabled = !o.no_footprints;
    emit(models::counts::count_view(models::counts::count_kernel(
             spec, launch, parameter_overrides(o.launch), options, footprints)),
         o.output);
}

void setup_count(CLI::App& app) {
    auto options = std::make_shared<CountCommandOptions>();
    auto* cmd =
        app.add_subcommand("count", "Operation counts, access patterns and footprints of a kernel");
    cmd->add_option("KERNEL", options->kernel_path, "Kernel file (YAML, docs/kernel-format.md)")
        ->required();
    add_launch_options(*cmd, options->launch);
    cmd->add_flag("--index-arithmetic", options->index_arithmetic,
                  "Also count subscript arithmetic (i32)");
    cmd->add_option(
           "--granules", options->granules,
           "Footprint granule sizes in bytes (default: NVIDIA's 32 B sectors and 128 B lines)")
        ->capture_default_str();
    cmd->add_flag("--no-footprints", options->no_footprints, "Skip the warp/block footprints");
    cmd->add_option("--subgroup-size", options->subgroup_size, "Sub-group (warp) size for counting")
        ->capture_default_str();
    add_output_options(*cmd, options->output);
    cmd->callback([options] {
        options->output.inputs = {options->kernel_path};
        refuse_clobbering(output_paths(options->output), options->output.inputs);
        run_count(*options);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(200, setup_count);

} // namespace kerncast::cli
