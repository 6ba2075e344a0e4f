// SPDX-License-Identifier: MIT
#include "sim/sweep/task.h"

#include <unistd.h>

#include <cstdio>

namespace sim::sweep {

namespace {
constexpr auto kRedrawEvery = std::chrono::milliseconds(100);
constexpr size_t kBarWidth = 30;
}  // namespace

SweepProgress::SweepProgress(size_t total, bool enabled)
    : total_(total), enabled_(enabled && ::isatty(STDERR_FILENO) == 1) {}

SweepProgress::~SweepProgress() {
    finish();
}

void SweepProgress::update(size_t done, size_t running, size_t failed) {
    if (!enabled_ || total_ == 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_draw_ < kRedrawEvery && done < total_) return;
    last_draw_ = now;
    drawn_ = true;
    const size_t filled = done * kBarWidth / total_;
    std::string bar(filled, '#');
    bar.resize(kBarWidth, '.');
    std::fprintf(stderr, "\r[%s] %zu/%zu points  %zu running  %zu failed ", bar.c_str(), done,
                 total_, running, failed);
    std::fflush(stderr);
}

void SweepProgress::finish() {
    if (drawn_) {
        std::fputc('\n', stderr);
        drawn_ = false;
    }
}

}  // namespace sim::sweep
