#include "kerncast/analysis/symbolic_count.hpp"

#include "../support/isl_support.hpp"
#include "closed_form.hpp"
#include "kerncast/checked_arithmetic.hpp"
#include "kerncast/error.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <unordered_map>

namespace kerncast::analysis {

// One parametric set and how to count it.
class PointCount {
public:
    // `prepared`: the set `text` prints, in another isl context (the caller's thread), or
    // null. Given, the closed form that evaluates the count is derived from it and the text is
    // parsed into this count's own context only when asked for (an isl count, the formula).
    PointCount(const std::string& text, isl_set* prepared,
               const std::vector<std::string>& parameters)
        : text_(text), parameters_(parameters) {
        if (prepared) {
            const ::isl::set aligned = checked_and_aligned(::isl::manage_copy(prepared));
            if (auto form =
                    detail::derive_closed_form(aligned, static_cast<int>(parameters_.size())))
                compiled_ = std::make_unique<detail::CompiledClosedForm>(*form);
            else // counted by isl at each new parameter point: rebuilt here, not parsed
                counted_set_ = isl::copy_to_context(aligned, ctx_);
            return;
        }
        if (const auto form = describe())
            compiled_ = std::make_unique<detail::CompiledClosedForm>(*form);
    }

    // A count isl makes (no closed form) is kept by parameter values: explore's launches share
    // such counts and evaluate them at the same values.
    std::int64_t evaluate(const std::int64_t* params) const {
        if (compiled_)
            return compiled_->evaluate(params);
        std::vector<std::int64_t> key(params, params + parameters_.size());
        {
            std::lock_guard lock(mutex_);
            if (const auto known = counted_.find(key); known != counted_.end())
                return known->second;
        }
        const std::int64_t value = evaluate_with_isl(params);
        std::lock_guard lock(mutex_);
        if (counted_.size() >= 64)
            counted_.clear();
        counted_.emplace(std::move(key), value);
        return value;
    }

    std::int64_t evaluate_with_isl(const std::int64_t* params) const {
        std::lock_guard lock(mutex_);
        try {
            ::isl::set fixed = counted_set_.is_null() ? parsed() : counted_set_;
            for (size_t k = 0; k < parameters_.size(); ++k)
                fixed = isl::fix_param(fixed, static_cast<int>(k), params[k]);
            return isl::count_points(ctx_, fixed);
        } catch (const isl::IslError& e) {
            throw_input_error(std::string("cannot count ") + text_ + ": " + e.what());
        } catch (const ::isl::exception& e) {
            throw_input_error(std::string("cannot count ") + text_ + ": " + isl::message_of(e));
        }
    }

    bool closed_form() const {
        std::lock_guard lock(mutex_);
        describe();
        return described_closed_form_;
    }
    std::string formula() const {
        std::lock_guard lock(mutex_);
        describe();
        return described_closed_form_ ? formula_ : "isl count of " + isl::to_string(set_);
    }

private:
    // The text parsed in this count's context, its parameters aligned with the caller's list
    // (under mutex_ once constructed).
    const ::isl::set& parsed() const {
        if (set_.is_null()) {
            ::isl::set set;
            try {
                set = isl::parse_set(ctx_, text_);
            } catch (const isl::IslError& e) {
                throw_input_error("isl rejects the set '" + text_ + "': " + e.what());
            }
            set_ = checked_and_aligned(set);
        }
        return set_;
    }
    // Input Error when the set uses a name the caller's list lacks; else the set with its
    // parameters aligned with the list (unused ones added).
    ::isl::set checked_and_aligned(const ::isl::set& set) const {
        for (const auto& name : isl::dim_names(set, isl_dim_param))
            if (std::find(parameters_.begin(), parameters_.end(), name) == parameters_.end())
                throw_input_error("the set '" + text_ + "' uses '" + name +
                                  "', which is not a parameter");
        return isl::checked("aligning parameters",
                            [&] { return isl::align_params(set, parameters_); });
    }
    // Derives the closed form of the parsed text, once, and keeps whether there is one and
    // its formula; returns the form when derived by this call (under mutex_ once constructed).
    std::optional<detail::ClosedForm> describe() const {
        if (described_)
            return std::nullopt;
        auto form = detail::derive_closed_form(parsed(), static_cast<int>(parameters_.size()));
        described_closed_form_ = form.has_value();
        if (form)
            formula_ = form->to_string(parameters_);
        described_ = true;
        return form;
    }

