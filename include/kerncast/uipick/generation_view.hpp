// Views of UIPICK generation (docs/uipick.md): the kernels `kerncast gen` writes (or would
// write, --list) and the skipped variants; the generators of a collection with their tags and
// arguments (`kerncast gen --generators`).
#pragma once

#include "kerncast/report/document.hpp"
#include "kerncast/uipick/kernel_collection.hpp"

#include <string>

namespace kerncast::uipick {

// Schema kerncast.gen/1: table `kernels` (file, generator, variant), table `skipped`.
// `directory` prefixes the file names ("" for none).
report::Document generation_view(const Generation& generation, const FilterTags& tags,
                                 MatchCondition condition, const std::string& directory);

// Schema kerncast.generators/1: one row per generator and argument.
report::Document generators_view(const std::vector<Generator>& collection);

} // namespace kerncast::uipick
