// SPDX-License-Identifier: MIT
// Named spdlog loggers with a simulated-time prefix (STYLE.md 8.8). One Logging object per run
// owns the sink and the time source; nothing is registered in spdlog's global registry.
#pragma once

#include <spdlog/spdlog.h>

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "sim/core/types.h"

namespace sim {

class Logging {
  public:
    /// now() supplies the simulated time printed in front of every line.
    Logging(spdlog::level::level_enum default_level, std::function<TimePs()> now);

    /// The logger called name (created on first use), e.g. "analytic" or "engine".
    std::shared_ptr<spdlog::logger> get(const std::string& name);
    /// Sets one logger's level ("engine=debug" on the command line).
    void set_level(const std::string& name, spdlog::level::level_enum level);
    /// Parses "trace|debug|info|warn|error|off"; throws std::invalid_argument otherwise.
    static spdlog::level::level_enum parse_level(const std::string& text);

  private:
    spdlog::level::level_enum default_level_;
    std::function<TimePs()> now_;
    spdlog::sink_ptr sink_;
    std::map<std::string, std::shared_ptr<spdlog::logger>> loggers_;
    std::map<std::string, spdlog::level::level_enum> levels_;
};

}  // namespace sim
