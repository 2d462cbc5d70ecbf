// Printing a Schedule as CUDA C++ (cuda_codegen.hpp, docs/codegen.md).
#include "kerncast/codegen/cuda_codegen.hpp"

#include "expr_build.hpp"
#include "expression_types.hpp"
#include "kerncast/error.hpp"
#include "kerncast/runtime/deterministic_init.hpp"

#include <climits>
#include <set>
#include <sstream>

namespace kerncast::codegen {

using kernel::BinaryOp;
using kernel::DataType;
using kernel::Expr;
using kernel::ExprKind;
using kernel::ExprPtr;
using namespace detail;

const char* cuda_type_name(DataType type) {
    switch (type) {
    case DataType::i8:
        return "signed char";
    case DataType::i16:
        return "short";
    case DataType::i32:
        return "int";
    case DataType::i64:
        return "long long";
    case DataType::u8:
        return "unsigned char";
    case DataType::u16:
        return "unsigned short";
    case DataType::u32:
        return "unsigned int";
    case DataType::u64:
        return "unsigned long long";
    case DataType::f16:
        return "__half";
    case DataType::f32:
        return "float";
    case DataType::f64:
        return "double";
    }
    return "int";
}

namespace {

// C precedence levels (smaller binds tighter).
int precedence(const Expr& expr) {
    switch (expr.kind) {
    case ExprKind::negate:
    case ExprKind::logical_not:
        return 2;
    case ExprKind::binary:
        switch (expr.op) {
        case BinaryOp::mul:
        case BinaryOp::div:
        case BinaryOp::mod:
            return 3;
        case BinaryOp::add:
        case BinaryOp::sub:
            return 4;
        case BinaryOp::less:
        case BinaryOp::less_equal:
        case BinaryOp::greater:
        case BinaryOp::greater_equal:
            return 6;
        case BinaryOp::equal:
        case BinaryOp::not_equal:
            return 7;
        case BinaryOp::logical_and:
            return 11;
        case BinaryOp::logical_or:
            return 12;
        }
        return 13;
    case ExprKind::conditional:
        return 13;
    default:
        return 1;
    }
}

std::string real_literal(double value, bool single) {
    std::ostringstream out;
    out.precision(17);
    out << value;
    std::string text = out.str();
    if (text.find_first_of(".eEn") == std::string::npos)
        text += ".0";
    return single ? text + "f" : text;
}

class CudaPrinter {
public:
    explicit CudaPrinter(const Schedule& schedule) : schedule_(schedule) {}

    // `hint` is the type a real literal takes (f32 -> "0.5f").
    std::string print(const Expr& expr, ValueType hint) const {
        switch (expr.kind) {
        case ExprKind::integer:
            return std::to_string(expr.integer_value) +
                   (expr.integer_value > INT_MAX || expr.integer_value < INT_MIN ? "ll" : "");
        case ExprKind::real:
            return real_literal(expr.real_value, !hint.literal && hint.dtype == DataType::f32);
        case ExprKind::variable:
            if (const ArrayLayout* array = schedule_.find_array(expr.name))
                return array_element(*array, {});
            return expr.name;
        case ExprKind::array_ref:
            return array_element(*schedule_.find_array(expr.name), expr.operands);
        case ExprKind::negate:
            return "-" + operand(*expr.operands.at(0), 2, hint);
        case ExprKind::logical_not:
            return "!" + operand(*expr.operands.at(0), 2, hint);
        case ExprKind::binary:
            return binary(expr, hint);
        case ExprKind::conditional: {
            const ValueType t = promote(type_of(schedule_, *expr.operands[1]),
                                        type_of(schedule_, *expr.operands[2]));
            return operand(*expr.operands[0], 12, hint) + " ? " +
                   operand(*expr.operands[1], 12, t) + " : " + operand(*expr.operands[2], 13, t);
        }
        case ExprKind::call:
            return call(expr, hint);
        case ExprKind::reduction:
            KERNCAST_CHECK(false, "reductions are lowered before printing");
        }
        return "";
    }

