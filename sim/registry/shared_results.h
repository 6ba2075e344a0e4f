// SPDX-License-Identifier: MIT
// Results that identical devices of one run share. A model that characterises an operator on
// an idle device gets the same answer on every device with the same configuration, so it may
// keep its table of answers here, under its own name and the device configuration's
// fingerprint: eight identical GPUs of a system then simulate each kernel once, not eight times.
// Owned by the run; models hold references to its tables.
#pragma once

#include <any>
#include <map>
#include <memory>
#include <string>

namespace sim {

class SharedResults {
  public:
    /// The table stored under key, created empty the first time it is asked for.
    template <class Table>
    Table& table(const std::string& key) {
        std::any& slot = tables_[key];
        if (!slot.has_value()) slot = std::make_shared<Table>();
        return *std::any_cast<std::shared_ptr<Table>&>(slot);
    }

  private:
    std::map<std::string, std::any> tables_;
};

}  // namespace sim
