// A collection of UIPICK generators and the tag-driven generation of measurement kernels
// (Stevens & Klöckner sec. 7.1, `KernelCollection(...).generate_kernels(filter_tags)`).
#pragma once

#include "kerncast/uipick/generator.hpp"

#include <string>
#include <vector>

namespace kerncast::uipick {

// Every generator kerncast provides (measurement_generators.cpp, application_generators.cpp).
const std::vector<Generator>& all_generators();

struct GeneratedKernel {
    std::string generator;
    VariantValues values;
    // Deterministic, unique within one generation: "<generator>.<arg>-<value>....yaml".
    std::string file_name;
    kernel::KernelSpec spec;
    std::string yaml; // the kernel file text, with a provenance comment
};

struct SkippedVariant {
    std::string generator;
    VariantValues values; // empty when the generator made no variant at all
    std::string reason;
};

struct Generation {
    std::vector<std::string> matched_generators;
    std::vector<GeneratedKernel> kernels;
    std::vector<SkippedVariant> skipped;
};

// The generators whose tag sets match the user's generator tags (sec. 7.1), in collection
// order.
std::vector<const Generator*> match_generators(const std::vector<Generator>& collection,
                                               const FilterTags& tags, MatchCondition condition);

// The Cartesian product of one generator's allowed value sets, each narrowed by the user's
// variant tag for that argument (user values the generator does not accept are dropped), in
// the order: first argument slowest, values in the order given. Arguments the generator does
// not have are ignored (they belong to other generators).
std::vector<VariantValues> expand_variants(const Generator& generator, const FilterTags& tags);

// Runs the matching generators. Usage Error when a variant tag names an argument that no
// matching generator has, or only values that none of them accepts.
Generation generate_kernels(const std::vector<Generator>& collection, const FilterTags& tags,
                            MatchCondition condition = MatchCondition::superset);

// "<generator>.<arg>-<value>...": the deterministic kernel name of a variant, with every
// character that is not a letter, digit or '_' written as '_' (it becomes a CUDA symbol).
std::string variant_kernel_name(const std::string& generator, const VariantValues& values);

} // namespace kerncast::uipick
