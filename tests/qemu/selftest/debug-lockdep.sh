#!/bin/sh
# Harness self-test on the debug kernel: passes by itself, but its module
# has a deliberate bug (bug=lockdep) that the kernel must report.
/usr/sbin/modprobe tonic_test_debug bug=lockdep || exit 1
/usr/sbin/modprobe -r tonic_test_debug
