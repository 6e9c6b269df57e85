#!/bin/sh
# /init of the test guest.  Console (kernel log) is ttyS0; test results go
# to ttyS1 as KTAP so kernel messages never interleave with them.
export PATH=/bin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
hostname tonic-guest
echo /usr/sbin/modprobe > /proc/sys/kernel/modprobe
ip() { /usr/bin/ip "$@"; }
/usr/bin/ip link set lo up

MODE=$(cat /tests/MODE)
OUT=/dev/ttyS1

finish() {
	# The whole kernel log, for post-mortems (the console shows only warnings and worse).
	echo "----- dmesg -----" > /dev/ttyS0
	dmesg > /dev/ttyS0
	echo "# tainted: $(cat /proc/sys/kernel/tainted)" > $OUT
	echo "# tonic-guest: done" > $OUT
	sync
	poweroff -f
	echo o > /proc/sysrq-trigger
}

if [ "$MODE" = shell ]; then
	/usr/sbin/modprobe tonic
	echo "tonic guest shell: tests in /tests (. /tests/lib.sh for tonic_hosts); exit to power off"
	setsid cttyhack sh -l
	poweroff -f
fi

# Slow kernels (check-debug: KASAN and lockdep under TCG) scale every
# test's limit; tests may scale their own waits by it too.
TONIC_TIMEOUT_SCALE=$(cat /tests/TIMEOUT_SCALE 2>/dev/null)
export TONIC_TIMEOUT_SCALE=${TONIC_TIMEOUT_SCALE:-1}

run_tests() {
	n=$(wc -l < /tests/LIST)
	echo "KTAP version 1"
	echo "1..$n"
	i=0
	while read -r t; do
		i=$((i + 1))
		limit=$(sed -n 's/^# timeout: *\([0-9]*\).*/\1/p' "/tests/$t" | head -n 1)
		limit=$(( ${limit:-300} * TONIC_TIMEOUT_SCALE ))
		echo "# test: $t"
		# In the kernel log too: a splat is then seen under its test.
		echo "tonic-guest: test $t" > /dev/kmsg
		start=$(date +%s)
		(cd /tmp && /usr/bin/timeout -s KILL "$limit" "/tests/$t" < /dev/null 2>&1
		 echo $? > /tmp/.rc) | while IFS= read -r l; do echo "# $l"; done
		rc=$(cat /tmp/.rc 2>/dev/null)
		rm -f /tmp/.rc
		dur=$(( $(date +%s) - start ))
		# coreutils timeout kills the test's whole process group; 137 = KILL
		case $rc in
		0) echo "ok $i $t # ${dur}s" ;;
		4) echo "ok $i $t # SKIP" ;;
		137) echo "not ok $i $t # killed after ${limit}s" ;;
		*) echo "not ok $i $t # exit $rc" ;;
		esac
		# A killed test ran no exit trap: its cleanup (lib.sh), here.
		if [ "$rc" = 137 ]; then
			if grep -q rdma-lib.sh "/tests/$t"; then lib=rdma-lib.sh; else lib=lib.sh; fi
			/bin/sh -c ". /tests/$lib; [ $lib = lib.sh ] || rdma_teardown" < /dev/null 2>&1 |
				while IFS= read -r l; do echo "# cleanup: $l"; done
		fi
	done < /tests/LIST
}

run_tests > $OUT 2>&1
finish
