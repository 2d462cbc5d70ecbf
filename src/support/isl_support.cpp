#include "isl_support.hpp"

#include "kerncast/checked_arithmetic.hpp"

#include <cstdio>
#include <cstdlib>
#include <isl/printer.h>
#include <limits>
#include <mutex>
#include <unistd.h>

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
    return first;
}

template <class T, class Reader>
T read_with_diagnostics(Context& ctx, const std::string& text, Reader reader) {
    std::string diagnostics;
    T object;
    {
        std::lock_guard lock(parse_mutex);
        StderrCapture capture;
        isl_options_set_on_error(ctx.get(), ISL_ON_ERROR_WARN); // report with a position
        object = T(reader(ctx.get(), text.c_str()));
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
    return read_with_diagnostics<Set>(ctx, text, isl_set_read_from_str);
}

Map read_map(Context& ctx, const std::string& text) {
    return read_with_diagnostics<Map>(ctx, text, isl_map_read_from_str);
}

static std::string take_string(char* text) {
    if (!text)
        return "(null)";
    std::string result = text;
    std::free(text);
    return result;
}

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

std::int64_t count_points(Context& ctx, isl_set* set) {
    Val count(isl_set_count_val(set));
    if (!count)
        ctx.fail("cannot count the points of " + to_string(set));
    if (isl_val_is_infty(count.get()) || isl_val_is_nan(count.get()))
        throw IslError("the set " + to_string(set) + " is unbounded");
    return to_int64(count.get());
}

} // namespace kerncast::isl
