#include "kerncast/runtime/ncu_command.hpp"

#include "kerncast/error.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace kerncast::runtime {

std::optional<std::string> find_on_path(const std::string& program, const std::string& path_list) {
    if (program.find('/') != std::string::npos)
        return access(program.c_str(), X_OK) == 0 ? std::optional(program) : std::nullopt;
    std::size_t begin = 0;
    while (begin <= path_list.size()) {
        std::size_t end = path_list.find(':', begin);
        if (end == std::string::npos)
            end = path_list.size();
        const std::string directory = path_list.substr(begin, end - begin);
        if (!directory.empty()) {
            const std::string candidate = directory + "/" + program;
            std::error_code ignored;
            if (std::filesystem::is_regular_file(candidate, ignored) &&
                access(candidate.c_str(), X_OK) == 0)
                return candidate;
        }
        begin = end + 1;
    }
    return std::nullopt;
}

std::optional<std::string> find_program(const std::string& program) {
    const char* path = std::getenv("PATH");
    return find_on_path(program, path ? path : "");
}

std::vector<std::string> ncu_command_line(const NcuProfileRequest& request) {
    KERNCAST_CHECK(!request.metrics.empty(), "ncu command without metrics");
    KERNCAST_CHECK(!request.application.empty(), "ncu command without an application");
    std::string metrics;
    for (const auto& metric : request.metrics)
        metrics += (metrics.empty() ? "" : ",") + metric;
    std::vector<std::string> argv = {request.ncu_path,
                                     "--csv",
                                     "--page",
                                     "raw",
                                     "--print-units",
                                     "base",
                                     "--metrics",
                                     metrics,
                                     "--kernel-name-base",
                                     "mangled",
                                     "--kernel-name",
                                     request.kernel_symbol,
                                     "--launch-skip",
                                     std::to_string(request.launch_skip),
                                     "--launch-count",
                                     std::to_string(request.launch_count),
                                     "--target-processes",
                                     "all"};
    if (!request.log_file.empty()) {
        argv.push_back("--log-file");
        argv.push_back(request.log_file);
    }
    argv.insert(argv.end(), request.application.begin(), request.application.end());
    return argv;
}

std::string shell_join(const std::vector<std::string>& argv) {
    std::string joined;
    for (const auto& arg : argv) {
        if (!joined.empty())
            joined += ' ';
        const bool plain = !arg.empty() && arg.find_first_not_of(
                                               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"
                                               "YZ0123456789_-+=/.,:@%") == std::string::npos;
        if (plain) {
            joined += arg;
            continue;
        }
        joined += '\'';
        for (char c : arg)
            joined += c == '\'' ? std::string("'\\''") : std::string(1, c);
        joined += '\'';
    }
    return joined;
}

ProcessResult run_process(const std::vector<std::string>& argv) {
    KERNCAST_CHECK(!argv.empty(), "run_process without a program");
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0)
        throw Error(ErrorKind::unavailable, std::string("pipe failed: ") + std::strerror(errno));
    std::vector<char*> c_argv;
    for (const auto& arg : argv)
        c_argv.push_back(const_cast<char*>(arg.c_str()));
    c_argv.push_back(nullptr);

    const pid_t child = fork();
    if (child < 0) {
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        throw Error(ErrorKind::unavailable, std::string("fork failed: ") + std::strerror(errno));
    }
    if (child == 0) {
        dup2(pipe_fds[1], STDOUT_FILENO);
        dup2(pipe_fds[1], STDERR_FILENO);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        execvp(c_argv[0], c_argv.data());
        const std::string message = "cannot run '" + argv[0] + "': " + std::strerror(errno) + "\n";
        [[maybe_unused]] const auto written = write(STDERR_FILENO, message.data(), message.size());
        _exit(127);
    }
    close(pipe_fds[1]);
    ProcessResult result;
    char buffer[4096];
    while (true) {
        const ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
        if (n > 0)
            result.output.append(buffer, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    close(pipe_fds[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status))
        result.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        result.exit_code = 128 + WTERMSIG(status);
    return result;
}

static std::string tail_of(const std::string& text, std::size_t max_chars) {
    return text.size() <= max_chars ? text : "..." + text.substr(text.size() - max_chars);
}

CounterCollection collect_counters(NcuProfileRequest request, bool query_available) {
    CounterCollection collection;
    if (query_available) {
        const ProcessResult query = run_process({request.ncu_path, "--query-metrics"});
        if (query.exit_code != 0)
            throw Error(ErrorKind::unavailable,
                        "'" + request.ncu_path + " --query-metrics' failed (exit " +
                            std::to_string(query.exit_code) + ")",
                        {}, {"ncu said:\n" + tail_of(query.output, 2000)});
        const std::set<std::string> available = parse_query_metrics(query.output);
        std::vector<std::string> offered;
        for (const auto& metric : request.metrics) {
            const std::string base = metric.substr(0, metric.find('.'));
            if (available.count(metric) || available.count(base))
                offered.push_back(metric);
            else
                collection.warnings.push_back("this GPU's ncu does not offer " + metric);
        }
        if (offered.empty())
            throw Error(ErrorKind::unavailable,
                        "ncu --query-metrics lists none of the metrics kerncast needs");
        request.metrics = offered;
    }

    // A private file for ncu's CSV, removed afterwards.
    std::string log_template =
        (std::filesystem::temp_directory_path() / "kerncast-ncu-XXXXXX").string();
    const int fd = mkstemp(log_template.data());
    if (fd < 0)
        throw Error(ErrorKind::unavailable,
                    std::string("cannot create a temporary file: ") + std::strerror(errno));
    close(fd);
    request.log_file = log_template;
    struct RemoveFile {
        std::string path;
        ~RemoveFile() { std::filesystem::remove(path); }
    } remove_log{log_template};

    collection.command_line = ncu_command_line(request);
    const ProcessResult profiled = run_process(collection.command_line);
    std::ifstream log_file(log_template);
    std::ostringstream log_text;
    log_text << log_file.rdbuf();
    const auto ncu_failed = [&](const std::string& why) {
        throw Error(ErrorKind::unavailable, "profiling with ncu failed: " + why, {},
                    {"command: " + shell_join(collection.command_line),
                     "output:\n" + tail_of(profiled.output + log_text.str(), 3000)});
    };
    if (profiled.exit_code != 0)
        ncu_failed("exit status " + std::to_string(profiled.exit_code));
    std::vector<ProfiledLaunch> launches;
    try {
        launches = parse_ncu_csv(log_text.str(), "ncu output");
    } catch (const Error& e) {
        ncu_failed(e.message());
    }
    if (launches.size() != 1)
        ncu_failed("expected one profiled launch of " + request.kernel_symbol + ", found " +
                   std::to_string(launches.size()));
    collection.counters = launches.front().metrics;
    for (const auto& metric : request.metrics)
        if (!collection.counters.count(metric))
            collection.warnings.push_back("ncu did not report a value for " + metric);
    return collection;
}

} // namespace kerncast::runtime
