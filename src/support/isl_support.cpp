#include "isl_support.hpp"

#include "kerncast/checked_arithmetic.hpp"

#include <cstdio>
#include <cstdlib>
#include <isl/constraint.h>
#include <isl/printer.h>
#include <isl/set.h>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <unistd.h>
#include <vector>

namespace kerncast::isl {

Context::Context() : ctx_(isl_ctx_alloc()) {
    if (!ctx_)
        throw IslError("cannot allocate an isl context");
    isl_options_set_on_error(ctx_, ISL_ON_ERROR_CONTINUE);
}

Context::~Context() {
    isl_ctx_free(ctx_);
}

void Context::fail(const std::string& what) {
    const char* message = isl_ctx_last_error_msg(ctx_);
    std::string text = what;
    if (message && *message)
        text += ": " + std::string(message);
    isl_ctx_reset_error(ctx_);
    throw IslError(text);
}

namespace {

// isl's parser writes its diagnostics to stderr; capture them so that the user sees them as
// part of one kerncast error message instead of loose lines.
class StderrCapture {
public:
    StderrCapture() {
        std::fflush(stderr);
        file_ = std::tmpfile();
        if (!file_)
            return;
        saved_ = dup(2);
        if (saved_ < 0 || dup2(fileno(file_), 2) < 0) {
            std::fclose(file_);
            file_ = nullptr;
        }
    }
    ~StderrCapture() { restore(); }
    std::string restore() {
        std::string text;
        if (!file_)
            return text;
        std::fflush(stderr);
        dup2(saved_, 2);
        close(saved_);
        std::rewind(file_);
        char buffer[512];
        size_t n;
        while ((n = std::fread(buffer, 1, sizeof buffer, file_)) > 0)
            text.append(buffer, n);
        std::fclose(file_);
        file_ = nullptr;
        return text;
    }

private:
    std::FILE* file_ = nullptr;
    int saved_ = -1;
};

std::mutex parse_mutex; // stderr redirection is process-wide

// isl prints "syntax error (1, 23): unknown identifier\ngot ident 'q'\n" (possibly several
// times): keep the first report, on one line, and the column it names.
// isl's own source position ("isl_aff.c:3297: ") means nothing to a user: dropped.
std::string without_isl_source(std::string text) {
    const size_t colon = text.find(".c:");
    if (text.rfind("isl_", 0) != 0 || colon == std::string::npos)
        return text;
    size_t end = colon + 3;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9')
        ++end;
    if (end == colon + 3 || text.compare(end, 2, ": ") != 0)
        return text;
    text.erase(0, end + 2);
    // The one isl check a kernel file reaches with plain arithmetic: x / 0, x mod 0.
    if (text == "factor needs to be positive")
        text = "a division or mod by a constant that is not positive";
    return text;
}

std::string tidy(const std::string& text, int& offset) {
    offset = -1;
    std::string first;
    size_t line_end = text.find('\n');
    first = text.substr(0, line_end);
    if (line_end != std::string::npos) {
        const size_t next_end = text.find('\n', line_end + 1);
        const std::string got =
            text.substr(line_end + 1, next_end == std::string::npos ? std::string::npos
                                                                    : next_end - line_end - 1);
        if (got.rfind("got ", 0) == 0)
            first += ", " + got;
    }
    const size_t open = first.find(" (");
    const size_t comma = first.find(", ", open == std::string::npos ? 0 : open);
    const size_t close = first.find("):");
    if (open != std::string::npos && comma != std::string::npos && close != std::string::npos &&
        comma < close) {
        try {
            offset = std::stoi(first.substr(comma + 2, close - comma - 2)) - 1;
        } catch (const std::exception&) {
            offset = -1;
        }
        first = first.substr(0, open) + first.substr(close + 1);
    }
    return without_isl_source(first);
}

// The parsed object (owned by the caller, never null) or IslError with isl's diagnostic.
// isl's parser prints nothing under ISL_ON_ERROR_CONTINUE (the context's setting), so text that
// parses costs the parse alone; only a failure parses again, with stderr captured and
// ISL_ON_ERROR_WARN, for the diagnostic and its position. (Capturing stderr around every parse
// made a temporary file each time, under a process-wide lock that serialised explore's workers:
// a quarter of a two-thread sweep's time.)
template <class T, class Reader>
T* read_with_diagnostics(Context& ctx, const std::string& text, Reader reader) {
    if (T* object = reader(ctx.get(), text.c_str()))
        return object;
    isl_ctx_reset_error(ctx.get());
    std::string diagnostics;
    T* object = nullptr;
    {
        std::lock_guard lock(parse_mutex);
        StderrCapture capture;
        isl_options_set_on_error(ctx.get(), ISL_ON_ERROR_WARN); // report with a position
        object = reader(ctx.get(), text.c_str());
        isl_options_set_on_error(ctx.get(), ISL_ON_ERROR_CONTINUE);
        diagnostics = capture.restore();
    }
    if (!object) {
        const char* message = isl_ctx_last_error_msg(ctx.get());
        int offset = -1;
        std::string reason = tidy(diagnostics, offset);
        if (reason.empty() && message)
            reason = message;
        isl_ctx_reset_error(ctx.get());
        throw IslError(reason.empty() ? "isl cannot parse it" : reason, offset);
    }
    return object;
}

} // namespace

Set read_set(Context& ctx, const std::string& text) {
    return Set(read_with_diagnostics<isl_set>(ctx, text, isl_set_read_from_str));
}

Map read_map(Context& ctx, const std::string& text) {
    return Map(read_with_diagnostics<isl_map>(ctx, text, isl_map_read_from_str));
}

namespace {
std::string take_string(char* text) {
    if (!text)
        return "(null)";
    std::string result = text;
    std::free(text);
    return result;
}
} // namespace

std::string to_string(isl_set* set) {
    return take_string(isl_set_to_str(set));
}
std::string to_string(isl_basic_set* set) {
    return take_string(isl_basic_set_to_str(set));
}
std::string to_string(isl_pw_aff* aff) {
    return take_string(isl_pw_aff_to_str(aff));
}

std::vector<std::string> dim_names(isl_set* set, isl_dim_type type) {
    std::vector<std::string> names;
    const isl_size n = isl_set_dim(set, type);
    for (isl_size k = 0; k < n; ++k) {
        const char* name = isl_set_get_dim_name(set, type, static_cast<unsigned>(k));
        names.emplace_back(name ? name : "");
    }
    return names;
}

std::int64_t to_int64(isl_val* value) {
    if (!value || !isl_val_is_int(value))
        throw IslError("expected an integer value from isl");
    if (isl_val_is_infty(value) || isl_val_is_neginfty(value))
        throw IslError("the set is unbounded (infinitely many points)");
    // isl_val_get_num_si truncates silently; a count beyond 64 bits is an error.
    if (isl_val_cmp_si(value, std::numeric_limits<long>::max()) > 0 ||
        isl_val_cmp_si(value, std::numeric_limits<long>::min()) < 0)
        throw_overflow("a count");
    const long number = isl_val_get_num_si(value);
    return static_cast<std::int64_t>(number);
}

namespace {

// The points of `bset` (kept), a basic set without existentials, as the product of the points
// of its independent factors: groups of dimensions no constraint joins (a block index with its
// fold index, a filter row, a filter column). isl counts a set by enumerating its points; a
// product of small factors is counted factor by factor. nullopt when the set is one factor or
// has existentials (whose constraints could join factors through them).
std::optional<std::int64_t> count_by_factors(Context& ctx, isl_basic_set* bset) {
    const isl_size dims = isl_basic_set_dim(bset, isl_dim_set);
    const isl_size divs = isl_basic_set_dim(bset, isl_dim_div);
    if (dims < 2 || divs != 0)
        return std::nullopt;
    struct Groups {
        std::vector<int> parent;
        int find(int d) {
            while (parent[static_cast<size_t>(d)] != d)
                d = parent[static_cast<size_t>(d)] =
                    parent[static_cast<size_t>(parent[static_cast<size_t>(d)])];
            return d;
        }
    } groups{std::vector<int>(static_cast<size_t>(dims))};
    std::iota(groups.parent.begin(), groups.parent.end(), 0);
    const auto join_involved = [](isl_constraint* c, void* user) -> isl_stat {
        auto& g = *static_cast<Groups*>(user);
        int first = -1;
        const int n = static_cast<int>(g.parent.size());
        for (int d = 0; d < n; ++d)
            if (isl_constraint_involves_dims(c, isl_dim_set, static_cast<unsigned>(d), 1) ==
                isl_bool_true) {
                if (first < 0)
                    first = g.find(d);
                else
                    g.parent[static_cast<size_t>(g.find(d))] = first;
            }
        isl_constraint_free(c);
        return isl_stat_ok;
    };
    if (isl_basic_set_foreach_constraint(bset, join_involved, &groups) < 0)
        return std::nullopt;
    std::vector<int> roots;
    for (int d = 0; d < dims; ++d)
        if (groups.find(d) == d)
            roots.push_back(d);
    if (roots.size() < 2)
        return std::nullopt;
    std::int64_t product = 1;
    for (const int root : roots) {
        isl_basic_set* factor = isl_basic_set_copy(bset);
        for (int d = dims - 1; d >= 0; --d)
            if (groups.find(d) != root)
                factor =
                    isl_basic_set_project_out(factor, isl_dim_set, static_cast<unsigned>(d), 1);
        isl_set* factor_set = isl_set_from_basic_set(factor);
        Val count(isl_set_count_val(factor_set));
        isl_set_free(factor_set);
        if (!count)
            ctx.fail("cannot count the points of a factor of " + to_string(bset));
        if (isl_val_is_infty(count.get()) || isl_val_is_nan(count.get()))
            throw IslError("the set is unbounded");
        const std::int64_t points = to_int64(count.get());
        if (__builtin_mul_overflow(product, points, &product))
            throw_overflow("a count");
    }
    return product;
}

} // namespace

std::int64_t count_points(Context& ctx, isl_set* set) {
    if (isl_set_n_basic_set(set) == 1) {
        isl_basic_set* only = nullptr;
        isl_set_foreach_basic_set(
            set,
            [](isl_basic_set* bset, void* user) -> isl_stat {
                *static_cast<isl_basic_set**>(user) = bset; // taken: freed below
                return isl_stat_ok;
            },
            &only);
        if (only) {
            std::optional<std::int64_t> factored;
            try {
                factored = count_by_factors(ctx, only);
            } catch (...) {
                isl_basic_set_free(only);
                throw;
            }
            isl_basic_set_free(only);
            if (factored)
                return *factored;
        }
    }
    Val count(isl_set_count_val(set));
    if (!count)
        ctx.fail("cannot count the points of " + to_string(set));
    if (isl_val_is_infty(count.get()) || isl_val_is_nan(count.get()))
        throw IslError("the set " + to_string(set) + " is unbounded");
    return to_int64(count.get());
}

// ---- the C++ binding's types --------------------------------------------------------------

namespace {

// A C call's result as a binding object: a null result (isl failed) throws ::isl::exception
// with isl's last error, the way the binding's own methods report failures.
template <class Object, class Raw> Object take(isl_ctx* ctx, Raw* raw) {
    if (!raw)
        ::isl::exception::throw_last_error(ctx);
    return ::isl::manage(raw);
}

} // namespace

std::string message_of(const ::isl::exception& error) {
    // The binding's text is "file:line: message" when isl reported a location.
    const std::string text = error.what();
    const size_t colon = text.find(": ");
    if (colon == std::string::npos)
        return text;
    const size_t line = text.rfind(':', colon - 1);
    if (line == std::string::npos || line + 1 == colon)
        return text;
    for (size_t k = line + 1; k < colon; ++k)
        if (text[k] < '0' || text[k] > '9')
            return text;
    return text.substr(colon + 2);
}

::isl::set parse_set(Context& ctx, const std::string& text) {
    return ::isl::manage(read_with_diagnostics<isl_set>(ctx, text, isl_set_read_from_str));
}

::isl::map parse_map(Context& ctx, const std::string& text) {
    return ::isl::manage(read_with_diagnostics<isl_map>(ctx, text, isl_map_read_from_str));
}

::isl::set ThreadContext::parsed_set(const std::string& text) {
    if (const auto found = sets_.find(text); found != sets_.end())
        return found->second;
    ::isl::set set = parse_set(context, text);
    if (sets_.size() >= max_sets)
        sets_.clear();
    sets_.emplace(text, set);
    return set;
}

ThreadContext& thread_context() {
    thread_local ThreadContext context;
    return context;
}

std::string to_string(const ::isl::set& set) {
    return take_string(isl_set_to_str(set.get()));
}
std::string to_string(const ::isl::basic_set& set) {
    return take_string(isl_basic_set_to_str(set.get()));
}
std::string to_string(const ::isl::pw_aff& aff) {
    return take_string(isl_pw_aff_to_str(aff.get()));
}

std::vector<std::string> dim_names(const ::isl::set& set, isl_dim_type type) {
    return dim_names(set.get(), type);
}

int dim_count(const ::isl::set& set, isl_dim_type type) {
    const isl_size n = isl_set_dim(set.get(), type);
    if (n < 0)
        ::isl::exception::throw_last_error(set.ctx());
    return static_cast<int>(n);
}

int dim_count(const ::isl::basic_set& set, isl_dim_type type) {
    const isl_size n = isl_basic_set_dim(set.get(), type);
    if (n < 0)
        ::isl::exception::throw_last_error(set.ctx());
    return static_cast<int>(n);
}

std::int64_t count_points(Context& ctx, const ::isl::set& set) {
    return count_points(ctx, set.get());
}

namespace {

// `matrix` (of another context) in `to`; null when an entry needs more than 62 bits.
isl_mat* copy_matrix(isl_mat* matrix, isl_ctx* to) {
    const isl_size rows = isl_mat_rows(matrix), columns = isl_mat_cols(matrix);
    if (rows < 0 || columns < 0)
        return nullptr;
    isl_mat* copy = isl_mat_alloc(to, static_cast<unsigned>(rows), static_cast<unsigned>(columns));
    constexpr long limit = long{1} << 62;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < columns; ++j) {
            isl_val* value = isl_mat_get_element_val(matrix, i, j);
            const bool fits = value && isl_val_is_int(value) && isl_val_cmp_si(value, limit) < 0 &&
                              isl_val_cmp_si(value, -limit) > 0;
            const long entry = fits ? isl_val_get_num_si(value) : 0;
            isl_val_free(value);
            if (!fits)
                return isl_mat_free(copy);
            copy = isl_mat_set_element_val(copy, i, j, isl_val_int_from_si(to, entry));
        }
    return copy;
}

} // namespace

