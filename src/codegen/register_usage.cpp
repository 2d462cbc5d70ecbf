#include "kerncast/codegen/register_usage.hpp"

#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/codegen/schedule.hpp"
#include "kerncast/error.hpp"
#include "kerncast/runtime/nvrtc_compile.hpp"
#include "kerncast/sha256.hpp"
#include "kerncast/support/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace kerncast::codegen {

namespace {

std::string supported_list(const std::vector<int>& architectures) {
    std::string list;
    for (int sm : architectures)
        list += (list.empty() ? "" : ", ") + fmt::format("{}.{}", sm / 10, sm % 10);
    return list;
}

const char* give_the_count =
    "give the count instead: --registers N, or registers_per_thread in the kernel file";

} // namespace

std::optional<PtxasUsage> parse_ptxas_usage(const std::string& log,
                                            const std::string& entry_function) {
    // ptxas -v (CUDA 13):
    //   ptxas info    : Compiling entry function 'k' for 'sm_80'
    //   ptxas info    : Function properties for k
    //   ptxas         .     256 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    //   ptxas info    : Used 40 registers, used 0 barriers, 256 bytes cumulative stack size, ...
    static const std::regex entry_line(R"(Compiling entry function '([^']+)' for '([^']+)')");
    static const std::regex properties_line(R"(Function properties for (\S+))");
    static const std::regex stack_line(
        R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
    static const std::regex registers_line(R"(Used (\d+) registers)");

    std::optional<PtxasUsage> usage;
    bool in_entry = false;      // inside the section of entry_function
    bool own_properties = true; // the last "Function properties for" named entry_function
    bool found_registers = false;
    std::istringstream lines(log);
    std::string line;
    std::smatch match;
    while (std::getline(lines, line)) {
        if (std::regex_search(line, match, entry_line)) {
            if (in_entry)
                break; // the next entry's section
            in_entry = match[1] == entry_function;
            if (in_entry) {
                usage = PtxasUsage{};
                usage->function = match[1];
                usage->target = match[2];
                own_properties = true;
            }
            continue;
        }
        if (!in_entry)
            continue;
        if (std::regex_search(line, match, properties_line)) {
            own_properties = match[1] == entry_function;
        } else if (std::regex_search(line, match, stack_line)) {
            if (own_properties) {
                usage->stack_frame_bytes = std::stoll(match[1]);
                usage->spill_store_bytes = std::stoll(match[2]);
                usage->spill_load_bytes = std::stoll(match[3]);
            }
        } else if (std::regex_search(line, match, registers_line)) {
            usage->registers = std::stoi(match[1]);
            found_registers = true;
        }
    }
    if (!found_registers)
        return std::nullopt;
    return usage;
}

int register_count_sm(const MachineModel& machine) {
    const std::vector<int> supported = runtime::nvrtc_supported_architectures();
    if (supported.empty())
        throw Error(ErrorKind::unavailable,
                    "counting registers with ptxas (--registers auto) needs NVRTC, and kerncast "
                    "was built without CUDA",
                    {},
                    {"rebuild with -DKERNCAST_ENABLE_CUDA=ON and the CUDA toolkit installed, or " +
                     std::string(give_the_count)});
    const int major = machine.identity.cc_major, minor = machine.identity.cc_minor;
    const int sm = major * 10 + minor;
    if (std::find(supported.begin(), supported.end(), sm) != supported.end())
        return sm;
    const std::string what =
        fmt::format("machine '{}' has compute capability {}.{}", machine.identity.id, major, minor);
    if (sm < supported.front())
        throw Error(ErrorKind::unavailable,
                    fmt::format("{}: this NVRTC cannot compile for it to count registers; the "
                                "oldest compute capability it supports is {}.{}",
                                what, supported.front() / 10, supported.front() % 10),
                    {}, {give_the_count});
    throw Error(
        ErrorKind::unavailable,
        fmt::format("{}: this NVRTC cannot generate machine code for it to count "
                    "registers",
                    what),
        {},
        {"this NVRTC supports compute capabilities " + supported_list(supported), give_the_count});
}

std::optional<std::string> default_register_cache_directory() {
    if (const char* own = std::getenv("KERNCAST_CACHE_DIR"))
        return *own ? std::optional<std::string>(std::string(own) + "/ptxas") : std::nullopt;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/kerncast/ptxas";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/kerncast/ptxas";
    return std::nullopt;
}

namespace {

// Bump when what a count depends on changes outside the key (the NVRTC options of
// compile_cuda_source or of the count, the line format): older files are then never read.
constexpr int register_cache_format = 1;

// "<registers> <stack frame> <spill stores> <spill loads> <target>", one line.
std::string cache_line(const models::RegisterCount& count) {
    return fmt::format("{} {} {} {} {}\n", count.per_thread, count.stack_frame_bytes,
                       count.spill_store_bytes, count.spill_load_bytes, count.target);
}

std::optional<models::RegisterCount> read_cache_file(const std::filesystem::path& path) {
    std::ifstream file(path);
    models::RegisterCount count;
    std::string extra;
    if (!(file >> count.per_thread >> count.stack_frame_bytes >> count.spill_store_bytes >>
          count.spill_load_bytes >> count.target) ||
        (file >> extra) || count.per_thread <= 0 || count.per_thread > 255 ||
        count.stack_frame_bytes < 0 || count.spill_store_bytes < 0 || count.spill_load_bytes < 0 ||
        count.target.rfind("sm_", 0) != 0)
        return std::nullopt;
    count.source = models::RegisterSource::ptxas;
    return count;
}

// Written under a temporary name and renamed, so that a reader never sees half a line; any
// failure leaves the cache without the entry.
void write_cache_file(const std::filesystem::path& path, const models::RegisterCount& count) {
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    const std::filesystem::path temporary =
        path.string() + ".tmp" + std::to_string(::getpid()) + "-" +
        std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    bool written = false;
    {
        std::ofstream file(temporary);
        written = static_cast<bool>(file << cache_line(count) << std::flush);
    }
    if (written)
        std::filesystem::rename(temporary, path, error);
    if (!written || error)
        std::filesystem::remove(temporary, error);
}

} // namespace

RegisterCounter::RegisterCounter(kernel::KernelSpec spec,
                                 std::vector<std::pair<std::string, std::int64_t>> overrides,
                                 const MachineModel& machine,
                                 std::optional<std::string> cache_directory)
    : spec_(std::move(spec)), overrides_(std::move(overrides)), sm_(register_count_sm(machine)),
      cache_directory_(std::move(cache_directory)), nvrtc_version_(runtime::nvrtc_version()) {}

namespace {

models::RegisterCount count_of(const PtxasUsage& usage) {
    models::RegisterCount count;
    count.per_thread = usage.registers;
    count.source = models::RegisterSource::ptxas;
    count.target = usage.target;
    count.stack_frame_bytes = usage.stack_frame_bytes;
    count.spill_store_bytes = usage.spill_store_bytes;
    count.spill_load_bytes = usage.spill_load_bytes;
    return count;
}

// The generated kernels of one batch as one program: each source in a namespace of its own
// (its helper functions then do not collide) with its extern "C" entry renamed `<name>_kcb<k>`
// (C names ignore namespaces), the #include lines first. nullopt when a source does not have
// the entry where the generator writes it.
std::optional<std::string> batch_source(const std::vector<const GeneratedKernel*>& kernels,
                                        std::vector<std::string>& entries) {
    std::string includes;
    std::string bodies;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        std::string source = kernels[k]->cuda_source;
        const std::size_t declared = source.find("extern \"C\" __global__");
        const std::size_t named = declared == std::string::npos
                                      ? std::string::npos
                                      : source.find(kernels[k]->kernel_name + "(", declared);
        if (named == std::string::npos)
            return std::nullopt;
        entries.push_back(fmt::format("{}_kcb{}", kernels[k]->kernel_name, k));
        source.replace(named, kernels[k]->kernel_name.size(), entries.back());
        std::istringstream lines(source);
        std::string body;
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind("#include", 0) == 0) {
                if (includes.find(line + "\n") == std::string::npos)
                    includes += line + "\n";
            } else {
                body += line + "\n";
            }
        }
        bodies += fmt::format("namespace kcb{} {{\n{}}}\n", k, body);
    }
    return includes + bodies;
}

} // namespace

