// Private: the legality rule of the fuse-loops pass, exposed for its test.
#pragma once

#include "lowering_state.hpp"

namespace kerncast::codegen::lowering {

// Fusing `later` into a loop over `index` that already ran `earlier` in the same iteration
// keeps every dependence between them when, for each array one of them writes and the other
// touches, all their accesses use identical subscripts (the same element per iteration) or
// none mentions the index (the whole array is produced and consumed in every iteration, like a
// prefetched tile).
bool fusion_is_legal(const std::vector<Access>& earlier, const std::vector<Access>& later,
                     const std::string& index);

} // namespace kerncast::codegen::lowering
