#include "kerncast/machine/machine_text_edit.hpp"

#include "kerncast/error.hpp"
#include "kerncast/json_reader.hpp"
#include "kerncast/json_text_edit.hpp"
#include "kerncast/machine/machine_json.hpp"
#include "machine_fields.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

namespace kerncast {
namespace {

namespace mf = machine_fields;
using json_reader::child_pointer;
using json_text_edit::JsonTextEdit;

// The machine with the four editable sections taken from `from`.
MachineModel with_editable_sections(MachineModel machine, const MachineModel& from) {
    machine.sources = from.sources;
    machine.capacity_fits = from.capacity_fits;
    machine.calibrated_costs = from.calibrated_costs;
    machine.atomic_service_times = from.atomic_service_times;
    return machine;
}

// The edits of one object section, member by member. `canonical` is machine_json_text() of the
// updated machine: a changed or added member is written as it writes it.
class SectionEditor {
public:
    SectionEditor(JsonTextEdit& edit, const JsonTextEdit& canonical, const std::string& section)
        : edit_(edit), canonical_(canonical), pointer_("/" + section) {}

    // `key` differs between the original and the updated machine: `in_updated` says whether
    // the updated machine has it. Returns false when the original text cannot be edited so.
    bool change(const std::string& key, bool in_updated) {
        const std::string pointer = child_pointer(pointer_, key);
        if (!edit_.contains(pointer_)) // the whole section is new to the text
            return in_updated ? (section_added_ = true) : false;
        if (in_updated) {
            if (edit_.contains(pointer))
                edit_.replace_value(pointer, canonical_.value_text(pointer));
            else
                added_.push_back(pointer);
            return true;
        }
        if (!edit_.contains(pointer)) // a member of an "extends" base: not in this text
            return false;
        removed_.push_back(pointer);
        return true;
    }

    // Applies the additions and removals: an added member takes the place of a removed one (a
    // refit's new source where the replaced one stood), the others go after the last member.
    void finish() {
        if (section_added_) {
            edit_.append_member("", canonical_.member_text(pointer_));
            return;
        }
        std::size_t paired = 0;
        for (; paired < std::min(added_.size(), removed_.size()); ++paired)
            edit_.replace_member(removed_[paired], canonical_.member_text(added_[paired]));
        for (std::size_t i = paired; i < removed_.size(); ++i)
            edit_.remove_member(removed_[i]);
        for (std::size_t i = paired; i < added_.size(); ++i)
            edit_.append_member(pointer_, canonical_.member_text(added_[i]));
    }

private:
    JsonTextEdit& edit_;
    const JsonTextEdit& canonical_;
    std::string pointer_;
    bool section_added_ = false;
    std::vector<std::string> added_;
    std::vector<std::string> removed_;
};

// Keys of two maps whose values differ, with whether the second map has the key.
template <class Map>
std::vector<std::pair<std::string, bool>> changed_keys(const Map& before, const Map& after) {
    std::vector<std::pair<std::string, bool>> changed;
    for (const auto& [key, value] : before)
        if (auto it = after.find(key); it == after.end() || !(it->second == value))
            changed.emplace_back(key, it != after.end());
    for (const auto& [key, value] : after)
        if (before.count(key) == 0)
            changed.emplace_back(key, true);
    return changed;
}

MachineTextEdit canonical(const MachineModel& updated, std::string reason) {
    MachineTextEdit edit{machine_json_text(updated), false, std::move(reason)};
    KERNCAST_CHECK(parse_machine_json(edit.text, "the written machine") == updated,
                   "a machine must read back as machine_json_text writes it");
    return edit;
}

} // namespace

MachineTextEdit edit_machine_text(const std::string& original_text, const std::string& origin,
                                  const MachineModel& updated) {
    const MachineModel before = parse_machine_json(original_text, origin);
    if (with_editable_sections(updated, before) != before)
        return canonical(updated, "the machine differs from " + origin +
                                      " beyond its sources, capacity fits, calibrated costs "
                                      "and atomic service times");
    JsonTextEdit edit(original_text, origin);
    const JsonTextEdit canonical_text(machine_json_text(updated), "the written machine");
    bool editable = true;

    SectionEditor sources(edit, canonical_text, "sources");
    for (const auto& [key, in_updated] : changed_keys(before.sources, updated.sources))
        editable = sources.change(key, in_updated) && editable;

    SectionEditor fits(edit, canonical_text, "capacity_fits");
    for (const auto& slot : mf::capacity_fit_slots) {
        const auto& was = before.capacity_fits.*slot.member;
        const auto& now = updated.capacity_fits.*slot.member;
        if (was != now)
            editable = fits.change(std::string(slot.key), now.has_value()) && editable;
    }

    // The canonical calibrated_costs may leave a value's source to the section's default,
    // which need not be the original text's: a changed cost is written with its own source.
    SectionEditor costs(edit, canonical_text, "calibrated_costs");
    for (const auto& [key, in_updated] :
         changed_keys(before.calibrated_costs, updated.calibrated_costs)) {
        const std::string pointer = child_pointer("/calibrated_costs", key);
        if (!in_updated || !edit.contains("/calibrated_costs")) {
            editable = costs.change(key, in_updated) && editable;
            continue;
        }
        const Sourced<double>& cost = updated.calibrated_costs.at(key);
        const std::string member = nlohmann::json(key).dump() +
                                   ": {\"value\": " + nlohmann::json(cost.value).dump() +
                                   ", \"source\": " + nlohmann::json(cost.source).dump() + "}";
        if (edit.contains(pointer))
            edit.replace_member(pointer, member);
        else
            edit.append_member("/calibrated_costs", member);
    }

    if (before.atomic_service_times != updated.atomic_service_times) {
        const std::string pointer = "/atomic_service_times";
        if (updated.atomic_service_times && edit.contains(pointer))
            edit.replace_value(pointer, canonical_text.value_text(pointer));
        else if (updated.atomic_service_times)
            edit.append_member("", canonical_text.member_text(pointer));
        else if (edit.contains(pointer))
            edit.remove_member(pointer);
        else
            editable = false;
    }
    if (!editable)
        return canonical(updated, origin + " does not itself hold every member that changed "
                                           "(an \"extends\" base holds some)");
    sources.finish();
    fits.finish();
    costs.finish();

    std::string text = edit.text();
    if (parse_machine_json(text, origin) != updated)
        return canonical(updated, "the edited text of " + origin +
                                      " would not read back as the written machine");
    return MachineTextEdit{std::move(text), true, {}};
}

} // namespace kerncast