std::optional<std::string> RegisterCounter::cache_file(const std::string& sha) const {
    if (!cache_directory_)
        return std::nullopt;
    return (std::filesystem::path(*cache_directory_) / fmt::format("{}-sm_{}-nvrtc_{}-v{}.txt", sha,
                                                                   sm_, nvrtc_version_,
                                                                   register_cache_format))
        .string();
}

void RegisterCounter::keep(const std::string& key, const std::optional<std::string>& file,
                           const models::RegisterCount& count) {
    if (file)
        write_cache_file(*file, count);
    std::lock_guard lock(mutex_);
    cache_.emplace(key, count);
}

models::RegisterCount RegisterCounter::count(const kernel::LaunchConfig& launch) {
    {
        // A launch prepare() generated: its count, without generating its source again.
        std::lock_guard lock(mutex_);
        if (const auto known = launch_keys_.find(launch_key(launch)); known != launch_keys_.end())
            if (const auto cached = cache_.find(known->second); cached != cache_.end()) {
                ++cache_hits_;
                return cached->second;
            }
    }
    // No SourceOrigin: the header comment then names no file, so the source (and its hash)
    // depends only on what the compiler sees.
    const GeneratedKernel generated = generate_cuda(lower_kernel(spec_, launch, overrides_));
    const std::string sha = sha256_hex(generated.cuda_source);
    const std::string key = sha + "/sm_" + std::to_string(sm_);
    {
        std::lock_guard lock(mutex_);
        if (const auto cached = cache_.find(key); cached != cache_.end()) {
            ++cache_hits_;
            return cached->second;
        }
    }
    const std::optional<std::string> file = cache_file(sha);
    if (file)
        if (const auto stored = read_cache_file(*file)) {
            std::lock_guard lock(mutex_);
            ++cache_hits_;
            ++disk_hits_;
            cache_.emplace(key, *stored);
            return *stored;
        }
    // Compiled outside the lock: explore's workers compile different launches in parallel.
    runtime::CompileRequest request;
    request.source = generated.cuda_source;
    request.source_name = spec_.name + ".cu";
    request.kernel_name = generated.kernel_name;
    request.cc_major = sm_ / 10;
    request.cc_minor = sm_ % 10;
    request.extra_options = {"--ptxas-options=-v"};
    const runtime::CompiledKernel compiled = runtime::compile_cuda_source(request);
    const std::optional<PtxasUsage> usage = parse_ptxas_usage(compiled.log, compiled.lowered_name);
    if (!usage)
        throw Error(ErrorKind::internal,
                    fmt::format("ptxas reported no register count for '{}' ({})",
                                compiled.lowered_name, compiled.target),
                    {}, {"NVRTC log:\n" + compiled.log});
    const models::RegisterCount count = count_of(*usage);
    keep(key, file, count);
    std::lock_guard lock(mutex_);
    ++compilations_;
    return count;
}