    mutable isl::Context ctx_;
    std::string text_;
    std::vector<std::string> parameters_;
    mutable ::isl::set set_; // parsed(): in ctx_, aligned; null until needed
    // The prepared set rebuilt in ctx_ when it has no closed form (null otherwise, or when it
    // cannot be rebuilt): what evaluate_with_isl counts, sparing the parse of the text.
    ::isl::set counted_set_;
    mutable bool described_ = false;
    mutable bool described_closed_form_ = false;
    mutable std::string formula_;
    std::unique_ptr<detail::CompiledClosedForm> compiled_; // evaluates the count, when derived
    mutable std::mutex mutex_;
    mutable std::map<std::vector<std::int64_t>, std::int64_t> counted_; // under mutex_
};

namespace {

// The point counts made so far, by set text and parameter list: explore analyses every launch
// afresh, and about half of a sweep's sets recur in other launches (star3d_r4's 168: 451 sets,
// 237 distinct), each a parse and a closed-form derivation. A PointCount never changes once
// made, so every analysis may share it. Bounded: emptied when it reaches max_entries.
class PointCountCache {
public:
    std::shared_ptr<const PointCount> get(const std::string& text, isl_set* prepared,
                                          const std::vector<std::string>& parameters) {
        std::string key = text;
        for (const auto& name : parameters)
            key += '\0' + name;
        {
            std::lock_guard lock(mutex_);
            if (const auto found = counts_.find(key); found != counts_.end())
                return found->second;
        }
        // Made outside the lock (explore's workers count different sets in parallel); a
        // parse error throws before anything is kept.
        auto count = std::make_shared<const PointCount>(text, prepared, parameters);
        std::lock_guard lock(mutex_);
        if (counts_.size() >= max_entries)
            counts_.clear();
        return counts_.emplace(std::move(key), std::move(count)).first->second;
    }

private:
    static constexpr std::size_t max_entries = 50000;
    std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<const PointCount>> counts_;
};

// Never destroyed: freeing thousands of counts (each with its isl context) at exit took a
// twentieth of an explore's time, and the process is ending anyway.
PointCountCache& point_counts() {
    static PointCountCache* const cache = new PointCountCache;
    return *cache;
}

} // namespace

SymbolicCount SymbolicCount::of_set(const std::string& isl_set_text,
                                    const std::vector<std::string>& parameters) {
    return of_set(isl_set_text, nullptr, parameters);
}

SymbolicCount SymbolicCount::of_set(const std::string& isl_set_text, isl_set* set_of_text,
                                    const std::vector<std::string>& parameters) {
    SymbolicCount count;
    count.terms_.push_back(Term{1, point_counts().get(isl_set_text, set_of_text, parameters)});
    return count;
}

SymbolicCount SymbolicCount::constant(std::int64_t value) {
    SymbolicCount count;
    if (value != 0)
        count.terms_.push_back(Term{value, nullptr});
    return count;
}

SymbolicCount SymbolicCount::operator+(const SymbolicCount& other) const {
    SymbolicCount sum = *this;
    for (const auto& term : other.terms_) {
        auto same = std::find_if(sum.terms_.begin(), sum.terms_.end(),
                                 [&](const Term& t) { return t.set == term.set; });
        if (same != sum.terms_.end()) {
            same->factor += term.factor;
            if (same->factor == 0)
                sum.terms_.erase(same);
        } else {
            sum.terms_.push_back(term);
        }
    }
    return sum;
}

SymbolicCount SymbolicCount::scaled(std::int64_t factor) const {
    if (factor == 0)
        return {};
    SymbolicCount result = *this;
    for (auto& term : result.terms_)
        term.factor = checked_mul(term.factor, factor, "a count factor");
    return result;
}

std::int64_t SymbolicCount::evaluate(const std::int64_t* params) const {
    std::int64_t total = 0;
    for (const auto& term : terms_)
        total = checked_add(
            total, checked_mul(term.factor, term.set ? term.set->evaluate(params) : 1, "a count"),
            "a count");
    return total;
}

std::int64_t SymbolicCount::evaluate(const std::vector<std::int64_t>& params) const {
    return evaluate(params.data());
}

std::int64_t SymbolicCount::evaluate_with_isl(const std::vector<std::int64_t>& params) const {
    std::int64_t total = 0;
    for (const auto& term : terms_)
        total = checked_add(total,
                            checked_mul(term.factor,
                                        term.set ? term.set->evaluate_with_isl(params.data()) : 1,
                                        "a count"),
                            "a count");
    return total;
}

bool SymbolicCount::closed_form() const {
    for (const auto& term : terms_)
        if (term.set && !term.set->closed_form())
            return false;
    return true;
}

std::string SymbolicCount::formula() const {
    if (terms_.empty())
        return "0";
    std::string text;
    for (const auto& term : terms_) {
        std::string part = term.set ? term.set->formula() : "1";
        if (term.set && term.factor != 1)
            part = std::to_string(term.factor) + "*(" + part + ")";
        else if (!term.set)
            part = std::to_string(term.factor);
        else if (terms_.size() > 1)
            part = "(" + part + ")";
        text += (text.empty() ? "" : " + ") + part;
    }
    return text;
}

} // namespace kerncast::analysis
