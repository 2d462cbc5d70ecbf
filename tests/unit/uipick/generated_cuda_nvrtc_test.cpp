// The CUDA kerncast generates for the first variant of every UIPICK generator compiles with
// NVRTC (needs no GPU), so `kerncast run` can time every kind of measurement kernel.
#include "kerncast/codegen/cuda_codegen.hpp"
#include "kerncast/codegen/schedule.hpp"
#include "kerncast/runtime/nvrtc_compile.hpp"
#include "kerncast/uipick/kernel_collection.hpp"

#include <gtest/gtest.h>

using namespace kerncast;
using namespace kerncast::uipick;

TEST(GeneratedCudaNvrtc, FirstVariantOfEveryGeneratorCompilesForSm80) {
    for (const auto& generator : all_generators()) {
        SCOPED_TRACE(generator.name);
        const auto variants = expand_variants(generator, parse_filter_tags({}));
        ASSERT_FALSE(variants.empty());
        const VariantResult made = generator.create(variants.front());
        ASSERT_TRUE(made.spec.has_value()) << made.skip_reason;
        const kernel::KernelSpec& spec = *made.spec;
        const codegen::GeneratedKernel g =
            codegen::generate_cuda(codegen::lower_kernel(spec, spec.launch));
        const runtime::CompiledKernel result = runtime::compile_cuda_source(
            {g.cuda_source, spec.name + ".cu", g.kernel_name, 8, 0, {}, {}});
        EXPECT_EQ(result.lowered_name, g.kernel_name);
        EXPECT_FALSE(result.image.empty());
    }
}
