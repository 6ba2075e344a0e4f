// SPDX-License-Identifier: MIT
#include "models/training/register.h"

#include "sim/registry/registry.h"

namespace sim::training {

void register_training(Registry& r) {
    r.add_command({"memory",
                   "training memory of a transformer on one GPU: weights, gradients, Adam "
                   "states and activations, beside the textbook's 16P/18P/20P (--help)",
                   run_memory_command});
}

}  // namespace sim::training
