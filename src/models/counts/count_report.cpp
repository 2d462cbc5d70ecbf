#include "kerncast/models/counts/count_report.hpp"

#include <algorithm>

namespace kerncast::models::counts {

using namespace kerncast::analysis;

static std::string address_text(const ByteAddress& address) {
    std::string text;
    for (const auto& [name, c] : address.coefficients) {
        if (text.empty())
            text += c < 0 ? "-" : "";
        else
            text += c < 0 ? " - " : " + ";
        text += std::to_string(c < 0 ? -c : c) + "*" + name;
    }
    if (text.empty())
        return std::to_string(address.constant);
    if (address.constant != 0)
        text += (address.constant < 0 ? " - " : " + ") +
                std::to_string(address.constant < 0 ? -address.constant : address.constant);
    return text;
}

CountReport evaluate_counts(const KernelAnalysis& analysis, const kernel::BoundKernel& bound,
                            const FootprintOptions& footprints) {
    KERNCAST_CHECK(bound.launch() == analysis.launch,
                   "the bound kernel is not the analysis' launch");
    const std::vector<std::int64_t>& params = bound.values();
    CountReport report;
    report.kernel = analysis.spec.name;
    report.file = analysis.spec.file;
    report.launch = analysis.launch;
    report.threads_per_block = analysis.threads_per_block;
    report.subgroups_per_block = analysis.subgroups_per_block;
    report.subgroup_size = analysis.options.subgroup_size;
    report.thread_blocks = analysis.thread_blocks.evaluate(params);
    report.granule_bytes = footprints.granule_bytes;
    for (size_t k = 0; k < analysis.parameters.size(); ++k) {
        const kernel::Parameter* param = analysis.spec.find_param(analysis.parameters[k]);
        report.parameters.push_back(
            ParameterValue{analysis.parameters[k], params[k], param && param->representative});
    }
    for (const auto& op : analysis.operations)
        report.operations.push_back(OperationRow{
            kernel::data_type_name(op.dtype), op.operation, granularity_name(op.granularity),
            op.count.evaluate(params), op.count.closed_form(), op.count.formula()});
    FootprintSession session(analysis, params);
    for (const auto& access : analysis.accesses) {
        AccessRow row;
        row.statement = access.statement;
        row.array = access.array;
        row.text = access.text;
        row.tag = access.tag;
        row.space = kernel::memory_space_name(access.space);
        row.dtype = kernel::data_type_name(access.dtype);
        row.direction = direction_name(access.direction);
        if (access.atomic)
            row.direction += std::string(":") + kernel::atomic_kind_name(*access.atomic);
        row.granularity = granularity_name(access.granularity);
        row.count = access.count.evaluate(params);
        row.count_per_work_item = access.count_per_work_item.evaluate(params);
        row.indirect = access.indirect;
        row.formula = access.count.formula();
        row.closed_form = access.count.closed_form();
        if (!access.indirect) {
            row.strides = access_strides(analysis, access, params);
            row.address = address_text(byte_address(analysis, access, params));
            const std::int64_t elements = access.footprint_elements.evaluate(params);
            // The access-to-footprint ratio (Stevens & Klöckner 6.1.1) of global and
            // constant memory; shared tiles are reused by every block, so it is not reported.
            const bool off_chip = access.space == kernel::MemorySpace::global ||
                                  access.space == kernel::MemorySpace::constant;
            if (elements > 0 && off_chip)
                row.access_to_footprint =
                    static_cast<double>(row.count_per_work_item) / static_cast<double>(elements);
            if (footprints.enabled) {
                auto group_footprint = [&](const ThreadGroup& group) {
                    const Footprint f = session.footprint(access, group, footprints.granule_bytes);
                    GroupFootprint g{f.accesses, f.elements, {}};
                    for (const auto& granule : f.granules)
                        g.granules.push_back(granule.count);
                    return g;
                };
                row.warp =
                    group_footprint(session.first_iteration_warp(access, footprints.warp_size));
                row.block = group_footprint(whole_block(analysis));
            }
        } else {
            row.address = "data-dependent";
        }
        report.accesses.push_back(std::move(row));
    }
    for (const auto& row : report.accesses) {
        auto same = std::find_if(
            report.patterns.begin(), report.patterns.end(), [&](const AccessPatternRow& p) {
                return p.space == row.space && p.dtype == row.dtype &&
                       p.direction == row.direction && p.granularity == row.granularity &&
                       p.tag == row.tag && p.indirect == row.indirect &&
                       p.thread_strides == row.strides.thread &&
                       p.block_strides == row.strides.block &&
                       p.access_to_footprint == row.access_to_footprint;
            });
        if (same == report.patterns.end()) {
            AccessPatternRow pattern;
            pattern.space = row.space;
            pattern.dtype = row.dtype;
            pattern.direction = row.direction;
            pattern.granularity = row.granularity;
            pattern.tag = row.tag;
            pattern.indirect = row.indirect;
            pattern.thread_strides = row.strides.thread;
            pattern.block_strides = row.strides.block;
            pattern.access_to_footprint = row.access_to_footprint;
            report.patterns.push_back(pattern);
            same = report.patterns.end() - 1;
        }
        same->accesses += 1;
        same->count += row.count;
    }
    const std::int64_t threads = report.thread_blocks * report.threads_per_block;
    for (const auto& barrier : analysis.barriers) {
        const std::int64_t per = barrier.per_work_item.evaluate(params);
        report.barriers.push_back(BarrierRow{barrier.statement, per, per * threads});
    }
    return report;
}

} // namespace kerncast::models::counts
