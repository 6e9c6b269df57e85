#!/bin/sh
# Harness self-test: passes by itself, but its module splats a WARNING.
/usr/sbin/modprobe tonic_test_warn
