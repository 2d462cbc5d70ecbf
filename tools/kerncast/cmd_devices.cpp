// kerncast devices: the GPUs this machine has.
#include "commands.hpp"
#include "kerncast/gpu/devices.hpp"

#include <memory>

namespace kerncast::cli {
namespace {

void setup_devices(CLI::App& app) {
    auto* cmd = app.add_subcommand("devices", "GPU: list the visible CUDA devices");
    auto output = std::make_shared<OutputOptions>();
    add_output_options(*cmd, *output);
    cmd->callback([output] { emit(gpu::devices_view(gpu::query_devices()), *output); });
}

} // namespace

KERNCAST_REGISTER_COMMAND(900, setup_devices);

} // namespace kerncast::cli
