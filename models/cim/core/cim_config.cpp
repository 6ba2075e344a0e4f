// SPDX-License-Identifier: MIT
#include "models/cim/core/cim_config.h"

namespace sim::cim {

namespace {

void require_range(const std::string& key, uint64_t v, uint64_t least, uint64_t most) {
    if (v < least || v > most) {
        throw InvalidParam(key, "= " + std::to_string(v) + ": expected a whole number from " +
                                    std::to_string(least) + " to " + std::to_string(most));
    }
}

}  // namespace

// The single-key ranges a CIM file states are its ParamTables' (models/cim/cim_params.cpp). The
// ones kept here guard the integer arithmetic for any caller: divisors, shift widths, and the
// bounds that keep cell and crossbar counts well inside 64 bits.
void CrossbarConfig::validate() const {
    require_range("crossbar.rows", rows, 1, 4096);
    require_range("crossbar.columns", columns, 1, 4096);
    require_range("crossbar.cell_bits", cell_bits, 1, 8);
    require_range("crossbar.dac_bits", dac_bits, 1, 8);
    require_range("crossbar.columns_per_adc", columns_per_adc, 1, columns);
    if (columns % columns_per_adc != 0) {
        throw InvalidParam("crossbar.columns_per_adc", "= " + std::to_string(columns_per_adc) +
                                                           " must divide columns (" +
                                                           std::to_string(columns) + ")");
    }
}

void DataConfig::validate() const {
    require_range("data.weight_bits", weight_bits, 2, 24);
    require_range("data.input_bits", input_bits, 1, 24);
}

void OrganisationConfig::validate() const {
    require_range("organisation.crossbars_per_ima", crossbars_per_ima, 1, 1u << 16);
    require_range("organisation.imas_per_tile", imas_per_tile, 1, 1u << 16);
    require_range("organisation.tiles", tiles, 1, 1u << 20);
}

void CimConfig::validate() const {
    crossbar.validate();
    data.validate();
    organisation.validate();
}

}  // namespace sim::cim
