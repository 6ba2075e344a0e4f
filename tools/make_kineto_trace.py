#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a synthetic PyTorch profiler (Kineto) trace in the layout torch.profiler's
export_chrome_trace produces [kineto]: GPT-style transformer layers (forward and backward) in
bf16 on one GPU, with the CPU ops and their recorded shapes (record_shapes=True), the
cudaLaunchKernel calls, the kernels cuBLAS, FlashAttention and ATen launch, ac2g flows, an
NCCL all-reduce of the gradients on a second stream ordered by a Stream Wait Event record, a
host-to-device copy, a memset, a kernel launched before the profiling window and one kernel
no rule classifies.

The kernel durations are INVENTED, not measured: FLOPs at 60 % of an H100's dense BF16 peak
(989 TFLOP/s) plus bytes at 80 % of its HBM bandwidth (3.35 TB/s) plus 2 us, so that the
file exercises `wallsim import` and `wallsim compare`; they say nothing about real hardware.

    tools/make_kineto_trace.py --layers 1 -o traces/examples/pytorch/gpt_layer.json
    tools/make_kineto_trace.py --layers 1700 -o /tmp/big.json     # about 100 MB
"""
import argparse
import gzip
import json

BF16 = "c10::BFloat16"
PEAK_FLOPS = 0.6 * 989e12
PEAK_BYTES = 0.8 * 3.35e12
PID, TID, GPU, COMPUTE, NCCL = 4242, 4242, 0, 7, 20

GEMM_BIG = ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_"
            "execute_segment_k_off_kernel__5x_cublas")
GEMM_SMALL = ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_"
              "execute_segment_k_off_kernel__5x_cublas")
SPLITK = ("void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, "
          "__nv_bfloat16, true, false, false>(cublasLt::cublasSplitKParams<float>, float const*, "
          "__nv_bfloat16 const*, __nv_bfloat16*, float const*, float const*, "
          "__nv_bfloat16 const*, float const*, __nv_bfloat16*, void*, long, float*, int*)")
LAYER_NORM = ("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16,"
              " float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, "
              "c10::BFloat16 const*, float*, float*, c10::BFloat16*)")
LN_GRAD = ("void at::native::(anonymous namespace)::layer_norm_grad_input_kernel<c10::BFloat16, "
           "float>(c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, "
           "c10::BFloat16 const*, c10::BFloat16*, int)")
LN_GAMMA = ("void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel_32x32<"
            "c10::BFloat16, float>(long, long, c10::BFloat16 const*, c10::BFloat16 const*, "
            "float const*, float const*, c10::BFloat16*, c10::BFloat16*)")
FLASH_FWD = ("void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false,"
             " false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, "
             "cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>"
             "(pytorch_flash::Flash_fwd_params)")
FLASH_BWD_DOT = ("void pytorch_flash::flash_bwd_dot_do_o_kernel<true, Flash_bwd_kernel_traits<128, "
                 "64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128,"
                 " 64, 128, 8, cutlass::bfloat16_t> > >(pytorch_flash::Flash_bwd_params)")
FLASH_BWD = ("void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<"
             "Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t,"
             " Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> >, false, true, false, "
             "false, false, true, false>(pytorch_flash::Flash_bwd_params)")
FLASH_BWD_CVT = ("void pytorch_flash::flash_bwd_convert_dq_kernel<Flash_bwd_kernel_traits<128, 64,"
                 " 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, "
                 "64, 128, 8, cutlass::bfloat16_t> > >(pytorch_flash::Flash_bwd_params, int)")
ADD = ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<"
       "c10::BFloat16>, at::detail::Array<char*, 2> >(int, at::native::CUDAFunctorOnSelf_add<"
       "c10::BFloat16>, at::detail::Array<char*, 2>)")
GELU = ("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl("
        "at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::"
        "{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, "
        "2> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)"
        "::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::"
        "{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2>)")
GELU_BWD = ("void at::native::unrolled_elementwise_kernel<at::native::GeluBackwardCUDAKernelImpl"
            "(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::"
            "{lambda()#4}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, "
            "at::detail::Array<char*, 3>, TrivialOffsetCalculator<2, unsigned int>, "
            "TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithoutCast, "
            "at::native::memory::StoreWithoutCast>(int, ...)")
COPY = ("void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda("
        "at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() "
        "const::{lambda(float)#1}, at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, "
        "unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::"
        "LoadWithCast<1>, at::native::memory::StoreWithCast<1> >(int, ...)")
CAT = ("void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous "
       "namespace)::OpaqueType<2u>, unsigned int, 2, 128, 1>(at::native::(anonymous namespace)::"
       "OpaqueType<2u>*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<"
       "at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 128, 1>, "
       "at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)")
SUM = ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, "
       "at::native::func_wrapper_t<float, at::native::sum_functor<c10::BFloat16, float, "
       "c10::BFloat16>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, "
       "c10::BFloat16, 4, 4> >(at::native::ReduceOp<c10::BFloat16, ...>)")
SOFTMAX = ("void at::native::(anonymous namespace)::cunn_SoftMaxForward<8, c10::BFloat16, float, "
           "c10::BFloat16, at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>("
           "c10::BFloat16*, c10::BFloat16 const*, int)")
ROPE = "void fused_rotary_custom_kernel<__nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16 const*, int, int)"
FILL = ("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)")
NCCL_KERNEL = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"


class Writer:
    def __init__(self):
        self.events = []
        self.cpu = 1000.0          # us, the CPU thread's clock
        self.gpu = {COMPUTE: 1000.0, NCCL: 1000.0}
        self.ext = 100
        self.corr = 5000
        self.ev_idx = 0

    def add(self, e):
        self.events.append(e)

    def python(self, name):
        self.add({"ph": "X", "cat": "python_function", "name": name, "pid": PID, "tid": TID,
                  "ts": round(self.cpu, 3), "dur": 3.0,
                  "args": {"Python parent id": 1, "Python id": len(self.events),
                           "Python thread": 0}})

    def op(self, name, dims, types, strides=None, concrete=None, extra=None):
        """A CPU op; returns its External id."""
        self.ext += 1
        self.ev_idx += 1
        args = {"External id": self.ext, "Record function id": 0, "Ev Idx": self.ev_idx,
                "Input Dims": dims, "Input type": types,
                "Input Strides": strides if strides is not None else [[] for _ in dims],
                "Concrete Inputs": concrete if concrete is not None else ["" for _ in dims]}
        args.update(extra or {})
        self.add({"ph": "X", "cat": "cpu_op", "name": name, "pid": PID, "tid": TID,
                  "ts": round(self.cpu, 3), "dur": 12.0, "args": args})
        self.cpu += 1.0
        return self.ext

    def runtime(self, name, ext, cbid):
        self.corr += 1
        args = {"cbid": cbid, "correlation": self.corr}
        if ext is not None:
            args = {"External id": ext, **args}
        self.add({"ph": "X", "cat": "cuda_runtime", "name": name, "pid": PID, "tid": TID,
                  "ts": round(self.cpu, 3), "dur": 4.0, "args": args})
        self.cpu += 5.0
        return self.corr

    def kernel(self, ext, name, flops, nbytes, stream=COMPUTE, cat="kernel", extra=None,
               launch=True):
        """A kernel launched by op ext (None: launched before the window)."""
        if launch:
            corr = self.runtime("cudaLaunchKernel" if cat == "kernel" else "cudaMemcpyAsync",
                                ext, 211 if cat == "kernel" else 41)
            launch_ts = self.cpu - 5.0
        else:
            self.corr += 1
            corr = self.corr
            launch_ts = self.gpu[stream] - 10.0
        dur = round(max(flops / PEAK_FLOPS, 0) * 1e6 + nbytes / PEAK_BYTES * 1e6 + 2.0, 3)
        start = round(max(self.gpu[stream], launch_ts + 6.0), 3)
        self.gpu[stream] = start + dur
        args = {}
        if ext is not None and launch:
            args["External id"] = ext
        args.update({"queued": 0, "device": GPU, "context": 1, "stream": stream,
                     "correlation": corr})
        if cat == "kernel":
            args.update({"registers per thread": 128, "shared memory": 0, "blocks per SM": 2.0,
                         "warps per SM": 16.0, "grid": [264, 1, 1], "block": [256, 1, 1],
                         "est. achieved occupancy %": 50})
        args.update(extra or {})
        self.add({"ph": "X", "cat": cat, "name": name, "pid": GPU, "tid": stream, "ts": start,
                  "dur": dur, "args": args})
        if launch:
            self.add({"ph": "s", "id": corr, "pid": PID, "tid": TID, "ts": round(launch_ts, 3),
                      "cat": "ac2g", "name": "ac2g"})
            self.add({"ph": "f", "id": corr, "pid": GPU, "tid": stream, "ts": start,
                      "cat": "ac2g", "name": "ac2g", "bp": "e"})
        return corr


def gemm(w, name, m, n, k, bias=False, kernel=GEMM_BIG, splitk=False):
    if bias:
        dims = [[n], [m, k], [k, n], [], []]
        types = [BF16, BF16, BF16, "Scalar", "Scalar"]
        strides = [[1], [k, 1], [1, k], [], []]
    else:
        dims, types, strides = [[m, k], [k, n]], [BF16, BF16], [[k, 1], [1, k]]
    ext = w.op(name, dims, types, strides)
    flops, nbytes = 2 * m * n * k, 2 * (m * k + k * n + m * n)
    w.kernel(ext, kernel, flops, nbytes)
    if splitk:
        w.kernel(ext, SPLITK, m * n * 4, 12 * m * n)


def layer_norm(w, tokens, h):
    ext = w.op("aten::native_layer_norm", [[1, tokens, h], [], [h], [h], []],
               [BF16, "", BF16, BF16, "Scalar"], concrete=["", f"[{h}]", "", "", "1e-05"])
    w.kernel(ext, LAYER_NORM, 8 * tokens * h, 4 * tokens * h)


def elementwise(w, name, kernel, shape, inputs=2, flops=1):
    dims = [shape] * inputs + [[]]
    ext = w.op(name, dims, [BF16] * inputs + ["Scalar"])
    n = 1
    for d in shape:
        n *= d
    w.kernel(ext, kernel, flops * n, 2 * n * (inputs + 1))


def attention(w, b, heads, seq, d, backward=False):
    q = [b, heads, seq, d]
    n = b * heads * seq * seq * d
    if not backward:
        ext = w.op("aten::_scaled_dot_product_flash_attention", [q, q, q, [], [], [], []],
                   [BF16, BF16, BF16, "Scalar", "Scalar", "Scalar", ""],
                   concrete=["", "", "", "0.", "True", "False", ""])
        w.kernel(ext, FLASH_FWD, 2 * n, 8 * b * heads * seq * d)
        return
    lse = [b, heads, seq]
    ext = w.op("aten::_scaled_dot_product_flash_attention_backward",
               [q, q, q, q, q, lse, [], [], [], [], [], [], [], [], []],
               [BF16] * 5 + ["float", "", "", "Scalar", "Scalar", "Scalar", "Scalar", "",
                             "Tensor", "Tensor"],
               concrete=["", "", "", "", "", "", "", "", str(seq), str(seq), "0.", "True",
                         "", "", ""])
    w.kernel(ext, FLASH_BWD_DOT, 0, 4 * b * heads * seq * d)
    w.kernel(ext, FLASH_BWD, 5 * n, 16 * b * heads * seq * d)
    w.kernel(ext, FLASH_BWD_CVT, 0, 6 * b * heads * seq * d)


def layer(w, tokens, h, heads):
    d = h // heads
    w.python("model.py(88): forward")
    layer_norm(w, tokens, h)
    gemm(w, "aten::addmm", tokens, 3 * h, h, bias=True)
    attention(w, 1, heads, tokens, d)
    gemm(w, "aten::mm", tokens, h, h, kernel=GEMM_SMALL)
    elementwise(w, "aten::add", ADD, [1, tokens, h])
    layer_norm(w, tokens, h)
    gemm(w, "aten::addmm", tokens, 4 * h, h, bias=True)
    elementwise(w, "aten::gelu", GELU, [tokens, 4 * h], inputs=1, flops=8)
    gemm(w, "aten::addmm", tokens, h, 4 * h, bias=True, splitk=True)
    elementwise(w, "aten::add", ADD, [1, tokens, h])
    # backward
    w.python("torch/autograd/graph.py(744): _engine_run_backward")
    gemm(w, "aten::mm", tokens, 4 * h, h, kernel=GEMM_BIG)
    gemm(w, "aten::mm", 4 * h, h, tokens, kernel=GEMM_BIG)
    ext = w.op("aten::gelu_backward", [[tokens, 4 * h], [tokens, 4 * h], []],
               [BF16, BF16, "Scalar"])
    w.kernel(ext, GELU_BWD, 12 * tokens * 4 * h, 6 * tokens * 4 * h)
    attention(w, 1, heads, tokens, d, backward=True)
    ext = w.op("aten::native_layer_norm_backward",
               [[1, tokens, h], [1, tokens, h], [], [1, tokens, 1], [1, tokens, 1], [h], [h], []],
               [BF16, BF16, "", "float", "float", BF16, BF16, ""])
    w.kernel(ext, LN_GRAD, 10 * tokens * h, 6 * tokens * h)
    w.kernel(ext, LN_GAMMA, 4 * tokens * h, 4 * tokens * h)
    ext = w.op("aten::sum", [[tokens, h], [], [], []], [BF16, "", "Scalar", ""],
               concrete=["", "[0]", "False", ""])
    w.kernel(ext, SUM, tokens * h, 2 * tokens * h)
    ext = w.op("aten::cat", [[[tokens, h], [tokens, h], [tokens, h]], []],
               ["TensorList", "Scalar"], concrete=["", "1"])
    w.kernel(ext, CAT, 0, 12 * tokens * h)
    ext = w.op("aten::copy_", [[tokens, h], [tokens, h], []], ["float", BF16, "Scalar"])
    w.kernel(ext, COPY, 0, 6 * tokens * h)
    ext = w.op("wallsim_example::rotary", [[1, tokens, h]], [BF16])
    w.kernel(ext, ROPE, 0, 4 * tokens * h)


def allreduce(w, elements, group):
    """Gradients all-reduced on the NCCL stream after the compute stream's last kernel."""
    record = w.runtime("cudaEventRecord", None, 135)
    wait = w.runtime("cudaStreamWaitEvent", None, 146)
    sync_ts = round(w.gpu[COMPUTE], 3)
    w.add({"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": GPU, "tid": NCCL,
           "ts": sync_ts, "dur": 0,
           "args": {"cuda_sync_kind": "Stream Wait Event", "wait_on_stream": COMPUTE,
                    "wait_on_cuda_event_record_corr_id": record,
                    "wait_on_cuda_event_id": 3, "stream": NCCL, "correlation": wait,
                    "device": GPU, "context": 1}})
    w.gpu[NCCL] = max(w.gpu[NCCL], w.gpu[COMPUTE])
    meta = {"Collective name": "allreduce", "dtype": "BFloat16", "In msg nelems": elements,
            "Out msg nelems": elements, "In split size": "[]", "Out split size": "[]",
            "Global rank start": 0, "Global rank stride": 1, "Group size": group,
            "Process Group Name": "0", "Process Group Description": "default_pg",
            "Process Group Ranks": str(list(range(group))), "Rank": 0}
    ext = w.op("record_param_comms", [[elements]], [BF16], extra=meta)
    nbytes = 2 * elements * 2 * (group - 1) / group
    # NCCL at an invented 350 GB/s bus bandwidth; synthetic like every duration here.
    w.kernel(ext, NCCL_KERNEL, 0, nbytes * PEAK_BYTES / 350e9, stream=NCCL, extra=meta)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--tokens", type=int, default=2048)
    ap.add_argument("--hidden", type=int, default=4096)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("-o", "--out", required=True, help=".json or .json.gz")
    a = ap.parse_args()
    w = Writer()
    w.add({"name": "process_name", "ph": "M", "ts": 0, "pid": PID, "tid": 0,
           "args": {"name": "python3"}})
    w.add({"name": "process_name", "ph": "M", "ts": 0, "pid": GPU, "tid": 0,
           "args": {"name": "python3"}})
    w.add({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": PID,
           "tid": TID, "ts": 999.0, "dur": 1.0, "args": {"External id": 1}})
    # Launched before the profiling window: the kernel is recorded, its launch is not.
    w.kernel(None, FILL, 0, 4 * 1024 * 1024, launch=False)
    ext = w.op("aten::copy_", [[a.tokens], [a.tokens], []], ["long int", "long int", "Scalar"])
    w.kernel(ext, "Memcpy HtoD (Pageable -> Device)", 0, 8 * a.tokens, cat="gpu_memcpy",
             extra={"bytes": 8 * a.tokens, "memory bandwidth (GB/s)": 5.2})
    ext = w.op("aten::zero_", [[a.hidden, a.hidden]], [BF16])
    w.kernel(ext, "Memset (Device)", 0, 2 * a.hidden * a.hidden, cat="gpu_memset",
             extra={"bytes": 2 * a.hidden * a.hidden, "memory bandwidth (GB/s)": 1500.0})
    for _ in range(a.layers):
        layer(w, a.tokens, a.hidden, a.heads)
    ext = w.op("aten::_log_softmax", [[a.tokens, 32000], [], []], [BF16, "Scalar", "Scalar"],
               concrete=["", "1", "False"])
    w.kernel(ext, SOFTMAX, 5 * a.tokens * 32000, 4 * a.tokens * 32000)
    allreduce(w, 12 * a.hidden * a.hidden, 8)

    doc = {
        "schemaVersion": 1,
        "deviceProperties": [{
            "id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85029158912,
            "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024,
            "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "warpSize": 32,
            "sharedMemPerBlock": 49152, "numSms": 132, "regsPerMultiprocessor": 65536,
            "sharedMemPerBlockOptin": 232448, "sharedMemPerMultiprocessor": 233472}],
        "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 8, "pg_count": 1,
                            "nccl_version": "2.21.5"},
        "record_shapes": 1,
        "with_stack": 0,
        "cupti_version": 24,
        "cuda_runtime_version": 12040,
        "cuda_driver_version": 12040,
        "trace_id": "5E6D2E5FCB7B4E1B9A0C7B1E2D3F4A5B",
        "displayTimeUnit": "ms",
        "baseTimeNanoseconds": 1700000000000000000,
    }
    head = json.dumps(doc, indent=2)[:-2]
    body = ",\n".join("  " + json.dumps(e, indent=2).replace("\n", "\n  ") for e in w.events)
    name = a.out.rsplit("/", 1)[-1]
    text = head + ',\n  "traceEvents": [\n' + body + '\n  ],\n  "traceName": "' + name + '"\n}\n'
    opener = gzip.open if a.out.endswith(".gz") else open
    with opener(a.out, "wt") as f:
        f.write(text)


if __name__ == "__main__":
    main()