::isl::set copy_to_context(const ::isl::set& set, Context& to) {
    isl_space* from = isl_set_get_space(set.get());
    const isl_size params = isl_space_dim(from, isl_dim_param);
    const isl_size dims = isl_space_dim(from, isl_dim_set);
    if (params < 0 || dims < 0 || isl_space_has_tuple_name(from, isl_dim_set) == isl_bool_true) {
        isl_space_free(from);
        return {};
    }
    isl_space* space =
        isl_space_set_alloc(to.get(), static_cast<unsigned>(params), static_cast<unsigned>(dims));
    for (int k = 0; k < params; ++k)
        space = isl_space_set_dim_name(
            space, isl_dim_param, static_cast<unsigned>(k),
            isl_space_get_dim_name(from, isl_dim_param, static_cast<unsigned>(k)));
    for (int k = 0; k < dims; ++k)
        if (const char* name = isl_space_get_dim_name(from, isl_dim_set, static_cast<unsigned>(k)))
            space = isl_space_set_dim_name(space, isl_dim_set, static_cast<unsigned>(k), name);
    isl_space_free(from);
    struct Copy {
        isl_space* space;
        isl_set* result;
    } copy{space, isl_set_empty(isl_space_copy(space))};
    const isl_stat status = isl_set_foreach_basic_set(
        set.get(),
        [](isl_basic_set* bset, void* user) -> isl_stat {
            auto& c = *static_cast<Copy*>(user);
            const bool plain = isl_basic_set_dim(bset, isl_dim_div) == 0;
            isl_mat* eq = nullptr;
            isl_mat* ineq = nullptr;
            if (plain) {
                isl_ctx* to_ctx = isl_space_get_ctx(c.space);
                isl_mat* from_eq = isl_basic_set_equalities_matrix(bset, isl_dim_param, isl_dim_set,
                                                                   isl_dim_div, isl_dim_cst);
                isl_mat* from_ineq = isl_basic_set_inequalities_matrix(
                    bset, isl_dim_param, isl_dim_set, isl_dim_div, isl_dim_cst);
                eq = from_eq ? copy_matrix(from_eq, to_ctx) : nullptr;
                ineq = from_ineq ? copy_matrix(from_ineq, to_ctx) : nullptr;
                isl_mat_free(from_eq);
                isl_mat_free(from_ineq);
            }
            isl_basic_set_free(bset);
            if (!eq || !ineq) {
                isl_mat_free(eq);
                isl_mat_free(ineq);
                return isl_stat_error;
            }
            isl_basic_set* rebuilt = isl_basic_set_from_constraint_matrices(
                isl_space_copy(c.space), eq, ineq, isl_dim_param, isl_dim_set, isl_dim_div,
                isl_dim_cst);
            c.result = isl_set_union(c.result, isl_set_from_basic_set(rebuilt));
            return c.result ? isl_stat_ok : isl_stat_error;
        },
        &copy);
    isl_space_free(copy.space);
    if (status != isl_stat_ok) {
        isl_set_free(copy.result);
        return {};
    }
    return ::isl::manage(copy.result);
}

