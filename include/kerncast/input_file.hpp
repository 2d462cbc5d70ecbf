// Reading a user's input file whole, with a size limit: a device file (/dev/zero), a
// directory or a file far larger than any input of its kind is an input error naming the
// file, never an unbounded read.
#pragma once

#include <cstddef>
#include <string>

namespace kerncast {

// The default limit: larger than any machine file, model, workload or record kerncast
// writes (the largest committed record is a few MiB).
inline constexpr std::size_t default_input_file_limit_bytes = std::size_t{256} << 20;

// The text of the file at `path`, read in chunks. `what` names the kind of file in messages
// ("machine file", "kernel file"); errors carry `path` as their location. Throws an input
// error when the file cannot be opened, is a directory, cannot be read, or holds more than
// `limit_bytes` (the read stops there, so a device file that never ends costs at most the
// limit).
std::string read_input_file(const std::string& path, const std::string& what,
                            std::size_t limit_bytes = default_input_file_limit_bytes);

} // namespace kerncast
