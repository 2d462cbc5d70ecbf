// Measurement record directories and configuration labels (measurement_records.hpp).
#include "kerncast/runtime/measurement_records.hpp"

#include "kerncast/error.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace kerncast::runtime {

namespace fs = std::filesystem;

std::vector<LoadedRecord> load_measurement_directory(const std::string& directory) {
    std::error_code error;
    if (!fs::is_directory(directory, error))
        throw_input_error("'" + directory + "' is not a directory of measurement records",
                          SourceLocation{directory, 0, 0, {}, {}});
    std::vector<std::string> paths;
    for (const auto& entry : fs::directory_iterator(directory, error)) {
        std::error_code entry_error; // a dangling link or a link loop (ELOOP)
        const bool regular = entry.is_regular_file(entry_error);
        if (entry_error && entry.path().extension() == ".json")
            throw_input_error("cannot read the record: " + entry_error.message(),
                              SourceLocation{entry.path().string(), 0, 0, {}, {}});
        if (regular && entry.path().extension() == ".json")
            paths.push_back(entry.path().string());
    }
    if (error)
        throw_input_error("cannot list '" + directory + "': " + error.message(),
                          SourceLocation{directory, 0, 0, {}, {}});
    if (paths.empty())
        throw_input_error("'" + directory + "' holds no measurement records (*.json)",
                          SourceLocation{directory, 0, 0, {}, {}});
    std::sort(paths.begin(), paths.end());
    std::vector<LoadedRecord> records;
    for (const auto& path : paths)
        records.push_back({path, load_measurement_file(path)});
    return records;
}

std::string launch_label(const kernel::LaunchConfig& launch) {
    const kernel::Dim3& b = launch.block;
    return "block=" + std::to_string(b[0]) + "x" + std::to_string(b[1]) + "x" +
           std::to_string(b[2]) + " fold=" + kernel::fold_text(launch);
}

std::string configuration_label(const KernelRecord& kernel) {
    std::string label = launch_label(kernel.launch.config());
    for (const auto& [name, value] : kernel.parameters) {
        label += " " + name + "=";
        if (const auto* integer = std::get_if<std::int64_t>(&value)) {
            label += std::to_string(*integer);
        } else {
            char text[32];
            std::snprintf(text, sizeof text, "%.17g", std::get<double>(value));
            label += text;
        }
    }
    return label;
}

} // namespace kerncast::runtime