std::int64_t to_int64(const ::isl::val& value) {
    return to_int64(value.get());
}

::isl::set fix_param(const ::isl::set& set, int position, std::int64_t value) {
    isl_ctx* ctx = isl_set_get_ctx(set.get());
    return take<::isl::set>(ctx, isl_set_fix_val(set.copy(), isl_dim_param,
                                                 static_cast<unsigned>(position),
                                                 isl_val_int_from_si(ctx, value)));
}

::isl::set project_out(const ::isl::set& set, isl_dim_type type, int first, int n) {
    return take<::isl::set>(isl_set_get_ctx(set.get()),
                            isl_set_project_out(set.copy(), type, static_cast<unsigned>(first),
                                                static_cast<unsigned>(n)));
}

::isl::basic_set project_out(const ::isl::basic_set& set, isl_dim_type type, int first, int n) {
    return take<::isl::basic_set>(isl_basic_set_get_ctx(set.get()),
                                  isl_basic_set_project_out(set.copy(), type,
                                                            static_cast<unsigned>(first),
                                                            static_cast<unsigned>(n)));
}

::isl::set align_params(const ::isl::set& set, const std::vector<std::string>& names) {
    isl_ctx* ctx = isl_set_get_ctx(set.get());
    isl_space* space = isl_space_params_alloc(ctx, static_cast<unsigned>(names.size()));
    for (size_t k = 0; k < names.size(); ++k)
        space = isl_space_set_dim_name(space, isl_dim_param, static_cast<unsigned>(k),
                                       names[k].c_str());
    return take<::isl::set>(ctx, isl_set_align_params(set.copy(), space));
}

::isl::val coordinate(const ::isl::point& point, int position) {
    return take<::isl::val>(isl_point_get_ctx(point.get()),
                            isl_point_get_coordinate_val(point.get(), isl_dim_set, position));
}

} // namespace kerncast::isl
