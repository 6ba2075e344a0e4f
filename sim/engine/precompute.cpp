// SPDX-License-Identifier: MIT
#include "sim/engine/precompute.h"

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <chrono>
#include <functional>

namespace sim {

PrecomputeSummary precompute_models(const Trace& trace,
                                    const std::vector<OpModel*>& models,
                                    unsigned threads) {
    PrecomputeSummary summary;
    if (threads <= 1) return summary;
    const auto start = std::chrono::steady_clock::now();
    // Planned in trace order on this thread (models keep what they planned); the tasks then
    // run on the pool in that order, each on its own model's const state.
    std::vector<std::function<void()>> tasks;
    for (size_t i = 0; i < trace.ops.size(); ++i) {
        for (auto& task : models[i]->precompute(trace.ops[i]))
            tasks.push_back(std::move(task));
    }
    summary.tasks = tasks.size();
    boost::asio::thread_pool pool(threads);
    for (auto& task : tasks)
        boost::asio::post(pool, std::move(task));
    pool.join();
    summary.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return summary;
}

}  // namespace sim
