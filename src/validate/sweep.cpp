// The live mode's sweeps (sweep.hpp).
#include "kerncast/validate/sweep.hpp"

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"
#include "kerncast/input_file.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/models/volumes/explore.hpp"

#include <algorithm>
#include <sstream>

namespace kerncast::validate {

std::vector<kernel::LaunchConfig> default_sweep(const kernel::KernelSpec& spec) {
    std::vector<kernel::LaunchConfig> sweep;
    auto add_if_possible = [&](const kernel::LaunchConfig& launch) {
        try {
            const analysis::KernelAnalysis analysis = analysis::analyze(spec, launch);
            const kernel::LaunchConfig& used = analysis.launch; // fixed tiles applied
            const bool seen =
                std::any_of(sweep.begin(), sweep.end(), [&](const auto& l) { return l == used; });
            if (!seen)
                sweep.push_back(used);
        } catch (const Error&) {
            // a launch this kernel cannot take (a fixed tile, an unmapped axis)
        }
    };
    for (const auto& fold : models::default_folds())
        for (const auto& block : models::default_block_sizes(256))
            add_if_possible(kernel::LaunchConfig{block, fold});
    if (sweep.empty())
        add_if_possible(spec.launch);
    return sweep;
}

std::vector<kernel::LaunchConfig> read_sweep_file(const std::string& path) {
    std::istringstream file(read_input_file(path, "sweep file"));
    std::vector<kernel::LaunchConfig> sweep;
    std::string line;
    for (int number = 1; std::getline(file, line); ++number) {
        const std::string text = line.substr(0, line.find('#'));
        std::istringstream words(text);
        std::vector<std::string> fields;
        for (std::string word; words >> word;)
            fields.push_back(word);
        if (fields.empty())
            continue;
        SourceLocation where{path, number, 1, {}, line};
        if (fields.size() > 2)
            throw_input_error(
                "expected 'BLOCK [FOLD]', got " + std::to_string(fields.size()) + " fields", where);
        kernel::LaunchConfig launch;
        try {
            launch.block = kernel::parse_launch_triple(fields[0], "block");
            if (fields.size() == 2)
                launch = kernel::with_fold(launch, kernel::parse_fold_text(fields[1], "fold"));
            kernel::check_launch_limits(launch, "the launch");
        } catch (const Error& e) {
            throw_input_error(e.message(), where);
        }
        sweep.push_back(launch);
    }
    if (sweep.empty())
        throw_input_error("sweep file '" + path + "' lists no configuration", {path, 0, 0, {}, {}});
    return sweep;
}

} // namespace kerncast::validate
