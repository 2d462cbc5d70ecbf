#include "kerncast/uipick/campaign_shard.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace kerncast::uipick {

namespace {

std::int64_t shard_number(const std::string& text, const std::string& whole, const char* what) {
    if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        }))
        throw_usage_error("--shard '" + whole + "': the " + what +
                          " must be a non-negative integer (form I/N, 0 <= I < N)");
    return std::stoll(text);
}

} // namespace

Shard parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    if (slash == std::string::npos)
        throw_usage_error("--shard '" + text + "': expected I/N, e.g. 0/4 (0 <= I < N)");
    Shard shard;
    shard.index = shard_number(text.substr(0, slash), text, "shard index I");
    shard.count = shard_number(text.substr(slash + 1), text, "shard count N");
    if (shard.count < 1)
        throw_usage_error("--shard '" + text + "': the shard count N must be at least 1");
    if (shard.index >= shard.count)
        throw_usage_error("--shard '" + text + "': the shard index must be below the count (0 <= " +
                              "I < N; shards of a job array are numbered from 0)",
                          {"with Slurm: --shard ${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT} "
                           "and #SBATCH --array=0-(N-1)"});
    return shard;
}

std::vector<std::string> shard_files(std::vector<std::string> files, const Shard& shard) {
    std::sort(files.begin(), files.end());
    std::vector<std::string> selected;
    for (size_t k = static_cast<size_t>(shard.index); k < files.size();
         k += static_cast<size_t>(shard.count))
        selected.push_back(files[k]);
    return selected;
}

std::vector<std::string> kernel_files_in(const std::string& directory) {
    std::error_code error;
    if (!std::filesystem::is_directory(directory, error))
        throw_input_error("'" + directory + "' is not a directory of kernel files");
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
        const auto extension = entry.path().extension();
        if ((extension == ".yaml" || extension == ".yml") && entry.is_regular_file())
            files.push_back(entry.path().string());
    }
    if (error)
        throw_input_error("cannot read directory '" + directory + "': " + error.message());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace kerncast::uipick
