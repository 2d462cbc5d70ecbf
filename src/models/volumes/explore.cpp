#include "kerncast/models/volumes/explore.hpp"

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/analysis/shared_staging.hpp"
#include "kerncast/error.hpp"
#include "kerncast/kernel/launch_text.hpp"
#include "kerncast/models/prediction/analysed_launch.hpp"
#include "kerncast/models/prediction/predict_launch.hpp"
#include "kerncast/support/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <map>

namespace kerncast::models {

std::vector<kernel::Dim3> default_block_sizes(std::int64_t threads_per_block) {
    std::vector<kernel::Dim3> sizes;
    for (std::int64_t z = 1; z <= 64; z *= 2)
        for (std::int64_t y = 1; y <= 1024; y *= 2)
            for (std::int64_t x = 1; x <= 1024; x *= 2)
                if (x * y * z == threads_per_block)
                    sizes.push_back({x, y, z});
    return sizes;
}

std::vector<std::int64_t> default_thread_counts(const kernel::KernelSpec& spec) {
    if (!spec.threads.global[2].empty())
        return {1024};
    return {64, 128, 256, 512, 1024};
}

std::vector<kernel::Dim3> default_folds() {
    return {{1, 1, 1}, {1, 2, 1}, {1, 1, 2}};
}

namespace {

// Predicts every row on options.jobs worker threads; a row whose prediction fails keeps the
// reason in `skipped`.
void predict_rows(std::vector<ExploreRow>& rows, const ExploreOptions& options,
                  const std::function<VolumePrediction(const ExploreRow&)>& predict) {
    std::atomic<size_t> next{0};
    std::atomic<size_t> finished{0};
    auto work = [&] {
        for (size_t k = next++; k < rows.size(); k = next++) {
            ExploreRow& row = rows[k];
            try {
                row.prediction = predict(row);
            } catch (const Error& error) {
                row.prediction.reset();
                row.skipped = error.message();
            } catch (const std::exception& error) { // isl failures: report, keep sweeping
                row.prediction.reset();
                row.skipped = std::string("internal error: ") + error.what();
            }
            if (options.progress)
                options.progress(++finished, rows.size());
        }
    };
    support::run_on_threads(support::worker_count(options.jobs, rows.size()), work);
}

// Sorts by predicted time per launch (predicted rows first) and assigns competition ranks.
// Within one kernel and parameter set the points per launch are the same for every launch, so
// this is the order of throughput (Ernst et al. 2023, sec. 5.8); across a search space's
// variants and parameters, time is what an autotuner compares.
// Ranked by predicted time per launch; of equal times, the smaller next-largest limit first
// (LimiterResult::next_seconds_per_launch: the limits overlap imperfectly).
void rank_rows(std::vector<ExploreRow>& rows) {
    const auto key = [](const ExploreRow& row) {
        return std::pair{row.prediction->limiter.seconds_per_launch,
                         row.prediction->limiter.next_seconds_per_launch};
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const ExploreRow& a, const ExploreRow& b) {
        if (a.prediction.has_value() != b.prediction.has_value())
            return a.prediction.has_value();
        if (!a.prediction)
            return false;
        return key(a) < key(b);
    });
    // Ties: a run of equal predicted times and next limits shares the rank of its first row
    // (validate treats equal predictions alike: runtime/statistics.hpp, predicted_best_pick).
    for (std::size_t first = 0; first < rows.size() && rows[first].prediction;) {
        std::size_t end = first;
        while (end < rows.size() && rows[end].prediction && key(rows[end]) == key(rows[first]))
            ++end;
        for (std::size_t i = first; i < end; ++i) {
            rows[i].rank = first + 1;
            rows[i].tied = end - first;
        }
        first = end;
    }
}

} // namespace