    std::string array_element(const ArrayLayout& array,
                              const std::vector<ExprPtr>& subscripts) const {
        if (array.decl.shape.empty() && array.offset == 0 &&
            array.decl.space == kernel::MemorySpace::private_)
            return array.decl.name;
        ExprPtr flat = flat_index(array, subscripts);
        ValueType index_type;
        index_type.literal = true;
        std::string text = print(*flat, index_type);
        if (array.buffer_elements > INT_MAX && !subscripts.empty())
            text = print_wide(array, subscripts);
        return array.decl.name + "[" + text + "]";
    }

private:
    // For arrays beyond 2^31 elements: the outermost subscript is widened first.
    std::string print_wide(const ArrayLayout& array, const std::vector<ExprPtr>& subscripts) const {
        std::vector<ExprPtr> wide = subscripts;
        wide[0] = make_call("kc_wide", {subscripts[0]});
        ValueType index_type;
        index_type.literal = true;
        return print(*flat_index(array, wide), index_type);
    }

    std::string operand(const Expr& expr, int allowed, ValueType hint) const {
        const std::string text = print(expr, hint);
        // Integer `/` and `%` print as calls (kc_floord, kc_mod), as does a real `%` (fmod).
        const bool printed_as_call =
            expr.kind == ExprKind::binary &&
            (expr.op == BinaryOp::mod ||
             (expr.op == BinaryOp::div && type_of(schedule_, expr).is_integer()));
        return !printed_as_call && precedence(expr) > allowed ? "(" + text + ")" : text;
    }

    std::string binary(const Expr& expr, ValueType hint) const {
        const Expr& lhs = *expr.operands.at(0);
        const Expr& rhs = *expr.operands.at(1);
        const ValueType tl = type_of(schedule_, lhs), tr = type_of(schedule_, rhs);
        const ValueType both = promote(tl, tr);
        const ValueType literal_hint = both.literal ? hint : both;
        if ((expr.op == BinaryOp::div || expr.op == BinaryOp::mod) && both.is_integer())
            return std::string(expr.op == BinaryOp::div ? "kc_floord(" : "kc_mod(") +
                   print(lhs, literal_hint) + ", " + print(rhs, literal_hint) + ")";
        if (expr.op == BinaryOp::mod)
            return "fmod(" + print(lhs, literal_hint) + ", " + print(rhs, literal_hint) + ")";
        const int p = precedence(expr);
        return operand(lhs, p, literal_hint) + " " + kernel::binary_op_symbol(expr.op) + " " +
               operand(rhs, p - 1, literal_hint);
    }

    std::string call(const Expr& expr, ValueType hint) const {
        if (expr.name == "kc_wide")
            return "static_cast<long long>(" + print(*expr.operands.at(0), hint) + ")";
        if (expr.name == "select") {
            auto conditional = std::make_shared<Expr>(expr);
            conditional->kind = ExprKind::conditional;
            return "(" + print(*conditional, hint) + ")";
        }
        const ValueType t = type_of(schedule_, expr);
        const ValueType arg_hint = t.literal ? hint : t;
        std::string name = expr.name;
        if (name == "abs" && !t.is_integer())
            name = "fabs";
        if (name == "fabs" && t.is_integer())
            name = "abs";
        std::string text = name + "(";
        for (size_t k = 0; k < expr.operands.size(); ++k) {
            std::string arg = print(*expr.operands[k], arg_hint);
            const ValueType ta = type_of(schedule_, *expr.operands[k]);
            // Math functions of integers compute in double; mixed min/max arguments are
            // converted to the common type (CUDA has no mixed overloads).
            if (!t.literal && (ta.literal ? ta.real != !t.is_integer() : ta.dtype != t.dtype) &&
                !(ta.literal && !ta.real && t.is_integer()))
                arg = std::string("static_cast<") + cuda_type_name(t.dtype) + ">(" + arg + ")";
            text += (k ? ", " : "") + arg;
        }
        return text + ")";
    }

