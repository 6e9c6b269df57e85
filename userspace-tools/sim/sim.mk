# tonic-sim: discrete-event network simulator around libtonic-core.a
# (userspace-tools/sim/).  Included from the top-level Makefile.
#   make sim        build $(B)/sim/tonic-sim
#   make eval       run every scenario in full and regenerate the plots in
#                   Documentation/results/ (minutes)
#   make sim-check  the quick scenarios as regression tests (TAP)
SIM_DIR := userspace-tools/sim
SIM_SRCS := $(wildcard $(SIM_DIR)/*.c)
SIM_BIN := $(B)/sim/tonic-sim

$(SIM_BIN): $(SIM_SRCS) $(SIM_DIR)/sim.h $(LIBCORE) $(CORE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_USER) -I$(SIM_DIR) -o $@ $(SIM_SRCS) $(LIBCORE) -lm

.PHONY: sim eval sim-check
sim: $(SIM_BIN)

eval: $(SIM_BIN)
	@B=$(B) SIM=$(SIM_BIN) $(SIM_DIR)/eval.sh

sim-check: $(SIM_BIN)
	@B=$(B) SIM=$(SIM_BIN) $(SIM_DIR)/check.sh

CHECK_SUITES += sim-check