ExploreResult explore(const kernel::KernelSpec& spec,
                      const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                      const MachineModel& machine, const ExploreOptions& options) {
    // A machine the models cannot use fails the command once, not every configuration.
    check_volume_machine(machine);
    ExploreResult result;
    result.kernel = spec.name;
    result.machine = machine.identity.id;
    // The default sweep varies only the axes the kernel maps to global thread indices; a
    // kernel that fixes its block (threadIdx used as an index) keeps the file's launch.
    bool fixed_block = false;
    std::array<bool, 3> mapped{false, false, false};
    for (size_t a = 0; a < 3; ++a) {
        mapped[a] = !spec.threads.global[a].empty();
        fixed_block = fixed_block || !spec.threads.local[a].empty();
    }
    std::vector<kernel::Dim3> blocks = options.blocks;
    std::vector<kernel::FoldChoice> folds = options.folds;
    if (blocks.empty()) {
        if (fixed_block)
            blocks = {spec.launch.block};
        else
            for (const std::int64_t threads :
                 options.threads_per_block > 0
                     ? std::vector<std::int64_t>{options.threads_per_block}
                     : default_thread_counts(spec))
                for (const auto& size : default_block_sizes(threads))
                    if ((mapped[1] || size[1] == 1) && (mapped[2] || size[2] == 1))
                        blocks.push_back(size);
        // Shared-memory tiles are often written for the file's block alone (bind refuses the
        // blocks they cannot take, analysis/shared_arrays.hpp): keep that block in the sweep.
        const bool shared = std::any_of(spec.arrays.begin(), spec.arrays.end(), [](const auto& a) {
            return a.space == kernel::MemorySpace::shared;
        });
        if (shared && std::find(blocks.begin(), blocks.end(), spec.launch.block) == blocks.end())
            blocks.push_back(spec.launch.block);
    }
    if (folds.empty())
        for (const auto& fold : default_folds())
            if ((mapped[1] || fold[1] == 1) && (mapped[2] || fold[2] == 1))
                folds.push_back({fold, std::nullopt});
    // Each fold with its placement (the kernel file's where the text names none); a fold
    // listed twice, or "none" under both placements, is one configuration.
    std::vector<kernel::LaunchConfig> fold_launches;
    for (const auto& choice : folds) {
        const kernel::LaunchConfig launch = kernel::with_fold(spec.launch, choice);
        if (std::find(fold_launches.begin(), fold_launches.end(), launch) == fold_launches.end())
            fold_launches.push_back(launch);
    }
    for (const auto& fold_launch : fold_launches)
        for (const auto& block : blocks) {
            ExploreRow row;
            row.launch = fold_launch;
            row.launch.block = block;
            result.rows.push_back(row);
        }
    // Parameter values, and the arrays against the device memory, are checked once, up front,
    // so that a bad -D fails the command (the arrays do not depend on the launch).
    check_arrays_fit_device_memory(
        analysis::bind(analysis::analyze(analysis::staging_judged_at(spec, overrides), spec.launch),
                       overrides),
        machine);
    if (options.prepare_registers) {
        std::vector<kernel::LaunchConfig> launches;
        for (const auto& row : result.rows)
            launches.push_back(row.launch);
        options.prepare_registers(launches, options.jobs);
    }
    predict_rows(result.rows, options, [&](const ExploreRow& row) {
        return predict_launch(spec, row.launch, overrides, machine, options.volume,
                              options.registers_for_launch);
    });
    rank_rows(result.rows);
    return result;
}

ExploreResult explore_space(const std::vector<kernel::KernelSpec>& kernels,
                            const kernel::SpaceEnumeration& space,
                            const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                            const MachineModel& machine, const ExploreOptions& options) {
    check_volume_machine(machine);
    ExploreResult result;
    result.machine = machine.identity.id;
    for (const auto& spec : kernels) {
        result.kernels.push_back(spec.name);
        result.kernel += (result.kernel.empty() ? "" : ", ") + spec.name;
    }
    if (!space.points.empty())
        for (const auto& [name, value] : space.points.front().parameters)
            result.swept_parameters.push_back(name);
    result.restricted = space.restricted;
    for (const kernel::SpacePoint& point : space.points) {
        ExploreRow row;
        row.kernel = point.kernel;
        row.launch = point.launch;
        row.parameters = point.parameters;
        result.rows.push_back(std::move(row));
    }
    // The swept values over the command's -D values.
    const auto values_of = [&](const ExploreRow& row) {
        std::vector<std::pair<std::string, std::int64_t>> values = overrides;
        for (const auto& swept : row.parameters) {
            values.erase(std::remove_if(values.begin(), values.end(),
                                        [&](const auto& v) { return v.first == swept.first; }),
                         values.end());
            values.push_back(swept);
        }
        return values;
    };
    if (options.registers_for_case && options.prepare_registers_for_case) {
        std::map<std::pair<std::size_t, std::vector<std::pair<std::string, std::int64_t>>>,
                 std::vector<kernel::LaunchConfig>>
            cases;
        for (const auto& row : result.rows)
            cases[{row.kernel, values_of(row)}].push_back(row.launch);
        for (const auto& [key, launches] : cases)
            options.prepare_registers_for_case(key.first, key.second, launches, options.jobs);
    }
    predict_rows(result.rows, options, [&](const ExploreRow& row) {
        const std::vector<std::pair<std::string, std::int64_t>> values = values_of(row);
        const kernel::KernelSpec& spec = kernels.at(row.kernel);
        if (!options.registers_for_case)
            return predict_launch(spec, row.launch, values, machine, options.volume,
                                  options.registers_for_launch);
        return predict_launch(spec, row.launch, values, machine, options.volume,
                              [&](const kernel::LaunchConfig& launch) {
                                  return options.registers_for_case(row.kernel, values, launch);
                              });
    });
    rank_rows(result.rows);
    return result;
}

} // namespace kerncast::models
