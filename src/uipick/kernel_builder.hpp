// Private: builds a KernelSpec in code, field by field, and validates it by writing it as a
// kernel file and parsing that back (so a generated kernel is exactly what its file says).
#pragma once

#include "kerncast/kernel/kernel_spec.hpp"

#include <string>
#include <vector>

namespace kerncast::uipick {

class KernelBuilder {
public:
    KernelBuilder(std::string name, std::string description);

    KernelBuilder& param(const std::string& name, std::int64_t default_value);
    KernelBuilder& assume(const std::string& condition);
    KernelBuilder& array(const std::string& name, kernel::DataType dtype,
                         const std::vector<std::string>& shape,
                         kernel::MemorySpace space = kernel::MemorySpace::global);
    KernelBuilder& domain(const std::string& isl_set);
    KernelBuilder& thread(int axis, const std::string& index); // threads: {axis: index}
    KernelBuilder& block_index(int axis, const std::string& index);
    KernelBuilder& local_index(int axis, const std::string& index);
    KernelBuilder& block(std::int64_t x, std::int64_t y = 1, std::int64_t z = 1);
    KernelBuilder& statement(const std::string& text, const std::vector<std::string>& within = {},
                             const std::string& id = "", const std::string& where = "");
    KernelBuilder& barrier(const std::vector<std::string>& within = {});

    // The kernel as parse_kernel_text reads its written file (an internal Error if the
    // generator produced an invalid kernel).
    kernel::KernelSpec build() const;

private:
    kernel::KernelSpec spec_;
};

// "float32" -> f32 (the paper's dtype tag values; parse_data_type's names).
kernel::DataType dtype_of(const std::string& tag_value);

// Parses a kernel file text that a generator or transformation wrote; a failure is a bug in
// kerncast (internal Error with the text), not bad input.
kernel::KernelSpec reparse_generated(const std::string& yaml, const std::string& name);

} // namespace kerncast::uipick
