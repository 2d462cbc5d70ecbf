// The CPU reference interpreter (reference_interpreter.hpp).
#include "kerncast/codegen/reference_interpreter.hpp"

#include "expression_types.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/builtin_functions.hpp"
#include "kerncast/kernel/comparison.hpp"
#include "kerncast/kernel/expression_evaluator.hpp"
#include "kerncast/runtime/deterministic_init.hpp"
#include "kerncast/runtime/half.hpp"
#include "kerncast/support/integer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace kerncast::codegen {

using kernel::BinaryOp;
using kernel::DataType;
using kernel::Expr;
using kernel::ExprKind;
using namespace detail;

namespace {

// 1- and 2-byte integers travel in u32 words (f16 has its own runtime buffer type).
bool packed(DataType type) {
    return kernel::data_type_bytes(type) < 4 && type != DataType::f16;
}

// Rounds a value to what an element of `type` can hold (C conversion, integers wrap).
double to_dtype(DataType type, double value) {
    switch (type) {
    case DataType::f32:
        return static_cast<float>(value);
    case DataType::f64:
        return value;
    case DataType::f16: // binary16, round to nearest even
        return runtime::round_to_half(value);
    case DataType::i8:
        return static_cast<std::int8_t>(static_cast<std::int64_t>(value));
    case DataType::i16:
        return static_cast<std::int16_t>(static_cast<std::int64_t>(value));
    case DataType::i32:
        return static_cast<std::int32_t>(static_cast<std::int64_t>(value));
    case DataType::i64:
        return static_cast<double>(static_cast<std::int64_t>(value));
    case DataType::u8:
        return static_cast<std::uint8_t>(static_cast<std::int64_t>(value));
    case DataType::u16:
        return static_cast<std::uint16_t>(static_cast<std::int64_t>(value));
    case DataType::u32:
        return static_cast<std::uint32_t>(static_cast<std::int64_t>(value));
    case DataType::u64:
        return static_cast<double>(static_cast<std::uint64_t>(value));
    }
    return value;
}

using support::floor_div;

// The kernel language's `%`: the remainder in [0, |b|) (docs/kernel-format.md), whatever the
// sign of b (unlike support::floor_mod, which takes the sign of b).
std::int64_t nonnegative_mod(std::int64_t a, std::int64_t b) {
    return support::floor_mod(a, b < 0 ? -b : b);
}

double initial_private(const ArrayStorage& array, std::int64_t element) {
    const std::uint64_t seed = runtime::buffer_seed(array.decl.name);
    const auto index = static_cast<std::uint64_t>(element);
    if (array.decl.dtype == DataType::f32)
        return runtime::initial_f32(seed, index);
    if (array.decl.dtype == DataType::f64)
        return runtime::initial_f64(seed, index);
    if (array.decl.dtype == DataType::f16)
        return runtime::double_from_half_bits(runtime::initial_f16_bits(seed, index));
    return to_dtype(array.decl.dtype, static_cast<double>(runtime::initial_integer(seed, index)));
}

using Storage = std::unordered_map<std::string, std::vector<double>>;

class Interpreter {
public:
    explicit Interpreter(const Schedule& schedule) : schedule_(schedule) {
        for (const auto& [name, value] : schedule.parameters)
            env_[name] = static_cast<double>(value);
        for (const auto& array : schedule.arrays) {
            layouts_[array.decl.name] = &array;
            if (array.decl.space == kernel::MemorySpace::global ||
                array.decl.space == kernel::MemorySpace::constant)
                global_[array.decl.name] = decode_buffer(array, initial_buffer_bytes(array));
        }
    }

