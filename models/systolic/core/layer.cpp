// SPDX-License-Identifier: MIT
#include "models/systolic/core/layer.h"

#include "sim/core/error.h"

namespace sim::systolic {

Layer Layer::gemm(std::string name, uint64_t m, uint64_t n, uint64_t k) {
    Layer l;
    l.name = std::move(name);
    l.ifmap_h = m;
    l.ifmap_w = k;
    l.filter_h = 1;
    l.filter_w = k;
    l.channels = 1;
    l.num_filters = n;
    l.stride = 1;
    return l;
}

void Layer::validate() const {
    const auto positive = [](const char* key, uint64_t v) {
        if (v == 0) throw ConfigError({}, key, "must be >= 1");
    };
    positive("ifmap_h", ifmap_h);
    positive("ifmap_w", ifmap_w);
    positive("filter_h", filter_h);
    positive("filter_w", filter_w);
    positive("channels", channels);
    positive("num_filters", num_filters);
    positive("stride", stride);
    positive("batch", batch);
    if (filter_h > ifmap_h) throw ConfigError({}, "filter_h", "must be <= the ifmap height");
    if (filter_w > ifmap_w) throw ConfigError({}, "filter_w", "must be <= the ifmap width");
}

}  // namespace sim::systolic
