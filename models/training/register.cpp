// SPDX-License-Identifier: MIT
#include "models/training/register.h"

#include "models/training/model_params.h"
#include "sim/registry/registry.h"

namespace sim::training {

void register_training(Registry& r) {
    r.add_command({"memory",
                   "training memory of a transformer on one GPU: weights, gradients, Adam "
                   "states and activations, beside the textbook's 16P/18P/20P (--help)",
                   run_memory_command});
    r.add_params({"(top level)",
                  "The top level of a model file (configs/models/; models/training/core/"
                  "transformer_shape.h): a decoder-only transformer's shape, for wallsim memory "
                  "and tools/gen_transformer_trace. heads must divide hidden and kv_heads must "
                  "divide heads.",
                  [] { return model_param_table().describe(); }, "model"});
}

}  // namespace sim::training