    ReferenceResult run() {
        const auto& launch = schedule_.launch;
        for (std::int64_t bz = 0; bz < schedule_.grid[2]; ++bz)
            for (std::int64_t by = 0; by < schedule_.grid[1]; ++by)
                for (std::int64_t bx = 0; bx < schedule_.grid[0]; ++bx) {
                    block_ = {bx, by, bz};
                    shared_.clear();
                    threads_.clear();
                    for (const auto& array : schedule_.arrays)
                        if (array.decl.space == kernel::MemorySpace::shared)
                            shared_[array.decl.name].assign(
                                static_cast<size_t>(array.buffer_elements), 0.0);
                    for (std::int64_t tz = 0; tz < launch.block[2]; ++tz)
                        for (std::int64_t ty = 0; ty < launch.block[1]; ++ty)
                            for (std::int64_t tx = 0; tx < launch.block[0]; ++tx) {
                                Thread thread;
                                thread.id = {tx, ty, tz};
                                for (const auto& array : schedule_.arrays)
                                    if (array.decl.space == kernel::MemorySpace::private_) {
                                        auto& values = thread.private_arrays[array.decl.name];
                                        values.resize(static_cast<size_t>(array.buffer_elements));
                                        for (std::int64_t e = 0; e < array.buffer_elements; ++e)
                                            values[static_cast<size_t>(e)] =
                                                array.accumulator ? 0.0 : initial_private(array, e);
                                    }
                                threads_.push_back(std::move(thread));
                            }
                    for (std::int64_t fz = 0; fz < launch.fold[2]; ++fz)
                        for (std::int64_t fy = 0; fy < launch.fold[1]; ++fy)
                            for (std::int64_t fx = 0; fx < launch.fold[0]; ++fx) {
                                fold_ = {fx, fy, fz};
                                execute(schedule_.body);
                            }
                }
        ReferenceResult result;
        for (auto& [name, values] : global_)
            result.buffers[name] = std::move(values);
        return result;
    }

private:
    struct Thread {
        std::array<std::int64_t, 3> id{0, 0, 0};
        Storage private_arrays;
    };

    void execute(const std::vector<Step>& steps) {
        for (const auto& step : steps) {
            switch (step.kind) {
            case StepKind::loop:
                for (std::int64_t v = step.lower; v <= step.upper; ++v) {
                    env_[step.index] = static_cast<double>(v);
                    execute(step.body);
                }
                break;
            case StepKind::barrier: // lock step: every thread already finished the last piece
                break;
            case StepKind::compute:
                for (auto& thread : threads_) {
                    enter(thread);
                    if (!step.guard || evaluate(*step.guard) != 0.0)
                        store(step);
                }
                break;
            }
        }
    }

    void enter(Thread& thread) {
        thread_ = &thread;
        static const char* letters = "xyz";
        for (int a = 0; a < 3; ++a) {
            const auto k = static_cast<size_t>(a);
            env_[std::string("t") + letters[a]] = static_cast<double>(thread.id[k]);
            env_[std::string("b") + letters[a]] = static_cast<double>(block_[k]);
            env_[std::string("f") + letters[a]] = static_cast<double>(fold_[k]);
        }
        for (const auto& t : schedule_.thread_indices) {
            double value = static_cast<double>(t.form.constant);
            for (const auto& [symbol, coefficient] : t.form.coefficients)
                value += static_cast<double>(coefficient) * env_.at(symbol);
            env_[t.index] = value;
        }
    }

    std::vector<double>& storage(const ArrayStorage& array) {
        switch (array.decl.space) {
        case kernel::MemorySpace::shared:
            return shared_.at(array.decl.name);
        case kernel::MemorySpace::private_:
            return thread_->private_arrays.at(array.decl.name);
        default:
            return global_.at(array.decl.name);
        }
    }

    double& element(const Expr& ref) {
        const ArrayStorage& array = *layouts_.at(ref.name);
        auto cached = flat_indices_.find(&ref);
        if (cached == flat_indices_.end())
            cached = flat_indices_.emplace(&ref, flat_index(array, ref.operands)).first;
        const auto index = static_cast<std::int64_t>(evaluate(*cached->second));
        std::vector<double>& values = storage(array);
        if (index < 0 || index >= static_cast<std::int64_t>(values.size()))
            throw_input_error("kernel '" + schedule_.spec.name + "': access " + to_string(ref) +
                                  " reaches element " + std::to_string(index) +
                                  " outside its buffer of " + std::to_string(values.size()) +
                                  " elements",
                              {schedule_.spec.file, 0, 0, {}, {}});
        return values[static_cast<size_t>(index)];
    }

