// Work removal (Stevens & Klöckner sec. 7.1.1, Algorithm 3) as a kernel-file transformation:
// keeps the chosen global memory accesses and the loop structure, drops arithmetic,
// shared-memory accesses and barriers (on-chip work), and sums the kept loads into a private
// `read_tgt` that a kept store writes, or else a per-work-item sink store does, so that no
// compiler can drop the kept loads. docs/uipick.md, "Work removal".
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"

#include <string>
#include <vector>

namespace kerncast::uipick {

// `keep` names global (or constant) arrays or access tags (`b`, `bLD`); every access to a
// kept array or with a kept tag stays, with its subscript, statement domain (its loops,
// reduction loops and `where` guard) and tag. The result is named "<name>_keep_<keep...>".
// Input Error (naming the kernel file) when a name in `keep` is neither a global or constant
// array nor an access tag of the kernel, or when the sink cannot be sized (a thread-mapped
// index whose range is not one expression in the parameters).
kernel::KernelSpec remove_work(const kernel::KernelSpec& spec,
                               const std::vector<std::string>& keep);

} // namespace kerncast::uipick
