# Transport programs, relative to tonic-core/.
TONIC_PROG_SRCS := \
	programs/common.c \
	programs/reno.c \
	programs/newreno.c \
	programs/sack.c \
	programs/ndp.c \
	programs/dcqcn.c \
	programs/irn.c \
	programs/ibcc.c \
	programs/cubic.c \
	programs/dctcp.c \
	programs/rc.c \
	programs/registry.c