    void store(const Step& step) {
        const kernel::Statement& s = step.statement;
        const ArrayStorage& array = *layouts_.at(s.target->name);
        double& target = element(*s.target);
        double value = s.value ? evaluate(*s.value) : 1.0;
        const DataType type = array.decl.dtype;
        const bool integer = !kernel::is_floating(type);
        double result = value;
        if (s.atomic) {
            // The generated code converts an atomic's operands to the element type first.
            value = to_dtype(type, value);
            result = value;
            const auto as_int = [](double v) { return static_cast<std::int64_t>(v); };
            switch (*s.atomic) {
            case kernel::AtomicKind::add:
            case kernel::AtomicKind::inc:
                result = target + value;
                break;
            case kernel::AtomicKind::sub:
                result = target - value;
                break;
            case kernel::AtomicKind::min:
                result = std::min(target, value);
                break;
            case kernel::AtomicKind::max:
                result = std::max(target, value);
                break;
            case kernel::AtomicKind::exch:
                result = value;
                break;
            case kernel::AtomicKind::cas: // values compare: -0.0 == 0.0, NaN != NaN
                result = target == to_dtype(type, evaluate(*s.compare)) ? value : target;
                break;
            case kernel::AtomicKind::bit_and:
                result = static_cast<double>(as_int(target) & as_int(value));
                break;
            case kernel::AtomicKind::bit_or:
                result = static_cast<double>(as_int(target) | as_int(value));
                break;
            case kernel::AtomicKind::bit_xor:
                result = static_cast<double>(as_int(target) ^ as_int(value));
                break;
            }
        } else {
            switch (s.op) {
            case kernel::AssignOp::assign:
                break;
            case kernel::AssignOp::add_assign:
                result = target + value;
                break;
            case kernel::AssignOp::sub_assign:
                result = target - value;
                break;
            case kernel::AssignOp::mul_assign:
                result = target * value;
                break;
            case kernel::AssignOp::div_assign:
                result = integer ? static_cast<double>(floor_div(static_cast<std::int64_t>(target),
                                                                 static_cast<std::int64_t>(value)))
                                 : target / value;
                break;
            }
        }
        target = to_dtype(type, result);
    }

    // The one evaluation core (kernel/expression_evaluator.hpp) with this interpreter's
    // leaves: array elements, the thread's environment, division by the operands' type; &&
    // and || short-circuit (a guarded read must not happen).
    struct Semantics {
        using Value = double;
        static constexpr bool short_circuit = true;
        Interpreter& self;

        double integer(const Expr& e) { return static_cast<double>(e.integer_value); }
        double real(const Expr& e) { return e.real_value; }
        double variable(const Expr& e) {
            return self.layouts_.count(e.name) ? self.element(e) : self.env_.at(e.name);
        }
        double array_ref(const Expr& e) { return self.element(e); }
        double reduction(const Expr&) {
            KERNCAST_CHECK(false, "reductions are lowered before interpretation");
            return 0;
        }
        double negate(const Expr&, double a) { return -a; }
        bool truth(double a) { return a != 0.0; }
        double boolean(bool b) { return b ? 1.0 : 0.0; }
        double binary(const Expr& e, double a, double b) { return self.binary(e, a, b); }
        template <class Arguments> double call(const Expr& e, const Arguments& arguments) {
            return self.call(e, arguments());
        }
    };

    double evaluate(const Expr& e) {
        Semantics semantics{*this};
        return kernel::evaluate_with(e, semantics);
    }

    double binary(const Expr& e, double a, double b) {
        if (kernel::is_comparison(e.op))
            return kernel::compare(e.op, a, b);
        const bool integer = type_of(schedule_, e).is_integer();
        switch (e.op) {
        case BinaryOp::add:
            return a + b;
        case BinaryOp::sub:
            return a - b;
        case BinaryOp::mul:
            return a * b;
        case BinaryOp::div:
            if (integer) {
                if (b == 0.0)
                    throw_input_error("kernel '" + schedule_.spec.name +
                                      "': integer division by zero in " + to_string(e));
                return static_cast<double>(
                    floor_div(static_cast<std::int64_t>(a), static_cast<std::int64_t>(b)));
            }
            return a / b;
        case BinaryOp::mod:
            if (integer) {
                if (b == 0.0)
                    throw_input_error("kernel '" + schedule_.spec.name +
                                      "': remainder by zero in " + to_string(e));
                return static_cast<double>(
                    nonnegative_mod(static_cast<std::int64_t>(a), static_cast<std::int64_t>(b)));
            }
            return std::fmod(a, b);
        default:
            break;
        }
        return 0;
    }

    double call(const Expr& e, const std::vector<double>& args) {
        const std::string& f = e.name;
        if (const kernel::BuiltinFunction* function = kernel::find_builtin_function(f)) {
            KERNCAST_CHECK(function->accepts(args.size()), "validated call of " + f);
            return function->host(args);
        }
        throw_input_error("kernel '" + schedule_.spec.name +
                          "': the reference interpreter has no function '" + f + "'");
    }

