// Shared by the lowering pass tests: example kernels, and running lower_kernel's pipeline up to
// (and including) one pass, so that a test sees the state that pass leaves.
#pragma once

#include "../../../../src/codegen/lowering/lowering_passes.hpp"
#include "kerncast/kernel/kernel_file.hpp"

#include <gtest/gtest.h>
#include <string>
#include <string_view>

namespace kerncast::codegen::lowering::testing {

inline kernel::KernelSpec example(const std::string& name) {
    return kernel::load_kernel_file(KERNCAST_SOURCE_DIR "/examples/kernels/" + name + ".yaml");
}

// Runs the passes of lowering_pipeline() in order through the one named `last`.
inline void run_through(LoweringState& state, std::string_view last) {
    for (const LoweringPass& pass : lowering_pipeline()) {
        pass.run(state);
        if (pass.name == last)
            return;
    }
    ADD_FAILURE() << "no lowering pass named " << last;
}

// "init acc_c[ko,kk]" style picture of the pieces: kind, accumulator, loops in name order.
inline std::string piece_text(const LoweringState& state, const Piece& piece) {
    std::string text;
    switch (piece.kind) {
    case PieceKind::plain:
        text = "S" + std::to_string(piece.statement);
        break;
    case PieceKind::barrier:
        text = "B";
        break;
    case PieceKind::init:
        text = "init " + state.accumulators[static_cast<size_t>(piece.accumulator)].name;
        break;
    case PieceKind::update:
        text = "update " + state.accumulators[static_cast<size_t>(piece.accumulator)].name;
        break;
    case PieceKind::store:
        text = "store" + std::to_string(piece.statement);
        break;
    }
    text += "[";
    bool first = true;
    for (const auto& loop : piece.loops) {
        text += (first ? "" : ",") + loop;
        first = false;
    }
    return text + "]";
}

inline std::string pieces_text(const LoweringState& state) {
    std::string text;
    for (const auto& piece : state.pieces)
        text += (text.empty() ? "" : " ") + piece_text(state, piece);
    return text;
}

} // namespace kerncast::codegen::lowering::testing