    const Schedule& schedule_;
};

void collect_names(const ExprPtr& expr, std::set<std::string>& names) {
    if (!expr)
        return;
    if (expr->kind == ExprKind::variable)
        names.insert(expr->name);
    for (const auto& operand : expr->operands)
        collect_names(operand, names);
}

void collect_step_names(const std::vector<Step>& steps, std::set<std::string>& names) {
    for (const auto& step : steps) {
        if (step.kind == StepKind::loop) {
            collect_step_names(step.body, names);
            continue;
        }
        if (step.kind == StepKind::compute) {
            collect_names(step.statement.target, names);
            collect_names(step.statement.value, names);
            collect_names(step.guard, names);
        }
    }
}

std::string sanitise(const std::string& name) {
    std::string out;
    for (char c : name)
        out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])))
        out = "kc_" + out;
    return out;
}

ExprPtr affine_expression(const kernel::AffineForm& form) {
    ExprPtr sum;
    for (const auto& [symbol, coefficient] : form.coefficients) {
        ExprPtr term = coefficient == 1 ? make_variable(symbol)
                                        : make_binary(BinaryOp::mul, make_integer(coefficient),
                                                      make_variable(symbol));
        sum = sum ? make_binary(BinaryOp::add, sum, term) : term;
    }
    if (!sum)
        return make_integer(form.constant);
    if (form.constant > 0)
        return make_binary(BinaryOp::add, sum, make_integer(form.constant));
    if (form.constant < 0)
        return make_binary(BinaryOp::sub, sum, make_integer(-form.constant));
    return sum;
}

const char* assign_symbol(kernel::AssignOp op) {
    switch (op) {
    case kernel::AssignOp::assign:
        return "=";
    case kernel::AssignOp::add_assign:
        return "+=";
    case kernel::AssignOp::sub_assign:
        return "-=";
    case kernel::AssignOp::mul_assign:
        return "*=";
    case kernel::AssignOp::div_assign:
        return "/=";
    }
    return "=";
}

class Emitter {
public:
    explicit Emitter(const Schedule& schedule) : schedule_(schedule), printer_(schedule) {}

    std::string statement(const kernel::Statement& s) const {
        const ArrayLayout& target = *schedule_.find_array(s.target->name);
        ValueType target_type;
        target_type.dtype = target.decl.dtype;
        const std::string ref = printer_.print(*s.target, target_type);
        if (!s.atomic) {
            // Integer `x /= y` keeps the kernel language's floor division.
            if (s.op == kernel::AssignOp::div_assign && target_type.is_integer())
                return ref + " = kc_floord(" + ref + ", " + printer_.print(*s.value, target_type) +
                       ");";
            return ref + " " + assign_symbol(s.op) + " " + printer_.print(*s.value, target_type) +
                   ";";
        }
        const std::string type = cuda_type_name(target.decl.dtype);
        const bool wide = kernel::data_type_bytes(target.decl.dtype) == 8;
        const bool floating = kernel::is_floating(target.decl.dtype);
        const std::string value =
            s.value ? "static_cast<" + type + ">(" + printer_.print(*s.value, target_type) + ")"
                    : "static_cast<" + type + ">(1)";
        // 64-bit integer atomics take unsigned long long (two's complement wraps alike).
        const bool as_ull = wide && !floating && target.decl.dtype == DataType::i64;
        const std::string address =
            as_ull ? "reinterpret_cast<unsigned long long*>(&" + ref + ")" : "&" + ref;
        const std::string ull_value =
            as_ull ? "static_cast<unsigned long long>(" + value + ")" : value;
        switch (*s.atomic) {
        case kernel::AtomicKind::add:
        case kernel::AtomicKind::inc:
            return "atomicAdd(" + address + ", " + ull_value + ");";
        case kernel::AtomicKind::sub:
            if (!wide && !floating)
                return "atomicSub(" + address + ", " + value + ");";
            return "atomicAdd(" + address + ", " +
                   (as_ull ? "static_cast<unsigned long long>(-" + value + ")" : "-" + value) +
                   ");";
        case kernel::AtomicKind::min:
            return "atomicMin(&" + ref + ", " + value + ");";
        case kernel::AtomicKind::max:
            return "atomicMax(&" + ref + ", " + value + ");";
        case kernel::AtomicKind::exch:
            if (target.decl.dtype == DataType::f64)
                return "atomicExch(reinterpret_cast<unsigned long long*>(&" + ref +
                       "), static_cast<unsigned long long>(__double_as_longlong(" + value + ")));";
            return "atomicExch(" + address + ", " + ull_value + ");";
        case kernel::AtomicKind::bit_and:
            return "atomicAnd(" + address + ", " + ull_value + ");";
        case kernel::AtomicKind::bit_or:
            return "atomicOr(" + address + ", " + ull_value + ");";
        case kernel::AtomicKind::bit_xor:
            return "atomicXor(" + address + ", " + ull_value + ");";
        case kernel::AtomicKind::cas:
            break;
        }
        KERNCAST_CHECK(false, "atomic_cas is rejected by the lowering");
        return "";
    }

