// SPDX-License-Identifier: MIT
// The validation suite of configs/validation, through `wallsim validate`: every case runs, every
// case without a recorded known gap lands within its tolerance, consistency checks are kept
// apart, and malformed case files are bad input (exit 2, one line, nothing written).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/tokenizer.hpp>

#include <fstream>
#include <map>
#include <sstream>

#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using ::testing::HasSubstr;
using testing::slurp;
using testing::wallsim;

using Row = std::map<std::string, std::string>;

std::vector<Row> read_csv(const std::filesystem::path& file) {
    std::ifstream in(file);
    using Tokens = boost::tokenizer<boost::escaped_list_separator<char>>;
    std::string line;
    std::getline(in, line);
    const Tokens h(line);
    const std::vector<std::string> names(h.begin(), h.end());
    std::vector<Row> rows;
    while (std::getline(in, line)) {
        const Tokens t(line);
        const std::vector<std::string> cells(t.begin(), t.end());
        Row r;
        for (size_t i = 0; i < names.size() && i < cells.size(); ++i)
            r[names[i]] = cells[i];
        rows.push_back(r);
    }
    return rows;
}

TEST(ValidateCases, EveryCaseRunsAndTheOnesWithoutAKnownGapPass) {
    testing::TempDir dir;
    const auto out = dir.path() / "validation";
    const auto r = wallsim("validate --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    const auto rows = read_csv(out / "validation.csv");
    ASSERT_GE(rows.size(), 30u);
    size_t consistency = 0, with_peak = 0;
    for (const Row& row : rows) {
        SCOPED_TRACE(row.at("id"));
        ASSERT_FALSE(row.at("simulated").empty()) << "the case ran and produced its figure";
        const double measured = std::stod(row.at("measured"));
        const double simulated = std::stod(row.at("simulated"));
        const double tolerance = std::stod(row.at("tolerance"));
        const double error = (simulated - measured) / measured;
        EXPECT_NEAR(std::stod(row.at("error")), error, 1e-4);
        EXPECT_EQ(row.at("pass"), std::fabs(error) <= tolerance ? "1" : "0");
        if (row.at("known_gap").empty()) {
            EXPECT_LE(std::fabs(error), tolerance);
        }
        consistency += row.at("check") == "consistency";
        EXPECT_THAT(row.at("source"), HasSubstr("["));
        if (!row.at("peak").empty()) {
            const double peak = std::stod(row.at("peak"));
            EXPECT_NEAR(std::stod(row.at("points")), 100 * (simulated - measured) / peak, 1e-3);
            ++with_peak;
        }
    }
    EXPECT_GE(consistency, 5u) << "datasheet peaks and fitted points are labelled";
    EXPECT_GE(with_peak, 20u) << "the GEMM cases carry their Tensor Core peak";
    const std::string md = slurp(out / "validation.md");
    EXPECT_THAT(md, HasSubstr("### Validations"));
    EXPECT_THAT(md, HasSubstr("### Consistency checks"));
    EXPECT_LT(md.find("### Per component"), md.find("### Validations"))
        << "the summary heads the file";
    EXPECT_THAT(md, HasSubstr("| network | "));
    EXPECT_THAT(md, HasSubstr("| **all** | "));
    EXPECT_THAT(md, HasSubstr("### Efficiency (points of the datasheet peak)"));
    EXPECT_THAT(md, HasSubstr("### Measurement spread"));
    EXPECT_THAT(md, HasSubstr("| `allreduce_8xa100_32mib` | 4 | "))
        << "the 8 x A100 AllReduce at 32 MiB was recorded on four systems";
    size_t grouped = 0;
    for (const Row& row : rows)
        grouped += !row.at("group").empty();
    EXPECT_GE(grouped, 20u) << "the cases of one workload on several systems name their group";
    EXPECT_THAT(r.out, HasSubstr("validations: "));
    EXPECT_THAT(r.out, HasSubstr("efficiency: "));
    EXPECT_THAT(r.out, HasSubstr("spread: "));
    EXPECT_THAT(r.out, HasSubstr("consistency\n"));
}

TEST(ValidateCases, AFilterRunsASubset) {
    testing::TempDir dir;
    const auto out = dir.path() / "validation";
    const auto r = wallsim("validate --filter 8xh200 --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto rows = read_csv(out / "validation.csv");
    ASSERT_FALSE(rows.empty());
    for (const Row& row : rows)
        EXPECT_THAT(row.at("id"), HasSubstr("8xh200"));
    // The summary counts the cases run: one component here, and the row over all of them.
    const std::string md = slurp(out / "validation.md");
    size_t validations = 0, within = 0;
    for (const Row& row : rows) {
        if (row.at("check") != "validation") continue;
        ++validations;
        within += row.at("pass") == "1";
    }
    const std::string all_row =
        "| **all** | " + std::to_string(within) + " of " + std::to_string(validations) + " |";
    EXPECT_THAT(md, HasSubstr(all_row));
    EXPECT_THAT(md, HasSubstr("| network | "));
    EXPECT_THAT(md, ::testing::Not(HasSubstr("| gpu | ")));
}

TEST(ValidateCases, MalformedCasesAreBadInput) {
    testing::TempDir dir;
    const auto cases = dir.path() / "cases";
    std::filesystem::create_directories(cases);
    const std::string good =
        "  - id: x\n    component: network\n    hardware: h\n    workload: w\n"
        "    command: [net, --topology, configs/net/dgx_h100.yaml, --sizes, 1GiB, --out, "
        "\"{out}\"]\n"
        "    metric: {file: stats.json, path: net_run.busbw.value}\n"
        "    measured: 1\n    unit: B/s\n    source: \"[nccl]\"\n    tolerance: 0.1\n";
    const struct {
        std::string from, to, fragment;
    } edits[] = {
        {"source: \"[nccl]\"", "source: \"a blog\"", "source"},
        {"tolerance: 0.1", "tolerance: 2", "tolerance"},
        {"measured: 1", "measured: -1", "measured"},
        {"    unit: B/s\n", "    unit: B/s\n    colour: red\n", "colour"},
        {", --out, \"{out}\"]", "]", "command"},
        {"stats.json", "stats.txt", "metric.file"},
        {"id: x", "id: X-1", "id"},
        {"tolerance: 0.1", "tolerance: 0.1\n    peak: 0.5", "peak: must be at least the measured"},
    };
    const auto out = dir.path() / "validation";
    for (const auto& e : edits) {
        std::string text = good;
        text.replace(text.find(e.from), e.from.size(), e.to);
        std::ofstream(cases / "cases.yaml") << "cases:\n" << text;
        const auto r =
            wallsim("validate --cases " + cases.string() + " --out " + out.string(), dir);
        testing::expect_bad_input(r, e.fragment);
        EXPECT_THAT(r.err, HasSubstr("cases.yaml:")) << "names the file and line";
        EXPECT_FALSE(std::filesystem::exists(out));
    }
    std::ofstream(cases / "cases.yaml") << "cases:\n" << good << good;
    testing::expect_bad_input(wallsim("validate --cases " + cases.string(), dir), "unique");
    testing::expect_bad_input(wallsim("validate --cases " + (dir.path() / "none").string(), dir),
                              "--cases");
    std::ofstream(cases / "cases.yaml") << "cases:\n" << good;
    testing::expect_bad_input(wallsim("validate --cases " + cases.string() + " --filter zzz", dir),
                              "--filter");
    // A group names one workload measured by two validations or more, in one unit.
    const std::string grouped = good + "    group: g\n";
    std::string other = grouped;
    other.replace(other.find("id: x"), 5, "id: y");
    std::ofstream(cases / "cases.yaml") << "cases:\n" << grouped;
    testing::expect_bad_input(wallsim("validate --cases " + cases.string(), dir),
                              "two cases or more");
    std::string other_unit = other;
    other_unit.replace(other_unit.find("unit: B/s"), 9, "unit: GB/s");
    std::ofstream(cases / "cases.yaml") << "cases:\n" << grouped << other_unit;
    testing::expect_bad_input(wallsim("validate --cases " + cases.string(), dir), "share a unit");
    std::ofstream(cases / "cases.yaml") << "cases:\n"
                                        << grouped << other << "    check: consistency\n";
    testing::expect_bad_input(wallsim("validate --cases " + cases.string(), dir),
                              "only validations");
    std::ofstream(cases / "cases.yaml") << "cases:\n" << good << "    group: G-1\n";
    testing::expect_bad_input(wallsim("validate --cases " + cases.string(), dir), "group");
    // Slow cases run only with --all.
    std::ofstream(cases / "cases.yaml") << "cases:\n" << good << "    slow: true\n";
    testing::expect_bad_input(wallsim("validate --cases " + cases.string(), dir), "--all");
}

}  // namespace
}  // namespace sim
