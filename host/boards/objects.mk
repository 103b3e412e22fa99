# In libhartpool.a: the boards the host tools know, as data
# (hartpool_boards.h), and where the tools find their data (hp_data_dir).
#
# make generates the table from every board/<B>/board.mk (board/template
# is not a board): for each board it reads board.mk itself, with
# qemu/query.mk's defaults, and prints the variables (host/boards/vars.mk)
# into build/host/boards.txt (installed as share/hartpool/boards.txt),
# in an empty environment: a variable exported where make runs (QEMU_ACCEL,
# ...) is no board's setting;
# host/boards/gen-table.awk makes build/host/boards_table.c of it.
host-boards-names := $(filter-out template,$(patsubst board/%/board.mk,%,\
                       $(sort $(wildcard board/*/board.mk))))
host-boards-srcs := host/boards/boards.c
host-boards-objs := $(patsubst %,$(HOST_O)/tool/%.o,$(host-boards-srcs)) \
                    $(HOST_O)/tool/boards_table.c.o

$(HOST_O)/boards.txt: $(wildcard board/*/board.mk board/*.mk) qemu/query.mk \
		host/boards/vars.mk host/boards/objects.mk
	@echo "  GEN     $@"
	@mkdir -p $(dir $@)
	$(Q)for b in $(host-boards-names); do \
		env -i PATH="$$PATH" $(MAKE) -s --no-print-directory \
			-f board/$$b/board.mk -f qemu/query.mk -f host/boards/vars.mk \
			board-vars BOARD_NAME=$$b || exit 1; \
	done > $@.tmp && mv $@.tmp $@

$(HOST_O)/boards_table.c: $(HOST_O)/boards.txt host/boards/gen-table.awk
	@echo "  GEN     $@"
	$(Q)awk -f host/boards/gen-table.awk $< > $@.tmp && mv $@.tmp $@

$(HOST_O)/tool/boards_table.c.o: $(HOST_O)/boards_table.c host/boards/table.h \
		host/include/hartpool_boards.h
	@echo "  HOSTCC  $<"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOSTTOOL_CFLAGS) -Ihost/boards -c -o $@ $<

# The installed libhartpool.a: the same, but hp_data_dir also knows the
# PREFIX it was installed into (a user's program is in neither PREFIX/bin
# nor PREFIX/lib). make install builds it for its PREFIX.
$(HOST_O)/install/boards.c.o: host/boards/boards.c FORCE-install
	@echo "  HOSTCC  $< (PREFIX=$(PREFIX))"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOSTTOOL_CFLAGS) -DHP_DATA_PREFIX='"$(PREFIX)/share/hartpool"' \
		-c -o $@ $<

# (its archive rule is the Makefile's, beside libhartpool.a's)

# pkg-config in the build tree: PKG_CONFIG_PATH=build/host (docs/install.md).
$(HOST_O)/hartpool.pc: host/boards/objects.mk
	@mkdir -p $(dir $@)
	$(Q)printf '%s\n' 'Name: hartpool' 'Description: drive a hartpool device (libhartpool)' \
		'Version: 1' "Cflags: -I$(CURDIR)/host/include -I$(CURDIR)/include" \
		"Libs: -L$(CURDIR)/build/host -lhartpool -pthread -lm" > $@

.PHONY: FORCE-install
FORCE-install:
