// The application kernels of Stevens & Klöckner sec. 8 as UIPICK generators (the variants
// that examples/kernels/ holds at 16x16), and the measurement kernels made from them by work
// removal (sec. 7.1.1-7.1.2: "generators that use the work removal approach ... first
// construct the original application kernel ... then strip away operations").
#include "generator_sets.hpp"
#include "kerncast/kernel/kernel_writer.hpp"
#include "kerncast/uipick/kernel_collection.hpp"
#include "kerncast/uipick/work_removal.hpp"
#include "kernel_builder.hpp"

#include <algorithm>
#include <numeric>

namespace kerncast::uipick {

using kernel::MemorySpace;

namespace {

std::string str(std::int64_t value) {
    return std::to_string(value);
}

VariantResult skip(const std::string& reason) {
    return {std::nullopt, reason};
}

// Square matrix multiplication, c = a*b with n x n matrices (sec. 2.1, 8.3): with prefetch,
// lsize x lsize tiles of a and b in shared memory and two barriers per k tile (the loopy
// kernel of sec. 7.1.1); without, the k loop reads a and b directly.
VariantResult matmul_sq(const VariantValues& v, const std::string& name) {
    const auto l0 = integer_value(v, "lsize_0"), l1 = integer_value(v, "lsize_1");
    const auto n = integer_value(v, "n");
    const bool prefetch = value_of(v, "prefetch") == "True";
    if (l0 * l1 > 1024)
        return skip("more than 1024 threads per work-group");
    if (prefetch && l0 != l1)
        return skip("prefetching square tiles needs lsize_0 == lsize_1");
    if (n % l0 != 0 || n % l1 != 0)
        return skip("n is not a multiple of the work-group size (groups must fit)");
    const auto dtype = dtype_of(value_of(v, "dtype"));
    KernelBuilder b(name, std::string("square matmul, ") + (prefetch ? "" : "no ") + "prefetch");
    b.param("n", n)
        .assume("n % " + str(l0) + " == 0")
        .assume("n % " + str(l1) + " == 0")
        .assume("n >= " + str(std::max(l0, l1)))
        .array("a", dtype, {"n", "n"})
        .array("b", dtype, {"n", "n"})
        .array("c", dtype, {"n", "n"})
        .thread(0, "j")
        .thread(1, "i")
        .block(l0, l1);
    if (!prefetch) {
        b.domain("[n] -> { [i, j, k] : 0 <= i < n and 0 <= j < n and 0 <= k < n }")
            .statement("c[i, j] = sum(k, a$aLD[i, k]*b$bLD[k, j])");
        return {b.build(), ""};
    }
    const std::string t = str(l0);
    b.array("a_tile", dtype, {t, t}, MemorySpace::shared)
        .array("b_tile", dtype, {t, t}, MemorySpace::shared)
        .domain("[n] -> { [i, j, ko, kk] : 0 <= i < n and 0 <= j < n and 0 <= " + t +
                "*ko < n and 0 <= kk < " + t + " }")
        .statement("a_tile[ty, tx] = a$aLD[i, " + t + "*ko + tx]", {"ko"}, "fetch_a")
        .statement("b_tile[ty, tx] = b$bLD[" + t + "*ko + ty, j]", {"ko"}, "fetch_b")
        .barrier({"ko"})
        .statement("c[i, j] = sum([ko, kk], a_tile[ty, kk]*b_tile[kk, tx])")
        .barrier({"ko"});
    return {b.build(), ""};
}

// DG differentiation res[m, k, i] = sum(j, diff_mat[m, i, j]*u[k, j]) (sec. 8.4), k on x
// (lsize_0), i on y (lsize_1). Variant 1: no prefetch; 2: lsize_0 x lsize_1 tiles of u
// (j split by lsize_1, the m loop inside the tile loop with privatised accumulators);
// 3: lsize_1 x lsize_0 tiles of diff_mat (j split by lsize_0); 4: as 3 with u and res
// transposed (lid(0) stride 1).
VariantResult dg_diff(const VariantValues& v, const std::string& name) {
    const auto l0 = integer_value(v, "lsize_0"), l1 = integer_value(v, "lsize_1");
    const auto variant = integer_value(v, "variant");
    const auto nelements = integer_value(v, "nelements");
    const auto nodes = integer_value(v, "nunit_nodes");
    if (l0 * l1 > 1024)
        return skip("more than 1024 threads per work-group");
    if (nelements % l0 != 0 || nodes % l1 != 0 || (variant != 1 && nodes % l0 != 0))
        return skip("nelements or nunit_nodes is not a multiple of the work-group size");
    const auto dtype = dtype_of(value_of(v, "dtype"));
    const std::string s0 = str(l0), s1 = str(l1);
    const std::string split = variant == 2 ? s1 : s0; // j tile of the prefetch
    KernelBuilder b(name, "DG differentiation, variant " + str(variant));
    b.param("nelements", nelements)
        .param("nmatrices", integer_value(v, "nmatrices"))
        .param("nunit_nodes", nodes)
        .assume("nelements % " + s0 + " == 0")
        .assume("nunit_nodes % " + (variant == 1 ? s1 : str(std::lcm(l0, l1))) + " == 0")
        .assume("nelements >= " + s0)
        .assume("nunit_nodes >= " + str(std::max(l0, l1)))
        .assume("nmatrices >= 1")
        .array("diff_mat", dtype, {"nmatrices", "nunit_nodes", "nunit_nodes"});
    if (variant == 4)
        b.array("u", dtype, {"nunit_nodes", "nelements"})
            .array("res", dtype, {"nmatrices", "nunit_nodes", "nelements"});
    else
        b.array("u", dtype, {"nelements", "nunit_nodes"})
            .array("res", dtype, {"nmatrices", "nelements", "nunit_nodes"});
    b.thread(0, "k").thread(1, "i").block(l0, l1);
    const std::string params = "[nelements, nmatrices, nunit_nodes] -> ";
    if (variant == 1) {
        b.domain(params + "{ [m, k, i, j] : 0 <= m < nmatrices and 0 <= k < nelements and 0 <= "
                          "i < nunit_nodes and 0 <= j < nunit_nodes }")
            .statement("res[m, k, i] = sum(j, diff_mat[m, i, j]*u[k, j])");
        return {b.build(), ""};
    }
    b.domain(params +
             "{ [m, k, i, jo, jj] : 0 <= m < nmatrices and 0 <= k < nelements and 0 "
             "<= i < nunit_nodes and 0 <= jo and 0 <= jj < " +
             split + " and " + split + "*jo + jj < nunit_nodes }");
    if (variant == 2) {
        b.array("u_tile", dtype, {s0, s1}, MemorySpace::shared)
            .statement("u_tile[tx, ty] = u[k, " + s1 + "*jo + ty]", {"jo"}, "fetch_u")
            .barrier({"jo"})
            .statement("res[m, k, i] = sum([jo, jj], diff_mat[m, i, " + s1 +
                       "*jo + jj]*u_tile[tx, jj])")
            .barrier({"jo"});
        return {b.build(), ""};
    }
    const std::string u = variant == 3 ? "u[k, " + s0 + "*jo + jj]" : "u[" + s0 + "*jo + jj, k]";
    const std::string res = variant == 3 ? "res[m, k, i]" : "res[m, i, k]";
    b.array("dm_tile", dtype, {s1, s0}, MemorySpace::shared)
        .statement("dm_tile[ty, tx] = diff_mat[m, i, " + s0 + "*jo + tx]", {"m", "jo"},
                   "fetch_diff_mat")
        .barrier({"m", "jo"})
        .statement(res + " = sum([jo, jj], dm_tile[ty, jj]*" + u + ")")
        .barrier({"m", "jo"});
    return {b.build(), ""};
}

// 2D five-point finite differences with halo tiles (sec. 8.5): each lsize_1 x lsize_0
// work-group prefetches a tile of u, its interior (lsize-2)^2 work-items compute one result
// each (gid(0) stride lsize_0 - 2).
VariantResult finite_diff(const VariantValues& v, const std::string& name) {
    const auto l0 = integer_value(v, "lsize_0"), l1 = integer_value(v, "lsize_1");
    if (l0 * l1 > 1024)
        return skip("more than 1024 threads per work-group");
    if (l0 < 3 || l1 < 3)
        return skip("a halo tile needs work-groups of at least 3x3");
    const auto dtype = dtype_of(value_of(v, "dtype"));
    const std::string i0 = str(l0 - 2), i1 = str(l1 - 2);
    KernelBuilder b(name, "2D 5-point finite differences, " + str(l0) + "x" + str(l1) +
                              " work-groups with a prefetched tile");
    b.param("n", integer_value(v, "n"))
        .assume("n >= 1")
        .array("u", dtype, {"n + 2", "n + 2"})
        .array("res", dtype, {"n", "n"})
        .array("u_tile", dtype, {str(l1), str(l0)}, MemorySpace::shared)
        .domain("[n] -> { [bi, bj, li, lj] : 0 <= " + i1 + "*bi < n and 0 <= " + i0 +
                "*bj < n and 0 <= li < " + str(l1) + " and 0 <= lj < " + str(l0) + " }")
        .block_index(0, "bj")
        .block_index(1, "bi")
        .local_index(0, "lj")
        .local_index(1, "li")
        .block(l0, l1)
        .statement("u_tile[li, lj] = u[" + i1 + "*bi + li, " + i0 + "*bj + lj]", {}, "fetch_u",
                   i1 + "*bi + li < n + 2 && " + i0 + "*bj + lj < n + 2")
        .barrier()
        .statement("res[" + i1 + "*bi + li - 1, " + i0 +
                       "*bj + lj - 1] = u_tile[li - 1, lj] + u_tile[li, lj - 1] - "
                       "4*u_tile[li, lj] + u_tile[li, lj + 1] + u_tile[li + 1, lj]",
                   {}, "stencil",
                   "1 <= li && li <= " + i1 + " && 1 <= lj && lj <= " + i0 + " && " + i1 +
                       "*bi + li <= n && " + i0 + "*bj + lj <= n");
    return {b.build(), ""};
}

using Create = VariantResult (*)(const VariantValues&, const std::string&);

// An application generator and its work-removal twin ("<name>_gmem"), which builds the
// application variant and keeps one global array (argument `keep`).
std::vector<Generator> with_work_removal(Generator application, Create create,
                                         std::vector<std::string> keep_defaults,
                                         std::vector<std::string> keep_allowed) {
    application.create = [create, name = application.name](const VariantValues& v) {
        return create(v, variant_kernel_name(name, v));
    };
    Generator removed = application;
    removed.name = application.name + "_gmem";
    removed.tags = {removed.name, "gmem", "work_removal"};
    removed.description = "the global accesses of one array of " + application.name +
                          ", on-chip work removed (Algorithm 3)";
    removed.source = application.source + "; work removal, sec. 7.1.1 (Algorithm 3)";
    removed.arguments.push_back(choice_argument("keep", std::move(keep_defaults),
                                                std::move(keep_allowed),
                                                "the global array whose accesses stay"));
    removed.create = [create, name = removed.name,
                      application_name = application.name](const VariantValues& v) {
        VariantValues application_values = v;
        application_values.pop_back(); // keep
        VariantResult result =
            create(application_values, variant_kernel_name(application_name, application_values));
        if (!result.spec)
            return result;
        kernel::KernelSpec spec = remove_work(*result.spec, {value_of(v, "keep")});
        spec.name = variant_kernel_name(name, v);
        result.spec = reparse_generated(kernel::write_kernel_yaml(spec), spec.name);
        return result;
    };
    return {application, removed};
}

} // namespace

std::vector<Generator> application_generators() {
    std::vector<Generator> all;
    Generator matmul;
    matmul.name = "matmul_sq";
    matmul.tags = {"matmul_sq", "application"};
    matmul.description = "square matrix multiplication, with or without prefetched tiles";
    matmul.source = "Stevens & Klöckner sec. 2.1, 2.2, 7.1, 8.3";
    matmul.arguments = {dtype_argument({"float32", "float64"}),
                        choice_argument("prefetch", {"True", "False"}, {"True", "False"},
                                        "lsize x lsize tiles of a and b in shared memory"),
                        integer_argument("lsize_0", {"16"}, "work-group size along x"),
                        integer_argument("lsize_1", {"16"}, "work-group size along y"),
                        choice_argument("groups_fit", {"True"}, {"True"},
                                        "work-groups divide n (only True is implemented)"),
                        integer_argument("n", {"2048", "2560", "3072", "3584"}, "matrix size")};
    for (auto& g : with_work_removal(matmul, matmul_sq, {"a", "b"}, {"a", "b", "c"}))
        all.push_back(std::move(g));

    Generator dg;
    dg.name = "dg_diff";
    dg.tags = {"dg_diff", "application"};
    dg.description = "DG element-wise differentiation, four parallelisation variants";
    dg.source = "Stevens & Klöckner sec. 8.4";
    dg.arguments = {choice_argument("variant", {"1", "2", "3", "4"}, {"1", "2", "3", "4"},
                                    "1 plain, 2 u prefetch, 3 diff_mat prefetch, 4 = 3 with u, "
                                    "res transposed"),
                    dtype_argument({"float32"}),
                    integer_argument("lsize_0", {"16"}, "work-group size along x (elements)"),
                    integer_argument("lsize_1", {"16"}, "work-group size along y (nodes)"),
                    integer_argument("nmatrices", {"3"}, "differentiation matrices"),
                    integer_argument("nunit_nodes", {"64"}, "nodes per element"),
                    integer_argument("nelements", {"65536", "131072", "262144"}, "elements")};
    for (auto& g : with_work_removal(dg, dg_diff, {"diff_mat", "u"}, {"diff_mat", "u", "res"}))
        all.push_back(std::move(g));

    Generator fd;
    fd.name = "finite_diff";
    fd.tags = {"finite_diff", "application"};
    fd.description = "2D 5-point finite differences with prefetched halo tiles";
    fd.source = "Stevens & Klöckner sec. 8.5";
    fd.arguments = {dtype_argument({"float32"}),
                    integer_argument("lsize_0", {"16", "18"}, "work-group size along x"),
                    integer_argument("lsize_1", {"16", "18"}, "work-group size along y"),
                    integer_argument("n", {"2048", "4096"}, "grid points per side")};
    for (auto& g : with_work_removal(fd, finite_diff, {"u"}, {"u", "res"}))
        all.push_back(std::move(g));
    return all;
}

const std::vector<Generator>& all_generators() {
    static const std::vector<Generator> collection = [] {
        std::vector<Generator> all = measurement_generators();
        for (auto& g : application_generators())
            all.push_back(std::move(g));
        return all;
    }();
    return collection;
}

} // namespace kerncast::uipick
