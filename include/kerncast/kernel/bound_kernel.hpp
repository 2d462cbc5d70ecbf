// BoundKernel: a kernel bound to one launch at fixed parameter values — the spec, the launch,
// the parameter values (the file's defaults with -D overrides applied, checked once), each
// array's extents at those values and the grid that covers the domain. Computed once by
// bind(); every model, the code generator and the runtime read it instead of carrying
// name/value pairs, positional vectors and re-evaluated shapes side by side.
#pragma once

#include "kerncast/kernel/dim3.hpp"
#include "kerncast/kernel/expression.hpp"
#include "kerncast/kernel/kernel_spec.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kerncast::kernel {

// -D name=value pairs, in the order given.
using ParameterOverrides = std::vector<std::pair<std::string, std::int64_t>>;

class BoundKernel {
public:
    // Binds `spec` to `launch` at its parameter defaults with `overrides` applied. Input
    // Errors (unchanged texts): an unknown parameter, a negative array extent, an empty
    // domain (KernelSpec::param_values), a violated assumption.
    static BoundKernel bind(const KernelSpec& spec, const LaunchConfig& launch,
                            const ParameterOverrides& overrides = {});

    const KernelSpec& spec() const { return spec_; }
    const LaunchConfig& launch() const { return launch_; }

    // Name/value pairs in spec order.
    const ParameterOverrides& named_values() const { return named_; }
    // The values alone, in spec order (KernelSpec::params; analysis::KernelAnalysis::parameters).
    const std::vector<std::int64_t>& values() const { return values_; }
    // The value of parameter `name`; an internal error when the kernel has no such parameter.
    std::int64_t value(const std::string& name) const;
    std::optional<std::int64_t> find_value(const std::string& name) const;
    // Parameter values for evaluate_integer (nullopt for any other name).
    IntegerLookup lookup() const;

    // Extents of `array` outermost first (empty for a scalar); internal error when unknown.
    const std::vector<std::int64_t>& extents(const std::string& array) const;
    // The array's alignment offset in elements (0 when it has none).
    std::int64_t offset(const std::string& array) const;
    // Elements of the array: the product of its extents (1 for a scalar). Input Error when the
    // product exceeds 64 bits (binding does not fail on it: counting needs no element count).
    std::int64_t elements(const std::string& array) const;

    // Blocks along x, y, z that cover the domain: per axis with a global index,
    // ceil((max - min + 1) / (block * fold)) over the index's range; with a block index, its
    // maximum + 1; otherwise 1. Empty domains give 0 along their mapped axes.
    const Dim3& grid() const { return grid_; }

private:
    struct ArrayExtents {
        std::vector<std::int64_t> extents;
        std::int64_t offset = 0;
        std::int64_t elements = 1;
        bool elements_overflow = false; // the product of the extents exceeds 64 bits
    };
    const ArrayExtents& array(const std::string& name) const;

    KernelSpec spec_;
    LaunchConfig launch_;
    ParameterOverrides named_;
    std::vector<std::int64_t> values_;
    std::map<std::string, ArrayExtents> arrays_;
    Dim3 grid_{1, 1, 1};
};

// Input Error naming the kernel file when bound.grid() exceeds CUDA's grid limits
// (launch_text.hpp: y and z 65535 blocks): the launch cannot run, so no model forecasts it.
// Not part of bind: explore binds the file's launch once to check -D values, and a sweep's
// other blocks may fit where the file's does not. The commands that forecast, count or
// generate one launch call it after bind.
void check_grid_limits(const BoundKernel& bound);
// The same for a grid computed elsewhere for this launch (the code generator's schedule).
void check_grid_limits(const BoundKernel& bound, const Dim3& grid);

// Called in a catch handler of work on `bound`: an input Error without a place (a count that
// overflows 64 bits deep in a model) is about this kernel at these values, and is rethrown
// naming the kernel file and, in a note, the parameter values; any other exception is
// rethrown as it is.
[[noreturn]] void rethrow_naming_kernel(const BoundKernel& bound);

// "nx = 4096, ny = 4096": parameter values as the notes of errors list them.
std::string parameters_note(const ParameterOverrides& values);

// The kernel's assumptions at `values`: an input Error naming the violated one (or the one
// that cannot be evaluated). BoundKernel::bind calls it.
void check_assumptions(const KernelSpec& spec, const ParameterOverrides& values);

} // namespace kerncast::kernel
