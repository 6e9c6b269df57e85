#!/bin/sh
# Autoloading.  tonic.ko sits under /lib/modules/$(uname -r) indexed by
# depmod (the initramfs installs it there, as `make install` does on a
# host), and kernel.modprobe names kmod's modprobe.  Each of the kernel's
# three requests must load the module by itself: setsockopt(TCP_ULP,
# "tonic") asks for "tcp-ulp-tonic", making "tonic" the default congestion
# control asks for "tcp_tonic", and tonic(8) resolving the generic netlink
# family asks for "net-pf-16-proto-16-family-tonic".  The module is
# unloaded before each one.
# timeout: 180
. /tests/lib.sh
. /tests/netlink-lib.sh
. /tests/xfer-lib.sh

loaded() { grep -q '^tonic ' /proc/modules; }

# unload_before WHAT: the module is gone before the next trigger.
unload_before() {
	loaded && { tonic_unload || ksft_fail "cannot unload tonic before $1"; }
	loaded && ksft_fail "tonic still loaded before $1"
	echo "not loaded before $1"
}

K=/lib/modules/$(uname -r)
[ -f "$K/extra/tonic.ko" ] || ksft_fail "no $K/extra/tonic.ko"
v=$(/usr/sbin/modinfo -F version tonic) || ksft_fail "modinfo tonic"
echo "modinfo: version $v, depends '$(/usr/sbin/modinfo -F depends tonic)'"
# The index maps each alias to the module.
for a in tcp-ulp-tonic tcp_tonic net-pf-16-proto-16-family-tonic; do
	r=$($MODPROBE -R "$a" 2>&1)
	[ "$r" = tonic ] || ksft_fail "modprobe -R $a: '$r', expected tonic"
done
echo "aliases resolve to tonic"

# 1. TCP_ULP: an offloaded transfer between two hosts, nothing loaded it first.
tonic_hosts 2 || ksft_fail "hosts"
unload_before "TCP_ULP"
xfer h1 h2 10.0.0.2 1000000 -U -r || ksft_fail "transfer with TCP_ULP tonic (autoloaded)"
loaded || ksft_fail "TCP_ULP did not load tonic"
echo "TCP_ULP tonic loaded the module; the transfer was offloaded"
tonic_hosts_del

# 2. The default congestion control of init_net (the only namespace where
# a restricted algorithm may be the default).
unload_before "the congestion control"
prev=$(sysctl -n net.ipv4.tcp_congestion_control)
sysctl -w net.ipv4.tcp_congestion_control=tonic ||
	ksft_fail "sysctl net.ipv4.tcp_congestion_control=tonic"
loaded || ksft_fail "the congestion control did not load tonic"
cc=$(sysctl -n net.ipv4.tcp_congestion_control)
sysctl -qw net.ipv4.tcp_congestion_control="$prev"
[ "$cc" = tonic ] || ksft_fail "default congestion control is '$cc'"
echo "net.ipv4.tcp_congestion_control=tonic loaded the module (back to $prev)"

# 3. tonic(8): resolving the family "tonic".
unload_before "tonic dev show"
out=$($TONIC dev show 2>&1) || ksft_fail "tonic dev show: $out"
echo "$out"
loaded || ksft_fail "tonic dev show did not load tonic"
echo "$out" | grep -q '^soft0: backend soft ' || ksft_fail "no soft0 in: $out"
[ "$($TONIC -V)" = "tonic utility, $v" ] || ksft_fail "tonic -V: '$($TONIC -V)', module $v"

tonic_unload || ksft_fail "final unload"
exit $KSFT_PASS
