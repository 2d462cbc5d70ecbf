// A CPU reference for generated kernels: executes a Schedule block by block, every thread of a
// block in lock step between statements (a legal interleaving of any barrier-correct kernel),
// in double precision with every store rounded to the array's dtype (f16: binary16, round to
// nearest even). Buffers start with the same deterministic contents the GPU harness writes, so
// device tests compare the GPU's buffers with these. Atomics apply in thread order (the
// interleaving above); their operands are converted to the element type first. Pure; meant
// for small sizes.
#pragma once

#include "kerncast/codegen/schedule.hpp"

#include <map>
#include <string>
#include <vector>

namespace kerncast::codegen {

// The device bytes of a global/constant array's buffer after the harness's hash
// initialisation (runtime BufferInit::hash), including packed 1- and 2-byte arrays.
std::vector<unsigned char> initial_buffer_bytes(const ArrayStorage& array);
// A buffer's bytes as element values (buffer_elements of them).
std::vector<double> decode_buffer(const ArrayStorage& array,
                                  const std::vector<unsigned char>& bytes);

struct ReferenceResult {
    // Final contents of every global and constant array, buffer_elements values each.
    std::map<std::string, std::vector<double>> buffers;
};

// Runs the schedule. An access outside an array's buffer is an input Error naming the array,
// the statement and the element.
ReferenceResult run_reference(const Schedule& schedule);

} // namespace kerncast::codegen