    void steps(const std::vector<Step>& list, const std::string& indent, std::ostringstream& out) {
        for (size_t n = 0; n < list.size(); ++n) {
            const Step& step = list[n];
            // Consecutive statements under the same guard share one `if` block.
            size_t run_end = n + 1;
            while (step.kind == StepKind::compute && step.guard && run_end < list.size() &&
                   list[run_end].kind == StepKind::compute && list[run_end].guard == step.guard)
                ++run_end;
            if (run_end > n + 1) {
                ValueType boolean;
                boolean.literal = true;
                out << indent << "if (" << printer_.print(*step.guard, boolean) << ") {\n";
                for (size_t k = n; k < run_end; ++k) {
                    Step unguarded = list[k];
                    unguarded.guard = nullptr;
                    steps({unguarded}, indent + "    ", out);
                }
                out << indent << "}\n";
                n = run_end - 1;
                continue;
            }
            if (step.source_statement >= 0 && step.source_statement != last_statement_) {
                last_statement_ = step.source_statement;
                const auto& spec_statement =
                    schedule_.spec.statements[static_cast<size_t>(step.source_statement)];
                std::string text = spec_statement.kind == kernel::StatementKind::barrier
                                       ? "barrier"
                                       : spec_statement.text;
                if (!spec_statement.id.empty())
                    text = spec_statement.id + ": " + text;
                if (!spec_statement.condition_text.empty())
                    text += "  where " + spec_statement.condition_text;
                if (!step.role.empty())
                    text += "  [" + step.role + "]";
                out << indent << "// " << text << "\n";
            }
            switch (step.kind) {
            case StepKind::loop:
                out << indent << "for (int " << step.index << " = " << step.lower << "; "
                    << step.index << " <= " << step.upper << "; ++" << step.index << ") {\n";
                steps(step.body, indent + "    ", out);
                out << indent << "}\n";
                last_statement_ = -1;
                break;
            case StepKind::barrier:
                out << indent << "__syncthreads();\n";
                break;
            case StepKind::compute: {
                ValueType boolean;
                boolean.literal = true;
                const std::string body = statement(step.statement);
                if (step.guard)
                    out << indent << "if (" << printer_.print(*step.guard, boolean) << ")\n"
                        << indent << "    " << body << "\n";
                else
                    out << indent << body << "\n";
                break;
            }
            }
        }
    }

private:
    const Schedule& schedule_;
    CudaPrinter printer_;
    int last_statement_ = -1;
};

runtime::DType buffer_dtype(DataType type, bool& packed) {
    packed = false;
    switch (type) {
    case DataType::f32:
        return runtime::DType::f32;
    case DataType::f64:
        return runtime::DType::f64;
    case DataType::i32:
        return runtime::DType::i32;
    case DataType::i64:
        return runtime::DType::i64;
    case DataType::u32:
        return runtime::DType::u32;
    case DataType::u64:
        return runtime::DType::u64;
    default:
        packed = true;
        return runtime::DType::u32;
    }
}

const char* device_helpers =
    R"(// Integer division and remainder of the kernel language: floor division, remainder >= 0.
__device__ __forceinline__ int kc_floord(int a, int b) {
    const int q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
__device__ __forceinline__ int kc_mod(int a, int b) {
    const int r = a % b;
    return r < 0 ? r + (b < 0 ? -b : b) : r;
}
)";

