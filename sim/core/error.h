// SPDX-License-Identifier: MIT
// The two exception types of wallsim (STYLE.md 8.2): ConfigError is the user's fault (bad
// file, key, value; main reports it in one line and exits 2), SimBug is ours (an internal
// invariant broke; main exits 1). Library code throws; only main exits.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace sim {

/// Where a configuration value came from: a file position, or a command-line override.
struct SourceLocation {
    std::string file;  ///< file path, or "--set" for command-line overrides
    int line = 0;      ///< 1-based; 0 when unknown
    int column = 0;    ///< 1-based; 0 when unknown

    /// "file:line:col", "file:line" or "file", whichever parts are known.
    std::string to_string() const;
};

/// Bad user input: "<file>:<line>:<col>: <key>: <message>".
class ConfigError : public std::runtime_error {
  public:
    ConfigError(const SourceLocation& where, const std::string& key, const std::string& message);
    const SourceLocation& where() const { return where_; }
    const std::string& key() const { return key_; }
    const std::string& message() const { return message_; }

  private:
    SourceLocation where_;
    std::string key_;
    std::string message_;
};

/// A broken internal invariant: a bug in wallsim, never the user's input.
class SimBug : public std::logic_error {
  public:
    using std::logic_error::logic_error;
};

namespace detail {
/// SIM_ASSERT's failure path, out of line and marked cold: the checks sit on the simulator's
/// hot paths, where building the message inline would bloat every function holding one and
/// keep it from being inlined. write_message streams the caller's message.
template <typename WriteMessage>
[[noreturn]] __attribute__((noinline, cold)) void assertion_failed(
    const char* file, int line, const char* condition, const WriteMessage& write_message) {
    std::ostringstream os;
    os << file << ':' << line << ": assertion '" << condition << "' failed: ";
    write_message(os);
    throw SimBug(os.str());
}
}  // namespace detail

/// Throws SimBug with file:line when cond is false. Kept in release builds.
#define SIM_ASSERT(cond, msg)                                                  \
    do {                                                                       \
        if (__builtin_expect(!(cond), 0)) {                                    \
            ::sim::detail::assertion_failed(                                   \
                __FILE__, __LINE__, #cond,                                     \
                [&](std::ostream& sim_assert_os_) { sim_assert_os_ << msg; }); \
        }                                                                      \
    } while (false)

/// SIM_HOT_ASSERT checks an invariant on a path taken per DRAM command, whose condition reads
/// state the path itself does not need (a cache line of its own, per command). It is compiled
/// in where WALLSIM_HOT_CHECKS is defined (the sanitizer and fuzz builds define it, and
/// -DWALLSIM_HOT_CHECKS=ON does) or NDEBUG is not (Debug), and left out of the optimised build
/// users run, as gem5's fast build leaves out its asserts.
#if defined(WALLSIM_HOT_CHECKS) || !defined(NDEBUG)
#define SIM_HOT_ASSERT(cond, msg) SIM_ASSERT(cond, msg)
#else
// The condition still compiles (unevaluated), so a check left out cannot rot.
#define SIM_HOT_ASSERT(cond, msg)     \
    do {                              \
        (void)sizeof((cond) ? 1 : 0); \
    } while (false)
#endif

}  // namespace sim
