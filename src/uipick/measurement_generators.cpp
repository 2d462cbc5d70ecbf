// Microbenchmark generators of Stevens & Klöckner sec. 7.1.2 ("Measurement Kernel Design"),
// each exercising one feature; the other features they contain are counted exactly, so a
// model calibrated on them sees everything they do.
#include "generator_sets.hpp"
#include "kerncast/uipick/kernel_collection.hpp"
#include "kernel_builder.hpp"

#include <algorithm>

namespace kerncast::uipick {

using kernel::MemorySpace;

VariantArgument integer_argument(const std::string& name, std::vector<std::string> defaults,
                                 const std::string& description) {
    return {name, std::move(defaults), is_positive_integer, "positive integers", description};
}

VariantArgument choice_argument(const std::string& name, std::vector<std::string> defaults,
                                std::vector<std::string> allowed, const std::string& description) {
    std::string listed;
    for (const auto& value : allowed)
        listed += (listed.empty() ? "" : ", ") + value;
    return {name, std::move(defaults),
            [allowed](const std::string& value) {
                return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
            },
            listed, description};
}

VariantArgument dtype_argument(std::vector<std::string> defaults) {
    return {"dtype", std::move(defaults), is_float_dtype, "float16, float32, float64",
            "element type"};
}

std::int64_t integer_value(const VariantValues& values, const std::string& argument) {
    return std::stoll(value_of(values, argument));
}

namespace {

std::string str(std::int64_t value) {
    return std::to_string(value);
}

// A skipped variant: nvbench's "skip with a reason" for a point of the product.
VariantResult skip(const std::string& reason) {
    return {std::nullopt, reason};
}

bool block_too_large(std::int64_t threads) {
    return threads > 1024;
}

// Global access pattern with AFR 1 (sec. 7.1.2, "Global memory access", first variety): each
// work-item loads one element from each of `narrays` inputs and stores their sum,
// out[p] = in0[p] + in1[p] + ..., every element touched once. layout xfast: p = [i, j]
// (lid strides {0:1, 1:n}, gid strides {0:lsize_0, 1:lsize_1*n}); yfast: p = [j, i] (lid
// strides {0:n, 1:1}, gid strides {0:lsize_0*n, 1:lsize_1}).
Generator gmem_pattern() {
    Generator g;
    g.name = "gmem_pattern";
    g.tags = {"gmem_pattern", "gmem", "microbenchmark"};
    g.description = "global loads and one store, every element once (AFR 1)";
    g.source = "Stevens & Klöckner sec. 7.1.2, global memory access with AFR = 1";
    g.arguments = {dtype_argument({"float32", "float64"}),
                   integer_argument("lsize_0", {"16"}, "work-group size along x"),
                   integer_argument("lsize_1", {"16"}, "work-group size along y"),
                   choice_argument("layout", {"xfast", "yfast"}, {"xfast", "yfast"},
                                   "xfast: lid(0) stride 1; yfast: lid(0) stride n"),
                   choice_argument("narrays", {"1", "2"}, {"1", "2", "3", "4", "5", "6", "7", "8"},
                                   "number of input arrays"),
                   integer_argument("n", {"2048", "4096"}, "arrays are n x n")};
    g.create = [](const VariantValues& v) -> VariantResult {
        const auto l0 = integer_value(v, "lsize_0"), l1 = integer_value(v, "lsize_1");
        const auto n = integer_value(v, "n");
        const auto arrays = integer_value(v, "narrays");
        if (block_too_large(l0 * l1))
            return skip("more than 1024 threads per work-group");
        if (n % l0 != 0 || n % l1 != 0)
            return skip("n is not a multiple of the work-group size (groups must fit)");
        const auto dtype = dtype_of(value_of(v, "dtype"));
        const std::string at = value_of(v, "layout") == "xfast" ? "[i, j]" : "[j, i]";
        KernelBuilder b(variant_kernel_name("gmem_pattern", v),
                        "global access pattern with AFR 1, " + value_of(v, "layout"));
        b.param("n", n)
            .assume("n % " + str(l0) + " == 0")
            .assume("n % " + str(l1) + " == 0")
            .assume("n >= " + str(std::max(l0, l1)));
        std::string sum;
        for (std::int64_t k = 0; k < arrays; ++k) {
            b.array("in" + str(k), dtype, {"n", "n"});
            sum += (k ? " + " : "") + ("in" + str(k) + at);
        }
        b.array("out", dtype, {"n", "n"})
            .domain("[n] -> { [i, j] : 0 <= i < n and 0 <= j < n }")
            .thread(0, "j")
            .thread(1, "i")
            .block(l0, l1)
            .statement("out" + at + " = " + sum);
        return {b.build(), ""};
    };
    return g;
}

// The update of variable k in the arithmetic kernels: every update reads itself and other
// variables last written 8, 16 or 24 updates ago, so no update depends on the four before it
// (sec. 7.1.2 after SHOC's MaxFlops, Danalis et al. 2010).
std::string flops_update(const std::string& op, int k) {
    const std::string self = "v[" + std::to_string(k) + "]";
    const std::string p = "v[" + std::to_string((k + 16) % 32) + "]";
    const std::string q = "v[" + std::to_string((k + 8) % 32) + "]";
    if (op == "add")
        return self + " = " + self + " + " + p;
    if (op == "mul")
        return self + " = " + self + "*" + p;
    if (op == "div")
        return self + " = " + self + "/" + p;
    return self + " = " + self + "*" + p + " + " + q; // madd
}

// Arithmetic throughput (sec. 7.1.2, "Arithmetic operations"): 32 private variables, a loop
// of m iterations each updating every variable `unroll` times with the operation, then the
// sum of the 32 stored "according to a user-specified memory access pattern": the work-items
// form rows of lid_stride_1 elements (lid(0) stride 1, lid(1) stride lid_stride_1), the
// tags of the paper's example (sec. 2.2: flops_madd_pattern ... lid_stride_1:2048).
Generator flops_pattern(const std::string& op) {
    Generator g;
    g.name = "flops_" + op + "_pattern";
    g.tags = {g.name, "flops", "microbenchmark"};
    g.description = "arithmetic throughput: 32 independent chains of " + op + ", unrolled";
    g.source = "Stevens & Klöckner sec. 2.2, 7.1.2, arithmetic operations (after SHOC MaxFlops)";
    g.arguments = {dtype_argument({"float32", "float64"}),
                   integer_argument("lsize_0", {"256"}, "work-group size along x"),
                   integer_argument("lsize_1", {"1"}, "work-group size along y"),
                   choice_argument("groups_fit", {"True"}, {"True"},
                                   "work-groups divide the rows (only True is implemented)"),
                   choice_argument("lid_stride_0", {"1"}, {"1"}, "lid(0) stride of x and y"),
                   integer_argument("lid_stride_1", {"4096"}, "lid(1) stride: the row length"),
                   integer_argument("nelements", {"1048576"}, "work-items"),
                   integer_argument("m", {"256", "512"}, "loop iterations"),
                   integer_argument("unroll", {"4"}, "updates of each variable per iteration")};
    g.create = [op](const VariantValues& v) -> VariantResult {
        const auto l0 = integer_value(v, "lsize_0"), l1 = integer_value(v, "lsize_1");
        const auto row = integer_value(v, "lid_stride_1"), n = integer_value(v, "nelements");
        const auto unroll = integer_value(v, "unroll");
        if (block_too_large(l0 * l1))
            return skip("more than 1024 threads per work-group");
        if (row % l0 != 0 || n % (row * l1) != 0)
            return skip("lsize_0 must divide lid_stride_1 and lid_stride_1*lsize_1 nelements "
                        "(groups must fit)");
        if (unroll > 64)
            return skip("unroll above 64 (the paper's factor) makes huge kernel files");
        const auto dtype = dtype_of(value_of(v, "dtype"));
        const std::string rows = "nelements / " + str(row);
        KernelBuilder b(variant_kernel_name("flops_" + op + "_pattern", v),
                        "32 independent " + op + " chains per work-item");
        b.param("nelements", n)
            .param("m", integer_value(v, "m"))
            .assume("nelements % " + str(row * l1) + " == 0")
            .assume("nelements >= " + str(row * l1))
            .assume("m >= 1")
            .array("x", dtype, {rows, str(row)})
            .array("y", dtype, {rows, str(row)})
            .array("s", dtype, {}, MemorySpace::private_)
            .array("v", dtype, {"32"}, MemorySpace::private_)
            .domain("[nelements, m] -> { [i, j, it] : 0 <= " + str(row) +
                    "*i < nelements and 0 <= j < " + str(row) + " and 0 <= it < m }")
            .thread(0, "j")
            .thread(1, "i")
            .block(l0, l1)
            .statement("s = x[i, j]", {}, "load")
            .statement("v[0] = s");
        for (int k = 1; k < 32; ++k)
            b.statement("v[" + std::to_string(k) + "] = s + " + std::to_string(k));
        for (std::int64_t u = 0; u < unroll; ++u)
            for (int k = 0; k < 32; ++k)
                b.statement(flops_update(op, k), {"it"});
        std::string sum;
        for (int k = 0; k < 32; ++k)
            sum += (k ? " + v[" : "v[") + std::to_string(k) + "]";
        b.statement("y[i, j] = " + sum, {}, "store");
        return {b.build(), ""};
    };
    return g;
}

// Shared-memory moves (sec. 7.1.2, "Local memory access"): a rows x lsize_0 shared array;
// per iteration every row moves to the next one in two phases separated by barriers (even
// rows, then odd rows), each work-item reading the element of work-item lsize_0-1-tx of
// the previous phase: no write races, no value a compiler can forward, lid(0) stride 1 for
// the stores and -1 for the loads, so a warp touches 32 consecutive words (no bank
// conflicts for 4-byte elements).
VariantResult shared_moves(const VariantValues& v, const std::string& generator) {
    const auto l0 = integer_value(v, "lsize_0"), n = integer_value(v, "nelements");
    const auto rows = integer_value(v, "rows");
    const auto dtype = dtype_of(value_of(v, "dtype"));
    if (block_too_large(l0))
        return skip("more than 1024 threads per work-group");
    if (n % l0 != 0)
        return skip("nelements is not a multiple of lsize_0 (groups must fit)");
    if (rows * l0 * kernel::data_type_bytes(dtype) > 48 * 1024)
        return skip("the shared array exceeds 48 KiB");
    KernelBuilder b(variant_kernel_name(generator, v),
                    "shared-memory moves, " + str(rows) + " rows");
    b.param("nelements", n)
        .param("m", integer_value(v, "m"))
        .assume("nelements % " + str(l0) + " == 0")
        .assume("nelements >= " + str(l0))
        .assume("m >= 1")
        .array("x", dtype, {"nelements"})
        .array("y", dtype, {"nelements"})
        .array("s", dtype, {}, MemorySpace::private_)
        .array("t", dtype, {str(rows), str(l0)}, MemorySpace::shared)
        .domain("[nelements, m] -> { [i, it] : 0 <= i < nelements and 0 <= it < m }")
        .thread(0, "i")
        .block(l0)
        .statement("s = x[i]", {}, "load");
    for (std::int64_t r = 0; r < rows; ++r)
        b.statement("t[" + str(r) + ", tx] = s");
    b.barrier();
    const std::string mirror = str(l0 - 1) + " - tx";
    for (std::int64_t phase = 0; phase < 2; ++phase) {
        for (std::int64_t r = phase; r < rows; r += 2)
            b.statement("t[" + str((r + 1) % rows) + ", tx] = t[" + str(r) + ", " + mirror + "]",
                        {"it"});
        b.barrier({"it"});
    }
    b.statement("y[i] = t[0, tx]", {}, "store");
    return {b.build(), ""};
}

Generator lmem_pattern() {
    Generator g;
    g.name = "lmem_pattern";
    g.tags = {"lmem_pattern", "lmem", "microbenchmark"};
    g.description = "shared-memory loads and stores without bank conflicts";
    g.source = "Stevens & Klöckner sec. 7.1.2, local memory access";
    g.arguments = {dtype_argument({"float32"}),
                   integer_argument("lsize_0", {"256"}, "work-group size (1D)"),
                   integer_argument("nelements", {"1048576"}, "work-items"),
                   integer_argument("m", {"128", "256"}, "loop iterations"),
                   choice_argument("rows", {"8"}, {"2", "4", "8", "16"},
                                   "shared rows: rows moves and 2 barriers per iteration")};
    g.create = [](const VariantValues& v) { return shared_moves(v, "lmem_pattern"); };
    return g;
}

// The overlap kernel of sec. 7.4: one global load, m shared-memory load-store sequences
// (here: 2 moves and 2 barriers per iteration), one global store; varying m moves the kernel
// from global-memory bound to on-chip bound, which calibrates the overlap step of eq. (5)-(6).
Generator lmem_overlap() {
    Generator g;
    g.name = "lmem_overlap";
    g.tags = {"lmem_overlap", "overlap", "microbenchmark"};
    g.description = "global load, m shared-memory moves, global store (on-chip/global overlap)";
    g.source = "Stevens & Klöckner sec. 7.4 (Figure 5)";
    g.arguments = {dtype_argument({"float32"}),
                   integer_argument("lsize_0", {"256"}, "work-group size (1D)"),
                   integer_argument("nelements", {"4194304"}, "work-items"),
                   integer_argument("m", {"1", "2", "4", "6", "8", "12", "16", "24", "32"},
                                    "loop iterations (2 shared moves each)"),
                   choice_argument("rows", {"2"}, {"2", "4", "8", "16"}, "shared rows")};
    g.create = [](const VariantValues& v) { return shared_moves(v, "lmem_overlap"); };
    return g;
}

// Barriers (sec. 7.1.2, "Other features"): `unroll` barriers per iteration of m, with one
// global load and store per work-item.
Generator barrier_pattern() {
    Generator g;
    g.name = "barrier_pattern";
    g.tags = {"barrier_pattern", "barrier", "microbenchmark"};
    g.description = "local barriers in a loop";
    g.source = "Stevens & Klöckner sec. 7.1.2, other features (local barriers)";
    g.arguments = {integer_argument("lsize_0", {"256"}, "work-group size (1D)"),
                   integer_argument("nelements", {"1048576"}, "work-items"),
                   integer_argument("m", {"256", "512"}, "loop iterations"),
                   integer_argument("unroll", {"4"}, "barriers per iteration")};
    g.create = [](const VariantValues& v) -> VariantResult {
        const auto l0 = integer_value(v, "lsize_0"), n = integer_value(v, "nelements");
        if (block_too_large(l0))
            return skip("more than 1024 threads per work-group");
        if (n % l0 != 0)
            return skip("nelements is not a multiple of lsize_0 (groups must fit)");
        KernelBuilder b(variant_kernel_name("barrier_pattern", v), "barriers in a loop");
        b.param("nelements", n)
            .param("m", integer_value(v, "m"))
            .assume("nelements % " + str(l0) + " == 0")
            .assume("nelements >= " + str(l0))
            .assume("m >= 1")
            .array("x", kernel::DataType::f32, {"nelements"})
            .array("y", kernel::DataType::f32, {"nelements"})
            .domain("[nelements, m] -> { [i, it] : 0 <= i < nelements and 0 <= it < m }")
            .thread(0, "i")
            .block(l0);
        for (std::int64_t u = 0; u < integer_value(v, "unroll"); ++u)
            b.barrier({"it"});
        b.statement("y[i] = x[i]");
        return {b.build(), ""};
    };
    return g;
}

// Empty kernels (sec. 7.1.2, "Other features"): ngroups work-groups that do nothing but one
// store by work-item 0 of the kernel (a kernel file needs a statement), for the kernel and
// work-group launch overheads; down to 16 work-groups as in the paper.
Generator empty_kernel() {
    Generator g;
    g.name = "empty_kernel";
    g.tags = {"empty_kernel", "launch", "microbenchmark"};
    g.description = "ngroups work-groups doing nothing (launch overheads)";
    g.source = "Stevens & Klöckner sec. 7.1.2, other features (empty kernel)";
    g.arguments = {integer_argument("lsize_0", {"256"}, "work-group size (1D)"),
                   integer_argument("ngroups", {"16", "256", "4096", "65536"}, "work-groups")};
    g.create = [](const VariantValues& v) -> VariantResult {
        const auto l0 = integer_value(v, "lsize_0");
        if (block_too_large(l0))
            return skip("more than 1024 threads per work-group");
        KernelBuilder b(variant_kernel_name("empty_kernel", v), "an empty kernel");
        b.param("ngroups", integer_value(v, "ngroups"))
            .assume("ngroups >= 1")
            .array("y", kernel::DataType::f32, {"1"})
            .domain("[ngroups] -> { [i] : 0 <= i < " + str(l0) + "*ngroups }")
            .thread(0, "i")
            .block(l0)
            .statement("y[i] = 0", {}, "", "i == 0");
        return {b.build(), ""};
    };
    return g;
}

} // namespace

std::vector<Generator> measurement_generators() {
    return {gmem_pattern(),        flops_pattern("add"), flops_pattern("mul"),
            flops_pattern("madd"), flops_pattern("div"), lmem_pattern(),
            lmem_overlap(),        barrier_pattern(),    empty_kernel()};
}

} // namespace kerncast::uipick