const char* init_helpers =
    R"(// Deterministic contents of private arrays: kerncast/runtime/deterministic_init.hpp.
__device__ __forceinline__ unsigned long long kc_element_hash(unsigned long long seed,
                                                              unsigned long long index) {
    unsigned long long z = (seed << 32 ^ index) + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
__device__ __forceinline__ float kc_initial_f32(unsigned long long seed, unsigned long long index) {
    return static_cast<float>(kc_element_hash(seed, index) >> 40) * (2.0f / 16777216.0f) - 1.0f;
}
__device__ __forceinline__ double kc_initial_f64(unsigned long long seed, unsigned long long index) {
    return static_cast<double>(kc_element_hash(seed, index) >> 11) * (2.0 / 9007199254740992.0) -
           1.0;
}
__device__ __forceinline__ long long kc_initial_integer(unsigned long long seed,
                                                        unsigned long long index) {
    return static_cast<long long>(kc_element_hash(seed, index) % 1024);
}
)";

std::string initial_value_call(DataType type, std::uint64_t seed, const std::string& index) {
    const std::string args = "(" + std::to_string(seed) + "ull, " + index + ")";
    if (type == DataType::f32)
        return "kc_initial_f32" + args;
    if (type == DataType::f64)
        return "kc_initial_f64" + args;
    return std::string("static_cast<") + cuda_type_name(type) + ">(kc_initial_integer" + args + ")";
}

} // namespace

