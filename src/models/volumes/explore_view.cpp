#include "kerncast/models/volumes/shortlist.hpp"
#include "kerncast/models/volumes/volume_view.hpp"
#include "kerncast/report/table_builder.hpp"
#include "kerncast/runtime/measurement_records.hpp"
#include "kerncast/runtime/statistics.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kerncast::models {

namespace {

// Where the registers column comes from: one source for the whole sweep.
std::string registers_note(const ExploreResult& result) {
    const VolumePrediction* first = nullptr;
    std::size_t spilling = 0;
    int fewest = 0, most = 0;
    for (const auto& row : result.rows) {
        if (!row.prediction)
            continue;
        const RegisterCount& count = row.prediction->placement.registers;
        if (!first) {
            first = &*row.prediction;
            fewest = most = count.per_thread;
        }
        fewest = std::min(fewest, count.per_thread);
        most = std::max(most, count.per_thread);
        if (count.spill_store_bytes > 0 || count.spill_load_bytes > 0)
            ++spilling;
    }
    if (!first)
        return "No configuration was predicted.";
    const RegisterCount& count = first->placement.registers;
    if (count.source != RegisterSource::ptxas)
        return register_count_note(count);
    const std::string range =
        fewest == most ? std::to_string(fewest) : fmt::format("{} to {}", fewest, most);
    return fmt::format("Registers per thread: {}, from ptxas (NVRTC, {}) compiling kerncast's "
                       "generated CUDA for each configuration; {} of them spill.",
                       range, count.target, spilling);
}

// One note per group of shown rows that share a rank (at most three, then a count).
std::vector<std::string> tie_notes(const ExploreResult& result, std::size_t top) {
    constexpr std::size_t named_groups = 3;
    std::vector<std::string> notes;
    std::size_t groups = 0, shown = 0;
    for (const auto& row : result.rows) {
        if (!row.prediction || (top && shown >= top))
            break;
        ++shown;
        if (row.tied < 2 || shown != row.rank)
            continue; // not the first row of a tie
        if (++groups > named_groups)
            continue;
        notes.push_back(fmt::format(
            "Rank {} is shared by {} configurations ({:.2f} Gpoints/s, {} binds): the model "
            "predicts the same throughput and the same next-largest limit for them and cannot "
            "order them; they are listed in the order they were enumerated "
            "(docs/volume-model.md, Ties).",
            row.rank, row.tied, row.prediction->limiter.points_per_second / 1e9,
            limiter_name(row.prediction->limiter.binding)));
    }
    if (groups > named_groups)
        notes.push_back(fmt::format("{} more ranks among those shown are shared by several "
                                    "configurations.",
                                    groups - named_groups));
    return notes;
}

// The best configurations predicted within runtime::near_best_fraction of the best: a note
// when there are several and they are not all one exact tie (tie_notes says that).

std::optional<std::string> near_best_note(const ExploreResult& result) {
    const ExploreRow* best = nullptr;
    std::size_t near = 0;
    double lowest = 0;
    std::map<std::string, std::size_t> by_limiter;
    std::vector<std::string> limiter_order;
    for (const auto& row : result.rows) {
        if (!row.prediction)
            break; // predicted rows come first, best first
        const double throughput = row.prediction->limiter.points_per_second;
        if (!best)
            best = &row;
        if (throughput <
            best->prediction->limiter.points_per_second * (1 - runtime::near_best_fraction))
            break;
        ++near;
        lowest = throughput;
        const std::string limiter = limiter_name(row.prediction->limiter.binding);
        if (by_limiter[limiter]++ == 0)
            limiter_order.push_back(limiter);
    }
    if (near < 2 || near == best->tied)
        return std::nullopt;
    const double highest = best->prediction->limiter.points_per_second;
    std::string limiters;
    for (const std::string& limiter : limiter_order)
        limiters += fmt::format("{}{} binds for {}", limiters.empty() ? "" : ", ", limiter,
                                by_limiter[limiter]);
    const std::string advice =
        "closer than the model's accuracy separates them (its time errors on measured GPUs: "
        "docs/accuracy.md). Time the leading ones (`kerncast run`) before choosing "
        "(docs/volume-model.md, Ties).";
    if (lowest == highest)
        return fmt::format("The {} best configurations are predicted at the same throughput "
                           "({:.2f} Gpoints/s; {}) and ranked by their next-largest limit: {}",
                           near, highest / 1e9, limiters, advice);
    return fmt::format("The {} best configurations are predicted within {:.2g} % of each other "
                       "({:.2f} to {:.2f} Gpoints/s; {}): {}",
                       near, (highest - lowest) / highest * 100, lowest / 1e9, highest / 1e9,
                       limiters, advice);
}

std::string configuration_label(const ExploreRow& row) {
    return runtime::launch_label(row.launch);
}

// Predicted throughput against rank, one series per value of `series_of` (a block shape, a
// limiter) in order of first appearance, at most `most_series` of them (the best-ranked ones;
// the rest share one series, `others`, so each series keeps a colour of its own), and the
// predicted best marked.
template <class SeriesOf>
report::Chart throughput_chart(const ExploreResult& result, std::string key, std::string title,
                               SeriesOf series_of, size_t most_series = 0,
                               const std::string& others = "") {
    report::Chart chart;
    chart.key = std::move(key);
    chart.title = std::move(title);
    chart.kind = report::ChartKind::scatter;
    chart.x_axis = {"rank", "", false};
    chart.y_axis = {"predicted throughput", "Gpoints/s", false};
    std::int64_t rank = 0;
    std::vector<std::string> named;
    report::ChartSeries best;
    best.name = "predicted best";
    best.highlight = true;
    for (const auto& row : result.rows) {
        if (!row.prediction)
            continue;
        if (++rank == 1) {
            best.x = {1.0};
            best.y = {row.prediction->limiter.points_per_second / 1e9};
            best.point_labels = {configuration_label(row)};
        }
        std::string name = series_of(row);
        if (most_series > 0 && std::find(named.begin(), named.end(), name) == named.end()) {
            if (named.size() < most_series)
                named.push_back(name);
            else
                name = others;
        }
        report::ChartSeries& series = chart.series_named(name);
        series.x.push_back(static_cast<double>(rank));
        series.y.push_back(row.prediction->limiter.points_per_second / 1e9);
        series.point_labels.push_back(configuration_label(row));
    }
    // The others last, whatever rank their first point has.
    const auto rest = std::find_if(chart.series.begin(), chart.series.end(),
                                   [&](const report::ChartSeries& s) { return s.name == others; });
    if (most_series > 0 && rest != chart.series.end())
        std::rotate(rest, rest + 1, chart.series.end());
    if (rank > 0)
        chart.series.push_back(std::move(best));
    return chart;
}

// Per-level volumes of each configuration in rank order: DRAM and L2 bars, loads and stores
// stacked.
report::Chart volume_chart(const ExploreResult& result) {
    report::Chart chart;
    chart.key = "volumes";
    chart.title = "Predicted data volume per point by level, configurations in rank order";
    chart.kind = report::ChartKind::stacked_bar;
    chart.x_axis = {"configuration (rank order)", "", false};
    chart.y_axis = {"data volume", "B/pt", false};
    chart.series = {{"DRAM load", {}, {}, {}, "DRAM"},
                    {"DRAM store", {}, {}, {}, "DRAM"},
                    {"L2->L1 load", {}, {}, {}, "L2"},
                    {"L1->L2 store", {}, {}, {}, "L2"}};
    for (const auto& row : result.rows) {
        if (!row.prediction)
            continue;
        const VolumePrediction& p = *row.prediction;
        chart.categories.push_back(
            fmt::format("{} {}", format_triple(row.launch.block), kernel::fold_text(row.launch)));
        const double values[] = {p.dram_load_bytes, p.dram_store_bytes, p.l2_load_bytes,
                                 p.l2_store_bytes};
        for (size_t s = 0; s < chart.series.size(); ++s)
            chart.series[s].y.push_back(values[s]);
    }
    return chart;
}

// What the binding limiter charges a point: "17.46 B of DRAM traffic".
std::string binding_quantity(const VolumePrediction& p) {
    switch (p.limiter.binding) {
    case Limiter::dram:
    case Limiter::dram_in_flight:
        return fmt::format("{:.2f} B of DRAM traffic", p.dram_load_bytes + p.dram_store_bytes);
    case Limiter::l2:
        return fmt::format("{:.2f} B between L2 and L1", p.l2_load_bytes + p.l2_store_bytes);
    case Limiter::l1:
        return fmt::format("{:.3f} L1 cycles", p.l1.cycles_per_point);
    case Limiter::fp:
        return fmt::format("{:.3f} floating-point issue cycles", p.fp.cycles_per_point);
    case Limiter::launch:
        return fmt::format("{:.2g} block launches",
                           static_cast<double>(p.blocks) / static_cast<double>(p.points));
    }
    return "";
}

// A search space's kernel (when it has several) and swept values of a row: "kt_conv_shared
// filter_width=17 ", or "" for a plain sweep.
std::string case_prefix(const ExploreResult& result, const ExploreRow& row) {
    std::string text;
    if (result.kernels.size() > 1)
        text += result.kernels.at(row.kernel) + " ";
    for (const auto& [name, value] : row.parameters)
        text += fmt::format("{}={} ", name, value);
    return text;
}

// One line on the best configuration: what it is, its time, and why (the binding limiter's
// charge a point, and how close the next limiter is).
std::optional<std::string> best_note(const ExploreResult& result) {
    if (result.rows.empty() || !result.rows.front().prediction)
        return std::nullopt;
    const ExploreRow& best = result.rows.front();
    const VolumePrediction& p = *best.prediction;
    const LimiterResult& l = p.limiter;
    const std::pair<Limiter, double> limiters[] = {
        {Limiter::dram, l.dram_seconds_per_point},
        {Limiter::l2, l.l2_seconds_per_point},
        {Limiter::l1, l.l1_seconds_per_point},
        {Limiter::fp, l.fp_seconds_per_point},
        {Limiter::launch, l.launch_seconds_per_point},
        {Limiter::dram_in_flight, l.dram_in_flight_seconds_per_point}};
    std::optional<std::pair<Limiter, double>> next;
    for (const auto& [limiter, seconds] : limiters)
        if (limiter != l.binding && (!next || seconds > next->second))
            next = std::pair{limiter, seconds};
    const std::string runner_up =
        next && l.seconds_per_point > 0
            ? fmt::format("; the next limiter, {}, needs {:.0f} % of that time",
                          limiter_name(next->first), 100 * next->second / l.seconds_per_point)
            : std::string();
    return fmt::format("Best: {}block {} fold {} at {:.2f} Gpoints/s, {:.1f} us a launch; {} "
                       "binds ({} a point){}.",
                       case_prefix(result, best), format_triple(best.launch.block),
                       kernel::fold_text(best.launch), l.points_per_second / 1e9,
                       l.seconds_per_launch * 1e6, limiter_name(l.binding), binding_quantity(p),
                       runner_up);
}

// A search space's variant and swept parameters get a column each, between the rank and the
// block (keys clear of the ranking's own: a parameter named "time" is "param_time").
void add_case_columns(report::TableBuilder& t, const ExploreResult& result) {
    static const std::set<std::string> fixed_keys = {
        "rank",          "kernel",    "block",      "fold",      "throughput", "time",
        "limiter",       "dram_load", "dram_store", "l2_load",   "l2_store",   "l1_cycles",
        "blocks_per_sm", "registers", "skipped",    "beats_best"};
    if (result.kernels.size() > 1)
        t.columns({"kernel"});
    for (const std::string& name : result.swept_parameters)
        t.columns({{fixed_keys.count(name) ? "param_" + name : name, name}});
}

// The cells of add_case_columns for one row.
std::vector<report::Cell> case_cells(const ExploreResult& result, const ExploreRow& row) {
    std::vector<report::Cell> cells;
    if (result.kernels.size() > 1)
        cells.emplace_back(std::string(result.kernels.at(row.kernel)));
    for (const auto& [name, value] : row.parameters)
        cells.emplace_back(std::int64_t{value});
    return cells;
}

} // namespace

report::Document explore_view(const ExploreResult& result, std::size_t top) {
    report::Document doc;
    doc.schema = "kerncast.explore/1";
    doc.title =
        result.kernels.empty()
            ? fmt::format("Launch configurations of {} on {}, ranked by predicted throughput",
                          result.kernel, result.machine)
            : fmt::format("Search space of {} on {}, ranked by predicted time", result.kernel,
                          result.machine);
    report::TableBuilder t("ranking", "Ranking (Ernst et al. 2023, sec. 5.8)");
    t.columns({"rank"});
    add_case_columns(t, result);
    t.columns({"block",
               "fold",
               {"throughput", "throughput", "Gpoints/s", 2},
               {"time", "time per launch", "us", 1},
               "limiter"});
    t.columns_in_unit("B/pt", 2,
                      {{"dram_load", "DRAM load"},
                       {"dram_store", "DRAM store"},
                       {"l2_load", "L2->L1"},
                       {"l2_store", "L1->L2"}});
    t.columns({{"l1_cycles", "L1", "cycles/pt", 3},
               {"blocks_per_sm", "blocks/SM"},
               "registers",
               "skipped"});
    const std::vector<report::Cell> no_prediction(10, report::blank); // throughput .. registers
    // With a top, as many skipped rows as ranked ones at most: a space whose variant runs at
    // one launch would otherwise list hundreds.
    std::size_t shown = 0, skipped = 0, skipped_hidden = 0;
    for (const auto& row : result.rows) {
        if (!row.prediction) {
            ++skipped;
            if (top && skipped > top) {
                ++skipped_hidden;
                continue;
            }
            t.row(report::blank, case_cells(result, row), format_triple(row.launch.block),
                  kernel::fold_text(row.launch), no_prediction, row.skipped);
            continue;
        }
        if (top && shown >= top)
            continue;
        ++shown;
        const VolumePrediction& p = *row.prediction;
        t.row(
            row.rank, case_cells(result, row), format_triple(row.launch.block),
            kernel::fold_text(row.launch), p.limiter.points_per_second / 1e9,
            p.limiter.seconds_per_launch * 1e6, limiter_name(p.limiter.binding), p.dram_load_bytes,
            p.dram_store_bytes, p.l2_load_bytes, p.l2_store_bytes, p.l1.cycles_per_point,
            p.placement.occupancy.active_blocks_per_sm,
            report::cell_if(p.placement.registers.per_thread > 0, p.placement.registers.per_thread),
            report::blank);
    }
    doc.tables.push_back(t.build());
    if (const auto note = best_note(result))
        doc.notes.push_back(*note);
    doc.notes.push_back(fmt::format("{} configurations predicted, {} skipped.",
                                    result.rows.size() - skipped, skipped));
    if (skipped_hidden > 0)
        doc.notes.push_back(
            fmt::format("{} of the skipped configurations are not listed (--top {}): "
                        "--csv or --json lists every one with its reason.",
                        skipped_hidden, top));
    if (result.restricted > 0)
        doc.notes.push_back(
            fmt::format("{} combinations of the search space were excluded by its restrictions.",
                        result.restricted));
    doc.notes.push_back(registers_note(result));
    for (const std::string& note : tie_notes(result, top))
        doc.notes.push_back(note);
    if (const auto note = near_best_note(result))
        doc.notes.push_back(*note);
    doc.charts = {
        throughput_chart(
            result, "throughput",
            "Predicted throughput per configuration, coloured by block shape (the 8 best shapes)",
            [](const ExploreRow& row) { return format_triple(row.launch.block); }, 8,
            "other block shapes"),
        volume_chart(result),
        throughput_chart(result, "limiter",
                         "Predicted throughput per configuration, coloured by binding limiter",
                         [](const ExploreRow& row) {
                             return std::string(limiter_name(row.prediction->limiter.binding));
                         })};
    return doc;
}

