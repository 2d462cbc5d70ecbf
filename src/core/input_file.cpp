#include "kerncast/input_file.hpp"

#include "kerncast/error.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace kerncast {
namespace {

std::string limit_text(std::size_t bytes) {
    if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0)
        return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= (std::size_t{1} << 10) && bytes % (std::size_t{1} << 10) == 0)
        return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

} // namespace

std::string read_input_file(const std::string& path, const std::string& what,
                            std::size_t limit_bytes) {
    const SourceLocation where{path, 0, 0, {}, {}};
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0 && S_ISDIR(status.st_mode))
        throw_input_error("cannot read " + what + ": it is a directory", where);
    errno = 0;
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        const int error = errno;
        const std::string reason = error != 0 ? std::string(": ") + std::strerror(error) : "";
        throw_input_error("cannot open " + what + reason, where);
    }
    std::string text;
    char chunk[1 << 16];
    while (file) {
        file.read(chunk, sizeof chunk);
        const auto got = static_cast<std::size_t>(file.gcount());
        if (got > limit_bytes - text.size())
            throw_input_error("the " + what + " is larger than " + limit_text(limit_bytes) +
                                  ": not read (is it the right file?)",
                              where);
        text.append(chunk, got);
    }
    if (file.bad())
        throw_input_error("cannot read " + what, where);
    return text;
}

} // namespace kerncast
