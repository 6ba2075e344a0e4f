// SPDX-License-Identifier: MIT
// A user's own sc_main built against an installed wallsim (find_package(wallsim)): an HBM stack
// module and a GPU module from wallsim, and a traffic initiator written here, bound through an
// interconnect to the same memory. The GPU runs one memory-bound kernel (an FP32 copy) twice:
// once alone, once while the initiator streams reads at a fixed rate, and prints both times.
//
//   custom_system <wallsim>/configs/hw/h100.yaml
#include <tlm_utils/simple_initiator_socket.h>

#include <iostream>
#include <systemc>
#include <tlm>

#include "models/gpu/gpu_module.h"
#include "models/gpu/gpu_params.h"
#include "models/hbm/hbm_module.h"
#include "models/hw/hw_params.h"
#include "sim/config/loader.h"
#include "sim/engine/run.h"
#include "sim/registry/registry.h"
#include "sim/tlm/interconnect.h"
#include "sim/tlm/payload_pool.h"
#include "sim/trace/trace_parser.h"

namespace {

// The user's own initiator: reads `chunk` bytes every `period`, for `count` chunks, through
// the TLM-2.0 base protocol (BEGIN_REQ, wait for END_REQ; BEGIN_RESP ends each read).
class TrafficGenerator : public sc_core::sc_module {
  public:
    tlm_utils::simple_initiator_socket<TrafficGenerator> init_socket{"init_socket"};

    SC_HAS_PROCESS(TrafficGenerator);
    TrafficGenerator(sc_core::sc_module_name name,
                     unsigned chunk,
                     const sc_core::sc_event& start,
                     sc_core::sc_time period,
                     unsigned count)
        : sc_core::sc_module(name),
          chunk_(chunk),
          start_(start),
          period_(period),
          count_(count),
          data_(1) {
        init_socket.register_nb_transport_bw(this, &TrafficGenerator::nb_transport_bw);
        SC_THREAD(run);
    }
    unsigned answered() const { return answered_; }

  private:
    void run() {
        sc_core::wait(start_);
        for (unsigned i = 0; i < count_; ++i) {
            tlm::tlm_generic_payload* t = pool_.acquire();
            t->set_command(tlm::TLM_READ_COMMAND);
            t->set_address(uint64_t{i} * chunk_);
            t->set_data_ptr(data_.data());
            t->set_data_length(chunk_);
            t->set_streaming_width(chunk_);
            tlm::tlm_phase phase = tlm::BEGIN_REQ;
            sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
            const tlm::tlm_sync_enum s = init_socket->nb_transport_fw(*t, phase, delay);
            if (s == tlm::TLM_ACCEPTED) sc_core::wait(end_req_);  // back-pressure
            if (s == tlm::TLM_COMPLETED) finish(*t);
            sc_core::wait(period_);
        }
    }
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& t,
                                       tlm::tlm_phase& phase,
                                       sc_core::sc_time&) {
        if (phase == tlm::END_REQ) {
            end_req_.notify();
            return tlm::TLM_ACCEPTED;
        }
        finish(t);  // BEGIN_RESP
        return tlm::TLM_COMPLETED;
    }
    void finish(tlm::tlm_generic_payload& t) {
        ++answered_;
        t.release();
    }

    unsigned chunk_;
    const sc_core::sc_event& start_;
    sc_core::sc_time period_;
    unsigned count_;
    std::vector<unsigned char> data_;
    sim::tlm_util::PayloadPool pool_;
    sc_core::sc_event end_req_;
    unsigned answered_ = 0;
};

// Runs the trace's operators one after the other on the GPU's models, recording their times;
// `second` fires as the second one starts.
class Runner : public sc_core::sc_module {
  public:
    SC_HAS_PROCESS(Runner);
    Runner(sc_core::sc_module_name name, sim::HardwareSetup& setup, const sim::Trace& trace)
        : sc_core::sc_module(name), setup_(setup), trace_(trace) {
        SC_THREAD(run);
    }
    std::vector<sim::OpResult> results;
    sc_core::sc_event second;

  private:
    void run() {
        for (const sim::Op& op : trace_.ops) {
            if (!results.empty()) second.notify();
            results.push_back(setup_.choose(op, std::nullopt).execute(op));
        }
    }
    sim::HardwareSetup& setup_;
    const sim::Trace& trace_;
};

}  // namespace

int sc_main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: custom_system HW_FILE (e.g. configs/hw/h100.yaml)\n";
        return 2;
    }
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);
    try {
        // Parameters are read once, into the params structs the modules receive.
        const auto doc = sim::load_config(argv[1]);
        const sim::ConfigNode root = sim::ConfigNode::root_of(doc);
        const sim::hbm::HbmParams hbm_params = sim::hbm::HbmParams::from_config(root);
        const sim::hw::HardwareParams hw = sim::hw::HardwareParams::from_config(root);
        const sim::gpu::GpuParams gpu_params = sim::gpu::GpuParams::from_config(root);

        sim::hbm::HbmModule hbm("hbm0", hbm_params, 16);
        sim::gpu::GpuModule gpu("gpu0", hw, gpu_params.core.sm.sub_partitions);
        sim::tlm_util::Interconnect noc("noc0", {});
        gpu.mem_socket.bind(noc.tgt_socket);
        noc.init_socket.bind(hbm.tgt_socket);

        sim::Registry registry;
        sim::register_all(registry);
        sim::StatGroup stats(nullptr, "");
        sim::Logging logging(spdlog::level::warn, [] { return sim::TimePs{0}; });
        sim::HardwareSetup setup(registry, doc, stats, logging, 1, gpu);
        const sim::Trace trace = sim::parse_trace_yaml(
            "version: 1\nops:\n"
            "  - {name: copy_alone, kind: elementwise, elements: 268435456, inputs: 1,\n"
            "     outputs: 1, flops_per_element: 0, dtype: fp32}\n"
            "  - {name: copy_with_traffic, kind: elementwise, elements: 268435456, inputs: 1,\n"
            "     outputs: 1, flops_per_element: 0, dtype: fp32}\n",
            "custom_system");
        Runner runner("runner", setup, trace);
        // While the second copy runs, the generator reads 1 MiB every 1 us (1 TB/s) for 4 ms.
        TrafficGenerator traffic("traffic", 1 << 20, runner.second,
                                 sc_core::sc_time(1, sc_core::SC_US), 4000);
        traffic.init_socket.bind(noc.tgt_socket);
        sc_core::sc_start();

        for (const sim::OpResult& r : runner.results) {
            std::cout << r.model << ": " << sim::to_seconds(r.end - r.start) * 1e6 << " us ("
                      << r.cost.dram_bytes / sim::to_seconds(r.end - r.start) / 1e9 << " GB/s)\n";
        }
        std::cout << "traffic generator: " << traffic.answered() << " reads answered\n";
        std::cout << "hbm0: " << hbm.bytes_served() / 1e9 << " GB served, "
                  << sim::to_seconds(hbm.queueing()) * 1e3 << " ms of queueing\n";
        return 0;
    } catch (const sim::ConfigError& e) {
        std::cerr << "custom_system: error: " << e.what() << "\n";
        return 2;
    }
}
