// Shared by the view tests: find a column of a report table, and a note of a document.
#pragma once

#include "kerncast/report/document.hpp"

#include <algorithm>
#include <cstddef>
#include <gtest/gtest.h>
#include <string>

namespace kerncast::test {

// The index of the column whose key is `key`; a test failure (and 0) when there is none.
inline std::size_t column(const report::Table& table, const std::string& key) {
    for (std::size_t k = 0; k < table.columns.size(); ++k)
        if (table.columns[k].key == key)
            return k;
    ADD_FAILURE() << "no column " << key << " in " << table.key;
    return 0;
}

// Whether some note of `doc` contains `text`.
inline bool has_note(const report::Document& doc, const std::string& text) {
    return std::any_of(doc.notes.begin(), doc.notes.end(), [&](const std::string& note) {
        return note.find(text) != std::string::npos;
    });
}

} // namespace kerncast::test
