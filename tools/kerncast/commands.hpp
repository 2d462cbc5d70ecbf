// Subcommand registry of the kerncast CLI. Each cmd_<name>.cpp defines a setup function
// that adds its subcommand(s) to the app and registers it with KERNCAST_REGISTER_COMMAND.
#pragma once

#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_model.hpp"
#include "kerncast/report/document.hpp"
#include "kerncast/report/progress_bar.hpp"

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace kerncast::cli {

using SetupFunction = void (*)(CLI::App& app);

// order: position in `kerncast --help` (smaller first).
bool register_command(int order, SetupFunction setup);

#define KERNCAST_REGISTER_COMMAND(order, setup)                                                    \
    static const bool kerncast_registered_##setup = ::kerncast::cli::register_command(order, setup)

// --json/--md/--csv/--report FILE|- on every reporting subcommand, combinable in one run.
struct OutputOptions {
    std::string json_path;
    std::string markdown_path;
    std::string csv_path;
    std::string report_path; // HTML with charts (docs/output.md#html-reports)
    // What the command reads: no output may be one of these files or lie in these
    // directories (refuse_clobbering).
    std::vector<std::string> inputs;
    std::vector<std::string> input_directories;
};

void add_output_options(CLI::App& command, OutputOptions& options);

// --quiet (before or after the subcommand): no progress bars.
bool& quiet_requested();
// A progress bar on stderr for long work, drawn only when stderr is a terminal and --quiet
// was not given (report/progress_bar.hpp).
std::unique_ptr<report::ProgressBar> make_progress_bar(std::string label, std::string unit);

// An output file and the option that names it ("--json", "-o", ...).
struct OutputPath {
    std::string option;
    std::string path; // "" or "-": not a file
};
std::vector<OutputPath> output_paths(const OutputOptions& options);

// Usage error when two outputs name the same file, an output is one of the input files (also
// through a symbolic or hard link), or an output lies inside one of the input directories
// (a records or replay folder being read). Runs before any work, so nothing is overwritten.
void refuse_clobbering(const std::vector<OutputPath>& outputs,
                       const std::vector<std::string>& input_files,
                       const std::vector<std::string>& input_directories = {});

// Writes a file under a temporary name beside `path` and renames it over `path` only when
// complete: a failed run leaves the old file intact. Devices and pipes are written in place.
void write_file_safely(const std::string& path, const std::string& what,
                       const std::function<void(std::ostream&)>& write);

// Makes the directory an option names (and its parents) for files a command writes there.
// Usage error when the path exists and is not a directory; input error, with the system's
// reason, when it cannot be made. Returns whether it was made (so that a command failing
// before it wrote anything can remove it again).
bool create_output_directory(const std::string& path, const std::string& option);

// Runs `work` writing into the directory `option` names, made first when missing; when `work`
// fails and the directory was made for it and is still empty, it is removed again: a command
// that fails creates nothing.
void with_output_directory(const std::string& path, const std::string& option,
                           const std::function<void()>& work);

// Writes `updated`, which the command derived from the machine `original` (resolve_machine_text
// of its -m: a built-in id or a machine file), to `path` (write_file_safely) as an edit of
// that text (machine_text_edit.hpp): only the members that changed differ from it, and the
// file reads back as `updated`. Returns a note for the report: that the file is such an edit,
// or why the original's layout could not be kept.
std::string write_derived_machine(const MachineText& original, const MachineModel& updated,
                                  const std::string& path);

// Writes doc in every requested format; the aligned text table goes to stdout unless one of
// the requested formats already writes to stdout ("-").
void emit(const report::Document& doc, const OutputOptions& options);

} // namespace kerncast::cli
