// SPDX-License-Identifier: MIT
// `wallsim diff RUN_A RUN_B` end to end: two real runs are compared, and every figure the diff
// prints or writes to --csv is checked against the two runs' own stats.json and ops.csv.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;
using testing::expect_bad_input;
using testing::slurp;
using testing::TempDir;
using testing::wallsim;

// Cells of a CSV line the diff writes (none of the names used here needs quoting).
std::vector<std::string> cells(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ','))
        out.push_back(cell);
    if (!line.empty() && line.back() == ',') out.emplace_back();
    return out;
}

struct CsvRow {
    std::string kind, status, unit;
    std::optional<double> a, b, delta, ratio;
};

std::optional<double> number(const std::string& s) {
    if (s.empty()) return std::nullopt;
    return std::stod(s);
}

// (section, name, metric) -> row; also the op order as written.
struct DiffCsv {
    std::map<std::tuple<std::string, std::string, std::string>, CsvRow> rows;
    std::vector<std::string> op_order;
};

DiffCsv read_diff_csv(const std::string& text) {
    DiffCsv d;
    std::stringstream ss(text);
    std::string line;
    std::getline(ss, line);
    EXPECT_EQ(line, "section,name,kind,status,metric,unit,a,b,delta,ratio");
    while (std::getline(ss, line)) {
        const auto c = cells(line);
        EXPECT_EQ(c.size(), 10u) << line;
        if (c.size() != 10) continue;
        d.rows[{c[0], c[1], c[4]}] = {c[2],         c[3],         c[5],        number(c[6]),
                                      number(c[7]), number(c[8]), number(c[9])};
        if (c[0] == "op" && c[4] == "time") d.op_order.push_back(c[1]);
    }
    return d;
}

// name -> (time_us, energy_j) from a run's ops.csv, by header position.
std::map<std::string, std::pair<double, double>> read_ops(const std::filesystem::path& file) {
    std::stringstream ss(slurp(file));
    std::string line;
    std::getline(ss, line);
    const auto header = cells(line);
    const auto col = [&](const std::string& n) {
        return size_t(std::find(header.begin(), header.end(), n) - header.begin());
    };
    std::map<std::string, std::pair<double, double>> ops;
    while (std::getline(ss, line)) {
        const auto c = cells(line);
        ops[c[col("name")]] = {std::stod(c[col("time_us")]), std::stod(c[col("energy_j")])};
    }
    return ops;
}

void expect_close(std::optional<double> got, double want, const std::string& what) {
    ASSERT_TRUE(got.has_value()) << what;
    EXPECT_NEAR(*got, want, std::fabs(want) * 1e-8 + 1e-300) << what;
}

class Diff : public ::testing::Test {
  protected:
    void run(const std::string& hw, const std::string& trace, const std::string& out) {
        const auto r =
            wallsim("run --hw configs/hw/" + hw + ".yaml --fidelity analytic --trace " + trace +
                        " --out " + (dir_.path() / out).string() + " --no-progress",
                    dir_);
        ASSERT_EQ(r.code, 0) << r.err;
    }
    std::string path(const std::string& name) const { return (dir_.path() / name).string(); }
    TempDir dir_;
};

