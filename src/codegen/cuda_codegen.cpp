// Printing a Schedule as CUDA C++ (cuda_codegen.hpp, docs/codegen.md).
#include "kerncast/codegen/cuda_codegen.hpp"

#include "atomic_emulation.hpp"
#include "expr_build.hpp"
#include "expression_types.hpp"
#include "fold_load_reuse.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/builtin_functions.hpp"
#include "kerncast/runtime/deterministic_init.hpp"

#include <algorithm>
#include <climits>
#include <functional>
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
        return binary_op_info(expr.op).c_level;
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
            if (const ArrayStorage* array = schedule_.find_array(expr.name))
                return load(*array, {});
            return expr.name;
        case ExprKind::array_ref:
            return load(*schedule_.find_array(expr.name), expr.operands);
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

    std::string array_element(const ArrayStorage& array,
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
    // An element read: f16 elements become float, in which kernels compute.
    std::string load(const ArrayStorage& array, const std::vector<ExprPtr>& subscripts) const {
        const std::string element = array_element(array, subscripts);
        return array.decl.dtype == DataType::f16 ? "__half2float(" + element + ")" : element;
    }

    // For arrays beyond 2^31 elements: the outermost subscript is widened first.
    std::string print_wide(const ArrayStorage& array,
                           const std::vector<ExprPtr>& subscripts) const {
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
        const kernel::BuiltinFunction* function = kernel::find_builtin_function(expr.name);
        std::string name = !function        ? expr.name
                           : t.is_integer() ? std::string(function->cuda_integer)
                                            : std::string(function->cuda_floating);
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
            collect_names(step.statement.compare, names);
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

void collect_atomic_helpers(const Schedule& schedule, const std::vector<Step>& steps,
                            std::set<std::pair<DataType, kernel::AtomicKind>>& helpers) {
    for (const auto& step : steps) {
        if (step.kind == StepKind::loop)
            collect_atomic_helpers(schedule, step.body, helpers);
        if (step.kind != StepKind::compute || !step.statement.atomic)
            continue;
        const DataType type = schedule.find_array(step.statement.target->name)->decl.dtype;
        if (needs_cas_loop(type, *step.statement.atomic))
            helpers.insert({type, *step.statement.atomic});
    }
}

// The helper functions of the schedule's emulated atomics, each once.
std::string atomic_helpers(const Schedule& schedule) {
    std::set<std::pair<DataType, kernel::AtomicKind>> helpers;
    collect_atomic_helpers(schedule, schedule.body, helpers);
    std::string text;
    for (const auto& [type, kind] : helpers)
        text += atomic_helper_source(type, kind);
    return text;
}

class Emitter {
public:
    explicit Emitter(const Schedule& schedule) : schedule_(schedule), printer_(schedule) {}

    std::string statement(const kernel::Statement& s) const {
        const ArrayStorage& target = *schedule_.find_array(s.target->name);
        const DataType dtype = target.decl.dtype;
        const bool half = dtype == DataType::f16;
        ValueType target_type; // f16 targets take float values
        target_type.dtype = half ? DataType::f32 : dtype;
        const std::string ref = printer_.array_element(target, s.target->operands);
        if (!s.atomic) {
            const std::string value = printer_.print(*s.value, target_type);
            // f16: computed in float, rounded to nearest even once when stored.
            if (half)
                return ref + " = __float2half_rn(" +
                       (s.op == kernel::AssignOp::assign
                            ? value
                            : "__half2float(" + ref + ") " +
                                  std::string(assign_symbol(s.op)).substr(0, 1) + " (" + value +
                                  ")") +
                       ");";
            // Integer `x /= y` keeps the kernel language's floor division.
            if (s.op == kernel::AssignOp::div_assign && target_type.is_integer())
                return ref + " = kc_floord(" + ref + ", " + value + ");";
            return ref + " " + assign_symbol(s.op) + " " + value + ";";
        }
        const kernel::AtomicKind kind = *s.atomic;
        const std::string type = atomic_operand_type_name(dtype);
        // Operands in the element type (f16: rounded to __half from float).
        auto convert = [&](const std::string& text) {
            const std::string converted = "static_cast<" + type + ">(" + text + ")";
            return half ? "__float2half_rn(" + converted + ")" : converted;
        };
        auto operand = [&](const ExprPtr& e) { return convert(printer_.print(*e, target_type)); };
        if (needs_cas_loop(dtype, kind))
            return atomic_helper_name(dtype, kind) + "(&" + ref + ", " +
                   (s.compare ? operand(s.compare) + ", " : "") +
                   (s.value ? operand(s.value) : convert("1")) + ");";
        if (half) // add, inc, sub: atomicAdd(__half*, __half), sm_70+
            return "atomicAdd(&" + ref + ", " +
                   convert(std::string(kind == kernel::AtomicKind::sub ? "-" : "") +
                           (s.value ? "(" + printer_.print(*s.value, target_type) + ")" : "1")) +
                   ");";
        const std::string value = s.value ? operand(s.value) : convert("1");
        const bool wide = kernel::data_type_bytes(dtype) == 8;
        const bool floating = kernel::is_floating(dtype);
        // 64-bit integer atomics take unsigned long long (two's complement wraps alike).
        const bool as_ull = wide && !floating && dtype == DataType::i64;
        const std::string address =
            as_ull ? "reinterpret_cast<unsigned long long*>(&" + ref + ")" : "&" + ref;
        auto ull = [&](const std::string& text) {
            return as_ull ? "static_cast<unsigned long long>(" + text + ")" : text;
        };
        switch (kind) {
        case kernel::AtomicKind::add:
        case kernel::AtomicKind::inc:
            return "atomicAdd(" + address + ", " + ull(value) + ");";
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
            if (dtype == DataType::f64)
                return "atomicExch(reinterpret_cast<unsigned long long*>(&" + ref +
                       "), static_cast<unsigned long long>(__double_as_longlong(" + value + ")));";
            return "atomicExch(" + address + ", " + ull(value) + ");";
        case kernel::AtomicKind::cas: // integers: comparing values is comparing bits
            return "atomicCAS(" + address + ", " + ull(operand(s.compare)) + ", " + ull(value) +
                   ");";
        case kernel::AtomicKind::bit_and:
            return "atomicAnd(" + address + ", " + ull(value) + ");";
        case kernel::AtomicKind::bit_or:
            return "atomicOr(" + address + ", " + ull(value) + ");";
        case kernel::AtomicKind::bit_xor:
            return "atomicXor(" + address + ", " + ull(value) + ");";
        }
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
    case DataType::f16:
        return runtime::DType::f16;
    default:
        packed = true;
        return runtime::DType::u32;
    }
}

// The device buffer of a global or constant array (deterministic hash contents).
runtime::BufferSpec device_buffer_spec(const ArrayStorage& array, bool& packed) {
    runtime::BufferSpec buffer;
    buffer.name = array.decl.name;
    buffer.dtype = buffer_dtype(array.decl.dtype, packed);
    const std::int64_t bytes = array.buffer_elements * kernel::data_type_bytes(array.decl.dtype);
    buffer.count = packed ? (bytes + 3) / 4 : array.buffer_elements;
    buffer.init = runtime::BufferInit::hash;
    return buffer;
}

// Where global and constant arrays live: kernel arguments (device buffers), or for constant
// arrays module-scope __constant__ symbols, when the kernel only reads them and all of them
// together fit the constant bank.
struct ArrayPlacement {
    std::string header_comment;        // "// buffers (kernel arguments, in order): ..."
    std::string parameters_text;       // the kernel's parameter list
    std::string constant_declarations; // "__constant__ double w[25];" lines
};

ArrayPlacement place_arrays(const Schedule& schedule, const CodegenTarget& target,
                            GeneratedKernel& generated) {
    std::int64_t constant_bytes = 0;
    for (const auto& array : schedule.arrays) {
        if (array.decl.space != kernel::MemorySpace::constant)
            continue;
        bool packed = false;
        const runtime::BufferSpec buffer = device_buffer_spec(array, packed);
        if (array.written)
            generated.notes.push_back(
                "constant array '" + array.decl.name +
                "' is written by the kernel (__constant__ memory is read-only on the device): "
                "it is passed as a global pointer");
        else
            constant_bytes += buffer.count * static_cast<std::int64_t>(size_bytes(buffer.dtype));
    }
    const bool fits = constant_bytes <= target.constant_memory_bytes;
    if (!fits)
        generated.notes.push_back("the constant arrays need " + std::to_string(constant_bytes) +
                                  " bytes, more than the " +
                                  std::to_string(target.constant_memory_bytes) +
                                  "-byte constant bank: they are passed as global pointers");

    ArrayPlacement placement;
    std::string constant_comment;
    placement.header_comment = "// buffers (kernel arguments, in order):";
    for (const auto& array : schedule.arrays) {
        const auto space = array.decl.space;
        if (space != kernel::MemorySpace::global && space != kernel::MemorySpace::constant)
            continue;
        bool packed = false;
        const runtime::BufferSpec buffer = device_buffer_spec(array, packed);
        std::string comment = "\n//   " + runtime::to_string(buffer);
        if (packed)
            comment += std::string("  (") + kernel::data_type_name(array.decl.dtype) +
                       " elements packed in u32 words)";
        if (array.offset)
            comment += "  (element 0 at offset " + std::to_string(array.offset) + ")";
        if (space == kernel::MemorySpace::constant && !array.written && fits) {
            // Packed arrays are declared in whole u32 words, so the symbol is exactly as large
            // as the buffer the harness initialises.
            const std::int64_t declared_elements =
                buffer.count * static_cast<std::int64_t>(size_bytes(buffer.dtype)) /
                kernel::data_type_bytes(array.decl.dtype);
            generated.constant_symbols.push_back(buffer);
            constant_comment += comment;
            placement.constant_declarations +=
                std::string("__constant__ ") + cuda_type_name(array.decl.dtype) + " " +
                array.decl.name + "[" + std::to_string(declared_elements) + "];\n";
            continue;
        }
        generated.arguments.emplace_back(buffer);
        generated.buffer_arrays.push_back(array.decl.name);
        placement.header_comment += comment;
        placement.parameters_text +=
            std::string(placement.parameters_text.empty() ? "" : ",\n    ") +
            (array.written ? "" : "const ") + cuda_type_name(array.decl.dtype) + "* __restrict__ " +
            array.decl.name;
    }
    if (!constant_comment.empty())
        placement.header_comment +=
            "\n// constant arrays (__constant__, filled after loading):" + constant_comment;
    for (const auto& note : generated.notes)
        placement.header_comment += "\n// note: " + note;
    return placement;
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
    if (type == DataType::f16) // the same bits as runtime::initial_f16_bits
        return "__float2half_rn(kc_initial_f32" + args + ")";
    return std::string("static_cast<") + cuda_type_name(type) + ">(kc_initial_integer" + args + ")";
}

const char* const axis_letters = "xyz";
const char* const indent = "    ";

// Names the body uses, including the launch names behind used thread indices.
std::set<std::string> used_names(const Schedule& schedule) {
    std::set<std::string> used;
    collect_step_names(schedule.body, used);
    for (const auto& t : schedule.thread_indices)
        if (used.count(t.index))
            for (const auto& [symbol, coefficient] : t.form.coefficients)
                used.insert(symbol);
    return used;
}

// The comment block on top: kernel, file, parameters, launch.
void emit_file_comment(const Schedule& schedule, const SourceOrigin& origin,
                       const GeneratedKernel& generated, std::ostringstream& out) {
    auto dims = [](const auto& d) {
        return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
    };
    out << "// Generated by kerncast codegen (docs/codegen.md). Do not edit.\n";
    out << "// kernel: " << schedule.spec.name;
    if (!origin.kernel_file.empty())
        out << " from " << origin.kernel_file;
    out << "\n";
    if (!origin.kernel_file_sha256.empty())
        out << "// kernel file sha256: " << origin.kernel_file_sha256 << "\n";
    out << "// parameters:";
    for (const auto& [name, value] : schedule.parameters)
        out << " " << name << "=" << value;
    out << "\n// launch: block " << dims(generated.block) << ", fold " << dims(generated.fold)
        << (kernel::strided_fold(schedule.launch) ? " strided" : "") << ", grid "
        << dims(generated.grid) << "\n";
}

// Includes and the device helpers the kernel needs (f16, atomics, private-array init).
void emit_helpers(const Schedule& schedule, std::ostringstream& out) {
    for (const auto& array : schedule.arrays)
        if (array.decl.dtype == DataType::f16) {
            out << "#include <cuda_fp16.h>\n\n"; // __half, conversions, atomicAdd(__half*)
            break;
        }
    out << device_helpers << atomic_helpers(schedule);
    bool needs_init = false;
    for (const auto& array : schedule.arrays)
        if (array.decl.space == kernel::MemorySpace::private_ && !array.accumulator)
            needs_init = true;
    if (needs_init)
        out << init_helpers;
}

// The used parameters as constants, and threadIdx / blockIdx under their short names.
void emit_launch_names(const Schedule& schedule, const std::set<std::string>& used,
                       std::ostringstream& out) {
    for (const auto& [name, value] : schedule.parameters)
        if (used.count(name))
            out << indent << "constexpr "
                << (value > INT_MAX || value < INT_MIN ? "long long" : "int") << " " << name
                << " = " << value << ";\n";
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
}

// __shared__ arrays and private arrays with their deterministic initial values (accumulators
// are initialised by their own statements). Shared arrays are static `__shared__ T name[n]`
// while together they fit the target's static limit; beyond it they are pointers into one
// `extern __shared__` buffer (16-byte aligned pieces), whose size the launch passes.
void emit_block_and_thread_arrays(const Schedule& schedule, const CodegenTarget& target,
                                  GeneratedKernel& generated, std::ostringstream& out) {
    struct SharedArray {
        const ArrayStorage* array;
        std::int64_t elements, bytes, offset;
    };
    std::vector<SharedArray> shared;
    std::int64_t total = 0, dynamic_total = 0;
    for (const auto& array : schedule.arrays) {
        if (array.decl.space != kernel::MemorySpace::shared)
            continue;
        // 1- and 2-byte elements: aligned and padded to whole 32-bit words, the unit of their
        // atomics' compare-and-swap loop.
        const std::int64_t bytes = kernel::data_type_bytes(array.decl.dtype);
        const std::int64_t elements =
            bytes < 4 ? (array.buffer_elements * bytes + 3) / 4 * 4 / bytes : array.buffer_elements;
        shared.push_back({&array, elements, elements * bytes, (dynamic_total + 15) / 16 * 16});
        total += elements * bytes;
        dynamic_total = shared.back().offset + elements * bytes;
    }
    if (total <= target.static_shared_memory_bytes) {
        for (const SharedArray& s : shared) {
            const kernel::ArrayDecl& decl = s.array->decl;
            generated.static_shared_memory_bytes += s.bytes;
            out << indent << "__shared__ "
                << (kernel::data_type_bytes(decl.dtype) < 4 ? "__align__(4) " : "")
                << cuda_type_name(decl.dtype) << " " << decl.name << "[" << s.elements << "];\n";
        }
    } else {
        generated.dynamic_shared_memory_bytes = dynamic_total;
        std::string buffer = "kerncast_shared"; // a name no array of the kernel has
        while (std::any_of(schedule.arrays.begin(), schedule.arrays.end(),
                           [&](const ArrayStorage& a) { return a.decl.name == buffer; }))
            buffer += '_';
        out << indent << "// " << total << " B of shared arrays, more than the "
            << target.static_shared_memory_bytes
            << " B a kernel declares statically: one dynamic buffer\n"
            << indent << "extern __shared__ __align__(16) unsigned char " << buffer << "[];\n";
        for (const SharedArray& s : shared) {
            const char* type = cuda_type_name(s.array->decl.dtype);
            out << indent << type << "* const " << s.array->decl.name << " = reinterpret_cast<"
                << type << "*>(" << buffer << " + " << s.offset << "); // " << s.elements
                << " elements\n";
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
}

// The fold loops (z outermost), the thread-mapped indices, and the loop tree inside them.
void emit_fold_loops(const Schedule& schedule, const std::set<std::string>& used,
                     std::string body_indent, std::ostringstream& out) {
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
    CudaPrinter printer(schedule);
    for (const auto& t : schedule.thread_indices)
        if (used.count(t.index))
            out << body_indent << "const int " << t.index << " = "
                << printer.print(*affine_expression(t.form), index_type) << ";\n";
    Emitter emitter(schedule);
    emitter.steps(schedule.body, body_indent, out);
    // A kernel that synchronises its block shares memory between its threads: the next fold
    // instance must not overwrite what other threads still read of this one.
    const bool synchronises = std::any_of(
        schedule.spec.statements.begin(), schedule.spec.statements.end(),
        [](const kernel::StatementSpec& s) { return s.kind == kernel::StatementKind::barrier; });
    if (open_loops > 0 && synchronises)
        out << body_indent << "__syncthreads(); // before the next fold instance\n";
    for (; open_loops > 0; --open_loops) {
        body_indent.resize(body_indent.size() - std::string(indent).size());
        out << body_indent << "}\n";
    }
}

// The fold fast path (fold_load_reuse.hpp): every instance unrolled, each distinct element of a
// read-only array loaded once into a local; the fold loops for threads with an instance
// outside the domain.
void emit_fold_fast_path(const Schedule& schedule, const FoldLoadReuse& plan,
                         const std::set<std::string>& used, std::ostringstream& out) {
    // The locals are private scalars of the fast path's schedule, so that they print (and type)
    // as values of their array's element type.
    Schedule fast = schedule;
    for (const ReusedLoad& load : plan.loads) {
        ArrayStorage local;
        local.decl = schedule.find_array(load.array)->decl;
        local.decl.name = load.name;
        local.decl.shape.clear();
        local.decl.space = kernel::MemorySpace::private_;
        fast.arrays.push_back(std::move(local));
    }
    for (const SharedValue& value : plan.values) {
        ArrayStorage local;
        local.decl.name = value.name;
        local.decl.dtype = value.dtype;
        local.decl.space = kernel::MemorySpace::private_;
        fast.arrays.push_back(std::move(local));
    }
    for (const PrivateCopy& copy : plan.private_copies) {
        ArrayStorage local = *schedule.find_array(copy.of);
        local.decl.name = copy.name;
        fast.arrays.push_back(std::move(local));
    }
    ValueType index_type;
    index_type.literal = true;
    CudaPrinter printer(fast);
    out << indent << "// every fold instance in the domain: each element of a read-only array "
        << "loaded once, kept in a register (" << plan.loads.size() << " loads a thread instead of "
        << plan.loop_loads;
    if (!plan.values.empty())
        out << "), and each value the instances share computed once (" << plan.values.size()
            << " instead of " << plan.value_uses;
    out << "; docs/codegen.md, Folding)\n";
    for (const auto& index : plan.indices)
        out << indent << "const int " << index.name << " = "
            << printer.print(*affine_expression(index.form), index_type) << ";\n";
    std::string body_indent = indent;
    if (!plan.conditions.empty()) {
        std::string condition;
        for (const auto& part : plan.conditions) {
            std::string text = printer.print(*part, index_type);
            if (part->kind == ExprKind::conditional ||
                (part->kind == ExprKind::binary && part->op == BinaryOp::logical_or))
                text = "(" + text + ")";
            condition += (condition.empty() ? "" : " && ") + text;
        }
        out << indent << "if (" << condition << ") {\n";
        body_indent += indent;
    }
    Emitter emitter(fast);
    // The loads first made at a step, then the step.
    const auto emit_step = [&](const FastPathStep& step, const std::string& at) {
        for (const size_t k : step.first_loads) {
            const ReusedLoad& load = plan.loads[k];
            const ArrayStorage& array = *schedule.find_array(load.array);
            out << at << "const " << cuda_type_name(array.decl.dtype) << " " << load.name << " = "
                << printer.array_element(array, load.reference->operands) << ";\n";
        }
        for (const size_t k : step.first_values) {
            const SharedValue& value = plan.values[k];
            ValueType type;
            type.dtype = value.dtype;
            out << at << "const " << cuda_type_name(value.dtype) << " " << value.name << " = "
                << printer.print(*value.value, type) << ";\n";
        }
        emitter.steps({step.step}, at, out);
    };
    // Interleaved (sequential loops): the loop tree once, every instance's step inside it.
    const std::function<void(const std::vector<InterleavedNode>&, const std::string&)> tree =
        [&](const std::vector<InterleavedNode>& nodes, const std::string& at) {
            for (const InterleavedNode& node : nodes) {
                if (!node.loop) {
                    for (const FastPathStep& step : node.instances)
                        emit_step(step, at);
                    continue;
                }
                out << at << "for (int " << node.index << " = " << node.lower << "; " << node.index
                    << " <= " << node.upper << "; ++" << node.index << ") {\n";
                tree(node.body, at + indent);
                out << at << "}\n";
            }
        };
    if (!plan.interleaved.empty()) {
        out << body_indent << "// the fold instances interleaved inside the loops (register "
            << "tiling), a copy of each private scalar for every instance but the first\n";
        for (const PrivateCopy& copy : plan.private_copies) {
            const ArrayStorage& of = *schedule.find_array(copy.of);
            out << body_indent << cuda_type_name(of.decl.dtype) << " " << copy.name;
            if (!of.accumulator) // a user's private scalar starts at the original's value
                out << " = " << copy.of;
            out << ";\n";
        }
        tree(plan.interleaved, body_indent);
    }
    for (const FastPathInstance& instance : plan.instances) {
        out << body_indent << "// fold instance";
        for (int a = 0; a < kernel::axis_count; ++a)
            if (schedule.launch.fold[static_cast<size_t>(a)] > 1)
                out << " f" << axis_letters[a] << " = "
                    << instance.fold_index[static_cast<size_t>(a)];
        out << "\n";
        for (const FastPathStep& step : instance.steps)
            emit_step(step, body_indent);
    }
    if (plan.conditions.empty())
        return;
    out << indent << "} else {\n";
    emit_fold_loops(schedule, used, body_indent, out);
    out << indent << "}\n";
}

void emit_body(const Schedule& schedule, const std::set<std::string>& used,
               std::ostringstream& out) {
    if (const auto plan = plan_fold_load_reuse(schedule, used))
        emit_fold_fast_path(schedule, *plan, used, out);
    else
        emit_fold_loops(schedule, used, indent, out);
}

} // namespace

GeneratedKernel generate_cuda(const Schedule& schedule, const SourceOrigin& origin,
                              const CodegenTarget& target) {
    GeneratedKernel generated;
    generated.kernel_name = sanitise(schedule.spec.name);
    for (int a = 0; a < kernel::axis_count; ++a) {
        const auto k = static_cast<size_t>(a);
        generated.grid[k] = schedule.grid[k];
        generated.block[k] = schedule.launch.block[k];
        generated.fold[k] = schedule.launch.fold[k];
    }
    generated.fold_placement = schedule.launch.fold_placement;
    const std::set<std::string> used = used_names(schedule);
    std::ostringstream out;
    emit_file_comment(schedule, origin, generated, out);
    const ArrayPlacement placement = place_arrays(schedule, target, generated);
    out << placement.header_comment;
    out << "\n\n";
    emit_helpers(schedule, out);
    if (!placement.constant_declarations.empty())
        out << "\n" << placement.constant_declarations;
    out << "\nextern \"C\" __global__ void __launch_bounds__(" << schedule.threads_per_block()
        << ")\n"
        << generated.kernel_name << "(" << placement.parameters_text << ") {\n";
    emit_launch_names(schedule, used, out);
    emit_block_and_thread_arrays(schedule, target, generated, out);
    emit_body(schedule, used, out);
    out << "}\n";
    generated.cuda_source = out.str();
    return generated;
}

} // namespace kerncast::codegen
