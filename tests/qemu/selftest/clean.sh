#!/bin/sh
# Harness self-test: nothing that leaky*.sh left behind is still there.
. /tests/lib.sh
left=$($IP netns list)
[ -z "$left" ] || { echo "namespaces left: $left"; exit 1; }
grep -q "^tonic " /proc/modules && { echo "tonic left loaded"; exit 1; }
ps | grep -v grep | grep -q "sleep 100[012]" && { echo "processes left:"; ps; exit 1; }
echo "clean"
