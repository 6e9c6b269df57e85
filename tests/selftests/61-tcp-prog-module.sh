#!/bin/sh
# A transport program in a module of its own (tests/kmod/tonic_test_prog:
# "fixedwnd", a fixed window of parameter 0 segments), registered as
# tcp_register_congestion_control() registers an algorithm: the soft device
# offers it once loaded and not after; the registry refuses a taken name
# and a program that breaks the rules; a socket running it, and a
# namespace whose default it is, hold its module (rmmod is refused), which
# unloads once nothing does.  Its code really runs the flow: the flow's
# cwnd is its window, and follows flow-set.  Every byte checked.
# timeout: 300
. /tests/lib.sh
. /tests/xfer-lib.sh
tonic_load || ksft_fail "modprobe tonic"
tonic_hosts 2 || ksft_fail "tonic_hosts"
on h1 sysctl -qw net.ipv4.tcp_congestion_control=tonic || ksft_fail "sysctl"
tonic_netem h1 delay 2ms
fails=0
ok() { "$@" || { fails=$((fails + 1)); echo "FAILED: $*"; }; }
offered() { tonic dev show soft0 | grep -qw fixedwnd; }
unloads() { $MODPROBE -r tonic_test_prog 2>/dev/null; }
# The offloaded flow running fixedwnd in h1: "ID CWND".
flow_cwnd() {
	on h1 tonic flow show | awk '$1 == "dev" { f = 0; for (i = 1; i < NF; i++) {
		if ($i == "flow") id = $(i + 1); if ($(i + 1) == "fixedwnd") f = 1 } }
		f { for (i = 1; i < NF; i++) if ($i == "cwnd") print id, $(i + 1) }'
}
cwnd_is() { [ "$(flow_cwnd | cut -d' ' -f2)" = "$1" ]; }

echo "== unknown before its module loads"
offered && ksft_fail "fixedwnd offered before its module loaded"
sysctl -qw net.tonic.program=fixedwnd 2>/dev/null && ksft_fail "net.tonic.program took an unknown program"
xfer h1 h2 10.0.0.2 100000 -P fixedwnd > /dev/null && ksft_fail "TONIC_PROGRAM took an unknown program"
grep -q "TONIC_PROGRAM: No such file" /tmp/xfer.cli || ksft_fail "TONIC_PROGRAM: $(cat /tmp/xfer.cli)"

echo "== the registry's rules: a taken name, more state than the scheme allows"
# modprobe takes EEXIST for "already loaded" and exits 0: look at the module and the log.
$MODPROBE tonic_test_prog clash=1
grep -q "^tonic_test_prog " /proc/modules && ksft_fail "registered under a built-in's name"
dmesg | grep -q "tonic: program newreno already registered" || ksft_fail "clash: no message"
$MODPROBE tonic_test_prog bad=1 2>/tmp/m.err && ksft_fail "registered with too much state"
grep -q "Invalid argument" /tmp/m.err || ksft_fail "bad: $(cat /tmp/m.err)"
tonic dev show soft0 | grep -q "newreno" || ksft_fail "newreno gone after the clash"

echo "== loaded: offered, chosen per socket, its window runs the flow"
$MODPROBE tonic_test_prog || ksft_fail "modprobe tonic_test_prog"
offered || ksft_fail "fixedwnd not offered once loaded"
ok xfer h1 h2 10.0.0.2 3000000 -P fixedwnd -r -i
grep -q "prog fixedwnd" /tmp/xfer.cli || { fails=$((fails + 1)); echo "FAILED: the socket did not run fixedwnd"; }
xfer_server h2 7001 /tmp/srv.p || ksft_fail "no server"
on h1 tonic_xfer -c 10.0.0.2 7001 12000000 -P fixedwnd -r > /tmp/cli.p 2>&1 &
c=$!
wait_until 10 cwnd_is 8 || ksft_fail "no fixedwnd flow with its default window 8: $(on h1 tonic flow show)"
id=$(flow_cwnd | cut -d' ' -f1)
echo "ok: flow $id runs fixedwnd, cwnd 8"
unloads && ksft_fail "its module unloaded under a live flow"
echo "ok: rmmod refused while the flow runs it"
on h1 tonic flow set soft0 "$id" param 0 32 || ksft_fail "flow set"
if wait_until 5 cwnd_is 32; then echo "ok: cwnd 32 after flow set param 0 32"
else fails=$((fails + 1)); echo "FAILED: cwnd $(flow_cwnd) after param 0 = 32"; fi
wait $c || { fails=$((fails + 1)); echo "FAILED: transfer under fixedwnd"; cat /tmp/cli.p /tmp/srv.p; }
kill $XFER_SRV_PID 2>/dev/null
wait_until 10 unloads || ksft_fail "its module stays busy once the flows are gone"
offered && ksft_fail "fixedwnd still offered after its module unloaded"
xfer h1 h2 10.0.0.2 100000 -P fixedwnd > /dev/null && ksft_fail "TONIC_PROGRAM took an unloaded program"
echo "ok: gone with its module"

echo "== a namespace's default holds it, as tcp_congestion_control does"
$MODPROBE tonic_test_prog || ksft_fail "modprobe tonic_test_prog"
on h1 sysctl -qw net.tonic.program=fixedwnd || ksft_fail "net.tonic.program=fixedwnd"
ok xfer h1 h2 10.0.0.2 2000000 -r -i
grep -q "prog fixedwnd" /tmp/xfer.cli || { fails=$((fails + 1)); echo "FAILED: the default did not apply"; }
unloads && ksft_fail "its module unloaded while h1's default"
on h1 sysctl -qw net.tonic.program=newreno || ksft_fail "net.tonic.program=newreno"
# A new namespace takes init_net's default of the moment, and holds it.
sysctl -qw net.tonic.program=fixedwnd || ksft_fail "init_net: net.tonic.program=fixedwnd"
$IP netns add h9
sysctl -qw net.tonic.program=newreno
[ "$(on h9 sysctl -n net.tonic.program)" = fixedwnd ] || ksft_fail "h9 did not inherit fixedwnd"
unloads && ksft_fail "its module unloaded while h9's default"
$IP netns del h9
wait_until 10 unloads || ksft_fail "its module stays busy once no default names it"
echo "ok: refused while a default, unloads after"

[ $fails = 0 ] || ksft_fail "$fails check(s) failed"
tonic_hosts_del
tonic_unload || ksft_fail "tonic does not unload"
echo "ok"
