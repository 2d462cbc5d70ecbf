#include "kerncast/uipick/generation_view.hpp"

#include "kerncast/report/table_builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kerncast::uipick {

namespace {

std::string variant_text(const VariantValues& values) {
    std::vector<std::string> parts;
    for (const auto& [argument, value] : values)
        parts.push_back(argument + ":" + value);
    return fmt::format("{}", fmt::join(parts, " "));
}

} // namespace

report::Document generation_view(const Generation& generation, const FilterTags& tags,
                                 MatchCondition condition, const std::string& directory) {
    report::Document doc;
    doc.schema = "kerncast.gen/1";
    doc.title = "UIPICK measurement kernels (Stevens & Klöckner sec. 7.1)";
    report::TableBuilder kernels("kernels", "Kernels, one per variant");
    kernels.columns({"file", "generator", "variant"});
    for (const auto& kernel : generation.kernels)
        kernels.row(directory.empty() ? kernel.file_name : directory + "/" + kernel.file_name,
                    kernel.generator, variant_text(kernel.values));
    doc.tables.push_back(kernels.build());
    report::TableBuilder skipped("skipped", "Variants not generated");
    skipped.columns({"generator", "variant", "reason"});
    for (const auto& skip : generation.skipped)
        skipped.row(skip.generator, variant_text(skip.values), skip.reason);
    if (skipped.has_rows())
        doc.tables.push_back(skipped.build());
    doc.notes.push_back(
        "generator tags: " +
        (tags.generator_tags.empty() ? std::string("(none)")
                                     : fmt::format("{}", fmt::join(tags.generator_tags, " "))) +
        "; match condition: " + match_condition_name(condition) + "; matching generators: " +
        (generation.matched_generators.empty()
             ? std::string("none")
             : fmt::format("{}", fmt::join(generation.matched_generators, ", "))));
    return doc;
}

report::Document generators_view(const std::vector<Generator>& collection) {
    report::Document doc;
    doc.schema = "kerncast.generators/1";
    doc.title = "UIPICK generators (Stevens & Klöckner sec. 7.1)";
    report::TableBuilder t("generators", "Generators and their variant arguments");
    t.columns({"generator", "tags", "argument", "defaults", "accepts", "meaning"});
    for (const auto& generator : collection) {
        const std::vector<std::string> tags(generator.tags.begin(), generator.tags.end());
        for (const auto& argument : generator.arguments)
            t.row(generator.name, fmt::format("{}", fmt::join(tags, " ")), argument.name,
                  fmt::format("{}", fmt::join(argument.defaults, ",")),
                  argument.accepts ? argument.accepted : "the defaults", argument.description);
    }
    doc.tables.push_back(t.build());
    return doc;
}

} // namespace kerncast::uipick
