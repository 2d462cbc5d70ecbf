// kerncast machines / kerncast machine show: the built-in machine models and machine files.
#include "commands.hpp"
#include "kerncast/error.hpp"
#include "kerncast/machine/catalogue.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "kerncast/machine/machine_view.hpp"
#include "kerncast/models/method_availability.hpp"
#include "kerncast/report/printers.hpp"

#include <fstream>
#include <functional>
#include <iostream>
#include <memory>

namespace kerncast::cli {
namespace {

void setup_machines(CLI::App& app) {
    auto* cmd = app.add_subcommand("machines", "List the built-in machine models");
    auto output = std::make_shared<OutputOptions>();
    add_output_options(*cmd, *output);
    cmd->callback([output] {
        std::vector<MachineModel> machines;
        for (const auto& id : builtin_machine_ids())
            machines.push_back(builtin_machine(id));
        report::Document document = machines_view(machines);
        models::add_method_table(document, machines);
        emit(document, *output);
    });
}

struct ShowOptions {
    std::string machine;
    std::string json_path;     // the machine itself, in the machine-file format
    std::string markdown_path; // the report tables
    std::string csv_path;
};

void write_file(const std::string& path, const std::string& what,
                const std::function<void(std::ostream&)>& write) {
    if (path == "-") {
        write(std::cout);
        return;
    }
    write_file_safely(path, what, write);
}

void show(const ShowOptions& options) {
    const int to_stdout =
        (options.json_path == "-") + (options.markdown_path == "-") + (options.csv_path == "-");
    if (to_stdout > 1)
        throw_usage_error("only one of --json, --md, --csv can write to standard output ('-')");
    const MachineModel machine = resolve_machine(options.machine);
    const report::Document doc = machine_view(machine);
    if (to_stdout == 0)
        report::print_text(std::cout, doc);
    if (!options.json_path.empty())
        write_file(options.json_path, "the machine file",
                   [&](std::ostream& out) { out << machine_json_text(machine); });
    if (!options.markdown_path.empty())
        write_file(options.markdown_path, "the Markdown report",
                   [&](std::ostream& out) { report::print_markdown(out, doc); });
    if (!options.csv_path.empty())
        write_file(options.csv_path, "the CSV report",
                   [&](std::ostream& out) { report::print_csv(out, doc); });
}

void setup_machine(CLI::App& app) {
    auto* cmd = app.add_subcommand("machine", "Inspect one machine model (built-in or file)");
    cmd->require_subcommand(1);
    auto* show_cmd = cmd->add_subcommand(
        "show",
        "Print every known value of a machine with its source (see docs/machine-format.md)");
    auto options = std::make_shared<ShowOptions>();
    show_cmd->add_option("machine", options->machine, "A built-in id or a machine file")
        ->required()
        ->type_name("ID|FILE");
    show_cmd
        ->add_option("--json", options->json_path,
                     "Write the machine itself in the machine-file format (extends resolved)")
        ->type_name("FILE|-");
    show_cmd->add_option("--md", options->markdown_path, "Also write the report as Markdown")
        ->type_name("FILE|-");
    show_cmd->add_option("--csv", options->csv_path, "Also write the report as CSV")
        ->type_name("FILE|-");
    show_cmd->callback([options] {
        refuse_clobbering({{"--json", options->json_path},
                           {"--md", options->markdown_path},
                           {"--csv", options->csv_path}},
                          {options->machine});
        show(*options);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(100, setup_machines);
KERNCAST_REGISTER_COMMAND(110, setup_machine);

} // namespace kerncast::cli
