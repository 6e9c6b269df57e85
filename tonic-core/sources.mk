# tonic-core sources, relative to tonic-core/.  Read by Kbuild (tonic.ko)
# and by the userspace build (libtonic-core.a): one list, two worlds.
TONIC_CORE_SRCS :=
