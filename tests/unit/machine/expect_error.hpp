// Test helper: run code that must throw a kerncast::Error and return it for inspection.
#pragma once

#include "kerncast/error.hpp"

#include <gtest/gtest.h>
#include <optional>

template <class Code> std::optional<kerncast::Error> caught_error(Code&& code) {
    try {
        code();
    } catch (const kerncast::Error& error) {
        return error;
    }
    ADD_FAILURE() << "expected a kerncast::Error";
    return std::nullopt;
}

inline bool has_note(const kerncast::Error& error, const std::string& text) {
    for (const auto& note : error.notes())
        if (note.find(text) != std::string::npos)
            return true;
    return false;
}
