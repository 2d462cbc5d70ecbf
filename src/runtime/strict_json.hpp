// Internal: strict reading of JSON records. Every accessor names the record (origin) and the
// JSON path of the offending value in its input Error.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

namespace kerncast::runtime::strict_json {

// Parses text; a syntax error becomes an input Error at origin:line:column.
nlohmann::json parse(const std::string& text, const std::string& origin);

class Reader {
public:
    explicit Reader(std::string origin) : origin_(std::move(origin)) {}

    [[noreturn]] void fail(const std::string& path, const std::string& message) const;

    // node must be an object whose keys are all in `allowed`.
    void expect_object(const nlohmann::json& node, const std::string& path,
                       std::initializer_list<const char*> allowed) const;
    // node must be an object (any keys).
    void expect_any_object(const nlohmann::json& node, const std::string& path) const;
    void expect_array(const nlohmann::json& node, const std::string& path) const;

    // A member that must be present.
    const nlohmann::json& required(const nlohmann::json& object, const std::string& path,
                                   const char* key) const;
    // A member that may be absent (nullptr then).
    static const nlohmann::json* optional(const nlohmann::json& object, const char* key);

    std::string string(const nlohmann::json& node, const std::string& path) const;
    std::int64_t integer(const nlohmann::json& node, const std::string& path) const;
    double number(const nlohmann::json& node, const std::string& path) const;
    bool boolean(const nlohmann::json& node, const std::string& path) const;

    static std::string child(const std::string& path, const std::string& key);
    static std::string child(const std::string& path, std::size_t index);

private:
    std::string origin_;
};

} // namespace kerncast::runtime::strict_json
