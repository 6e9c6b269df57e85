# tonic-drdma(8) and libtonic-drdma (userspace-tools/drdma/): Dynamic RDMA
# from the command line and from a program; the CLI goes to the guest too.
DRDMA_DIR := userspace-tools/drdma
DRDMA_CFLAGS := -O2 -g -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -I$(CURDIR)/include/uapi $(CPPFLAGS) $(CFLAGS)
DRDMA_HDRS := $(DRDMA_DIR)/drdma.h include/uapi/linux/tonic_drdma.h

$(B)/user/libtonic-drdma.a: $(DRDMA_DIR)/drdma.c $(DRDMA_HDRS)
	@mkdir -p $(B)/user/drdma
	$(CC) $(DRDMA_CFLAGS) -c -o $(B)/user/drdma/drdma.o $<
	rm -f $@ && ar rcs $@ $(B)/user/drdma/drdma.o

$(B)/user/tonic-drdma: $(DRDMA_DIR)/tonic-drdma.c $(B)/user/libtonic-drdma.a $(DRDMA_HDRS)
	$(CC) $(DRDMA_CFLAGS) $(LDFLAGS) -o $@ $< $(B)/user/libtonic-drdma.a

$(B)/guest/tonic-drdma: $(B)/user/tonic-drdma
	@mkdir -p $(dir $@)
	cp $< $@

user: $(B)/user/tonic-drdma
guest-progs: $(B)/guest/tonic-drdma
