// kerncast gen: UIPICK measurement kernels from filter tags (Stevens & Klöckner sec. 7.1;
// docs/uipick.md). One kernel file per variant, named deterministically.
#include "commands.hpp"
#include "kerncast/error.hpp"
#include "kerncast/uipick/generation_view.hpp"
#include "kerncast/uipick/kernel_collection.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace kerncast::cli {

namespace {

struct GenOptions {
    std::vector<std::string> tags;
    std::string output_directory;
    std::string match = "superset";
    bool list = false;
    bool generators = false;
    bool force = false;
    OutputOptions output;
};

std::string file_text(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// A file of the same name with other content is not overwritten without --force: it may be a
// kernel edited by hand or one that another kerncast version generated.
void refuse_overwriting(const uipick::Generation& generation, const std::string& directory,
                        bool force) {
    if (force)
        return;
    for (const auto& kernel : generation.kernels) {
        const std::filesystem::path path = std::filesystem::path(directory) / kernel.file_name;
        if (std::filesystem::exists(path) && file_text(path) != kernel.yaml)
            throw_usage_error("'" + path.string() + "' exists with other content; not " +
                                  "overwriting it",
                              {"remove it, choose another -o directory, or pass --force"});
    }
}

void run_gen(const GenOptions& o) {
    if (o.generators) {
        emit(uipick::generators_view(uipick::all_generators()), o.output);
        return;
    }
    if (o.output_directory.empty() && !o.list)
        throw_usage_error("kerncast gen needs -o DIR (or --list to only show the kernels)");
    const uipick::MatchCondition condition = uipick::parse_match_condition(o.match);
    const uipick::FilterTags tags = uipick::parse_filter_tags(o.tags);
    const uipick::Generation generation =
        uipick::generate_kernels(uipick::all_generators(), tags, condition);
    if (generation.matched_generators.empty())
        throw_usage_error("no generator matches the generator tags under the '" + o.match +
                              "' condition",
                          {"`kerncast gen --generators` lists the generators and their tags"});
    if (generation.kernels.empty()) {
        std::string reasons;
        for (const auto& skipped : generation.skipped)
            reasons += "\n  " + skipped.generator + ": " + skipped.reason;
        throw_input_error("every variant was skipped:" + reasons);
    }
    if (!o.list) {
        create_output_directory(o.output_directory, "-o");
        refuse_overwriting(generation, o.output_directory, o.force);
        for (const auto& kernel : generation.kernels)
            write_file_safely(
                (std::filesystem::path(o.output_directory) / kernel.file_name).string(),
                "the kernel file", [&](std::ostream& out) { out << kernel.yaml; });
    }
    emit(uipick::generation_view(generation, tags, condition, o.list ? "" : o.output_directory),
         o.output);
}

void setup_gen(CLI::App& app) {
    auto options = std::make_shared<GenOptions>();
    auto* cmd = app.add_subcommand(
        "gen", "UIPICK measurement kernels from filter tags: one kernel file per variant "
               "(docs/uipick.md)");
    cmd->add_option("TAGS", options->tags,
                    "Generator tags (matmul_sq) and variant tags (dtype:float32, n:2048,2560)")
        ->type_name("TAG");
    cmd->add_option("-o,--output", options->output_directory,
                    "Directory for the kernel files (created if missing)")
        ->type_name("DIR");
    cmd->add_option("--match", options->match,
                    "Generator match condition: identical, subset, superset (default), "
                    "intersect (sec. 7.1)")
        ->type_name("COND");
    cmd->add_flag("--list", options->list, "Only list the kernels, write nothing");
    cmd->add_flag("--generators", options->generators,
                  "List the generators, their tags and variant arguments");
    cmd->add_flag("--force", options->force, "Overwrite kernel files with other content");
    add_output_options(*cmd, options->output);
    cmd->callback([options] {
        refuse_clobbering(output_paths(options->output), {});
        run_gen(*options);
    });
}

} // namespace

KERNCAST_REGISTER_COMMAND(695, setup_gen);

} // namespace kerncast::cli
