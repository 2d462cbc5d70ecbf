#include "commands.hpp"
#include "kerncast/error.hpp"
#include "kerncast/machine/machine_text_edit.hpp"
#include "kerncast/report/printers.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <system_error>
#include <unistd.h>

namespace kerncast::cli {

namespace fs = std::filesystem;

bool& quiet_requested() {
    static bool quiet = false;
    return quiet;
}

std::unique_ptr<report::ProgressBar> make_progress_bar(std::string label, std::string unit) {
    const bool terminal = ::isatty(STDERR_FILENO) == 1;
    return std::make_unique<report::ProgressBar>(std::cerr, std::move(label), std::move(unit),
                                                 terminal && !quiet_requested());
}

void add_output_options(CLI::App& command, OutputOptions& options) {
    command.add_option("--json", options.json_path, "Also write the report as JSON (FILE or -)")
        ->type_name("FILE|-");
    command
        .add_option("--md", options.markdown_path, "Also write the report as Markdown (FILE or -)")
        ->type_name("FILE|-");
    command.add_option("--csv", options.csv_path, "Also write the report as CSV (FILE or -)")
        ->type_name("FILE|-");
    command
        .add_option("--report", options.report_path,
                    "Also write the report as one self-contained HTML page with charts (FILE or -)")
        ->type_name("FILE.html|-");
}

std::vector<OutputPath> output_paths(const OutputOptions& options) {
    return {{"--json", options.json_path},
            {"--md", options.markdown_path},
            {"--csv", options.csv_path},
            {"--report", options.report_path}};
}

namespace {

// A regular file nobody may write is a file its owner protected: replacing it through a rename
// (the folder is writable) would bypass that, so it is refused.
void refuse_read_only(const std::string& path, const std::string& what) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (fs::is_regular_file(status) &&
        (status.permissions() & (fs::perms::owner_write | fs::perms::group_write |
                                 fs::perms::others_write)) == fs::perms::none)
        throw_usage_error("'" + path + "' is read-only: kerncast does not replace it with " + what,
                          {"make it writable (chmod u+w) or write elsewhere"});
}

// The absolute path with every symbolic link of its existing part resolved.
fs::path resolved(const std::string& path) {
    std::error_code error;
    fs::path canonical = fs::weakly_canonical(fs::absolute(path, error), error);
    if (error)
        return fs::absolute(path).lexically_normal();
    return canonical;
}

// Do a and b name the same file (through links, hard links or different spellings)?
bool same_file(const std::string& a, const std::string& b) {
    std::error_code error;
    if (fs::exists(a, error) && fs::exists(b, error)) {
        const bool same = fs::equivalent(a, b, error);
        if (!error)
            return same;
    }
    return resolved(a) == resolved(b);
}

bool inside_directory(const std::string& path, const std::string& directory) {
    const fs::path relative = resolved(path).lexically_relative(resolved(directory));
    return !relative.empty() && *relative.begin() != "..";
}

} // namespace

void refuse_clobbering(const std::vector<OutputPath>& outputs,
                       const std::vector<std::string>& input_files,
                       const std::vector<std::string>& input_directories) {
    std::vector<OutputPath> files;
    for (const auto& output : outputs)
        if (!output.path.empty() && output.path != "-")
            files.push_back(output);
    std::error_code error;
    for (size_t k = 0; k < files.size(); ++k) {
        const OutputPath& output = files[k];
        refuse_read_only(output.path, "the " + output.option + " output"); // before any work
        for (size_t j = 0; j < k; ++j)
            if (same_file(files[j].path, output.path))
                throw_usage_error(files[j].option + " and " + output.option +
                                  " name the same file '" + output.path +
                                  "': each output needs its own file");
        for (const auto& input : input_files)
            if (!input.empty() && fs::is_regular_file(input, error) &&
                same_file(input, output.path))
                throw_usage_error(output.option + " '" + output.path + "' is the input file '" +
                                  input + "': writing it would destroy the input");
        for (const auto& directory : input_directories)
            if (!directory.empty() && fs::is_directory(directory, error) &&
                inside_directory(output.path, directory))
                throw_usage_error(output.option + " '" + output.path + "' lies in the directory '" +
                                  directory + "' that this command reads: write it elsewhere");
            else if (!directory.empty() && fs::is_regular_file(directory, error) &&
                     same_file(directory, output.path))
                throw_usage_error(output.option + " '" + output.path + "' is the input file '" +
                                  directory + "': writing it would destroy the input");
    }
}

