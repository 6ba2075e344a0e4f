// SPDX-License-Identifier: MIT
// wallsim: the command-line entry point. Library code throws; only this file exits.
// Exit codes: 0 success, 2 bad input (config, trace, command line), 1 internal error.
#include <boost/program_options.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <systemc>

#include "sim/config/loader.h"
#include "sim/config/presets.h"
#include "sim/core/host_memory.h"
#include "sim/diff/diff_command.h"
#include "sim/engine/command_line.h"
#include "sim/engine/run.h"
#include "sim/engine/validate_command.h"
#include "sim/registry/registry.h"
#include "sim/sweep/sweep_command.h"
#include "sim/system/system.h"
#include "sim/trace/op_cost.h"
#include "sim/trace/trace_parser.h"

namespace po = boost::program_options;

namespace {

constexpr int kExitBadInput = 2;
constexpr int kExitInternal = 1;

// The commands wallsim itself has; models contribute the rest (Registry::add_command).
const char* const kBuiltinUsage =
    "usage: wallsim <command> [options]\n"
    "\n"
    "commands:\n"
    "  run --hw HW --trace FILE --out DIR [--set key=value]... [--fidelity F] [--strict]\n"
    "      [--threads N]\n"
    "                          simulate a trace on a hardware config (HW: a preset name such\n"
    "                          as h100, or a .yaml file): a one-device system\n"
    "  run --system FILE --trace FILE --out DIR [--set instance.key=value]...\n"
    "                          simulate a trace on a system (configs/systems/*.yaml)\n"
    "  elaborate --system FILE | --hw HW\n"
    "                          print a system's module tree, parameters and bindings\n"
    "  list [--params [SECTION]]\n"
    "                          list presets, devices, timing models, module kinds, commands\n"
    "                          and op kinds; --params: every described key of a hardware\n"
    "                          file with its type, default, range, unit and meaning\n"
    "  validate-config HW [--set key=value]...\n"
    "                          check a hardware config and print its derived figures\n"
    "  validate-trace FILE     check an operator trace and print its totals\n"
    "  validate [--filter TEXT] [--all] [--out DIR]\n"
    "                          run the validation suite (configs/validation): measured vs\n"
    "                          simulated, error, pass\n"
    "  sweep EXPERIMENT.yaml [--jobs N | --slurm] [--out DIR]\n"
    "                          run every point of an experiment; results.csv\n"
    "  diff RUN_A RUN_B [--top N] [--csv FILE]\n"
    "                          compare two runs: totals and operators, largest change first\n";

// Every command, the built-in ones and those the models registered, one line each.
std::string usage() {
    sim::Registry registry;
    sim::register_all(registry);
    std::string text = kBuiltinUsage;
    for (const std::string& name : registry.command_names()) {
        const sim::CommandEntry* c = registry.find_command(name);
        std::string line = "  " + name;
        line += std::string(line.size() < 26 ? 26 - line.size() : 1, ' ');
        text += line + c->description + "\n";
    }
    return text + "\nRun 'wallsim <command> --help' for the options of a command.\n";
}

// A message must stay on one line, whatever a library put in it.
std::string one_line(std::string s) {
    for (char& c : s) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    return s;
}

int cmd_run(const std::vector<std::string>& args) {
    sim::RunOptions o;
    po::options_description opts("wallsim run options");
    opts.add_options()("help,h", "show this help")(
        "hw", po::value(&o.hw_file),
        "hardware: a preset name (h100; see wallsim list) or a .yaml file")(
        "system", po::value(&o.system_file),
        "system file (configs/systems/*.yaml), instead of --hw")(
        "trace", po::value(&o.trace_file)->required(), "operator trace (.yaml or .jsonl)")(
        "out", po::value(&o.out_dir)->required(), "output directory (replaced atomically)")(
        "set", po::value(&o.overrides)->composing(),
        "override a config key: a.b.c=value (repeatable)")(
        "fidelity", po::value(&o.fidelity)->default_value("auto"),
        "auto, analytic, sampled or cycle (auto: the most detailed model available per op)")(
        "seed", po::value(&o.seed)->default_value(1),
        "random seed (same inputs + seed = same stats)")(
        "log-level", po::value(&o.log_level)->default_value("warn"),
        "trace, debug, info, warn, error or off")("log", po::value(&o.log_levels)->composing(),
                                                  "per-logger level: name=level (repeatable)")(
        "no-progress", "never draw the progress bar")(
        "threads", po::value(&o.threads)->default_value(1),
        "threads that simulate the operators' kernels ahead of the run (same results for "
        "any number)")("strict",
                       "fail (exit 2, nothing written) when any operator would run below the "
                       "fidelity asked for, instead of warning");
    if (sim::print_help_if_asked(opts, args)) return 0;
    const po::variables_map vm = sim::parse_options(args, opts);
    o.progress = vm.count("no-progress") == 0;
    o.strict = vm.count("strict") != 0;
    if (o.threads == 0 || o.threads > 1024)
        throw sim::ConfigError({"--threads", 0, 0}, "", "must be between 1 and 1024");
    if (o.hw_file.empty() == o.system_file.empty())
        throw sim::ConfigError({"--hw", 0, 0}, "", "give exactly one of --hw and --system");

    sim::Registry registry;
    sim::register_all(registry);
    sim::system::KindRegistry kinds;
    sim::register_all_kinds(kinds);
    const sim::RunSummary s = sim::run_simulation(registry, kinds, o);
    std::cerr << "wallsim: " << s.ops << " operators, simulated " << s.sim_seconds * 1e3 << " ms";
    if (s.step_seconds) {
        char text[96];
        std::snprintf(text, sizeof text, ", step %g ms with a %.1f%% pipeline bubble",
                      *s.step_seconds * 1e3, 100 * *s.pipeline_bubble);
        std::cerr << text;
    }
    if (s.time_to_first_token) {
        char text[160];
        std::snprintf(text, sizeof text,
                      ", time to first token %.3g ms, per output token %.3g ms, %.4g tokens/s, "
                      "KV cache %.3g GB",
                      *s.time_to_first_token * 1e3, *s.time_per_output_token * 1e3,
                      *s.tokens_per_second, static_cast<double>(s.kv_cache_bytes) / 1e9);
        std::cerr << text;
    }
    if (s.mfu) {
        char text[64];
        std::snprintf(text, sizeof text, ", MFU %.1f%%, HFU %.1f%%", 100 * *s.mfu, 100 * *s.hfu);
        std::cerr << text;
    }
    std::cerr << "; results in " << s.out_dir << "\n";
    return 0;
}

/// `wallsim list --params [SECTION]`: the described keys of every section, of the sections
/// named SECTION, or of every section of one kind of file (SECTION = gpu, cim, ...), as
/// Markdown (docs/configuration.md holds this output).
int print_params(const sim::Registry& registry, const std::string& section) {
    std::set<std::string> known;
    bool printed = false;
    for (const sim::ParamsEntry& p : registry.params()) {
        known.insert(p.section);
        known.insert(p.file);
        if (!section.empty() && p.section != section && p.file != section) continue;
        sim::print_param_docs(std::cout, p.section, p.file, p.description, p.describe());
        printed = true;
    }
    if (printed) return 0;
    std::string names;
    for (const std::string& name : known)
        names += (names.empty() ? "" : ", ") + name;
    throw sim::ConfigError(
        {"--params", 0, 0}, "",
        "no described section or kind of file '" + section + "'; expected one of: " + names);
}

int cmd_list(const std::vector<std::string>& args) {
    std::string section;
    po::options_description opts("wallsim list options");
    opts.add_options()("help,h", "show this help")(
        "params", "print the described keys of hardware-file sections (all, or SECTION's)")(
        "section", po::value(&section), "with --params: one section, e.g. hbm.controller");
    po::positional_options_description pos;
    pos.add("section", 1);
    if (sim::print_help_if_asked(opts, args)) return 0;
    const po::variables_map vm = sim::parse_options(args, opts, &pos);
    sim::Registry registry;
    sim::register_all(registry);
    if (vm.count("params")) return print_params(registry, section);
    if (!section.empty())
        throw sim::ConfigError({"list", 0, 0}, "",
                               "a section needs --params: wallsim list --params " + section);
    std::cout << "Presets (use the name: --hw h100, extends: h100, --topology dgx_h100; files in "
              << sim::configs_dir() << "):\n";
    for (const char* folder : {"hw", "net", "technology", "models", "cim"}) {
        std::cout << "  " << folder << ":";
        for (const std::string& name : sim::preset_names(folder))
            std::cout << ' ' << name;
        std::cout << "\n";
    }
    std::cout << "\n";
    registry.print(std::cout);
    sim::system::KindRegistry kinds;
    sim::register_all_kinds(kinds);
    kinds.print(std::cout);
    return 0;
}

int cmd_validate_config(const std::vector<std::string>& args) {
    std::string file;
    std::vector<std::string> overrides;
    po::options_description opts("wallsim validate-config options");
    opts.add_options()("help,h", "show this help")("file", po::value(&file)->required(),
                                                   "hardware config")(
        "set", po::value(&overrides)->composing(), "override a config key: a.b.c=value");
    po::positional_options_description pos;
    pos.add("file", 1);
    if (sim::print_help_if_asked(opts, args)) return 0;
    sim::parse_options(args, opts, &pos);
    sim::Registry registry;
    sim::register_all(registry);
    sim::StatGroup stats(nullptr, "");
    sim::Logging logging(spdlog::level::warn, [] { return sim::TimePs{0}; });
    const sim::HardwareSetup setup(registry, file, overrides, stats, logging, 1);
    std::cout << file << ": ok (" << setup.name() << ", device " << setup.device() << ")\n";
    std::string text;
    if (sim::StatGroup* hw = stats.find_group("hw")) hw->to_text(text);
    std::cout << text;
    return 0;
}

int cmd_elaborate(const std::vector<std::string>& args) {
    std::string hw_file, system_file;
    std::vector<std::string> overrides;
    po::options_description opts("wallsim elaborate options");
    opts.add_options()("help,h", "show this help")("system", po::value(&system_file),
                                                   "system file (configs/systems/*.yaml)")(
        "hw", po::value(&hw_file), "hardware file, as the one-device system a run builds")(
        "set", po::value(&overrides)->composing(),
        "override a key (instance.key.path=value with --system)");
    if (sim::print_help_if_asked(opts, args)) return 0;
    sim::parse_options(args, opts);
    if (hw_file.empty() == system_file.empty())
        throw sim::ConfigError({"--system", 0, 0}, "", "give exactly one of --system and --hw");
    sim::Registry registry;
    sim::register_all(registry);
    sim::system::KindRegistry kinds;
    sim::register_all_kinds(kinds);
    const std::vector<std::string> devices = sim::device_kinds(registry);
    sim::system::System machine(
        kinds, system_file.empty()
                   ? sim::system::single_device_spec(hw_file, overrides, devices)
                   : sim::system::SystemSpec::from_file(system_file, overrides, devices));
    // Each device's models read (and check) its whole configuration, as a run would.
    sim::StatGroup stats(nullptr, "");
    sim::Logging logging(spdlog::level::warn, [] { return sim::TimePs{0}; });
    std::vector<std::unique_ptr<sim::HardwareSetup>> setups;
    for (const auto* d : machine.devices())
        setups.push_back(std::make_unique<sim::HardwareSetup>(registry, d->spec->config,
                                                              stats.add_group(d->spec->name),
                                                              logging, 1, *d->built.device));
    machine.print_tree(std::cout);
    return 0;
}

int cmd_validate_trace(const std::vector<std::string>& args) {
    std::string file;
    po::options_description opts("wallsim validate-trace options");
    opts.add_options()("help,h", "show this help")("file", po::value(&file)->required(),
                                                   "operator trace");
    po::positional_options_description pos;
    pos.add("file", 1);
    if (sim::print_help_if_asked(opts, args)) return 0;
    sim::parse_options(args, opts, &pos);
    const sim::Trace trace = sim::parse_trace_file(file);
    double flops = 0, bytes = 0, wire = 0;
    for (const sim::Op& op : trace.ops) {
        const sim::OpCost c = sim::cost_of(op);
        flops += c.flops;
        bytes += c.dram_bytes;
        wire += c.wire_bytes;
    }
    std::cout << file << ": ok (" << trace.name << ": " << trace.ops.size() << " operators on "
              << trace.stream_count() << " stream(s); " << flops << " FLOP, " << bytes
              << " B minimum device-memory traffic, " << wire << " B on links)\n";
    return 0;
}

int dispatch(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << usage();
        return kExitBadInput;
    }
    const std::string command = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << usage();
        return 0;
    }
    if (command == "--version") {
        std::cout << "wallsim " << WALLSIM_VERSION << "\n";
        return 0;
    }
    if (command == "run") return cmd_run(args);
    if (command == "list") return cmd_list(args);
    if (command == "validate-config") return cmd_validate_config(args);
    if (command == "validate-trace") return cmd_validate_trace(args);
    if (command == "diff") return sim::diff::diff_command(args);
    if (command == "elaborate") return cmd_elaborate(args);
    if (command == "validate") return sim::run_validate_command(argv[0], args);
    sim::Registry registry;
    sim::register_all(registry);
    if (command == "sweep") {
        std::vector<std::string> commands{"run"};
        for (const auto& name : registry.command_names())
            commands.push_back(name);
        return sim::sweep::sweep_command(commands, args);
    }
    if (const sim::CommandEntry* c = registry.find_command(command)) return c->run(registry, args);
    std::string known =
        "run, list, validate, validate-config, validate-trace, elaborate, sweep, diff";
    for (const auto& name : registry.command_names())
        known += ", " + name;
    std::cerr << "wallsim: error: unknown command '" << command << "'; expected one of: " << known
              << "\n";
    return kExitBadInput;
}

}  // namespace

// Entered through sc_elab_and_sim, SystemC's documented way to run with a main of one's own.
int sc_main(int argc, char** argv) {
    try {
        sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
        return dispatch(argc, argv);
    } catch (const sim::ConfigError& e) {
        std::cerr << "wallsim: error: " << one_line(e.what()) << "\n";
        return kExitBadInput;
    } catch (const po::error& e) {
        std::cerr << "wallsim: error: " << one_line(e.what()) << " (see --help)\n";
        return kExitBadInput;
    } catch (const sim::SimBug& e) {
        std::cerr << "wallsim: internal error (a bug, please report): " << one_line(e.what())
                  << "\n";
        return kExitInternal;
    } catch (const std::exception& e) {
        std::cerr << "wallsim: internal error: " << one_line(e.what()) << "\n";
        return kExitInternal;
    }
}

int main(int argc, char** argv) {
    // Results do not depend on it; the cycle-level models run faster (sim/core/host_memory.h).
    sim::back_heap_with_huge_pages();
    // SystemC prints a banner when its kernel starts unless told not to; stdout is for results.
    ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
