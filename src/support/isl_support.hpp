// Private support layer: small RAII wrappers around isl objects and isl error handling. isl stays
// out of public headers; the kernel reader, the analysis, the models and codegen include this.
#pragma once

#include <cstdint>
#include <isl/aff.h>
#include <isl/constraint.h>
#include <isl/ctx.h>
#include <isl/local_space.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>
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

} // namespace kerncast::isl
