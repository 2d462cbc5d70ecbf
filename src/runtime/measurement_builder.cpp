#include "kerncast/runtime/measurement_builder.hpp"

#include "kerncast/runtime/statistics.hpp"

#include <limits>

namespace kerncast::runtime {

Measurement make_measurement(const TimingRequest& request, const TimedRun& run,
                             const RunContext& context) {
    Measurement m;
    m.device = run.device;
    m.kernel.name = request.kernel_name;
    m.kernel.file = context.kernel_file;
    m.kernel.file_sha256 = context.kernel_file_sha256;
    m.kernel.source_sha256 = context.source_sha256;
    m.kernel.parameters = context.parameters;
    for (const auto& argument : request.arguments) {
        if (const auto* buffer = std::get_if<BufferSpec>(&argument)) {
            m.kernel.buffers.push_back(
                {buffer->name, to_string(buffer->dtype), buffer->count, init_text(*buffer)});
            continue;
        }
        const auto& scalar = std::get<ScalarArgument>(argument);
        if (const auto* u = std::get_if<std::uint64_t>(&scalar.value)) {
            if (*u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                m.kernel.parameters[scalar.name] = static_cast<std::int64_t>(*u);
            else
                m.kernel.parameters[scalar.name] = static_cast<double>(*u);
        } else if (const auto* i = std::get_if<std::int64_t>(&scalar.value)) {
            m.kernel.parameters[scalar.name] = *i;
        } else {
            m.kernel.parameters[scalar.name] = std::get<double>(scalar.value);
        }
    }
    for (const auto& constant : request.constant_symbols)
        m.kernel.constants.push_back(
            {constant.name, to_string(constant.dtype), constant.count, init_text(constant)});
    m.kernel.launch.block = request.block;
    m.kernel.launch.grid = request.grid;
    m.kernel.launch.fold = context.fold;
    m.kernel.launch.fold_placement = context.fold_placement;
    m.kernel.launch.dynamic_shared_memory_bytes = request.dynamic_shared_memory_bytes;

    m.method->warmup_count = request.options.warmup;
    m.method->repetitions = static_cast<int>(run.times_s.size());
    m.method->l2_flush = request.options.l2_flush;
    m.method->l2_flush_bytes = run.l2_flush_bytes;
    m.method->timer = "cuda-event";

    m.results.times_s = run.times_s;
    const TimeSummary summary = summarize_times(run.times_s);
    m.results.median_s = summary.median_s;
    m.results.min_s = summary.min_s;
    m.results.max_s = summary.max_s;
    m.results.mean_s = summary.mean_s;
    m.results.stddev_s = summary.stddev_s;
    if (context.bytes_moved)
        m.results.throughput["effective_bandwidth"] = {
            static_cast<double>(*context.bytes_moved) / summary.median_s, "B/s"};

    m.kerncast_version = KERNCAST_VERSION;
    m.date_utc = context.date_utc;
    m.command_line = context.command_line;
    return m;
}

} // namespace kerncast::runtime