TEST_F(Diff, TotalsAndOpsMatchBothRuns) {
    const std::string trace = "traces/examples/transformer_layer.yaml";
    run("h100", trace, "h100");
    run("a100", trace, "a100");
    const auto r = wallsim(
        "diff " + path("h100") + " " + path("a100") + " --top 3 --csv " + path("diff.csv"), dir_);
    ASSERT_EQ(r.code, 0) << r.err;
    const Json sa = Json::parse(slurp(dir_.path() / "h100/stats.json"));
    const Json sb = Json::parse(slurp(dir_.path() / "a100/stats.json"));
    const DiffCsv d = read_diff_csv(slurp(dir_.path() / "diff.csv"));

    const std::vector<std::pair<std::string, Json::json_pointer>> totals{
        {"run.sim_time", Json::json_pointer("/run/sim_time/value")},
        {"run.energy.total", Json::json_pointer("/run/energy/total/value")},
        {"run.achieved_flops", Json::json_pointer("/run/achieved_flops/value")},
        {"run.achieved_bandwidth", Json::json_pointer("/run/achieved_bandwidth/value")},
    };
    for (const auto& [name, ptr] : totals) {
        const auto it = std::find_if(d.rows.begin(), d.rows.end(), [&](const auto& kv) {
            return std::get<0>(kv.first) == "total" && std::get<1>(kv.first) == name;
        });
        ASSERT_NE(it, d.rows.end()) << name;
        const double a = sa.at(ptr).get<double>(), b = sb.at(ptr).get<double>();
        expect_close(it->second.a, a, name + " a");
        expect_close(it->second.b, b, name + " b");
        expect_close(it->second.delta, b - a, name + " delta");
        expect_close(it->second.ratio, b / a, name + " ratio");
    }
    // MFU appears exactly when the runs report it.
    const bool has_mfu = sa["run"].contains("mfu") || sb["run"].contains("mfu");
    EXPECT_EQ(d.rows.count({"total", "run.mfu", "MFU"}), has_mfu ? 1u : 0u);

    const auto ops_a = read_ops(dir_.path() / "h100/ops.csv");
    const auto ops_b = read_ops(dir_.path() / "a100/ops.csv");
    ASSERT_EQ(ops_a.size(), 11u);
    ASSERT_EQ(d.op_order.size(), ops_a.size());
    double previous = INFINITY;
    for (const std::string& name : d.op_order) {
        const auto& [ta, ea] = ops_a.at(name);
        const auto& [tb, eb] = ops_b.at(name);
        const CsvRow& time = d.rows.at({"op", name, "time"});
        const CsvRow& energy = d.rows.at({"op", name, "energy"});
        EXPECT_EQ(time.status, "both");
        expect_close(time.a, ta * 1e-6, name + " time a");
        expect_close(time.b, tb * 1e-6, name + " time b");
        expect_close(time.delta, (tb - ta) * 1e-6, name + " time delta");
        expect_close(energy.a, ea, name + " energy a");
        expect_close(energy.b, eb, name + " energy b");
        expect_close(energy.delta, eb - ea, name + " energy delta");
        // Largest absolute change in time first.
        EXPECT_LE(std::fabs(*time.delta), previous * (1 + 1e-12)) << name;
        previous = std::fabs(*time.delta);
    }
    // The printed table holds the top 3 only, the largest first.
    EXPECT_THAT(r.out, HasSubstr("3 of 11"));
    EXPECT_THAT(r.out, HasSubstr(d.op_order[0]));
    EXPECT_THAT(r.out, ::testing::Not(HasSubstr(" " + d.op_order[10] + " ")));
    EXPECT_THAT(r.out, HasSubstr("NVIDIA H100"));
    EXPECT_THAT(r.out, HasSubstr("simulated time"));
}

TEST_F(Diff, OpsInOneRunOnlyAreListedAsSuch) {
    const std::string a = dir_.write("a.yaml",
                                     "version: 1\nname: a\nops:\n"
                                     "  - {name: add, kind: elementwise, elements: 1048576,"
                                     " inputs: 2, outputs: 1, flops_per_element: 1, dtype: fp32}\n"
                                     "  - {name: old, kind: gemm, m: 512, n: 512, k: 512,"
                                     " dtype: bf16}\n");
    const std::string b = dir_.write("b.yaml",
                                     "version: 1\nname: b\nops:\n"
                                     "  - {name: add, kind: elementwise, elements: 1048576,"
                                     " inputs: 2, outputs: 1, flops_per_element: 1, dtype: fp32}\n"
                                     "  - {name: new, kind: gemm, m: 1024, n: 1024, k: 1024,"
                                     " dtype: bf16}\n");
    run("h100", a, "a");
    run("h100", b, "b");
    const auto r = wallsim("diff " + path("a") + " " + path("b") + " --csv " + path("d.csv"), dir_);
    ASSERT_EQ(r.code, 0) << r.err;
    const DiffCsv d = read_diff_csv(slurp(dir_.path() / "d.csv"));
    const auto ops_a = read_ops(dir_.path() / "a/ops.csv");
    const auto ops_b = read_ops(dir_.path() / "b/ops.csv");
    const CsvRow& gone = d.rows.at({"op", "old", "time"});
    EXPECT_EQ(gone.status, "only_a");
    expect_close(gone.a, ops_a.at("old").first * 1e-6, "old a");
    EXPECT_FALSE(gone.b.has_value());
    expect_close(gone.delta, -ops_a.at("old").first * 1e-6, "old delta");
    const CsvRow& added = d.rows.at({"op", "new", "time"});
    EXPECT_EQ(added.status, "only_b");
    expect_close(added.b, ops_b.at("new").first * 1e-6, "new b");
    EXPECT_FALSE(added.ratio.has_value());
    const CsvRow& same = d.rows.at({"op", "add", "time"});
    EXPECT_EQ(same.status, "both");
    expect_close(same.delta, 0.0, "add delta");
    // The same trace on the same hardware: 'add' did not change, so it comes last.
    EXPECT_EQ(d.op_order.back(), "add");
    EXPECT_THAT(r.out, HasSubstr("(1 only in A, 1 only in B)"));
    EXPECT_THAT(r.out, HasSubstr("A only"));
    EXPECT_THAT(r.out, HasSubstr("B only"));
}

