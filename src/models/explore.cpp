#include "kerncast/models/explore.hpp"

#include "kerncast/analysis/kernel_analysis.hpp"
#include "kerncast/error.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <thread>

namespace kerncast::models {

std::vector<Triple> default_block_sizes(std::int64_t threads_per_block) {
    std::vector<Triple> sizes;
    for (std::int64_t z = 1; z <= 64; z *= 2)
        for (std::int64_t y = 1; y <= 1024; y *= 2)
            for (std::int64_t x = 1; x <= 1024; x *= 2)
                if (x * y * z == threads_per_block)
                    sizes.push_back({x, y, z});
    return sizes;
}

namespace {

std::int64_t parse_positive(const std::string& text, const std::string& option,
                            const std::string& whole) {
    try {
        size_t used = 0;
        const long long value = std::stoll(text, &used);
        if (used == text.size() && value >= 1)
            return value;
    } catch (const std::exception&) {
    }
    throw_usage_error(option + ": '" + whole +
                      "' is not a launch triple (write 32x4x4, 32,4,4, z=2 or 2z)");
}

} // namespace

Triple parse_triple(const std::string& text, const std::string& option) {
    Triple values{1, 1, 1};
    if (text == "none")
        return values;
    // Axis forms: "z=2", "2z".
    for (int axis = 0; axis < 3; ++axis) {
        const char name = "xyz"[axis];
        if (text.size() >= 3 && text[0] == name && text[1] == '=') {
            values[static_cast<size_t>(axis)] = parse_positive(text.substr(2), option, text);
            return values;
        }
        if (text.size() >= 2 && text.back() == name &&
            std::isdigit(static_cast<unsigned char>(text[0]))) {
            values[static_cast<size_t>(axis)] =
                parse_positive(text.substr(0, text.size() - 1), option, text);
            return values;
        }
    }
    const char separator = text.find('x') != std::string::npos ? 'x' : ',';
    size_t start = 0;
    for (size_t k = 0; k < 3; ++k) {
        const size_t end = text.find(separator, start);
        values[k] = parse_positive(
            text.substr(start, end == std::string::npos ? std::string::npos : end - start), option,
            text);
        if (end == std::string::npos)
            return values;
        start = end + 1;
    }
    throw_usage_error(option + ": '" + text + "' has more than three values");
}

std::vector<Triple> parse_triple_list(const std::string& text, const std::string& option) {
    std::vector<Triple> values;
    size_t start = 0;
    while (true) {
        const size_t end = text.find(',', start);
        values.push_back(parse_triple(
            text.substr(start, end == std::string::npos ? std::string::npos : end - start),
            option));
        if (end == std::string::npos)
            return values;
        start = end + 1;
    }
}

std::vector<Triple> default_folds() {
    return {{1, 1, 1}, {1, 2, 1}, {1, 1, 2}};
}

ExploreResult explore(const kernel::KernelSpec& spec,
                      const std::vector<std::pair<std::string, std::int64_t>>& overrides,
                      const MachineModel& machine, const ExploreOptions& options) {
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
    std::vector<Triple> blocks = options.blocks, folds = options.folds;
    if (blocks.empty()) {
        if (fixed_block)
            blocks = {spec.launch.block};
        else
            for (const auto& size : default_block_sizes(options.threads_per_block))
                if ((mapped[1] || size[1] == 1) && (mapped[2] || size[2] == 1))
                    blocks.push_back(size);
    }
    if (folds.empty())
        for (const auto& fold : default_folds())
            if ((mapped[1] || fold[1] == 1) && (mapped[2] || fold[2] == 1))
                folds.push_back(fold);
    for (const auto& fold : folds)
        for (const auto& block : blocks) {
            ExploreRow row;
            row.launch.block = block;
            row.launch.fold = fold;
            result.rows.push_back(row);
        }
    // Parameter values are checked once, up front, so that a bad -D fails the command.
    (void)analysis::parameter_values(analysis::analyze(spec, spec.launch), overrides);

    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t k = next++; k < result.rows.size(); k = next++) {
            ExploreRow& row = result.rows[k];
            try {
                const analysis::KernelAnalysis analysis = analysis::analyze(spec, row.launch);
                const auto params = analysis::parameter_values(analysis, overrides);
                row.prediction = predict_volumes(analysis, params, machine, options.volume);
            } catch (const Error& error) {
                row.skipped = error.message();
            } catch (const std::exception& error) { // isl failures: report, keep sweeping
                row.skipped = std::string("internal error: ") + error.what();
            }
        }
    };
    unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
    jobs = std::min<unsigned>(jobs, static_cast<unsigned>(std::max<size_t>(1, result.rows.size())));
    std::vector<std::thread> workers;
    for (unsigned j = 1; j < jobs; ++j)
        workers.emplace_back(work);
    work();
    for (auto& worker : workers)
        worker.join();

    std::stable_sort(result.rows.begin(), result.rows.end(),
                     [](const ExploreRow& a, const ExploreRow& b) {
                         if (a.prediction.has_value() != b.prediction.has_value())
                             return a.prediction.has_value();
                         if (!a.prediction)
                             return false;
                         return a.prediction->limiter.points_per_second >
                                b.prediction->limiter.points_per_second;
                     });
    return result;
}

} // namespace kerncast::models
