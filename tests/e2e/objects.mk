# End-to-end tests: host programs linked with libhartpool, run by
# tests/e2e/run.sh against firmware in QEMU.
e2e-tests := test_mbox test_stress test_objects test_edges
