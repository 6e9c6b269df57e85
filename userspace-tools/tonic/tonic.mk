# tonic(8), the admin CLI (userspace-tools/tonic/), on libnl-genl-3.
# libnl is linked dynamically; STATIC=1 links it statically (glibc stays
# dynamic).  Built into $(B)/user/tonic (what `make install` installs) and
# copied to $(B)/guest/tonic (the initramfs's /usr/bin; mkinitramfs.sh
# copies the shared libraries it needs into the guest).
TONIC_CLI_DIR := userspace-tools/tonic
TONIC_CLI_SRCS := $(wildcard $(TONIC_CLI_DIR)/*.c)
TONIC_CLI_HDRS := $(TONIC_CLI_DIR)/tonic.h include/uapi/linux/tonic.h include/uapi/linux/tonic_nl.h \
	driver/counters.h tonic-core/counters.h
TONIC_NL_CFLAGS := $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null)
TONIC_LINK := $(if $(filter 1,$(STATIC)),static,shared)
ifeq ($(STATIC),1)
TONIC_NL_LIBS := -Wl,-Bstatic $(filter -lnl%,$(shell pkg-config --libs libnl-genl-3.0 2>/dev/null)) \
	-Wl,-Bdynamic -lpthread
else
TONIC_NL_LIBS := $(shell pkg-config --libs libnl-genl-3.0 2>/dev/null)
endif
TONIC_CLI_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -I$(CURDIR)/include/uapi \
	$(TONIC_NL_CFLAGS) -DTONIC_VERSION='"$(TONIC_VERSION)"' $(CPPFLAGS) $(CFLAGS)

$(B)/user/tonic: $(TONIC_CLI_SRCS) $(TONIC_CLI_HDRS) VERSION $(B)/user/.link-$(TONIC_LINK)
	@mkdir -p $(dir $@)
	$(CC) $(TONIC_CLI_CFLAGS) $(LDFLAGS) -o $@ $(TONIC_CLI_SRCS) $(TONIC_NL_LIBS)

# A stamp per link mode: switching STATIC relinks.
$(B)/user/.link-static $(B)/user/.link-shared:
	@mkdir -p $(dir $@)
	@rm -f $(B)/user/.link-*
	@touch $@

$(B)/guest/tonic: $(B)/user/tonic
	@mkdir -p $(dir $@)
	cp $< $@

.PHONY: tonic-cli
tonic-cli: $(B)/user/tonic $(B)/guest/tonic
user: $(B)/user/tonic
guest-progs: $(B)/guest/tonic
