#include "commands.hpp"
#include "kerncast/error.hpp"
#include "kerncast/report/printers.hpp"

#include <fstream>
#include <iostream>

namespace kerncast::cli {

void add_output_options(CLI::App& command, OutputOptions& options) {
    command.add_option("--json", options.json_path, "Also write the report as JSON (FILE or -)")
        ->type_name("FILE|-");
    command
        .add_option("--md", options.markdown_path, "Also write the report as Markdown (FILE or -)")
        ->type_name("FILE|-");
    command.add_option("--csv", options.csv_path, "Also write the report as CSV (FILE or -)")
        ->type_name("FILE|-");
}

using Printer = void (*)(std::ostream&, const report::Document&);

static void write_to(const std::string& path, const report::Document& doc, Printer print) {
    if (path.empty())
        return;
    if (path == "-") {
        print(std::cout, doc);
        return;
    }
    std::ofstream file(path);
    if (!file)
        throw_input_error("cannot open '" + path + "' for writing");
    print(file, doc);
    if (!file)
        throw_input_error("failed writing '" + path + "'");
}

void emit(const report::Document& doc, const OutputOptions& options) {
    const bool stdout_taken =
        options.json_path == "-" || options.markdown_path == "-" || options.csv_path == "-";
    const int to_stdout =
        (options.json_path == "-") + (options.markdown_path == "-") + (options.csv_path == "-");
    if (to_stdout > 1)
        throw_usage_error("only one of --json, --md, --csv can write to standard output ('-')");
    if (!stdout_taken)
        report::print_text(std::cout, doc);
    write_to(options.json_path, doc, report::print_json);
    write_to(options.markdown_path, doc, report::print_markdown);
    write_to(options.csv_path, doc, report::print_csv);
}

} // namespace kerncast::cli
