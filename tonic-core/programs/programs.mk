# Transport programs, relative to tonic-core/.
TONIC_PROG_SRCS :=
