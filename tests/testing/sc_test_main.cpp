// SPDX-License-Identifier: MIT
// main for the SystemC test programs (wallsim_sc_test in tests/CMakeLists.txt): SystemC's
// main calls sc_main, and GoogleTest runs inside it. SystemC elaborates once per process, so
// ctest runs every TEST in a process of its own (gtest_discover_tests).
#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    sc_core::sc_set_time_resolution(1, sc_core::SC_PS);  // wallsim's time unit
    return RUN_ALL_TESTS();
}

// SystemC prints a banner when its kernel starts (also while ctest lists the tests) unless told
// not to; the wallsim binary does the same in its main.
int main(int argc, char** argv) {
    ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
