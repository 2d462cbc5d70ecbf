#include "kerncast/analysis/symbolic_count.hpp"

#include "../support/isl_support.hpp"
#include "closed_form.hpp"
#include "kerncast/checked_arithmetic.hpp"
#include "kerncast/error.hpp"

#include <algorithm>
#include <mutex>

namespace kerncast::analysis {

// One parametric set and how to count it.
class PointCount {
public:
    PointCount(const std::string& text, const std::vector<std::string>& parameters)
        : text_(text), parameters_(parameters) {
        isl::Set set;
        try {
            set = isl::read_set(ctx_, text);
        } catch (const isl::IslError& e) {
            throw_input_error("isl rejects the set '" + text + "': " + e.what());
        }
        // Align the set's parameters with the caller's list (adds unused ones).
        isl::Space space(
            isl_space_params_alloc(ctx_.get(), static_cast<unsigned>(parameters.size())));
        for (size_t k = 0; k < parameters.size(); ++k)
            space.reset(isl_space_set_dim_name(space.release(), isl_dim_param,
                                               static_cast<unsigned>(k), parameters[k].c_str()));
        const auto used = isl::dim_names(set.get(), isl_dim_param);
        for (const auto& name : used)
            if (std::find(parameters.begin(), parameters.end(), name) == parameters.end())
                throw_input_error("the set '" + text + "' uses '" + name +
                                  "', which is not a parameter");
        set_.reset(isl_set_align_params(set.release(), space.release()));
        ctx_.check(set_.get(), "aligning parameters");
        if (auto form =
                detail::derive_closed_form(ctx_, set_.get(), static_cast<int>(parameters.size()))) {
            formula_ = form->to_string(parameters);
            compiled_ = std::make_unique<detail::CompiledClosedForm>(*form);
        }
    }

    std::int64_t evaluate(const std::int64_t* params) const {
        if (compiled_)
            return compiled_->evaluate(params);
        return evaluate_with_isl(params);
    }

    std::int64_t evaluate_with_isl(const std::int64_t* params) const {
        std::lock_guard lock(mutex_);
        isl::Set fixed(isl_set_copy(set_.get()));
        for (size_t k = 0; k < parameters_.size(); ++k)
            fixed.reset(isl_set_fix_val(fixed.release(), isl_dim_param, static_cast<unsigned>(k),
                                        isl_val_int_from_si(ctx_.get(), params[k])));
        try {
            return isl::count_points(ctx_, fixed.get());
        } catch (const isl::IslError& e) {
            throw_input_error(std::string("cannot count ") + text_ + ": " + e.what());
        }
    }

    bool closed_form() const { return compiled_ != nullptr; }
    std::string formula() const {
        return compiled_ ? formula_ : "isl count of " + isl::to_string(set_.get());
    }

private:
    mutable isl::Context ctx_;
    std::string text_;
    std::vector<std::string> parameters_;
    isl::Set set_;
    std::string formula_;
    std::unique_ptr<detail::CompiledClosedForm> compiled_;
    mutable std::mutex mutex_;
};

SymbolicCount SymbolicCount::of_set(const std::string& isl_set_text,
                                    const std::vector<std::string>& parameters) {
    SymbolicCount count;
    count.terms_.push_back(Term{1, std::make_shared<const PointCount>(isl_set_text, parameters)});
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
