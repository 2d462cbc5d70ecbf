// What a kernel launch needs besides its code: grid and block shape and the kernel's
// arguments (device buffers and scalars), as given on the command line or by the code
// generator.
#pragma once

#include "kerncast/runtime/dtype.hpp"
#include "kerncast/runtime/measurement.hpp"

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace kerncast::runtime {

// A device buffer the harness allocates, initialises and passes as a pointer.
struct BufferSpec {
    std::string name;
    DType dtype = DType::f32;
    std::int64_t count = 0; // elements
    BufferInit init = BufferInit::hash;
    // init == pattern: one period's bytes (1 to max_pattern_bytes), repeated over the buffer.
    std::vector<std::uint8_t> pattern;

    bool operator==(const BufferSpec&) const = default;
};

inline constexpr std::size_t max_pattern_bytes = 4096;

// The initialisation's text: "hash", "zero" or "pattern=HEX" (the period's bytes in order,
// two lower-case hex digits each: image[p, c] = c of a packed u8 image is "pattern=00010203").
std::string init_text(const BufferSpec& buffer);
// Sets buffer.init and buffer.pattern from such a text; false (buffer unchanged) when the
// text is none of them or a pattern is empty, longer than max_pattern_bytes or not hex.
bool parse_buffer_init_text(std::string_view text, BufferSpec& buffer);

// A scalar passed by value. Integers keep their exact value; reals are doubles (narrowed to
// float for f32).
struct ScalarArgument {
    std::string name;
    DType dtype = DType::i32;
    std::variant<std::int64_t, std::uint64_t, double> value;

    bool operator==(const ScalarArgument&) const = default;
};

using KernelArgument = std::variant<BufferSpec, ScalarArgument>;

// "name:dtype:count[:init]", e.g. "x:f32:1048576", "y:f64:1024:zero" or
// "image:u32:1024:pattern=00010203". Usage Error otherwise.
// Grid and block shapes use the launch grammar of every command, kernel/launch_text.hpp.
BufferSpec parse_buffer_spec(std::string_view text);
// The same form for a __constant__ array the harness fills (TimingRequest::constant_symbols);
// messages name --constant.
BufferSpec parse_constant_spec(std::string_view text);
// "name:dtype:value", e.g. "n:i32:1048576" or "a:f32:2.5". Usage Error otherwise.
ScalarArgument parse_scalar_argument(std::string_view text);

// The scalar's value in its dtype's bytes (little-endian host layout, as the launch passes it).
std::vector<unsigned char> scalar_bytes(const ScalarArgument& scalar);

// "x:f32:1048576:hash" / "n:i32:1048576": the command-line form, for records and re-runs.
std::string to_string(const BufferSpec& buffer);
std::string to_string(const ScalarArgument& scalar);

} // namespace kerncast::runtime
