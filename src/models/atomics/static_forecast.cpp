// Static forecast of the shared-memory atomic load (docs/atomics.md, "Static forecast").
#include "kerncast/models/atomics/static_forecast.hpp"

#include "../../codegen/atomic_emulation.hpp"
#include "kerncast/error.hpp"
#include "kerncast/support/hash.hpp"
#include "kerncast/support/integer.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace kerncast::models::atomics {
namespace {

using kernel::Expr;
using kernel::ExprKind;

// A fixed-seed generator, so a forecast is the same number on every run.
using SplitMix = support::SplitMix64;

using support::floor_div;
using support::floor_mod;

// Evaluates an atomic's subscripts for one thread: variables from `values`, array reads from
// the input distribution.
class AddressEvaluator {
public:
    AddressEvaluator(const std::map<std::string, std::int64_t>& values,
                     InputDistribution distribution, SplitMix& rng, const std::string& text)
        : values_(values), distribution_(distribution), rng_(rng), text_(text) {}

    std::int64_t operator()(const Expr& e) const {
        switch (e.kind) {
        case ExprKind::integer:
            return e.integer_value;
        case ExprKind::variable: {
            const auto it = values_.find(e.name);
            if (it == values_.end())
                fail("the variable '" + e.name + "' has no value in a warp");
            return it->second;
        }
        case ExprKind::array_ref: {
            // Data read into the address: the input distribution decides its value.
            if (distribution_ == InputDistribution::uniform) {
                for (const auto& operand : e.operands)
                    (void)(*this)(*operand);
                return static_cast<std::int64_t>(rng_.next() % 256);
            }
            return e.operands.empty() ? 0 : (*this)(*e.operands.back());
        }
        case ExprKind::negate:
            return -(*this)(*e.operands.at(0));
        case ExprKind::binary: {
            const std::int64_t a = (*this)(*e.operands.at(0));
            const std::int64_t b = (*this)(*e.operands.at(1));
            switch (e.op) {
            case kernel::BinaryOp::add:
                return a + b;
            case kernel::BinaryOp::sub:
                return a - b;
            case kernel::BinaryOp::mul:
                return a * b;
            case kernel::BinaryOp::div:
                if (b == 0)
                    fail("division by zero");
                return floor_div(a, b);
            case kernel::BinaryOp::mod:
                if (b == 0)
                    fail("modulo by zero");
                return floor_mod(a, b);
            default:
                fail(std::string("the operator '") + kernel::binary_op_symbol(e.op) +
                     "' in an address");
            }
        }
        case ExprKind::call:
            if ((e.name == "min" || e.name == "max") && e.operands.size() == 2) {
                const std::int64_t a = (*this)(*e.operands[0]);
                const std::int64_t b = (*this)(*e.operands[1]);
                return e.name == "min" ? std::min(a, b) : std::max(a, b);
            }
            if (e.name == "abs" && e.operands.size() == 1)
                return std::abs((*this)(*e.operands[0]));
            fail("the function '" + e.name + "' in an address");
        case ExprKind::conditional: {
            const std::int64_t condition = (*this)(*e.operands.at(0));
            return condition ? (*this)(*e.operands.at(1)) : (*this)(*e.operands.at(2));
        }
        default:
            fail("a '" + kernel::to_string(e) + "' in an address");
        }
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw_input_error("cannot evaluate the shared atomic address " + text_ + ": " + what);
    }
    const std::map<std::string, std::int64_t>& values_;
    InputDistribution distribution_;
    SplitMix& rng_;
    std::string text_;
};

std::string machine_label(const MachineModel& machine) {
    return machine.identity.id.empty() ? machine.identity.name : machine.identity.id;
}

int required(const Known<int>& value, const MachineModel& machine, const char* field) {
    if (!value)
        throw_input_error("machine '" + machine_label(machine) + "' lacks " + field +
                          ", which the atomic forecast needs");
    return value->value;
}

bool is_integer_add_of_one(const kernel::StatementSpec& statement, kernel::DataType dtype) {
    const auto& parsed = statement.parsed;
    if (kernel::is_floating(dtype) || !parsed.atomic)
        return false;
    if (*parsed.atomic == kernel::AtomicKind::add)
        return parsed.value && parsed.value->kind == ExprKind::integer &&
               parsed.value->integer_value == 1;
    return false;
}

using ParameterMap = std::map<std::string, std::int64_t>;

std::int64_t evaluate_parameters(const Expr& e, const ParameterMap& param_values) {
    return kernel::evaluate_integer(e, [&](const std::string& name) -> std::optional<std::int64_t> {
        const auto it = param_values.find(name);
        if (it == param_values.end())
            return std::nullopt;
        return it->second;
    });
}

// The shared-memory bank layout and warp size the forecast reads from the machine.
struct BankLayout {
    int warp_size = 32;
    int banks = 0;
    int bank_width = 0; // bytes
};

BankLayout bank_layout(const MachineModel& machine) {
    BankLayout layout;
    layout.warp_size = machine.compute.warp_size ? machine.compute.warp_size->value : 32;
    layout.banks =
        required(machine.shared_memory_banks.banks, machine, "shared_memory_banks.banks");
    layout.bank_width = required(machine.shared_memory_banks.bank_width_bytes, machine,
                                 "shared_memory_banks.bank_width_bytes");
    return layout;
}

// Threads, blocks, shared memory and the occupancy of the launch.
void launch_occupancy(AtomicForecast& f, const analysis::KernelAnalysis& analysis,
                      const std::vector<std::int64_t>& params, const ParameterMap& param_values,
                      const MachineModel& machine, const ForecastOptions& options) {
    const auto& spec = analysis.spec;
    f.threads_per_block = analysis.threads_per_block;
    f.thread_blocks = analysis.thread_blocks.evaluate(params);
    for (const auto& array : spec.arrays) {
        if (array.space != kernel::MemorySpace::shared)
            continue;
        std::int64_t elements = 1;
        for (const auto& extent : array.shape)
            elements *= evaluate_parameters(*extent, param_values);
        f.shared_memory_per_block_bytes += elements * kernel::data_type_bytes(array.dtype);
    }
    LaunchResources resources;
    resources.threads_per_block = static_cast<int>(f.threads_per_block);
    resources.registers_per_thread = options.registers_per_thread > 0
                                         ? options.registers_per_thread
                                         : spec.registers_per_thread.value_or(0);
    resources.shared_memory_per_block_bytes = static_cast<int>(f.shared_memory_per_block_bytes);
    f.occupancy = compute_occupancy(resources, machine);
    if (resources.registers_per_thread == 0)
        f.notes.push_back("registers per thread unknown (the kernel file gives none): they do not "
                          "limit the resident warps");
}

// What the per-access steps share: the kernel, its parameter values, the machine's banks, the
// options and the fixed-seed generator (drawn from in access order).
struct ForecastContext {
    const analysis::KernelAnalysis& analysis;
    const std::vector<std::int64_t>& params;
    const ParameterMap& param_values;
    const BankLayout& banks;
    const ForecastOptions& options;
    SplitMix& rng;
};

// The values of the launch variables of one lane of warp 0 of block 0 at `iteration` of the
// first sequential loop, with the kernel's indices derived from them.
void set_lane_values(ParameterMap& values, const ForecastContext& c, int lane,
                     std::int64_t iteration,
                     const std::vector<const analysis::LaunchVariable*>& sequential) {
    const auto& block = c.analysis.launch.block;
    std::map<std::string, std::int64_t> launch_values{{"tx", lane % block[0]},
                                                      {"ty", (lane / block[0]) % block[1]},
                                                      {"tz", lane / (block[0] * block[1])},
                                                      {"bx", 0},
                                                      {"by", 0},
                                                      {"bz", 0},
                                                      {"fx", 0},
                                                      {"fy", 0},
                                                      {"fz", 0}};
    for (const auto* variable : sequential)
        launch_values[variable->name] = variable == sequential.front() ? iteration : 0;
    for (const auto& [name, value] : launch_values)
        values[name] = value;
    for (const auto& [index, form] : c.analysis.index_forms) {
        std::int64_t value = form.constant;
        for (const auto& [symbol, coefficient] : form.coefficients) {
            const auto it = launch_values.find(symbol);
            const auto param = c.param_values.find(symbol);
            value += coefficient * (it != launch_values.end()       ? it->second
                                    : param != c.param_values.end() ? param->second
                                                                    : 0);
        }
        values[index] = value;
    }
}

// e: the largest number of a warp's threads on one bank, warp 0 of block 0, averaged over the
// iterations of the first sequential loop and (uniform data) the sampled warps.
double bank_conflict_degree(AtomicForecast& f, const AtomicAccessForecast& row,
                            const analysis::AccessInfo& access, std::int64_t per_thread,
                            std::int64_t active, const ForecastContext& c) {
    const analysis::KernelAnalysis& analysis = c.analysis;
    const auto& statement = analysis.spec.statements.at(static_cast<std::size_t>(access.statement));
    const kernel::ArrayDecl* decl = analysis.spec.find_array(access.array);
    std::vector<std::int64_t> extents;
    for (const auto& extent : decl->shape)
        extents.push_back(evaluate_parameters(*extent, c.param_values));
    const std::int64_t offset =
        decl->offset ? evaluate_parameters(*decl->offset, c.param_values) : 0;
    std::vector<const analysis::LaunchVariable*> sequential;
    for (const auto& variable : analysis.variables)
        if (variable.kind == analysis::LaunchVariable::Kind::sequential &&
            std::find(access.domain_variables.begin(), access.domain_variables.end(),
                      variable.name) != access.domain_variables.end())
            sequential.push_back(&variable);
    std::int64_t fold_points = 1;
    for (auto points : analysis.launch.fold)
        fold_points *= points;
    const std::int64_t iterations =
        sequential.size() == 1 ? std::max<std::int64_t>(1, per_thread / fold_points) : 1;
    if (sequential.size() > 1)
        f.notes.push_back(row.text + ": e is taken at the first iteration of its " +
                          std::to_string(sequential.size()) + " sequential loops");
    const int samples = row.data_dependent && c.options.distribution == InputDistribution::uniform
                            ? c.options.uniform_warps
                            : 1;
    // Lanes of warp 0 that run the access (a domain smaller than a warp leaves some idle).
    const int lanes = static_cast<int>(std::min<std::int64_t>(
        {c.banks.warp_size, f.threads_per_block, std::max<std::int64_t>(1, active)}));
    double sum = 0;
    int count = 0;
    ParameterMap values = c.param_values;
    const kernel::Expr& target = *statement.parsed.target;
    for (std::int64_t iteration = 0; iteration < iterations; ++iteration)
        for (int sample = 0; sample < samples; ++sample) {
            std::vector<int> load(static_cast<std::size_t>(c.banks.banks), 0);
            for (int lane = 0; lane < lanes; ++lane) {
                set_lane_values(values, c, lane, iteration, sequential);
                const AddressEvaluator evaluate(values, c.options.distribution, c.rng, row.text);
                std::int64_t element = 0;
                for (std::size_t d = 0; d < target.operands.size(); ++d) {
                    const std::int64_t extent = d < extents.size() ? extents[d] : 1;
                    element = element * extent + evaluate(*target.operands[d]);
                }
                const std::int64_t byte =
                    (element + offset) * kernel::data_type_bytes(access.dtype);
                const std::int64_t bank =
                    ((byte / c.banks.bank_width) % c.banks.banks + c.banks.banks) % c.banks.banks;
                ++load[static_cast<std::size_t>(bank)];
            }
            sum += *std::max_element(load.begin(), load.end());
            ++count;
        }
    return count ? sum / count : 0;
}

// Totals over the shared atomics that decide the operation grid and n^.
struct AtomicTotals {
    std::int64_t active_threads = 0; // the most threads any shared atomic runs on
    bool all_integer_increments = true;
    bool any_fetch_and_op = false;
    double weighted_threads = 0;
};

// One shared atomic: its warp-instructions over the launch and its e.
AtomicAccessForecast forecast_access(AtomicForecast& f, AtomicTotals& totals,
                                     const analysis::AccessInfo& access, const ForecastContext& c) {
    const auto& spec = c.analysis.spec;
    const auto& statement = spec.statements.at(static_cast<std::size_t>(access.statement));
    KERNCAST_CHECK(spec.find_array(access.array) != nullptr, "an access to an undeclared array");
    AtomicAccessForecast row;
    row.statement = access.statement;
    row.text = access.text;
    row.operation = std::string("atomic:") + kernel::atomic_kind_name(*access.atomic);
    row.dtype = kernel::data_type_name(access.dtype);
    row.compare_and_swap = *access.atomic == kernel::AtomicKind::cas ||
                           codegen::detail::needs_cas_loop(access.dtype, *access.atomic);
    row.data_dependent = access.indirect;
    // Executions per thread K over the threads that run the access; their warps issue K
    // warp-instructions each (the threads taken as consecutive: ceil(threads / 32) warps).
    const std::int64_t executions = access.count_per_work_item.evaluate(c.params);
    const std::int64_t active = analysis::access_threads(c.analysis, access, c.params);
    totals.active_threads = std::max(totals.active_threads, active);
    const std::int64_t per_thread = active > 0 ? executions / active : 0;
    row.warp_instructions = (active + c.banks.warp_size - 1) / c.banks.warp_size * per_thread;
    if (statement.condition) {
        row.warp_instructions = executions;
        f.notes.push_back("statement " + std::to_string(access.statement) + " (" + row.text +
                          ") has a where-condition: each execution is counted as its own "
                          "warp-instruction (an upper bound; exact for one thread per warp) "
                          "and its e assumes all lanes active");
    }
    if (!row.compare_and_swap) {
        totals.any_fetch_and_op = true;
        if (!is_integer_add_of_one(statement, access.dtype))
            totals.all_integer_increments = false;
    }
    row.active_threads = bank_conflict_degree(f, row, access, per_thread, active, c);
    return row;
}

// n^: blocks an SM holds at once (the occupancy limit, at most its share of the grid) times
// the warps of a block that have threads running the atomics.
void resident_warps(AtomicForecast& f, std::int64_t active_threads, int warp_size) {
    f.sms_used = static_cast<int>(std::min<std::int64_t>(f.sm_count, f.thread_blocks));
    const std::int64_t blocks_per_sm = std::min<std::int64_t>(
        f.occupancy.active_blocks_per_sm, (f.thread_blocks + f.sms_used - 1) / f.sms_used);
    const std::int64_t threads_per_active_block =
        std::min(f.threads_per_block, (active_threads + f.thread_blocks - 1) / f.thread_blocks);
    const std::int64_t warps_per_block = std::min<std::int64_t>(
        f.occupancy.warps_per_block, (threads_per_active_block + warp_size - 1) / warp_size);
    f.resident_warps = static_cast<double>(blocks_per_sm * warps_per_block);
}

// The fetch-and-op grid the forecast is read with (Dong & Pai sec. 2).
void choose_operation(AtomicForecast& f, const AtomicTotals& totals, const MachineModel& machine,
                      const ForecastOptions& options) {
    if (!options.operation.empty()) {
        f.operation = options.operation;
        f.operation_reason = "--operation";
    } else if (totals.any_fetch_and_op && totals.all_integer_increments &&
               machine.identity.cc_major >= 8) {
        f.operation = "popc_inc";
        f.operation_reason = "integer +1 whose result is unused on compute capability >= 8.0 "
                             "compiles to ATOMS.POPC.INC (Dong & Pai sec. 2)";
    } else {
        f.operation = "add";
        f.operation_reason = totals.any_fetch_and_op
                                 ? "a returning fetch-and-op (ATOMS.ADD and kin)"
                                 : "CAS only: the add grid's c = n column";
    }
}

} // namespace

