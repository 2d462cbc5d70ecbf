// Private support layer around isl: the error translation (IslError with parse offsets), the
// parser with isl's diagnostics, and thin functions on Debian's official C++ binding
// (<isl/cpp.h>, namespace ::isl) for what the binding lacks (dimension names, point counts,
// fixing and projecting dimensions, constraints of a basic set). isl stays out of public
// headers; the kernel reader, the analysis, the models and codegen include this.
//
// The unique_ptr aliases (Set, Map, ...) and the isl_set* overloads serve code that still
// calls isl's C API; new code uses the ::isl types and the overloads taking them.
#pragma once

#include <cstdint>
#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/cpp.h>
#include <isl/ctx.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kerncast::isl {

// isl rejected something (a parse error, an unbounded set, ...); what() is isl's message.
class IslError : public std::runtime_error {
public:
    explicit IslError(const std::string& message, int text_offset = -1)
        : std::runtime_error(message), offset_(text_offset) {}
    // 0-based offset into the parsed text where isl's parser stopped; -1 when unknown.
    int offset() const { return offset_; }

private:
    int offset_;
};

template <class T, T* (*Free)(T*)> struct Deleter {
    void operator()(T* p) const {
        if (p)
            Free(p);
    }
};

using Set = std::unique_ptr<isl_set, Deleter<isl_set, isl_set_free>>;
using BasicSet = std::unique_ptr<isl_basic_set, Deleter<isl_basic_set, isl_basic_set_free>>;
using Map = std::unique_ptr<isl_map, Deleter<isl_map, isl_map_free>>;
using Val = std::unique_ptr<isl_val, Deleter<isl_val, isl_val_free>>;
using Space = std::unique_ptr<isl_space, Deleter<isl_space, isl_space_free>>;
using Constraint = std::unique_ptr<isl_constraint, Deleter<isl_constraint, isl_constraint_free>>;
using PwAff = std::unique_ptr<isl_pw_aff, Deleter<isl_pw_aff, isl_pw_aff_free>>;
using Aff = std::unique_ptr<isl_aff, Deleter<isl_aff, isl_aff_free>>;

// One isl context; errors continue (no abort) and are turned into IslError by check().
class Context {
public:
    Context();
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    isl_ctx* get() const { return ctx_; }
    // The same context for the C++ binding (non-owning).
    ::isl::ctx cpp() const { return ::isl::ctx(ctx_); }
    // Throws IslError with isl's last message when `object` is null (an isl call failed).
    template <class P> P check(P object, const char* what) {
        if (!object)
            fail(what);
        return object;
    }
    [[noreturn]] void fail(const std::string& what);

private:
    isl_ctx* ctx_;
};

// Parses isl set / map text; isl's own diagnostic (from its parser) becomes the IslError text.
Set read_set(Context& ctx, const std::string& text);
Map read_map(Context& ctx, const std::string& text);

std::string to_string(isl_set* set);
std::string to_string(isl_basic_set* set);
std::string to_string(isl_pw_aff* aff);

std::vector<std::string> dim_names(isl_set* set, isl_dim_type type);

// Exact number of integer points of a set without parameters (or with them fixed).
std::int64_t count_points(Context& ctx, isl_set* set);

// Value as int64; throws IslError when not an integer / too large.
std::int64_t to_int64(isl_val* value);

// ---- the same on the C++ binding's types ---------------------------------------------------

// isl's own message of a binding exception, without the "isl_file.c:123: " prefix.
std::string message_of(const ::isl::exception& error);

// Runs `step` (isl calls through the binding); a ::isl::exception becomes
// IslError("what: isl's message"), the text Context::check gave for the same failure.
template <class Step> auto checked(const std::string& what, Step&& step) -> decltype(step()) {
    try {
        return step();
    } catch (const ::isl::exception& error) {
        const std::string message = message_of(error);
        throw IslError(message.empty() ? what : what + ": " + message);
    }
}

// read_set / read_map for the binding (same diagnostics and offsets in IslError).
::isl::set parse_set(Context& ctx, const std::string& text);
::isl::map parse_map(Context& ctx, const std::string& text);

// A context that lives as long as the calling thread, with the sets parsed in it by their
// text: explore analyses every launch of a kernel, and each analysis reads the same domain,
// parameters and assumptions. Objects made in it must not outlive the thread.
class ThreadContext {
public:
    Context context;
    // parse_set(context, text), kept (at most max_sets; emptied when full): later calls
    // return a copy without parsing. A text isl rejects throws each time and is not kept.
    ::isl::set parsed_set(const std::string& text);

private:
    static constexpr std::size_t max_sets = 64;
    std::map<std::string, ::isl::set> sets_; // destroyed before the context
};
ThreadContext& thread_context();

std::string to_string(const ::isl::set& set);
std::string to_string(const ::isl::basic_set& set);
std::string to_string(const ::isl::pw_aff& aff);

std::vector<std::string> dim_names(const ::isl::set& set, isl_dim_type type);
int dim_count(const ::isl::set& set, isl_dim_type type);
int dim_count(const ::isl::basic_set& set, isl_dim_type type);

std::int64_t count_points(Context& ctx, const ::isl::set& set);

// `set` (of any context) rebuilt in `to` from its constraint matrices, without printing and
// parsing it (the parser simplifies what it reads: most of a small set's cost); a null set
// when it cannot be (a basic set with existentials, whose definitions the matrices do not
// carry, or a coefficient beyond 62 bits).
::isl::set copy_to_context(const ::isl::set& set, Context& to);
std::int64_t to_int64(const ::isl::val& value);

// set with parameter `position` fixed to `value`.
::isl::set fix_param(const ::isl::set& set, int position, std::int64_t value);
// set without dimensions [first, first + n) of `type` (existentially projected).
::isl::set project_out(const ::isl::set& set, isl_dim_type type, int first, int n);
::isl::basic_set project_out(const ::isl::basic_set& set, isl_dim_type type, int first, int n);
// set's parameters reordered (and extended) to `names`, in that order.
::isl::set align_params(const ::isl::set& set, const std::vector<std::string>& names);
// Coordinate `position` of a set dimension of `point`.
::isl::val coordinate(const ::isl::point& point, int position);

} // namespace kerncast::isl
