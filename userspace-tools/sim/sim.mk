# tonic-sim: discrete-event network simulator around libtonic-core.a
# (userspace-tools/sim/).  Included from the top-level Makefile.
#   make sim        build $(B)/sim/tonic-sim
#   make eval       run every scenario in full and regenerate the plots in
#                   Documentation/results/ (minutes)
#   make sim-check  the quick scenarios as regression tests (TAP)
#   make eval-kernel scenario (1) against the Linux kernel's NewReno: a
#                   traced reno/no-SACK flow in the QEMU guest, three runs
#                   with every 500th/450th/550th packet dropped, their
#                   losses replayed in tonic-sim (kernel-trace/; ~5 min).
#                   `make eval` runs it last; EVAL_KERNEL=0 skips it.
SIM_DIR := userspace-tools/sim
SIM_SRCS := $(wildcard $(SIM_DIR)/*.c)
SIM_BIN := $(B)/sim/tonic-sim

$(SIM_BIN): $(SIM_SRCS) $(SIM_DIR)/sim.h $(LIBCORE) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_USER) -I$(SIM_DIR) $(LDFLAGS) -o $@ $(SIM_SRCS) $(LIBCORE) -lm

.PHONY: sim eval eval-kernel sim-check
sim: $(SIM_BIN)

EVAL_KERNEL ?= 1
eval: $(SIM_BIN)
	@B=$(B) SIM=$(SIM_BIN) $(SIM_DIR)/eval.sh
	@if [ "$(EVAL_KERNEL)" = 1 ]; then B=$(B) SIM=$(SIM_BIN) $(SIM_DIR)/kernel-trace/eval-kernel.sh; fi

eval-kernel: $(SIM_BIN)
	@B=$(B) SIM=$(SIM_BIN) $(SIM_DIR)/kernel-trace/eval-kernel.sh

sim-check: $(SIM_BIN)
	@B=$(B) SIM=$(SIM_BIN) $(SIM_DIR)/check.sh

CHECK_SUITES += sim-check