void add_shortlist(report::Document& document, const ExploreResult& result, double log_spread,
                   double confidence) {
    std::vector<double> seconds;
    for (const auto& row : result.rows)
        if (row.prediction)
            seconds.push_back(row.prediction->limiter.seconds_per_launch);
    const Shortlist list = shortlist(seconds, log_spread, confidence);
    report::TableBuilder t("shortlist", "Configurations to measure, in this order");
    t.columns({"rank"});
    add_case_columns(t, result);
    t.columns({"block",
               "fold",
               {"time", "predicted time per launch", "us", 1},
               {"beats_best", "P(faster than the predicted best)", "", 3}});
    for (std::size_t i = 0; i < list.size; ++i) {
        const ExploreRow& row = result.rows[i];
        t.row(row.rank, case_cells(result, row), format_triple(row.launch.block),
              kernel::fold_text(row.launch), row.prediction->limiter.seconds_per_launch * 1e6,
              list.beats_best[i]);
    }
    document.tables.push_back(t.build());
    document.notes.push_back(fmt::format(
        "Shortlist: measure the first {} of {} predicted configurations. If the model's time "
        "errors across them are independent and log-normal with spread {:.3g} (the standard "
        "deviation of ln(measured / predicted)), the measured best is among them with "
        "probability at least {:.3g} % (the others beat the predicted best with probability "
        "{:.2g} in all; docs/autotuning.md).",
        list.size, seconds.size(), log_spread, 100 * confidence, list.outside_probability));
}

} // namespace kerncast::models
