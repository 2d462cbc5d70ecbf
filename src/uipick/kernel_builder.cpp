#include "kernel_builder.hpp"

#include "kerncast/error.hpp"
#include "kerncast/kernel/kernel_file.hpp"
#include "kerncast/kernel/kernel_writer.hpp"

namespace kerncast::uipick {

KernelBuilder::KernelBuilder(std::string name, std::string description) {
    spec_.name = std::move(name);
    spec_.description = std::move(description);
}

KernelBuilder& KernelBuilder::param(const std::string& name, std::int64_t default_value) {
    kernel::Parameter param;
    param.name = name;
    param.default_value = default_value;
    spec_.params.push_back(param);
    return *this;
}

KernelBuilder& KernelBuilder::assume(const std::string& condition) {
    for (const auto& existing : spec_.assumptions)
        if (existing == condition)
            return *this; // "n % 16 == 0" for both work-group axes once
    spec_.assumptions.push_back(condition);
    return *this;
}

KernelBuilder& KernelBuilder::array(const std::string& name, kernel::DataType dtype,
                                    const std::vector<std::string>& shape,
                                    kernel::MemorySpace space) {
    kernel::ArrayDecl array;
    array.name = name;
    array.dtype = dtype;
    array.space = space;
    for (const auto& extent : shape)
        array.shape.push_back(kernel::parse_expression(extent));
    spec_.arrays.push_back(array);
    return *this;
}

KernelBuilder& KernelBuilder::domain(const std::string& isl_set) {
    spec_.domain = isl_set;
    return *this;
}

KernelBuilder& KernelBuilder::thread(int axis, const std::string& index) {
    spec_.threads.global.at(static_cast<size_t>(axis)) = index;
    return *this;
}

KernelBuilder& KernelBuilder::block_index(int axis, const std::string& index) {
    spec_.threads.block.at(static_cast<size_t>(axis)) = index;
    return *this;
}

KernelBuilder& KernelBuilder::local_index(int axis, const std::string& index) {
    spec_.threads.local.at(static_cast<size_t>(axis)) = index;
    return *this;
}

KernelBuilder& KernelBuilder::block(std::int64_t x, std::int64_t y, std::int64_t z) {
    spec_.launch.block = {x, y, z};
    return *this;
}

KernelBuilder& KernelBuilder::statement(const std::string& text,
                                        const std::vector<std::string>& within,
                                        const std::string& id, const std::string& where) {
    kernel::StatementSpec statement;
    statement.text = text;
    statement.within = within;
    statement.id = id;
    statement.condition_text = where;
    spec_.statements.push_back(statement);
    return *this;
}

KernelBuilder& KernelBuilder::barrier(const std::vector<std::string>& within) {
    kernel::StatementSpec statement;
    statement.kind = kernel::StatementKind::barrier;
    statement.text = "barrier";
    statement.within = within;
    spec_.statements.push_back(statement);
    return *this;
}

kernel::KernelSpec KernelBuilder::build() const {
    return reparse_generated(kernel::write_kernel_yaml(spec_), spec_.name);
}

kernel::DataType dtype_of(const std::string& tag_value) {
    const auto type = kernel::parse_data_type(tag_value);
    KERNCAST_CHECK(type.has_value(), "unknown dtype " + tag_value);
    return *type;
}

kernel::KernelSpec reparse_generated(const std::string& yaml, const std::string& name) {
    try {
        return kernel::parse_kernel_text(yaml, name + ".yaml");
    } catch (const Error& e) {
        throw Error(ErrorKind::internal, "kerncast wrote an invalid kernel file for '" + name +
                                             "': " + e.describe() + "\n" + yaml);
    }
}

} // namespace kerncast::uipick
