// SPDX-License-Identifier: MIT
#include "sim/log/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <cstdio>
#include <stdexcept>

namespace sim {

namespace {

// The %* flag: simulated time in microseconds.
class SimTimeFlag final : public spdlog::custom_flag_formatter {
  public:
    explicit SimTimeFlag(std::function<TimePs()> now) : now_(std::move(now)) {}
    void format(const spdlog::details::log_msg&,
                const std::tm&,
                spdlog::memory_buf_t& dest) override {
        char buf[48];
        const int n = std::snprintf(buf, sizeof buf, "%14.6f us", to_seconds(now_()) * 1e6);
        dest.append(buf, buf + n);
    }
    std::unique_ptr<custom_flag_formatter> clone() const override {
        return std::make_unique<SimTimeFlag>(now_);
    }

  private:
    std::function<TimePs()> now_;
};

}  // namespace

Logging::Logging(spdlog::level::level_enum default_level, std::function<TimePs()> now)
    : default_level_(default_level),
      now_(std::move(now)),
      sink_(std::make_shared<spdlog::sinks::stderr_sink_st>()) {
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<SimTimeFlag>('*', now_).set_pattern("[%*] [%n] %l: %v");
    sink_->set_formatter(std::move(formatter));
}

std::shared_ptr<spdlog::logger> Logging::get(const std::string& name) {
    auto it = loggers_.find(name);
    if (it != loggers_.end()) return it->second;
    auto logger = std::make_shared<spdlog::logger>(name, sink_);
    auto lv = levels_.find(name);
    logger->set_level(lv != levels_.end() ? lv->second : default_level_);
    loggers_.emplace(name, logger);
    return logger;
}

void Logging::set_level(const std::string& name, spdlog::level::level_enum level) {
    levels_[name] = level;
    if (auto it = loggers_.find(name); it != loggers_.end()) it->second->set_level(level);
}

spdlog::level::level_enum Logging::parse_level(const std::string& text) {
    const auto level = spdlog::level::from_str(text);
    // from_str maps unknown text to "off"; only "off" itself may mean off.
    if (level == spdlog::level::off && text != "off") {
        throw std::invalid_argument("'" + text +
                                    "' is not a log level; expected trace, debug, info, warn, "
                                    "error or off");
    }
    return level;
}

}  // namespace sim
