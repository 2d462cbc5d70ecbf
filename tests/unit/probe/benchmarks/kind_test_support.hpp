// Runs chosen benchmark kinds of a record through the registry (benchmark_kind.hpp), the way
// analyse_probe_record does, so each kind's analysis is tested on its own.
#pragma once

#include "../synthetic_record.hpp"
#include "kerncast/error.hpp"
#include "kerncast/probe/benchmark_kind.hpp"

#include <gtest/gtest.h>
#include <set>
#include <string>

namespace kerncast::probe::testing {

// The record's benchmarks of the named kinds, in record order, through their analyses.
inline ProbeAnalysis analyse_kinds(const ProbeRecord& record, const std::set<std::string>& kinds,
                                   const AnalysisOptions& options = {}) {
    ProbeAnalysis result;
    AnalysisContext context(record, options, result);
    for (const auto& b : record.benchmarks)
        if (kinds.count(b.kind)) {
            const BenchmarkKind* kind = find_benchmark_kind(b.kind);
            EXPECT_NE(kind, nullptr) << b.kind;
            if (kind)
                kind->analyse(b, context);
        }
    return result;
}

inline double value_of(const ProbeAnalysis& a, const std::string& memory,
                       const std::string& quantity) {
    const ProbeValue* v = a.find(memory, quantity);
    EXPECT_NE(v, nullptr) << memory << " " << quantity;
    return v ? v->estimate.value : -1;
}

// The benchmark named `name` of the record (must exist).
inline RawBenchmark& benchmark_named(ProbeRecord& record, const std::string& name) {
    for (auto& b : record.benchmarks)
        if (b.name == name)
            return b;
    ADD_FAILURE() << "no benchmark " << name;
    return record.benchmarks.front();
}

// The input error the analysis of `kinds` throws, as text ("" and a failure when none).
inline std::string analysis_error(const ProbeRecord& record, const std::set<std::string>& kinds) {
    try {
        analyse_kinds(record, kinds);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::input);
        return e.message();
    }
    ADD_FAILURE() << "no error";
    return "";
}

} // namespace kerncast::probe::testing
