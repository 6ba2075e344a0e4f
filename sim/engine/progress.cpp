// SPDX-License-Identifier: MIT
#include "sim/engine/progress.h"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace sim {

namespace {
constexpr auto kQuietStart = std::chrono::milliseconds(500);
constexpr auto kRedrawEvery = std::chrono::milliseconds(100);
constexpr int kBarWidth = 30;
}  // namespace

ProgressBar::ProgressBar(uint64_t total, bool enabled)
    : total_(total),
      enabled_(enabled && ::isatty(STDERR_FILENO) == 1),
      start_(Clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() {
    finish();
}

void ProgressBar::update(uint64_t done, double sim_seconds) {
    if (!enabled_ || total_ == 0) return;
    const auto now = Clock::now();
    if (now - start_ < kQuietStart ||
        (drawn_ && now - last_draw_ < kRedrawEvery && done < total_)) {
        return;
    }
    last_draw_ = now;
    drawn_ = true;
    const double frac = static_cast<double>(done) / static_cast<double>(total_);
    const int filled = static_cast<int>(frac * kBarWidth);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(kBarWidth, '.');
    std::fprintf(stderr, "\r[%s] %5.1f%%  %llu/%llu ops  simulated %.6g s", bar.c_str(),
                 frac * 100.0, static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(total_), sim_seconds);
    std::fflush(stderr);
}

void ProgressBar::finish() {
    if (drawn_) {
        std::fputc('\n', stderr);
        drawn_ = false;
    }
}

}  // namespace sim