void RegisterCounter::prepare(const std::vector<kernel::LaunchConfig>& launches, unsigned jobs,
                              std::size_t batch_kernels) {
    struct Pending {
        std::string key;
        std::optional<std::string> file;
        GeneratedKernel generated;
    };
    std::vector<Pending> pending;
    std::set<std::string> seen;
    for (const auto& launch : launches) {
        Pending p;
        try {
            p.generated = generate_cuda(lower_kernel(spec_, launch, overrides_));
        } catch (const Error&) {
            continue; // count() reports it for this launch
        }
        const std::string sha = sha256_hex(p.generated.cuda_source);
        p.key = sha + "/sm_" + std::to_string(sm_);
        {
            std::lock_guard lock(mutex_);
            launch_keys_[launch_key(launch)] = p.key;
        }
        if (!seen.insert(p.key).second)
            continue;
        {
            std::lock_guard lock(mutex_);
            if (cache_.count(p.key))
                continue;
        }
        p.file = cache_file(sha);
        if (p.file)
            if (const auto stored = read_cache_file(*p.file)) {
                std::lock_guard lock(mutex_);
                ++disk_hits_;
                cache_.emplace(p.key, *stored);
                continue;
            }
        pending.push_back(std::move(p));
    }
    const std::size_t size = std::max<std::size_t>(1, batch_kernels);
    const std::size_t batches = (pending.size() + size - 1) / size;
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t b; (b = next++) < batches;) {
            std::vector<const GeneratedKernel*> kernels;
            for (std::size_t k = b * size; k < std::min(pending.size(), (b + 1) * size); ++k)
                kernels.push_back(&pending[k].generated);
            std::vector<std::string> entries;
            const std::optional<std::string> source = batch_source(kernels, entries);
            if (!source)
                continue;
            runtime::CompileRequest request;
            request.source = *source;
            request.source_name = spec_.name + "_batch.cu";
            request.kernel_name = "kcb0::" + entries.front(); // a C++ name expression
            request.cc_major = sm_ / 10;
            request.cc_minor = sm_ % 10;
            request.extra_options = {"--ptxas-options=-v"};
            runtime::CompiledKernel compiled;
            try {
                compiled = runtime::compile_cuda_source(request);
            } catch (const std::exception&) {
                continue; // each launch's count() compiles it alone and reports what fails
            }
            {
                std::lock_guard lock(mutex_);
                ++compilations_;
            }
            for (std::size_t k = 0; k < entries.size(); ++k)
                if (const auto usage = parse_ptxas_usage(compiled.log, entries[k])) {
                    Pending& p = pending[b * size + k];
                    keep(p.key, p.file, count_of(*usage));
                }
        }
    };
    support::run_on_threads(support::worker_count(jobs, batches), work);
}

std::size_t RegisterCounter::compilations() const {
    std::lock_guard lock(mutex_);
    return compilations_;
}

std::size_t RegisterCounter::disk_hits() const {
    std::lock_guard lock(mutex_);
    return disk_hits_;
}

std::size_t RegisterCounter::cache_hits() const {
    std::lock_guard lock(mutex_);
    return cache_hits_;
}

} // namespace kerncast::codegen
