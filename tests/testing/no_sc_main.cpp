// SPDX-License-Identifier: MIT
// The sc_main of a test program that never starts SystemC, for the sanitized build only
// (tests/CMakeLists.txt): there libsystemc.so stays linked and needs one. Weak, so that a test
// program with an sc_main of its own keeps it.
extern "C" __attribute__((weak)) int sc_main(int, char**) {
    return 2;
}
