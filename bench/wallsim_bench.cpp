// SPDX-License-Identifier: MIT
// How fast wallsim reads traces and runs the analytic fidelity. Figures go to
// docs/performance.md with the command that produced them.
//   build/bench/wallsim_bench --benchmark_min_time=1
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "models/analytic/core/roofline.h"
#include "models/cim/cim_params.h"
#include "models/cim/core/analog_matrix.h"
#include "models/cim/core/energy_area.h"
#include "models/cim/core/layer_mapping.h"
#include "models/gpu/gpu_params.h"
#include "models/gpu/kernels/kernels.h"
#include "models/hbm/core/traffic.h"
#include "models/hbm/hbm_params.h"
#include "models/net/net_params.h"
#include "models/systolic/core/fold_timing.h"
#include "models/systolic/core/scalesim_io.h"
#include "sim/config/loader.h"
#include "sim/core/host_memory.h"
#include "sim/trace/op_cost.h"
#include "sim/trace/trace_parser.h"

namespace {

// A transformer-like JSON Lines trace: per layer 4 GEMMs, 3 element-wise ops, a layernorm and
// an all-reduce on a second stream that waits for the layer's last GEMM.
std::string make_jsonl(int layers) {
    std::string s = "{\"version\": 1, \"name\": \"bench\"}\n";
    for (int l = 0; l < layers; ++l) {
        const std::string L = std::to_string(l);
        s += "{\"name\": \"ln" + L +
             "\", \"kind\": \"layernorm\", \"rows\": 4096, \"cols\": 4096, \"dtype\": \"bf16\"}\n";
        for (int g = 0; g < 4; ++g) {
            s += "{\"name\": \"g" + L + "_" + std::to_string(g) +
                 "\", \"kind\": \"gemm\", \"m\": 4096, \"n\": 4096, \"k\": 4096, \"dtype\": "
                 "\"bf16\"}\n";
        }
        for (int e = 0; e < 3; ++e) {
            s += "{\"name\": \"e" + L + "_" + std::to_string(e) +
                 "\", \"kind\": \"elementwise\", \"elements\": 16777216, \"dtype\": \"bf16\"}\n";
        }
        s += "{\"name\": \"ar" + L +
             "\", \"kind\": \"allreduce\", \"bytes\": 33554432, \"group\": 8, "
             "\"stream\": 1, \"after\": [\"g" +
             L + "_3\"]}\n";
    }
    return s;
}
constexpr int kOpsPerLayer = 9;

void BM_ParseTraceJsonl(benchmark::State& state) {
    const int layers = static_cast<int>(state.range(0));
    const std::string text = make_jsonl(layers);
    for (auto _ : state)
        benchmark::DoNotOptimize(sim::parse_trace_jsonl(text, "bench.jsonl"));
    state.SetItemsProcessed(state.iterations() * layers * kOpsPerLayer);
    state.SetLabel("ops/s = items_per_second");
}
BENCHMARK(BM_ParseTraceJsonl)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_RooflineTiming(benchmark::State& state) {
    const auto doc = sim::load_config(std::string(WALLSIM_SOURCE_DIR) + "/configs/hw/h100.yaml");
    const sim::hw::HardwareParams hw =
        sim::hw::HardwareParams::from_config(sim::ConfigNode::root_of(doc));
    const sim::analytic::RooflineCore core(hw);
    const sim::Trace trace = sim::parse_trace_jsonl(make_jsonl(100), "bench.jsonl");
    size_t i = 0;
    for (auto _ : state) {
        const sim::Op& op = trace.ops[i++ % trace.ops.size()];
        benchmark::DoNotOptimize(core.time(sim::cost_of(op)));
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RooflineTiming);

// The whole binary: parse, elaborate, simulate, write outputs. SystemC elaborates once per
// process, so each iteration is a fresh wallsim process; manual time is its wall time.
void BM_EndToEndAnalyticRun(benchmark::State& state) {
    const int layers = static_cast<int>(state.range(0));
    const auto dir = std::filesystem::temp_directory_path() / "wallsim-bench";
    std::filesystem::create_directories(dir);
    const auto trace = dir / "bench.jsonl";
    std::ofstream(trace) << make_jsonl(layers);
    const std::string cmd = std::string("cd ") + WALLSIM_SOURCE_DIR + " && " + WALLSIM_BINARY +
                            " run --hw configs/hw/h100.yaml --no-progress --trace " +
                            trace.string() + " --out " + (dir / "out").string() + " 2>/dev/null";
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        if (std::system(cmd.c_str()) != 0) state.SkipWithError("wallsim run failed");
        state.SetIterationTime(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    state.SetItemsProcessed(state.iterations() * layers * kOpsPerLayer);
    std::filesystem::remove_all(dir);
}
BENCHMARK(BM_EndToEndAnalyticRun)
    ->Arg(100)
    ->Arg(10000)
    ->UseManualTime()
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);

// Simulated 64-byte requests per wall second through all 160 HBM3 pseudo-channels of an H100.
void BM_HbmTraffic(benchmark::State& state) {
    const auto doc = sim::load_config(std::string(WALLSIM_SOURCE_DIR) + "/configs/hw/h100.yaml");
    const sim::hbm::HbmParams params =
        sim::hbm::HbmParams::from_config(sim::ConfigNode::root_of(doc));
    sim::hbm::TrafficParams tp;
    tp.pattern = static_cast<sim::hbm::Pattern>(state.range(0));
    tp.bytes = 64ULL << 20;
    for (auto _ : state) {
        sim::hbm::HbmSystem system(params.core);
        benchmark::DoNotOptimize(sim::hbm::run_traffic(system, tp));
    }
    state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(tp.bytes / tp.request_bytes));
    state.SetLabel(sim::hbm::to_string(tp.pattern));
}
BENCHMARK(BM_HbmTraffic)
    ->Arg(static_cast<int>(sim::hbm::Pattern::Stream))
    ->Arg(static_cast<int>(sim::hbm::Pattern::WriteStream))
    ->Arg(static_cast<int>(sim::hbm::Pattern::Read2Write1))
    ->Arg(static_cast<int>(sim::hbm::Pattern::Random))
    ->Arg(static_cast<int>(sim::hbm::Pattern::Strided))
    ->Unit(benchmark::kMillisecond);

sim::cim::CimConfig isaac_config() {
    return sim::cim::load_cim_config(std::string(WALLSIM_SOURCE_DIR) + "/configs/cim/isaac.yaml",
                                     {});
}

// Functional MVMs of one full 128 x 128 ISAAC crossbar (16 weights of 8 slices) with 16-bit
// inputs: 16 read cycles of 16,384 cells, ADC, shift-and-add, per MVM.
void BM_CimCrossbarMvm(benchmark::State& state) {
    sim::cim::CimConfig cfg = isaac_config();
    cfg.nonideality.variation_sigma = 0.02;
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<int64_t> w(-32767, 32767);
    std::uniform_int_distribution<uint64_t> x(0, 65535);
    std::vector<int64_t> weights(128 * 16);
    for (auto& v : weights)
        v = w(rng);
    const sim::cim::AnalogMatrix matrix(cfg, 128, 16, weights, 1);
    std::vector<uint64_t> input(128);
    for (auto& v : input)
        v = x(rng);
    std::vector<double> y;
    for (auto _ : state) {
        matrix.multiply(input, y);
        benchmark::DoNotOptimize(y.data());
    }
    state.SetItemsProcessed(state.iterations());
    state.SetLabel("MVMs/s = items_per_second");
}
BENCHMARK(BM_CimCrossbarMvm)->Unit(benchmark::kMicrosecond);

// Mapping, timing and energy of a 4096 x 4096 x 4096 GEMM on the ISAAC chip (event counts,
// no stepping).
void BM_CimLayerMapAndTime(benchmark::State& state) {
    const sim::cim::CimConfig cfg = isaac_config();
    const sim::cim::GemmShape g{4096, 4096, 4096};
    for (auto _ : state) {
        const sim::cim::LayerMapping m = sim::cim::map_gemm(cfg, g);
        const sim::cim::LayerTiming t = sim::cim::time_gemm(cfg, g, m);
        benchmark::DoNotOptimize(sim::cim::layer_energy(cfg, m, t).total());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CimLayerMapAndTime);
// A whole SCALE-Sim topology in timing mode on SCALE-Sim's 256x256 TPU config (ws, CALC): the
// closed-form fold timing, no PE stepped. Arg 0: ResNet-18, 1: AlexNet (from
// ../shared/reference/scalesim-inputs; skipped when absent).
void BM_SystolicTopology(benchmark::State& state) {
    const std::string dir =
        std::string(WALLSIM_SOURCE_DIR) + "/../shared/reference/scalesim-inputs/";
    const std::string topo =
        dir + (state.range(0) == 0 ? "topologies/Resnet18.csv" : "topologies/alexnet.csv");
    if (!std::filesystem::exists(topo)) {
        state.SkipWithError("reference topologies absent");
        return;
    }
    const auto cfg = sim::systolic::read_scalesim_config(dir + "configs/google_tpu_ws.cfg");
    uint64_t layers = 0;
    for (auto _ : state) {
        // Reading the files is part of what a user waits for.
        const auto t = sim::systolic::read_topology_csv(topo);
        uint64_t cycles = 0;
        for (const auto& l : t.layers)
            cycles += sim::systolic::time_layer(cfg.array, l).total_cycles;
        benchmark::DoNotOptimize(cycles);
        layers += t.layers.size();
    }
    state.SetItemsProcessed(static_cast<int64_t>(layers));
    state.SetLabel(state.range(0) == 0 ? "ResNet-18" : "AlexNet");
}
BENCHMARK(BM_SystolicTopology)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

// A collective on a cluster network: Arg(0) a ring AllReduce of 1 GiB over 1024 GPUs (128 DGX
// H100 nodes on NDR InfiniBand), Arg(1) the hierarchical one, Arg(2) a 64-GPU AllToAll.
void BM_NetCollective(benchmark::State& state) {
    const auto doc = sim::load_config(
        std::string(WALLSIM_SOURCE_DIR) + "/configs/net/cluster_h100_ib.yaml",
        state.range(0) == 2 ? std::vector<std::string>{"nodes=8"} : std::vector<std::string>{});
    const sim::net::NetParams p = sim::net::NetParams::from_config(sim::ConfigNode::root_of(doc));
    const sim::net::Topology t = p.build();
    const auto c =
        state.range(0) == 2 ? sim::net::Collective::AllToAll : sim::net::Collective::AllReduce;
    const auto a =
        state.range(0) == 1 ? sim::net::Algorithm::Hierarchical : sim::net::Algorithm::Ring;
    for (auto _ : state)
        benchmark::DoNotOptimize(sim::net::run_collective(
            t, {c, a, sim::net::Protocol::Simple, double(1 << 30)}, p.collective));
    state.SetLabel(state.range(0) == 0   ? "ring allreduce, 1024 GPUs, 1 GiB"
                   : state.range(0) == 1 ? "hierarchical allreduce, 1024 GPUs, 1 GiB"
                                         : "alltoall, 64 GPUs, 1 GiB");
}
BENCHMARK(BM_NetCollective)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// The cycle-level GPU on the full H100 preset: simulated warp-instructions per wall second
// (counters: warp_instructions/s counts every instruction of an arithmetic run; decisions/s
// counts scheduler decisions, one per run chunk; dram_requests/s the HBM requests).
//   0: FP32 c = a + b, 2^22 elements, every CTA (memory-bound)
//   1: the same with 64 FLOP per element (near the FP32 ridge)
//   2: the same with 2048 FLOP per element (compute-bound)
//   3: softmax 4096 x 1024 FP32, every CTA (row kernel: shuffles, barriers)
//   4: FP32 c = a + b over 1 GiB arrays, sampled (a 10 s target)
void BM_GpuKernel(benchmark::State& state) {
    const auto doc = sim::load_config(std::string(WALLSIM_SOURCE_DIR) + "/configs/hw/h100.yaml");
    const auto params = sim::gpu::GpuParams::from_config(sim::ConfigNode::root_of(doc));
    sim::Op op;
    op.dtype = sim::DType::FP32;
    op.kind = sim::OpKind::Elementwise;
    const int which = static_cast<int>(state.range(0));
    const uint64_t flops[] = {1, 64, 2048, 0, 1};
    op.params = sim::ElementwiseParams{which == 4 ? uint64_t{1} << 28 : uint64_t{1} << 22, 2, 1,
                                       flops[which]};
    if (which == 3) {
        op.kind = sim::OpKind::Softmax;
        op.params = sim::RowParams{4096, 1024};
    }
    const sim::gpu::KernelLaunch kernel = sim::gpu::lower(op, {params.core, params.tensor}).front();
    sim::gpu::SamplingOptions sampling;
    sampling.enabled = which == 4;
    double instructions = 0, decisions = 0, requests = 0;
    for (auto _ : state) {
        sim::gpu::GpuCore core(params.core, params.hbm.core, kernel);
        const sim::gpu::KernelResult r = core.run(sampling);
        instructions += double(r.sm.warp_instructions);
        decisions += double(r.sm.scheduler_decisions);
        requests += double(r.memory.dram_read_bytes + r.memory.dram_write_bytes) / 64;
    }
    state.counters["warp_instructions/s"] =
        benchmark::Counter(instructions, benchmark::Counter::kIsRate);
    state.counters["decisions/s"] = benchmark::Counter(decisions, benchmark::Counter::kIsRate);
    state.counters["dram_requests/s"] = benchmark::Counter(requests, benchmark::Counter::kIsRate);
    const char* labels[] = {"vector add 2^22, cycle", "64 FLOP/element, cycle",
                            "2048 FLOP/element, cycle", "softmax 4096x1024, cycle",
                            "vector add 1 GiB, sampled"};
    state.SetLabel(labels[which]);
}
BENCHMARK(BM_GpuKernel)->DenseRange(0, 4)->Iterations(1)->Unit(benchmark::kMillisecond);

// A BF16 GEMM on the cycle-level H100 (tiled wgmma kernel, TMA copies, 2-CTA clusters); its
// cost is the L2 line requests of the tile copies (counter l2_lines/s).
//   0: 4096³, every CTA    1: 8192³, sampled (a 10 s target)
void BM_GemmKernel(benchmark::State& state) {
    const auto doc = sim::load_config(std::string(WALLSIM_SOURCE_DIR) + "/configs/hw/h100.yaml");
    const auto params = sim::gpu::GpuParams::from_config(sim::ConfigNode::root_of(doc));
    sim::Op op;
    op.dtype = sim::DType::BF16;
    op.kind = sim::OpKind::Gemm;
    const uint64_t n = state.range(0) == 0 ? 4096 : 8192;
    sim::GemmParams g;
    g.m = g.n = g.k = n;
    g.out_dtype = sim::DType::BF16;
    op.params = g;
    const sim::gpu::KernelLaunch kernel = sim::gpu::lower(op, {params.core, params.tensor}).front();
    sim::gpu::SamplingOptions sampling;
    sampling.enabled = state.range(0) == 1;
    sim::gpu::GpuCoreConfig config = params.core;
    config.clock_hz = params.tensor_clock_hz;
    double lines = 0;
    for (auto _ : state) {
        sim::gpu::GpuCore core(config, params.hbm.core, kernel);
        const sim::gpu::KernelResult r = core.run(sampling);
        lines += double(r.memory.l2_read_sectors) / 4;
    }
    state.counters["l2_lines/s"] = benchmark::Counter(lines, benchmark::Counter::kIsRate);
    state.SetLabel(state.range(0) == 0 ? "GEMM 4096^3 bf16, cycle" : "GEMM 8192^3 bf16, sampled");
}
BENCHMARK(BM_GemmKernel)->DenseRange(0, 1)->Iterations(1)->Unit(benchmark::kMillisecond);

// As wallsim's own main: the heap on transparent huge pages (sim/core/host_memory.h).
int main(int argc, char** argv) {
    sim::back_heap_with_huge_pages();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
