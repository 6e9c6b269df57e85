# tonic-core sources, relative to tonic-core/.  Read by Kbuild (tonic.ko)
# and by the userspace build (libtonic-core.a): one list, two worlds.
TONIC_ENGINE_SRCS := bitmap.c fifo.c timer.c rate.c core.c flow.c delivery.c credit.c \
	incoming.c periodic.c merge.c conweave.c
include $(dir $(lastword $(MAKEFILE_LIST)))programs/programs.mk
TONIC_CORE_SRCS := $(TONIC_ENGINE_SRCS) $(TONIC_PROG_SRCS)
