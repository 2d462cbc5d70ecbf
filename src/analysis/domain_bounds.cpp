#include "domain_bounds.hpp"

#include "kerncast/kernel/kernel_spec.hpp"

namespace kerncast::analysis::detail {

std::optional<kernel::AffineForm> affine_bound(const ::isl::pw_aff& bound,
                                               const std::vector<std::string>& params) {
    if (bound.is_null() || isl_pw_aff_n_piece(bound.get()) != 1)
        return std::nullopt;
    std::optional<kernel::AffineForm> form;
    bound.foreach_piece([&](const ::isl::set&, const ::isl::multi_aff& piece) {
        const ::isl::aff aff = piece.at(0);
        const ::isl::val denominator = ::isl::manage(isl_aff_get_denominator_val(aff.get()));
        if (!denominator.is_one() || isl_aff_dim(aff.get(), isl_dim_div) > 0)
            return;
        kernel::AffineForm f;
        f.constant = isl::to_int64(::isl::manage(isl_aff_get_constant_val(aff.get())).get());
        for (size_t k = 0; k < params.size(); ++k) {
            const ::isl::val c = ::isl::manage(
                isl_aff_get_coefficient_val(aff.get(), isl_dim_param, static_cast<int>(k)));
            if (const std::int64_t v = isl::to_int64(c.get()); v != 0)
                f.add_term(params[k], v);
        }
        form = f;
    });
    return form;
}

std::optional<kernel::AffineForm> index_bound(const ::isl::set& domain, int position,
                                              bool maximum) {
    const ::isl::pw_aff bound = ::isl::manage(maximum ? isl_set_dim_max(domain.copy(), position)
                                                      : isl_set_dim_min(domain.copy(), position));
    return affine_bound(bound, isl::dim_names(domain, isl_dim_param));
}

std::string fold_larger_than_domain(int axis, std::int64_t fold, const std::string& index,
                                    const std::string& values) {
    return "the fold " + std::to_string(fold) + " along " + kernel::axis_name(axis) +
           " is larger than the domain, whose index " + index + " takes " + values + " values";
}

} // namespace kerncast::analysis::detail
