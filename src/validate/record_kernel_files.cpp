// Kernel files of a record replay (record_kernel_files.hpp).
#include "kerncast/validate/record_kernel_files.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

namespace kerncast::validate {

namespace fs = std::filesystem;

namespace {

bool is_kernel_file_name(const fs::path& path) {
    const auto extension = path.extension();
    return extension == ".yaml" || extension == ".yml";
}

} // namespace

std::vector<std::string> record_kernel_files(const std::vector<std::string>& given,
                                             const std::string& kernels_directory,
                                             const std::vector<runtime::LoadedRecord>& records) {
    std::vector<std::string> paths = given;
    if (!kernels_directory.empty()) {
        const SourceLocation at{kernels_directory, 0, 0, {}, {}};
        if (!fs::is_directory(kernels_directory))
            throw_input_error("--kernels: '" + kernels_directory + "' is not a directory", at);
        std::vector<std::string> found;
        for (const auto& entry : fs::directory_iterator(kernels_directory))
            if (entry.is_regular_file() && is_kernel_file_name(entry.path()))
                found.push_back(entry.path().string());
        if (found.empty())
            throw_input_error(
                "--kernels: '" + kernels_directory + "' holds no kernel files (*.yaml, *.yml)", at);
        std::sort(found.begin(), found.end());
        paths.insert(paths.end(), found.begin(), found.end());
    }
    if (!paths.empty())
        return paths;
    std::set<std::string> named;
    for (const auto& record : records) {
        const fs::path file = record.measurement.kernel.file;
        if (!is_kernel_file_name(file))
            continue;
        const fs::path beside = fs::path(record.path).parent_path() / file;
        if (fs::is_regular_file(file))
            named.insert(file.lexically_normal().string());
        else if (file.is_relative() && fs::is_regular_file(beside))
            named.insert(beside.lexically_normal().string());
    }
    if (named.empty())
        throw_usage_error("no kernel files: give them (KERNEL... or --kernels DIR); the records "
                          "name none that exists from here");
    return {named.begin(), named.end()};
}

} // namespace kerncast::validate