GeneratedKernel generate_cuda(const Schedule& schedule, const SourceOrigin& origin) {
    const kernel::KernelSpec& spec = schedule.spec;
    GeneratedKernel generated;
    generated.kernel_name = sanitise(spec.name);
    for (int a = 0; a < kernel::axis_count; ++a) {
        const auto k = static_cast<size_t>(a);
        generated.grid[k] = schedule.grid[k];
        generated.block[k] = schedule.launch.block[k];
        generated.fold[k] = schedule.launch.fold[k];
    }
    CudaPrinter printer(schedule);

    // Names the body uses, including the launch names behind used thread indices.
    std::set<std::string> used;
    collect_step_names(schedule.body, used);
    for (const auto& t : schedule.thread_indices)
        if (used.count(t.index))
            for (const auto& [symbol, coefficient] : t.form.coefficients)
                used.insert(symbol);

    std::ostringstream out;
    auto dims = [](const auto& d) {
        return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
    };
    out << "// Generated by kerncast codegen (docs/codegen.md). Do not edit.\n";
    out << "// kernel: " << spec.name;
    if (!origin.kernel_file.empty())
        out << " from " << origin.kernel_file;
    out << "\n";
    if (!origin.kernel_file_sha256.empty())
        out << "// kernel file sha256: " << origin.kernel_file_sha256 << "\n";
    out << "// parameters:";
    for (const auto& [name, value] : schedule.parameters)
        out << " " << name << "=" << value;
    out << "\n// launch: block " << dims(generated.block) << ", fold " << dims(generated.fold)
        << ", grid " << dims(generated.grid) << "\n";
    out << "// buffers (kernel arguments, in order):";

    std::string parameters_text;
    for (const auto& array : schedule.arrays) {
        const auto space = array.decl.space;
        if (space != kernel::MemorySpace::global && space != kernel::MemorySpace::constant)
            continue;
        bool packed = false;
        runtime::BufferSpec buffer;
        buffer.name = array.decl.name;
        buffer.dtype = buffer_dtype(array.decl.dtype, packed);
        const std::int64_t bytes =
            array.buffer_elements * kernel::data_type_bytes(array.decl.dtype);
        buffer.count = packed ? (bytes + 3) / 4 : array.buffer_elements;
        buffer.init = runtime::BufferInit::hash;
        generated.arguments.emplace_back(buffer);
        generated.buffer_arrays.push_back(array.decl.name);
        out << "\n//   " << runtime::to_string(buffer);
        if (packed)
            out << "  (" << kernel::data_type_name(array.decl.dtype)
                << " elements packed in u32 words)";
        if (array.offset)
            out << "  (element 0 at offset " << array.offset << ")";
        parameters_text += std::string(parameters_text.empty() ? "" : ",\n    ") +
                           (array.written ? "" : "const ") + cuda_type_name(array.decl.dtype) +
                           "* __restrict__ " + array.decl.name;
    }
    out << "\n\n" << device_helpers;

    bool needs_init = false;
    for (const auto& array : schedule.arrays)
        if (array.decl.space == kernel::MemorySpace::private_ && !array.accumulator)
            needs_init = true;
    if (needs_init)
        out << init_helpers;

    out << "\nextern \"C\" __global__ void __launch_bounds__(" << schedule.threads_per_block()
        << ")\n"
        << generated.kernel_name << "(" << parameters_text << ") {\n";
    const std::string indent = "    ";
    for (const auto& [name, value] : schedule.parameters)
        if (used.count(name))
            out << indent << "constexpr "
                << (value > INT_MAX || value < INT_MIN ? "long long" : "int") << " " << name
                << " = " << value << ";\n";
    static const char* axis_letters = "xyz";
    for (int a = 0; a < kernel::axis_count; ++a) {
        const std::string letter(1, axis_letters[a]);
        if (used.count("t" + letter))
            out << indent << "const int t" << letter << " = threadIdx." << letter << ";\n";
    }
    for (int a = 0; a < kernel::axis_count; ++a) {
        const std::string letter(1, axis_letters[a]);
        if (used.count("b" + letter))
            out << indent << "const int b" << letter << " = blockIdx." << letter << ";\n";
    }
    for (const auto& array : schedule.arrays) {
        if (array.decl.space == kernel::MemorySpace::shared) {
            generated.static_shared_memory_bytes +=
                array.elements * kernel::data_type_bytes(array.decl.dtype);
            out << indent << "__shared__ " << cuda_type_name(array.decl.dtype) << " "
                << array.decl.name;
            if (!array.decl.shape.empty() || array.offset)
                out << "[" << array.buffer_elements << "]";
            out << ";\n";
        }
    }
    for (const auto& array : schedule.arrays) {
        if (array.decl.space != kernel::MemorySpace::private_)
            continue;
        const bool scalar = array.decl.shape.empty() && array.offset == 0;
        out << indent << cuda_type_name(array.decl.dtype) << " " << array.decl.name;
        if (!scalar)
            out << "[" << array.buffer_elements << "]";
        if (array.accumulator) {
            out << ";\n";
            continue;
        }
        const std::uint64_t seed = runtime::buffer_seed(array.decl.name);
        if (scalar) {
            out << " = " << initial_value_call(array.decl.dtype, seed, "0") << ";\n";
        } else {
            out << ";\n"
                << indent << "for (int e = 0; e < " << array.buffer_elements << "; ++e)\n"
                << indent << "    " << array.decl.name
                << "[e] = " << initial_value_call(array.decl.dtype, seed, "e") << ";\n";
        }
    }

    std::string body_indent = indent;
    int open_loops = 0;
    for (int a = kernel::axis_count - 1; a >= 0; --a) {
        const std::string f = std::string("f") + axis_letters[a];
        const std::int64_t fold = schedule.launch.fold[static_cast<size_t>(a)];
        if (fold > 1) {
            out << body_indent << "for (int " << f << " = 0; " << f << " < " << fold << "; ++" << f
                << ") {\n";
            body_indent += indent;
            ++open_loops;
        } else if (used.count(f)) {
            out << body_indent << "const int " << f << " = 0;\n";
        }
    }
    ValueType index_type;
    index_type.literal = true;
    for (const auto& t : schedule.thread_indices)
        if (used.count(t.index))
            out << body_indent << "const int " << t.index << " = "
                << printer.print(*affine_expression(t.form), index_type) << ";\n";
    Emitter emitter(schedule);
    emitter.steps(schedule.body, body_indent, out);
    for (; open_loops > 0; --open_loops) {
        body_indent.resize(body_indent.size() - indent.size());
        out << body_indent << "}\n";
    }
    out << "}\n";
    generated.cuda_source = out.str();
    return generated;
}

} // namespace kerncast::codegen
