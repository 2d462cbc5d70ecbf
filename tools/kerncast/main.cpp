// kerncast: measure an NVIDIA GPU, model a kernel, forecast its performance.
#include "commands.hpp"
#include "kerncast/error.hpp"

#include <algorithm>
#include <iostream>
#include <malloc.h>
#include <utility>
#include <vector>

namespace kerncast::cli {

static std::vector<std::pair<int, SetupFunction>>& registry() {
    static std::vector<std::pair<int, SetupFunction>> commands;
    return commands;
}

bool register_command(int order, SetupFunction setup) {
    registry().emplace_back(order, setup);
    return true;
}

} // namespace kerncast::cli

int main(int argc, char** argv) {
    using namespace kerncast;
    // explore frees and allocates the same few MiB for every configuration (a block's
    // requests, the simulated L1, isl's sets); by default glibc hands freed memory back to the
    // kernel and faults it in again each time, a tenth of a sweep's time on a simulated-L1
    // machine (perf of `explore star3d_r4.yaml -m h100-sxm5-80gb`, docs/predict-explore.md#speed).
    // A process that lives for one command keeps it instead.
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 32 << 20); // the most glibc allows on 64-bit hosts
    CLI::App app{"kerncast " KERNCAST_VERSION
                 " - measure an NVIDIA GPU, model a GPU kernel, forecast its performance",
                 "kerncast"};
    app.set_version_flag("--version", std::string("kerncast ") + KERNCAST_VERSION);
    app.require_subcommand(1);
    app.add_flag("-q,--quiet", cli::quiet_requested(),
                 "No progress bars on stderr (they show only on a terminal)");
    // Options of the app (--quiet) may also follow the subcommand.
    app.fallthrough();
    app.footer("Exit codes: 0 success, 1 bad input, 2 bad usage, 3 unavailable (no GPU / "
               "built without CUDA), 4 internal error. See docs/cli.md.");

    auto commands = cli::registry();
    std::stable_sort(commands.begin(), commands.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [order, setup] : commands)
        setup(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version arrive here as "errors" with exit code 0.
        const int code = app.exit(e);
        return code == 0 ? 0 : exit_code(ErrorKind::usage);
    } catch (const Error& e) {
        std::cerr << "kerncast: " << e.describe();
        return exit_code(e.kind());
    } catch (const std::exception& e) {
        std::cerr << "kerncast: internal error: " << e.what() << "\n";
        return exit_code(ErrorKind::internal);
    }
    // A report that could not be written (a full disk, a closed pipe) is a failure, not a
    // success with nothing printed.
    std::cout.flush();
    if (!std::cout) {
        std::cerr << "kerncast: error: cannot write to standard output\n";
        return exit_code(ErrorKind::input);
    }
    return 0;
}
