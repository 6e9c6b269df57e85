#!/bin/sh
# Harness self-test: a test that fails and leaves the module loaded, a
# namespace with a process in it and background jobs, one of them deaf to
# SIGTERM (as a job is that the signal reaches between fork and exec, while
# it still has the shell's trap): its exit status must survive its cleanup
# (lib.sh), and clean.sh must find none of it.
. /tests/lib.sh
tonic_load || exit 9
$IP netns add leak1
$IP netns exec leak1 sleep 1000 &
sleep 1001 &
sh -c 'trap "" TERM; exec sleep 1002' &
exit 3
