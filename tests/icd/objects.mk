# The ICD's unit tests without a device (docs/icd.md, "Unit tests without a
# device"): the ICD's own sources (host/icd/*.c) linked with a fake
# libhartpool (tests/icd/fake_hartpool.c) instead of libhartpool.a, so no
# QEMU boots. Built plain, with ASan+UBSan and with TSan like the host
# unit tests (build/host/<variant>/test_icd*); `make host-tests` builds
# them and tests/run.sh runs them (print-icd-unit-tests).
icd-unit-tests := test_icd test_icd_notify test_icd_multi
# what tests/run.sh runs
icd-unit-tests-run := test_icd test_icd_notify test_icd_multi
icd-unit-test_icd-srcs := tests/icd/test_icd.c
# The pfn_notify sentences of the ICD's checks.
icd-unit-test_icd_notify-srcs := tests/icd/test_icd_notify.c
# Several devices: two fake ones, buffers moving between them.
icd-unit-test_icd_multi-srcs := tests/icd/test_icd_multi.c
# HOST_VARIANTS of the Makefile, which is set after this file is read
icd-unit-variants := plain asan tsan
icd-unit-common-srcs := $(icd-srcs) tests/icd/fake_hartpool.c \
                        common/ndrange_check.c common/error.c \
                        host/clc/spirv.c host/clc/spirv_lower.c \
                        $(host-boards-srcs) $(HOST_O)/boards_table.c

define icd-unit-rule
$(HOST_O)/$(2)/$(1): $$(icd-unit-$(1)-srcs) $$(icd-unit-common-srcs) tests/icd/icd_test.h $$(wildcard host/icd/*.h tests/icd/*.h host/include/*.h include/hartpool/*.h)
	@echo "  HOSTCC  $$@"
	@mkdir -p $$(dir $$@)
	$(Q)$$(HOST_CC) $$(ICD_CFLAGS) -O1 -Itests/icd -Ihost/icd -Ihost/boards $$(HOST_SAN_$(2)) -o $$@ $$(icd-unit-$(1)-srcs) $$(icd-unit-common-srcs) -lm
endef
$(foreach t,$(icd-unit-tests),$(foreach v,$(icd-unit-variants),$(eval $(call icd-unit-rule,$(t),$(v)))))

.PHONY: icd-unit-tests
icd-unit-tests: $(foreach t,$(icd-unit-tests),$(foreach v,$(icd-unit-variants),$(HOST_O)/$(v)/$(t)))
