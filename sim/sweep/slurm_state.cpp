// SPDX-License-Identifier: MIT
#include "sim/sweep/slurm_state.h"

#include <boost/algorithm/string.hpp>

#include <cstdlib>
#include <sstream>
#include <vector>

namespace sim::sweep {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        boost::algorithm::trim(line);
        if (!line.empty()) lines.push_back(line);
    }
    return lines;
}

bool parse_index(const std::string& text, size_t& out) {
    if (text.empty()) return false;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (end != text.c_str() + text.size()) return false;
    out = size_t(v);
    return true;
}

// sacct reports "CANCELLED by 0"; the first word is the state.
std::string first_word(const std::string& s) {
    return s.substr(0, s.find(' '));
}

}  // namespace

std::map<size_t, std::string> parse_sacct_states(const std::string& text,
                                                 const std::string& job_id) {
    std::map<size_t, std::string> states;
    for (const std::string& line : lines_of(text)) {
        std::vector<std::string> fields;
        boost::algorithm::split(fields, line, boost::is_any_of("|"));
        if (fields.size() < 2) continue;
        const std::string prefix = job_id + "_";
        if (fields[0].rfind(prefix, 0) != 0) continue;
        size_t task = 0;
        if (!parse_index(fields[0].substr(prefix.size()), task)) continue;  // a step, a range
        states[task] = first_word(fields[1]);
    }
    return states;
}

std::map<size_t, std::string> parse_scontrol_states(const std::string& text,
                                                    const std::string& job_id) {
    std::map<size_t, std::string> states;
    for (const std::string& line : lines_of(text)) {
        std::vector<std::string> words;
        boost::algorithm::split(words, line, boost::is_any_of(" "), boost::token_compress_on);
        std::string array_job, state;
        size_t task = 0;
        bool has_task = false;
        for (const std::string& w : words) {
            if (w.rfind("ArrayJobId=", 0) == 0) array_job = w.substr(11);
            if (w.rfind("ArrayTaskId=", 0) == 0) has_task = parse_index(w.substr(12), task);
            if (w.rfind("JobState=", 0) == 0) state = w.substr(9);
        }
        if (array_job == job_id && has_task && !state.empty()) states[task] = state;
    }
    return states;
}

QueueCounts parse_squeue(const std::string& text) {
    QueueCounts c;
    for (const std::string& line : lines_of(text)) {
        ++c.queued;
        if (line.find("|RUNNING") != std::string::npos) ++c.running;
    }
    return c;
}

bool node_reason(const std::string& state) {
    return state.empty() || state == "NODE_FAIL" || state == "BOOT_FAIL" || state == "PREEMPTED" ||
           state == "REQUEUED" || state == "REQUEUE_FED" || state == "REQUEUE_HOLD" ||
           state == "LAUNCH_FAILED";
}

size_t parse_max_array_size(const std::string& text) {
    for (const std::string& line : lines_of(text)) {
        if (line.rfind("MaxArraySize", 0) != 0) continue;
        const size_t eq = line.find('=');
        size_t v = 0;
        if (eq != std::string::npos &&
            parse_index(boost::algorithm::trim_copy(line.substr(eq + 1)), v) && v > 0)
            return v;
    }
    return 1001;
}

}  // namespace sim::sweep
