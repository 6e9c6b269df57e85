# tonic(8), the admin CLI (userspace-tools/tonic/), on libnl-genl-3.
# libnl is linked statically (glibc dynamically: the guest has it) so the
# guest needs no libnl and the initramfs script no change: built into
# $(B)/guest/tonic (the initramfs's /usr/bin) and $(B)/user/tonic.
TONIC_CLI_DIR := userspace-tools/tonic
TONIC_CLI_SRCS := $(wildcard $(TONIC_CLI_DIR)/*.c)
TONIC_CLI_HDRS := $(TONIC_CLI_DIR)/tonic.h include/uapi/linux/tonic.h include/uapi/linux/tonic_nl.h
TONIC_NL_CFLAGS := $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null)
TONIC_NL_LIBS := -Wl,-Bstatic $(filter -lnl%,$(shell pkg-config --libs libnl-genl-3.0 2>/dev/null)) \
	-Wl,-Bdynamic -lpthread
TONIC_CLI_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -I$(CURDIR)/include/uapi \
	$(TONIC_NL_CFLAGS)

$(B)/user/tonic: $(TONIC_CLI_SRCS) $(TONIC_CLI_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(TONIC_CLI_CFLAGS) -o $@ $(TONIC_CLI_SRCS) $(TONIC_NL_LIBS)

$(B)/guest/tonic: $(B)/user/tonic
	@mkdir -p $(dir $@)
	cp $< $@

.PHONY: tonic-cli
tonic-cli: $(B)/user/tonic $(B)/guest/tonic
user: $(B)/user/tonic
guest-progs: $(B)/guest/tonic
