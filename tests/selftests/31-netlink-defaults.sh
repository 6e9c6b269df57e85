#!/bin/sh
# Per-namespace defaults: tonic set / defaults show and the net.tonic.*
# sysctls are the same values; bad values refused (kernel extack shown);
# each network namespace has its own; an unprivileged user (uid 65534, or
# root without CAP_NET_ADMIN) gets EPERM and changes nothing.
# timeout: 120
. /tests/lib.sh
. /tests/netlink-lib.sh
tonic_load || ksft_fail "modprobe tonic"
S=/proc/sys/net/tonic

check() {	# PROG SEG DELAY AUTO(on|off) [netns]
	jrun defaults show
	assert_eq "prog" "$(jget .program)" "$1"
	assert_eq "seg_size" "$(jget .seg-size)" "$2"
	assert_eq "sub_delay_us" "$(jget .sub-delay-us)" "$3"
	b=false; [ "$4" = on ] && b=true
	assert_eq "auto_offload (a JSON boolean)" "$(jget .auto-offload)" "$b"
	assert_eq "sysctl program" "$(cat $S/program)" "$1"
	assert_eq "sysctl seg_size" "$(cat $S/seg_size)" "$2"
	assert_eq "sysctl sub_delay_us" "$(cat $S/sub_delay_us)" "$3"
	a=0; [ "$4" = on ] && a=1
	assert_eq "sysctl auto_offload" "$(cat $S/auto_offload)" "$a"
}

$TONIC set
jrun set
assert_eq "defaults layout" "$(jget '?keys')" "program,seg-size,sub-delay-us,auto-offload,netns-inum"
check cubic 0 500 off

$TONIC set prog sack seg 4000 delay 250 auto on || ksft_fail "tonic set"
check sack 4000 250 on
echo reno > $S/program || ksft_fail "sysctl program"
echo 9000 > $S/seg_size || ksft_fail "sysctl seg_size"
echo 0 > $S/auto_offload || ksft_fail "sysctl auto_offload"
check reno 9000 250 off
$TONIC set delay 1000000 || ksft_fail "delay at its maximum"
$TONIC set delay 250

# Bad values: refused, nothing changes.
expect_err 1 "no such transport program" $TONIC set prog nosuch
expect_err 1 "Numerical result out of range" $TONIC set seg 65536
expect_err 1 "Numerical result out of range" $TONIC set delay 1000001
expect_err 2 "on\" or \"off" $TONIC set auto maybe
expect_err 2 "needs a value" $TONIC set prog
expect_err 2 "unknown setting" $TONIC set color blue
expect_err 1 "" $TONIC set prog 0123456789abcdefXYZ
echo nosuch > $S/program 2>/dev/null && ksft_fail "sysctl accepted an unknown program"
echo 70000 > $S/seg_size 2>/dev/null && ksft_fail "sysctl accepted seg_size 70000"
echo 2 > $S/auto_offload 2>/dev/null && ksft_fail "sysctl accepted auto_offload 2"
check reno 9000 250 off

# Per network namespace: a new one starts from init_net's values, then diverges.
$IP netns add nlt1 || ksft_fail "netns"
inum0=$($TONIC -j set | $J .netns-inum)
OUT=$($IP netns exec nlt1 $TONIC -j set)
assert_eq "new netns inherits prog" "$(jget .program)" reno
[ "$(jget .netns-inum)" != "$inum0" ] || ksft_fail "same netns inode"
$IP netns exec nlt1 $TONIC set prog dcqcn seg 1000 || ksft_fail "set in nlt1"
assert_eq "nlt1 sysctl" "$($IP netns exec nlt1 cat $S/program)" dcqcn
assert_eq "nlt1 seg" "$($IP netns exec nlt1 $TONIC -j set | $J .seg-size)" 1000
check reno 9000 250 off
$IP netns exec nlt1 sh -c "echo irn > $S/program" || ksft_fail "sysctl in nlt1"
assert_eq "nlt1 sysctl write" "$($IP netns exec nlt1 $TONIC -j set | $J .program)" irn
check reno 9000 250 off

# Unprivileged: reads work, writes fail with EPERM, nothing changes.
for who in nobody nocap; do
	$UNPRIV $who $TONIC -j set | $J > /dev/null || ksft_fail "$who: read defaults"
	$UNPRIV $who $TONIC -j dev show | $J > /dev/null || ksft_fail "$who: dev show"
	$UNPRIV $who $TONIC -j flow show | $J > /dev/null || ksft_fail "$who: flow show"
	$UNPRIV $who $TONIC -j stats | $J > /dev/null || ksft_fail "$who: stats"
	expect_err 1 "Operation not permitted" $UNPRIV $who $TONIC set prog sack
	expect_err 1 "Operation not permitted" $UNPRIV $who $TONIC set seg 1 delay 1 auto on
	# Root without CAP_NET_ADMIN may enter another netns (CAP_SYS_ADMIN), still no writes.
	[ $who = nocap ] && expect_err 1 "Operation not permitted" \
		$UNPRIV $who $IP netns exec nlt1 $TONIC set prog reno
	expect_err 1 "Operation not permitted" \
		$UNPRIV $who $TONIC sock offload on 10.0.0.1 1 10.0.0.2 2
done
$UNPRIV nobody sh -c "echo sack > $S/program" 2>/dev/null && ksft_fail "nobody wrote the sysctl"
check reno 9000 250 off
assert_eq "nlt1 unchanged" "$($IP netns exec nlt1 $TONIC -j set | $J .program)" irn

$IP netns del nlt1
$TONIC set prog newreno seg 0 delay 500 auto off
check newreno 0 500 off
$MODPROBE -r tonic || ksft_fail "unload"
exit $KSFT_PASS