void write_file_safely(const std::string& path, const std::string& what,
                       const std::function<void(std::ostream&)>& write) {
    refuse_read_only(path, what);
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    // Devices, pipes and the like are written in place; a regular file (or a new one) is
    // written under a temporary name beside it and renamed over it only when complete, so a
    // failed run leaves the old file as it was.
    if (fs::exists(status) && !fs::is_regular_file(status)) {
        std::ofstream file(path, std::ios::binary);
        if (!file)
            throw_input_error("cannot open '" + path + "' for writing " + what);
        write(file);
        file.flush();
        if (!file)
            throw_input_error("failed writing " + what + " to '" + path + "'");
        return;
    }
    const fs::path target = resolved(path);
    const fs::path temporary =
        target.parent_path() /
        ("." + target.filename().string() + ".kerncast-" + std::to_string(::getpid()) + ".tmp");
    {
        std::ofstream file(temporary, std::ios::binary);
        if (!file)
            throw_input_error("cannot open '" + path + "' for writing " + what);
        write(file);
        file.flush();
        if (!file) {
            file.close();
            fs::remove(temporary, error);
            throw_input_error("failed writing " + what + " to '" + path + "'");
        }
    }
    fs::rename(temporary, target, error);
    if (error) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw_input_error("cannot replace '" + path + "' with " + what + ": " + error.message());
    }
}

bool create_output_directory(const std::string& path, const std::string& option) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (fs::exists(status)) {
        if (!fs::is_directory(status))
            throw_usage_error(option + " '" + path + "' exists and is not a directory",
                              {"name a directory, or a path that does not exist yet"});
        return false;
    }
    fs::create_directories(path, error);
    if (error)
        throw_input_error("cannot create the directory '" + path + "' that " + option +
                          " names: " + error.message());
    return true;
}

void with_output_directory(const std::string& path, const std::string& option,
                           const std::function<void()>& work) {
    // The outermost directory this call makes: `path` or the first of its missing parents.
    fs::path outermost = fs::absolute(path).lexically_normal();
    std::error_code error;
    while (outermost.has_parent_path() && outermost.parent_path() != outermost &&
           !fs::exists(outermost.parent_path(), error))
        outermost = outermost.parent_path();
    const bool created = create_output_directory(path, option);
    try {
        work();
    } catch (...) {
        // Each directory it made, innermost first, while empty.
        if (created)
            for (fs::path made = fs::absolute(path).lexically_normal();;
                 made = made.parent_path()) {
                if (!fs::is_empty(made, error) || !fs::remove(made, error) || made == outermost ||
                    !made.has_parent_path())
                    break;
            }
        throw;
    }
}

using Printer = void (*)(std::ostream&, const report::Document&);

static void write_to(const std::string& path, const report::Document& doc, Printer print) {
    if (path.empty())
        return;
    if (path == "-") {
        print(std::cout, doc);
        return;
    }
    write_file_safely(path, "the report", [&](std::ostream& out) { print(out, doc); });
}

std::string write_derived_machine(const MachineText& original, const MachineModel& updated,
                                  const std::string& path) {
    const MachineTextEdit edit = edit_machine_text(original.text, original.origin, updated);
    write_file_safely(path, "the machine file", [&](std::ostream& out) { out << edit.text; });
    if (edit.kept_layout)
        return path + " is " + original.origin +
               " as written, with only the changed members replaced, added or removed";
    return path + " is written in kerncast's layout, not as an edit of " + original.origin + ": " +
           edit.reason;
}

void emit(const report::Document& doc, const OutputOptions& options) {
    const int to_stdout = (options.json_path == "-") + (options.markdown_path == "-") +
                          (options.csv_path == "-") + (options.report_path == "-");
    const bool stdout_taken = to_stdout > 0;
    if (to_stdout > 1)
        throw_usage_error(
            "only one of --json, --md, --csv, --report can write to standard output ('-')");
    refuse_clobbering(output_paths(options), options.inputs, options.input_directories);
    if (!stdout_taken)
        report::print_text(std::cout, doc);
    write_to(options.json_path, doc, report::print_json);
    write_to(options.markdown_path, doc, report::print_markdown);
    write_to(options.csv_path, doc, report::print_csv);
    write_to(options.report_path, doc, report::print_html);
}

} // namespace kerncast::cli