    const Schedule& schedule_;
    std::unordered_map<std::string, const ArrayStorage*> layouts_;
    std::unordered_map<std::string, double> env_;
    std::unordered_map<const Expr*, kernel::ExprPtr> flat_indices_; // per array reference
    Storage global_;
    Storage shared_;
    std::vector<Thread> threads_;
    Thread* thread_ = nullptr;
    std::array<std::int64_t, 3> block_{0, 0, 0};
    std::array<std::int64_t, 3> fold_{0, 0, 0};
};

template <class T> void put(std::vector<unsigned char>& bytes, size_t element, T value) {
    std::memcpy(bytes.data() + element * sizeof(T), &value, sizeof(T));
}

template <class T> double get(const std::vector<unsigned char>& bytes, size_t element) {
    T value;
    std::memcpy(&value, bytes.data() + element * sizeof(T), sizeof(T));
    return static_cast<double>(value);
}

} // namespace

std::vector<unsigned char> initial_buffer_bytes(const ArrayStorage& array) {
    const std::uint64_t seed = runtime::buffer_seed(array.decl.name);
    const DataType type = array.decl.dtype;
    const auto n = static_cast<size_t>(array.buffer_elements);
    if (packed(type)) { // u32 words, hashed per word (runtime DType::u32)
        const size_t bytes = n * static_cast<size_t>(kernel::data_type_bytes(type));
        const size_t words = (bytes + 3) / 4;
        std::vector<unsigned char> data(words * 4);
        for (size_t w = 0; w < words; ++w)
            put(data, w, static_cast<std::uint32_t>(runtime::initial_integer(seed, w)));
        data.resize(bytes);
        return data;
    }
    std::vector<unsigned char> data(n * static_cast<size_t>(kernel::data_type_bytes(type)));
    for (size_t i = 0; i < n; ++i) {
        switch (type) {
        case DataType::f32:
            put(data, i, runtime::initial_f32(seed, i));
            break;
        case DataType::f64:
            put(data, i, runtime::initial_f64(seed, i));
            break;
        case DataType::f16:
            put(data, i, runtime::initial_f16_bits(seed, i));
            break;
        case DataType::i32:
            put(data, i, static_cast<std::int32_t>(runtime::initial_integer(seed, i)));
            break;
        case DataType::u32:
            put(data, i, static_cast<std::uint32_t>(runtime::initial_integer(seed, i)));
            break;
        case DataType::i64:
            put(data, i, static_cast<std::int64_t>(runtime::initial_integer(seed, i)));
            break;
        case DataType::u64:
            put(data, i, static_cast<std::uint64_t>(runtime::initial_integer(seed, i)));
            break;
        default:
            KERNCAST_CHECK(false, "unsupported buffer dtype");
        }
    }
    return data;
}

std::vector<double> decode_buffer(const ArrayStorage& array,
                                  const std::vector<unsigned char>& bytes) {
    const auto n = static_cast<size_t>(array.buffer_elements);
    const size_t size = static_cast<size_t>(kernel::data_type_bytes(array.decl.dtype));
    KERNCAST_CHECK(bytes.size() >= n * size, "buffer of '" + array.decl.name + "' is too short");
    std::vector<double> values(n);
    for (size_t i = 0; i < n; ++i) {
        switch (array.decl.dtype) {
        case DataType::i8:
            values[i] = get<std::int8_t>(bytes, i);
            break;
        case DataType::u8:
            values[i] = get<std::uint8_t>(bytes, i);
            break;
        case DataType::i16:
            values[i] = get<std::int16_t>(bytes, i);
            break;
        case DataType::u16:
            values[i] = get<std::uint16_t>(bytes, i);
            break;
        case DataType::i32:
            values[i] = get<std::int32_t>(bytes, i);
            break;
        case DataType::u32:
            values[i] = get<std::uint32_t>(bytes, i);
            break;
        case DataType::i64:
            values[i] = get<std::int64_t>(bytes, i);
            break;
        case DataType::u64:
            values[i] = get<std::uint64_t>(bytes, i);
            break;
        case DataType::f32:
            values[i] = get<float>(bytes, i);
            break;
        case DataType::f64:
            values[i] = get<double>(bytes, i);
            break;
        case DataType::f16:
            values[i] = runtime::double_from_half_bits(
                static_cast<std::uint16_t>(get<std::uint16_t>(bytes, i)));
            break;
        }
    }
    return values;
}

ReferenceResult run_reference(const Schedule& schedule) {
    return Interpreter(schedule).run();
}

} // namespace kerncast::codegen
