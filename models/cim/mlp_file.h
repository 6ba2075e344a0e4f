// SPDX-License-Identifier: MIT
// A small multilayer perceptron with given weights and an input batch, in JSON:
//   {"name": "...",
//    "layers": [{"weights": [[w00, w01, ...], ...],   // inputs x outputs
//                "bias": [b0, b1, ...],               // optional
//                "activation": "relu" | "none"}, ...], // optional, default none
//    "input": [[x00, x01, ...], ...]}                 // batch x inputs
// Bad files throw ConfigError naming the file and the JSON path of the problem.
#pragma once

#include <string>
#include <vector>

#include "models/cim/core/accuracy.h"

namespace sim::cim {

struct MlpFile {
    std::string name;
    std::vector<DenseLayer> layers;
    Batch input;
};

MlpFile read_mlp_file(const std::string& path);

}  // namespace sim::cim
