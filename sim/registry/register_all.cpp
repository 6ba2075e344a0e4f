// SPDX-License-Identifier: MIT
// The one list of everything wallsim can simulate. Adding a model is a folder under models/
// plus one line here.
#include "models/analytic/analytic_model.h"
#include "models/cim/register.h"
#include "models/economics/register.h"
#include "models/energy/register.h"
#include "models/gpu/register.h"
#include "models/hbm/register.h"
#include "models/net/register.h"
#include "models/systolic/register.h"
#include "models/training/register.h"
#include "sim/config/device_identity.h"
#include "sim/import/register.h"
#include "sim/registry/registry.h"
#include "sim/system/kind_registry.h"

namespace sim {

void register_all(Registry& r) {
    r.add_params({"(top level)",
                  "The identity of a device file (sim/config/device_identity.h); each model "
                  "requires what it needs. `extends:` (a preset name or a file this one "
                  "overrides key by key) is the loader's (sim/config/loader.h), read before "
                  "anything else.",
                  [] { return device_identity_param_table().describe(); }, "device"});
    r.add_params({"instances.<memory>",
                  "A system file's instance of kind memory (sim/tlm/chunk_memory.h); "
                  "docs/architecture.md describes system files.",
                  [] { return system::memory_param_docs(); }, "system"});
    r.add_params({"instances.<interconnect>",
                  "A system file's instance of kind interconnect (sim/tlm/interconnect.h): a "
                  "crossbar joining several memory initiators to one target.",
                  [] { return system::interconnect_param_docs(); }, "system"});
    analytic::register_analytic(r);
    hbm::register_hbm(r);
    gpu::register_gpu(r);
    energy::register_energy(r);
    economics::register_economics(r);
    net::register_net(r);
    cim::register_cim(r);
    systolic::register_systolic(r);
    training::register_training(r);
    import::register_import(r);
}

void register_all_kinds(system::KindRegistry& kinds) {
    system::register_generic_kinds(kinds);
    gpu::register_gpu_kinds(kinds);
    hbm::register_hbm_kinds(kinds);
    systolic::register_systolic_kinds(kinds);
    cim::register_cim_kinds(kinds);
    net::register_net_kinds(kinds);
}

}  // namespace sim
