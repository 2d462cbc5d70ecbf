// Writing a KernelSpec back as a kernel file (YAML, docs/kernel-format.md): the inverse of
// parse_kernel_text, so that programs that build or transform kernels (the UIPICK generators,
// work removal; docs/uipick.md) write files through one serialiser instead of text templates.
// parse_kernel_text(write_kernel_yaml(spec)) describes the same kernel as spec.
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"

#include <string>

namespace kerncast::kernel {

// The kernel file text. Statements are written as their `text` (and `condition_text`),
// shapes and offsets with to_string; `header_comment` (may be several lines, without '#')
// goes first as YAML comments, for provenance.
std::string write_kernel_yaml(const KernelSpec& spec, const std::string& header_comment = "");

} // namespace kerncast::kernel
