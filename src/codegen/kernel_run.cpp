#include "kerncast/codegen/kernel_run.hpp"

#include "kerncast/sha256.hpp"

namespace kerncast::codegen {

runtime::TimingRequest timing_request(const GeneratedKernel& generated,
                                      const std::string& source_name,
                                      const runtime::TimingOptions& options) {
    runtime::TimingRequest request;
    request.cuda_source = generated.cuda_source;
    request.source_name = source_name;
    request.kernel_name = generated.kernel_name;
    request.grid = generated.grid;
    request.block = generated.block;
    request.dynamic_shared_memory_bytes = generated.dynamic_shared_memory_bytes;
    request.arguments = generated.arguments;
    request.constant_symbols = generated.constant_symbols;
    request.options = options;
    return request;
}

runtime::RunContext run_context(const Schedule& schedule, const GeneratedKernel& generated,
                                const SourceOrigin& origin) {
    runtime::RunContext context;
    context.kernel_file = origin.kernel_file;
    context.kernel_file_sha256 = origin.kernel_file_sha256;
    context.source_sha256 = sha256_hex(generated.cuda_source);
    context.fold = generated.fold;
    context.fold_placement = generated.fold_placement;
    for (const auto& [name, value] : schedule.parameters)
        context.parameters[name] = value;
    return context;
}

} // namespace kerncast::codegen
