// Private: the kernel domain at fixed parameter values, for the lowering. It answers the range of
// an index and the guard of a statement piece: the domain projected onto the indices the piece
// runs over, simplified (isl gist) against what the loops and the grid already guarantee, as a
// kernel-language expression printed through isl's AST expression builder.
#pragma once

#include "kerncast/kernel/expression.hpp"
#include "kerncast/kernel/kernel_spec.hpp"

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::codegen::lowering {

class DomainGuards {
public:
    // The domain of `spec` with its parameters fixed to `params` (name, value) and projected out.
    // isl failures throw kerncast::isl::IslError.
    DomainGuards(const kernel::KernelSpec& spec,
                 const std::vector<std::pair<std::string, std::int64_t>>& params);
    ~DomainGuards();
    DomainGuards(const DomainGuards&) = delete;
    DomainGuards& operator=(const DomainGuards&) = delete;

    bool empty() const;

    // [min, max] of one index over the whole domain.
    std::pair<std::int64_t, std::int64_t> range(const std::string& index);

    // Facts that need no check: lower <= index <= upper.
    void know(const std::string& index, std::int64_t lower, std::int64_t upper);

    // The domain projected onto `keep`, as a condition on those indices; null when it always
    // holds given the known facts, the integer 0 when it never does.
    kernel::ExprPtr guard(const std::set<std::string>& keep);

private:
    struct State;
    std::unique_ptr<State> state_;
};

} // namespace kerncast::codegen::lowering
