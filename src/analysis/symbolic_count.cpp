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
    PointCount(const std::string& text, const std::vector<std::string>& parameters)
        : text_(text), parameters_(parameters) {
        ::isl::set set;
        try {
            set = isl::parse_set(ctx_, text);
        } catch (const isl::IslError& e) {
            throw_input_error("isl rejects the set '" + text + "': " + e.what());
        }
        for (const auto& name : isl::dim_names(set, isl_dim_param))
            if (std::find(parameters.begin(), parameters.end(), name) == parameters.end())
                throw_input_error("the set '" + text + "' uses '" + name +
                                  "', which is not a parameter");
        // Align the set's parameters with the caller's list (adds unused ones).
        set_ =
            isl::checked("aligning parameters", [&] { return isl::align_params(set, parameters); });
        if (auto form = detail::derive_closed_form(set_, static_cast<int>(parameters.size()))) {
            formula_ = form->to_string(parameters);
            compiled_ = std::make_unique<detail::CompiledClosedForm>(*form);
        }
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
            ::isl::set fixed = set_;
            for (size_t k = 0; k < parameters_.size(); ++k)
                fixed = isl::fix_param(fixed, static_cast<int>(k), params[k]);
            return isl::count_points(ctx_, fixed);
        } catch (const isl::IslError& e) {
            throw_input_error(std::string("cannot count ") + text_ + ": " + e.what());
        } catch (const ::isl::exception& e) {
            throw_input_error(std::string("cannot count ") + text_ + ": " + isl::message_of(e));
        }
    }

    bool closed_form() const { return compiled_ != nullptr; }
    std::string formula() const {
        return compiled_ ? formula_ : "isl count of " + isl::to_string(set_);
    }

private:
    mutable isl::Context ctx_;
    std::string text_;
    std::vector<std::string> parameters_;
    ::isl::set set_;
    std::string formula_;
    std::unique_ptr<detail::CompiledClosedForm> compiled_;
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
    std::shared_ptr<const PointCount> get(const std::string& text,
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
        auto count = std::make_shared<const PointCount>(text, parameters);
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
    SymbolicCount count;
    count.terms_.push_back(Term{1, point_counts().get(isl_set_text, parameters)});
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