TEST_F(Diff, BadInputIsOneLineAndWritesNothing) {
    run("h100", "traces/examples/vector_add.yaml", "good");
    const std::string csv = path("out.csv");
    // A missing folder.
    expect_bad_input(
        wallsim("diff " + path("good") + " " + path("nothing") + " --csv " + csv, dir_),
        "nothing: no such folder");
    // A folder that is not a wallsim run.
    std::filesystem::create_directories(dir_.path() / "empty");
    expect_bad_input(wallsim("diff " + path("empty") + " " + path("good") + " --csv " + csv, dir_),
                     "empty/stats.json: missing (expected the output folder of 'wallsim run')");
    // Malformed JSON, named with its line.
    std::filesystem::copy(dir_.path() / "good", dir_.path() / "broken");
    dir_.write("broken/stats.json", "{\n  \"meta\": {\n    oops\n}\n");
    expect_bad_input(wallsim("diff " + path("good") + " " + path("broken") + " --csv " + csv, dir_),
                     "broken/stats.json:3: not valid JSON");
    // Another command's stats.json.
    dir_.write("broken/stats.json", "{\"meta\": {}, \"hbm_run\": {}}\n");
    expect_bad_input(wallsim("diff " + path("good") + " " + path("broken"), dir_),
                     "run.sim_time: missing");
    // A malformed ops.csv.
    std::filesystem::copy(dir_.path() / "good/stats.json", dir_.path() / "broken/stats.json",
                          std::filesystem::copy_options::overwrite_existing);
    dir_.write("broken/ops.csv", "index,name,time_us\n0,add,fast\n");
    expect_bad_input(wallsim("diff " + path("good") + " " + path("broken") + " --csv " + csv, dir_),
                     "broken/ops.csv:2: time_us: 'fast' is not a number");
    dir_.write("broken/ops.csv", "index,label\n0,add\n");
    expect_bad_input(wallsim("diff " + path("good") + " " + path("broken"), dir_),
                     "the header lacks 'name' or 'time_us'");
    // Bad options.
    expect_bad_input(wallsim("diff " + path("good") + " " + path("good") + " --top -1", dir_),
                     "--top");
    expect_bad_input(wallsim("diff " + path("good") + " " + path("good") + " --sort size", dir_),
                     "--sort");
    expect_bad_input(wallsim("diff " + path("good"), dir_), "run-b");
    expect_bad_input(
        wallsim("diff " + path("good") + " " + path("good") + " --csv " + path("no/dir/x.csv"),
                dir_),
        "no such folder");
    EXPECT_FALSE(std::filesystem::exists(csv));
    // Nothing half-written beside the CSV either.
    for (const auto& e : std::filesystem::directory_iterator(dir_.path()))
        EXPECT_THAT(e.path().filename().string(), ::testing::Not(HasSubstr(".tmp-")));
}

}  // namespace
}  // namespace sim