const char* distribution_name(InputDistribution distribution) {
    return distribution == InputDistribution::solid ? "solid" : "uniform";
}

std::optional<InputDistribution> parse_distribution(const std::string& name) {
    if (name == "solid")
        return InputDistribution::solid;
    if (name == "uniform")
        return InputDistribution::uniform;
    return std::nullopt;
}

AtomicForecast forecast_atomics(const analysis::KernelAnalysis& analysis,
                                const kernel::BoundKernel& bound, const MachineModel& machine,
                                const ForecastOptions& options) {
    KERNCAST_CHECK(bound.launch() == analysis.launch,
                   "the bound kernel is not the analysis' launch");
    const std::vector<std::int64_t>& params = bound.values();
    const auto& spec = analysis.spec;
    AtomicForecast f;
    f.kernel = spec.name;
    f.distribution = distribution_name(options.distribution);
    const BankLayout banks = bank_layout(machine);
    f.sm_count = required(machine.compute.sm_count, machine, "compute.sm_count");

    ParameterMap param_values;
    for (std::size_t i = 0; i < analysis.parameters.size(); ++i)
        param_values[analysis.parameters[i]] = params.at(i);
    launch_occupancy(f, analysis, params, param_values, machine, options);

    SplitMix rng{options.seed};
    const ForecastContext context{analysis, params, param_values, banks, options, rng};
    AtomicTotals totals;
    for (const auto& access : analysis.accesses) {
        if (access.direction != analysis::Direction::atomic ||
            access.space != kernel::MemorySpace::shared)
            continue;
        AtomicAccessForecast row = forecast_access(f, totals, access, context);
        if (row.compare_and_swap)
            f.cas_jobs += static_cast<double>(row.warp_instructions);
        f.jobs += static_cast<double>(row.warp_instructions);
        totals.weighted_threads += row.active_threads * static_cast<double>(row.warp_instructions);
        f.accesses.push_back(row);
    }
    if (f.accesses.empty())
        throw_input_error("kernel '" + spec.name +
                          "' has no shared-memory atomics: nothing for "
                          "the atomic-unit model to forecast");
    resident_warps(f, totals.active_threads, banks.warp_size);
    if (f.cas_jobs > 0)
        f.notes.push_back("a CAS loop is counted as one CAS warp-instruction per execution: its "
                          "retries under contention depend on the data and are not counted "
                          "(a lower bound)");
    choose_operation(f, totals, machine, options);

    const double sms = f.sms_used;
    f.input.operation = f.operation;
    f.input.active_threads = f.jobs > 0 ? totals.weighted_threads / f.jobs : 0;
    f.input.sms.push_back(
        SmAtomicCounts{"average SM (" + std::to_string(f.sms_used) + " SMs with blocks)",
                       (f.jobs - f.cas_jobs) / sms, f.cas_jobs / sms, f.resident_warps,
                       options.kernel_cycles.value_or(0.0)});
    return f;
}

} // namespace kerncast::models::atomics
