"""LLM inference as an operator trace: a prefill pass over the prompt, then one decode step per
generated token (tools/gen_transformer_trace --mode inference).

Each decode step runs every layer on one new token per sequence: it reads every weight once
(GEMMs with m = batch rows), appends the token's key and value to the KV cache and reads the
whole cache so far. Attention of a decode step is written as two batched GEMMs over the cached
keys and values with a softmax between them, one GEMM per sequence and KV head: the query heads
that share a KV head (grouped-query attention) are the GEMM's rows, so each cached key and value
is read once per KV head, as FlashDecoding-style kernels do. The three ops pass the scores through
device memory (2·heads/kv_heads/head_dim of the cache's traffic, 1.6% for Llama 2 7B and 12.5%
for 70B), which a fused kernel would not. The prefill's attention is the fused attention op,
which has no kv_heads: with GQA it counts K and V as full heads (its FLOPs, which dominate the
prefill, are exact). Ops carry `token:` (0: the prefill, which produces the first token; j: the
j-th decode step), which `wallsim run` reads to report time to first token and per output token.
"""

COPY_FLOPS = 0     # writing a key or value into the cache is a copy
ROTARY_FLOPS = 3   # as in the training step
SILU_MUL_FLOPS = 4


def _gemm(name, m, n, k, dtype, layout="nn", batch=1):
    op = {"name": name, "kind": "gemm", "m": m, "n": n, "k": k, "dtype": dtype}
    if layout != "nn":
        op["layout"] = layout
    if batch != 1:
        op["batch"] = batch
    return op


def _elementwise(name, elements, inputs, outputs, flops, dtype):
    return {"name": name, "kind": "elementwise", "elements": elements, "inputs": inputs,
            "outputs": outputs, "flops_per_element": flops, "dtype": dtype}


class Inference:
    """The operators of serving a model: batch sequences, prompt tokens each, generate tokens."""

    def __init__(self, model, batch, prompt, generate, tp=1):
        self.m = model
        self.b, self.prompt, self.generate, self.tp = batch, prompt, generate, tp
        self.h = model["hidden"]
        self.d = self.h // model["heads"]
        self.heads = model["heads"] // tp
        self.kv_heads = model["kv_heads"] // tp
        self.f = model["ffn_hidden"] // tp
        self.vocab = -(-model["vocab"] // tp)
        self.a = "bf16"

    def _allreduce(self, name, rows):
        if self.tp == 1:
            return []
        return [{"name": name, "kind": "allreduce", "bytes": rows * self.h * 2,
                 "group": self.tp, "dtype": self.a}]

    def _mlp(self, rows):
        a, h, f = self.a, self.h, self.f
        if self.m["mlp"] == "swiglu":
            ops = [_gemm("gate_up_proj", rows, 2 * f, h, a),
                   _elementwise("silu_mul", rows * f, 2, 1, SILU_MUL_FLOPS, a)]
        else:
            ops = [_gemm("up_proj", rows, f, h, a), _elementwise("gelu", rows * f, 1, 1, 8, a)]
        return ops + [_gemm("down_proj", rows, h, f, a)]

    def _layer(self, rows, attention):
        """One layer over rows new tokens; attention: the ops between rotary and o_proj."""
        a, h, d = self.a, self.h, self.d
        qkv = (self.heads + 2 * self.kv_heads) * d
        ops = [{"name": "attn_norm", "kind": "layernorm", "rows": rows, "cols": h, "dtype": a},
               _gemm("qkv_proj", rows, qkv, h, a),
               _elementwise("rotary", rows * (self.heads + self.kv_heads) * d, 1, 1,
                            ROTARY_FLOPS, a),
               # The new tokens' keys and values stored into the cache.
               _elementwise("kv_cache_write", 2 * rows * self.kv_heads * d, 1, 1, COPY_FLOPS, a)]
        ops += attention
        ops += [_gemm("o_proj", rows, h, self.heads * d, a)]
        ops += self._allreduce("attn_tp_allreduce", rows)
        ops += [_elementwise("attn_residual", rows * h, 2, 1, 1, a),
                {"name": "ffn_norm", "kind": "layernorm", "rows": rows, "cols": h, "dtype": a}]
        ops += self._mlp(rows)
        ops += self._allreduce("ffn_tp_allreduce", rows)
        ops.append(_elementwise("ffn_residual", rows * h, 2, 1, 1, a))
        return ops

    def _head(self, prefix):
        """The next token of every sequence: final norm, logits of the last position, sampling
        (a softmax over the vocabulary)."""
        a, h, b = self.a, self.h, self.b
        ops = [{"name": prefix + "final_norm", "kind": "layernorm", "rows": b, "cols": h,
                "dtype": a},
               _gemm(prefix + "lm_head", b, self.vocab, h, a),
               {"name": prefix + "sample", "kind": "softmax", "rows": b, "cols": self.vocab,
                "dtype": "fp32"}]
        if self.tp > 1:
            ops.append({"name": prefix + "sample_tp_allreduce", "kind": "allreduce",
                        "bytes": 3 * 4 * b, "group": self.tp, "dtype": "fp32"})
        return ops

    def _step(self, token, rows, attention):
        prefix = "t%d." % token
        ops = [{"name": prefix + "embedding", "kind": "embedding", "tokens": rows,
                "dim": self.h, "vocab": self.vocab, "dtype": self.a}]
        ops += self._allreduce(prefix + "embedding_tp_allreduce", rows)
        layer = [dict(op, name=prefix + op["name"]) for op in self._layer(rows, attention)]
        ops.append({"repeat": self.m["layers"], "ops": layer})
        ops += self._head(prefix)
        return [_tag(op, token) for op in ops]

    def prefill(self):
        """The prompt through every layer at once: fused causal attention over prompt tokens."""
        attention = [{"name": "attention", "kind": "attention", "batch": self.b,
                      "heads": self.heads, "seq": self.prompt, "head_dim": self.d,
                      "impl": "fused", "causal": True, "dtype": self.a}]
        return self._step(0, self.b * self.prompt, attention)

    def decode(self, token):
        """Decode step token (1..generate-1): one new token per sequence attends to the
        prompt + token cached positions (its own included)."""
        context = self.prompt + token
        group = self.heads // self.kv_heads
        sequences_heads = self.b * self.kv_heads
        attention = [
            # Scores: per sequence and KV head, its group of query rows against the cached keys.
            _gemm("attention_qk", group, context, self.d, self.a, "nt", batch=sequences_heads),
            {"name": "attention_softmax", "kind": "softmax", "rows": self.b * self.heads,
             "cols": context, "dtype": self.a},
            _gemm("attention_pv", group, self.d, context, self.a, batch=sequences_heads),
        ]
        return self._step(token, self.b, attention)

    def ops(self):
        out = self.prefill()
        for token in range(1, self.generate):
            out += self.decode(token)
        return out


def _tag(op, token):
    if "repeat" in op:
        return dict(op, ops=[_tag(o, token) for o in op["ops"]])
    return dict(op, token=token)
