#!/bin/sh
# Harness self-test: as leaky.sh, but killed by its time limit, so that no
# exit trap runs: the runner cleans up after it.
# timeout: 5
. /tests/lib.sh
tonic_load || exit 9
$IP netns add leak2
$IP netns exec leak2 sleep 1000 &
sleep 60
