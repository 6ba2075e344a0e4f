// SPDX-License-Identifier: MIT
// An experiment file (configs/experiments/*.yaml): the base of every point (a wallsim command
// and its options, fixed --set overrides), the axes that vary (a --set key or a command-line
// option, with a list of values or a numeric range), how they combine (product or zip) and the
// metrics to collect from each point's outputs. docs/sweeps.md describes the format. The run
// scripts of ASTRA-sim and SCALE-Sim and gem5's multiple-simulation runs (docs/references.md
// [astra-sim], [scalesim], [gem5]) are what a user of those tools expects it to replace.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace sim::sweep {

/// One command-line option of a point: `--name value`, or `--name` alone when value is empty
/// and flag is true.
struct Option {
    std::string name;   ///< without the leading dashes
    std::string value;  ///< as passed to the command (paths resolved, see Experiment)
    bool flag = false;  ///< an option without a value
};

/// A dimension of the sweep.
struct Axis {
    enum class Kind { Set, Option };
    Kind kind = Kind::Set;
    std::string key;                  ///< the --set key (a.b.c) or the option name (hw, seed)
    std::string column;               ///< its column in results.csv
    std::vector<std::string> values;  ///< as written in the experiment (results.csv shows these)
    std::vector<std::string> args;    ///< as passed to wallsim (relative paths resolved)
};

/// A quantity taken from each point's outputs.
struct Metric {
    enum class Source { Stats, Ops };
    std::string name;  ///< its column in results.csv
    Source source = Source::Stats;
    std::string path;               ///< stats.json dotted path, or the ops.csv column
    std::string file = "ops.csv";   ///< Ops: the CSV file of the output to read (net.csv...)
    std::string aggregate = "sum";  ///< ops.csv: sum, mean, min, max or count
    std::vector<std::pair<std::string, std::string>> where;  ///< ops.csv rows: column == value
};

struct Experiment {
    std::string file;               ///< the experiment file
    std::string name;               ///< `name:`, or the file's stem
    std::string command = "run";    ///< the wallsim command every point runs
    std::vector<Option> options;    ///< `base:`, in file order
    std::vector<std::string> sets;  ///< `set:` as key=value, in file order
    std::vector<Axis> axes;
    bool zip = false;  ///< `combine: zip` (the i-th values of every axis together)
    std::vector<Metric> metrics;
};

/// One configuration of the sweep.
struct Point {
    size_t index = 0;                      ///< position in the expansion
    std::vector<std::string> axis_values;  ///< one per axis, as written in the experiment
    std::vector<Option> options;           ///< base options with the axes' options applied
    std::vector<std::string> sets;         ///< base sets followed by the axes' sets
};

/// Reads and checks an experiment file. commands: the wallsim commands a point may run.
/// Relative option values that name a file or directory next to the experiment file are taken
/// relative to it, as `extends:` is. Throws ConfigError (file:line, key) on bad input.
Experiment load_experiment(const std::string& path, const std::vector<std::string>& commands);

/// Every point, in order: product (the last axis varies fastest) or zip.
std::vector<Point> expand(const Experiment& experiment);

/// The arguments after `wallsim` that run a point into out_dir.
std::vector<std::string> point_arguments(const Experiment& experiment,
                                         const Point& point,
                                         const std::string& out_dir);

/// The largest number of points one sweep may have.
constexpr size_t kMaxPoints = 1000000;

}  // namespace sim::sweep
