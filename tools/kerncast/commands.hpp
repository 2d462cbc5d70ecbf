// Subcommand registry of the kerncast CLI. Each cmd_<name>.cpp defines a setup function
// that adds its subcommand(s) to the app and registers it with KERNCAST_REGISTER_COMMAND.
#pragma once

#include "kerncast/report/document.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace kerncast::cli {

using SetupFunction = void (*)(CLI::App& app);

// order: position in `kerncast --help` (smaller first).
bool register_command(int order, SetupFunction setup);

#define KERNCAST_REGISTER_COMMAND(order, setup)                                                    \
    static const bool kerncast_registered_##setup = ::kerncast::cli::register_command(order, setup)

// --json/--md/--csv FILE|- on every reporting subcommand, combinable in one run.
struct OutputOptions {
    std::string json_path;
    std::string markdown_path;
    std::string csv_path;
};

void add_output_options(CLI::App& command, OutputOptions& options);

// Writes doc in every requested format; the aligned text table goes to stdout unless one of
// the requested formats already writes to stdout ("-").
void emit(const report::Document& doc, const OutputOptions& options);

} // namespace kerncast::cli
