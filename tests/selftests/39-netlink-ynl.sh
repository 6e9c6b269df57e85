#!/bin/sh
# The kernel's own YNL tool (tools/net/ynl/cli.py of linux-source-6.12,
# put under /ynl by the initramfs) driven only by
# Documentation/netlink/specs/tonic.yaml, against the loaded module: it
# must decode what the module sends as the spec says (enums by name,
# addresses by their display hints) and agree with tonic(8) (libnl, the
# uapi header) and the sysctls.  dev-get do/dump, defaults-get/-set with a
# limit of the generated policy, stats-get, flow-get dump/do of offloaded
# IPv4 and IPv6 connections, the dump's all-netns scope (EPERM from a
# namespace, with its message); tenant-new/-get/-del and their rules;
# dev-set and the parameters dev-get shows.
# Each cli.py run costs seconds of python under TCG: 300-400 s in all
# (318 and 394 s in two runs of this session), hence the limit.
# timeout: 720
. /tests/lib.sh
. /tests/netlink-lib.sh
PY=/usr/bin/python3
YNL="$PY /ynl/tools/net/ynl/cli.py --spec /ynl/Documentation/netlink/specs/tonic.yaml --no-schema --output-json"

# ynl [on NS] ARGS...: Y = the tool's JSON output; it must succeed.
ynl() {
	if [ "$1" = on ]; then
		ns=$2; shift 2
		Y=$(on "$ns" $YNL "$@" 2>/tmp/ynl.err) || ksft_fail "$ns: cli.py $*: $(cat /tmp/ynl.err)"
	else
		Y=$($YNL "$@" 2>/tmp/ynl.err) || ksft_fail "cli.py $*: $(cat /tmp/ynl.err)"
	fi
}

# ynl_err [on NS] MESSAGE ARGS...: cli.py ARGS fails and says MESSAGE (it
# prints the netlink error, with the extack, on stdout).
ynl_err() {
	pfx=
	[ "$1" = on ] && { pfx="on $2"; shift 2; }
	msg=$1; shift
	if $pfx $YNL "$@" > /tmp/ynl.out 2>&1; then
		ksft_fail "$pfx cli.py $*: succeeded ($(cat /tmp/ynl.out)), expected \"$msg\""
	fi
	grep -qF "$msg" /tmp/ynl.out || ksft_fail "$pfx cli.py $*: no \"$msg\" in: $(tail -n 4 /tmp/ynl.out)"
	echo "ok: $pfx cli.py $* -> $(head -n 1 /tmp/ynl.out): $msg"
}

# pycheck WHAT EXPR: EXPR holds, in Python, with y = the JSON in $Y (cli.py)
# and t = the JSON in $OUT (tonic -j); attrs(SET) is the spec's attribute
# names of SET.
pycheck() {
	Y="$Y" T="${OUT:-null}" $PY -c '
import json, os, sys, yaml
y = json.loads(os.environ["Y"])
t = json.loads(os.environ["T"])
spec = yaml.safe_load(open("/ynl/Documentation/netlink/specs/tonic.yaml"))
def attrs(name):
    return {a["name"] for s in spec["attribute-sets"] if s["name"] == name for a in s["attributes"]}
if not eval("(" + sys.argv[1] + ")"):
    print("cli.py:", json.dumps(y)[:3000])
    print("tonic: ", json.dumps(t)[:3000])
    sys.exit(1)' "$2" || ksft_fail "$1"
	echo "ok: $1"
}

tonic_load || ksft_fail "modprobe tonic"
$PY -c 'import yaml' || ksft_fail "python3 with PyYAML in the guest"

# Devices, with a program parameter set on soft0 first (dev-set): the
# dump and the do show it in prog-param nests, as tonic -j does.
ynl --do dev-set --json '{"name": "soft0", "param-program": "dcqcn", "param-index": 4, "param-value": 4096}'
jrun dev show
ynl --dump dev-get
pycheck "dev dump: the devices tonic shows" \
	'sorted(d["name"] for d in y) == sorted(d["name"] for d in t) and len(y) >= 1'
# tonic -j's keys are the spec's attribute names, with the values cli.py
# decodes (a flag absent in cli.py's output is false).
pycheck "dev dump: every key tonic -j prints is a dev attribute, with cli.py's value" \
	'all(k in attrs("dev") and d.get(k, False) == v
	     for e in t for d in y if d["name"] == e["name"] for k, v in e.items()) and
	 all(any(d["name"] == e["name"] for d in y) for e in t)'
pycheck "dev dump: the host view's counters (root in init_net)" \
	'all("flows-in-use" in d and "flows-added" in d for d in y)'
ynl --do dev-get --json '{"name": "soft0"}'
pycheck "dev do soft0, with the parameter set per program" \
	'y["name"] == "soft0" and y["backend"] == "soft" and "newreno" in y["program"] and
	 [(p["program"], p["param"]) for p in y["prog-param"]] == [("dcqcn", [0, 0, 0, 0, 4096, 0, 0, 0])]'
ynl_err "no such Tonic device" --do dev-get --json '{"name": "nosuch"}'
# dev-set's rules; all parameters 0 again: no prog-param left.
ynl_err "Numerical result out of range" --do dev-set --json \
	'{"name": "soft0", "param-program": "dcqcn", "param-index": 8, "param-value": 1}'
ynl_err "'miss-type': 'param-index'" --do dev-set --json '{"name": "soft0", "param-program": "dcqcn"}'
ynl_err "does not run this program" --do dev-set --json \
	'{"name": "soft0", "param-program": "nosuch", "param-index": 0, "param-value": 1}'
ynl --do dev-set --json '{"name": "soft0", "param-program": "dcqcn", "param-index": 4, "param-value": 0}'
jrun dev show soft0
case ",$(jget '[0]?keys')," in
*,prog-param,*) ksft_fail "dev-get: prog-param left when all parameters are 0 again" ;;
esac
ynl_err "Numerical result out of range" --do flow-get --json '{"dev": "soft0", "id": 5000}'

# Defaults: what the sysctls say, and a set the sysctls see.
OUT=null
sysctl -qw net.tonic.seg_size=4000 || ksft_fail "sysctl seg_size"
ynl --do defaults-get
pycheck "defaults-get: seg-size as set by the sysctl" 'y["seg-size"] == 4000'
prog=$(sysctl -n net.tonic.program)
pycheck "defaults-get: program $prog, the netns inode" \
	"y['program'] == '$prog' and y['netns-inum'] > 0 and 'auto-offload' in y"
jrun set
pycheck "tonic -j set: its keys are the defaults attributes, with cli.py's values" \
	'set(t) == attrs("defaults") & set(y) and all(t[k] == y[k] for k in t)'
OUT=null
$YNL --do defaults-set --json '{"seg-size": 0, "sub-delay-us": 250}' > /dev/null 2>/tmp/ynl.err ||
	ksft_fail "defaults-set: $(cat /tmp/ynl.err)"
assert_eq "defaults-set seg-size, read by the sysctl" "$(sysctl -n net.tonic.seg_size)" 0
assert_eq "defaults-set sub-delay-us, read by the sysctl" "$(sysctl -n net.tonic.sub_delay_us)" 250
# The generated policy's limits (spec constants seg-size-max, sub-delay-max-us).
ynl_err "Numerical result out of range" --do defaults-set --json '{"seg-size": 65536}'
ynl_err "Numerical result out of range" --do defaults-set --json '{"sub-delay-us": 1000001}'
assert_eq "refused set changed nothing" "$(sysctl -n net.tonic.sub_delay_us)" 250
sysctl -qw net.tonic.sub_delay_us=500

ynl --do stats-get
pycheck "stats-get: the netns nest, its quota as the sysctl says" \
	"y['netns']['max-flows'] == $(sysctl -n net.tonic.max_flows) and y.get('host') is True"

if ! sockglue; then
	echo "SKIP: flows need sock-glue (TCP ULP \"tonic\") in tonic.ko"
	$MODPROBE -r tonic
	exit $KSFT_SKIP
fi

# Two offloaded connections h1 -> h2, IPv4 and IPv6, long enough (40 GB)
# to outlast the checks: tonic_hosts_del ends them.
tonic_hosts 2 || ksft_fail "hosts"
xfer_server h2 5001 /tmp/srv.5001 || ksft_fail "no server on h2:5001"
xfer_server h2 5002 /tmp/srv.5002 || ksft_fail "no server on h2:5002"
on h1 /usr/bin/tonic_xfer -c 10.0.0.2 5001 40000000000 -C tonic > /tmp/xfer4.out 2>&1 &
on h1 /usr/bin/tonic_xfer -c fd00::2 5002 40000000000 -C tonic > /tmp/xfer6.out 2>&1 &
i=0
while :; do
	OUT=$(on h1 $TONIC -j flow show)
	[ "$(jget '#')" -ge 2 ] 2>/dev/null && break
	i=$((i + 1)); [ $i -gt 100 ] && ksft_fail "no two offloaded flows in h1: $OUT"
	sleep 0.1
done
ynl on h1 --dump flow-get
OUT=$(on h1 $TONIC -j flow show)
echo "cli.py flow dump: $Y"
pycheck "flow dump in h1: the flows tonic shows (dev, id)" \
	'sorted((f["dev"], f["id"]) for f in y) == sorted((f["dev"], f["id"]) for f in t)'
pycheck "flow dump: owner and sk-state by their enum names" \
	'all(f["owner"] == "socket" and f["sk-state"] in
	     ("software", "offloaded", "draining", "fallback", "pending") for f in y) and
	 any(f["sk-state"] == "offloaded" for f in y)'
pycheck "flow dump: the IPv4 flow, addresses by display hint ipv4, ports" \
	'any(f["family"] == 2 and f["local-ipv4"] == "10.0.0.1" and f["remote-ipv4"] == "10.0.0.2" and
	     f["remote-port"] == 5001 and
	     any(e["id"] == f["id"] and e["local-port"] == f["local-port"] and
	         e["local-ipv4"] == "10.0.0.1" for e in t) for f in y)'
pycheck "flow dump: the IPv6 flow, addresses by display hint ipv6, ports" \
	'any(f["family"] == 10 and f["local-ipv6"] == "fd00::1" and f["remote-ipv6"] == "fd00::2" and
	     f["remote-port"] == 5002 and
	     any(e["id"] == f["id"] and e["local-port"] == f["local-port"] and
	         e["local-ipv6"] == "fd00::1" for e in t) for f in y)'
# Every key of tonic -j is a flow attribute but "failed" (dev-state's
# bit 0) and "family" (a name there, a number in cli.py); the flow's
# identity and settings have cli.py's values (the counters move between
# the two dumps).
pycheck "flow dump: every key tonic -j prints is a flow attribute, identity and settings as cli.py" \
	'all(set(e) - {"failed"} <= attrs("flow") for e in t) and
	 all(e[k] == f[k] for e in t for f in y if (e["dev"], e["id"]) == (f["dev"], f["id"])
	     for k in e if k in ("dev", "id", "owner", "program", "seg-size", "sk-state",
	                         "sub-delay-us", "local-ipv4", "remote-ipv4", "local-ipv6",
	                         "remote-ipv6", "local-port", "remote-port", "netns-inum", "param"))'
pycheck "flow dump: the device's counters" \
	'all(k in f for f in y for k in ("cwnd", "bytes-sent", "segs-sent", "segs-acked", "tail", "netns-inum"))'
dev=$($PY -c 'import json, sys; f = json.loads(sys.argv[1])[0]; print(f["dev"], f["id"], f["program"])' "$Y")
set -- $dev
ynl on h1 --do flow-get --json "{\"dev\": \"$1\", \"id\": $2}"
pycheck "flow do $1/$2 in h1" "y['dev'] == '$1' and y['id'] == $2 and y['owner'] == 'socket'"
ynl on h1 --dump flow-get --json "{\"program\": \"$3\"}"
pycheck "flow dump filtered by program $3" "len(y) >= 1 and all(f['program'] == '$3' for f in y)"
ynl on h1 --dump flow-get --json '{"dev": "nosuch"}'
pycheck "flow dump filtered by an unknown dev: empty" 'y == []'

# Scope: init_net sees none of h1's flows; with all-netns (host view) it
# does; from h1, all-netns is refused at the dump's first call.
ynl --dump flow-get
pycheck "flow dump in init_net: no socket flow of h1" \
	'not any(f["owner"] == "socket" for f in y)'
ynl --dump flow-get --json '{"all-netns": true}'
pycheck "flow dump all-netns (host view): h1's flows" \
	'sum(f["owner"] == "socket" for f in y) >= 2'
ynl_err on h1 "initial network namespace" --dump flow-get --json '{"all-netns": true}'
grep -q "Operation not permitted" /tmp/ynl.out || ksft_fail "all-netns from h1: not EPERM: $(cat /tmp/ynl.out)"

# Tenants: the host's only; the request's rules with their messages; the
# dump as tonic -j shows it.  (h1's flows attached before: no tenant.)
ynl_err "a tenant is a uid or a cgroup" --do tenant-new --json '{"name": "t1"}'
ynl_err "a tenant is a uid or a cgroup" --do tenant-new --json '{"name": "t1", "uid": 5, "cgroup": 1}'
ynl_err "no such cgroup" --do tenant-new --json '{"name": "t1", "cgroup": 4000000000}'
ynl_err "Numerical result out of range" --do tenant-new --json '{"name": "t1", "uid": 5, "fixed": 65536}'
ynl_err "empty name" --do tenant-new --json '{"name": "", "uid": 5}'
ynl --do tenant-new --json '{"name": "t1", "uid": 5, "fixed": 2}'
ynl_err "tenant exists" --do tenant-new --json '{"name": "t1", "uid": 6}'
cg=$(stat -c %i /sys/fs/cgroup)
ynl --do tenant-new --json "{\"name\": \"t2\", \"cgroup\": $cg}"
ynl_err on h1 "devices are the host's" --do dev-set --json \
	'{"name": "soft0", "param-program": "dcqcn", "param-index": 0, "param-value": 1}'
ynl_err on h1 "tenants are the host's" --do tenant-new --json '{"name": "t3", "uid": 7}'
ynl_err on h1 "Operation not permitted" --dump tenant-get
jrun tenant show
ynl --dump tenant-get
pycheck "tenant dump: t1 by uid 5 fixed 2, then t2 by the root cgroup ($cg), no flow" \
	'[(x["name"], x.get("uid"), x.get("cgroup"), x["fixed"], x["flows"]) for x in y] ==
	 [("t1", 5, None, 2, 0), ("t2", None, '$cg', 0, 0)]'
pycheck "tenant dump: tonic -j tenant show has cli.py's keys and values" 't == y'
ynl --do tenant-get --json '{"name": "t2"}'
pycheck "tenant do t2" 'y["name"] == "t2" and y["value"] == 1'
ynl --do tenant-del --json '{"name": "t1"}'
ynl_err "no such tenant" --do tenant-del --json '{"name": "t1"}'
ynl --do tenant-del --json '{"name": "t2"}'
ynl --dump tenant-get
pycheck "no tenant left" 'y == []'

# Both flows were still there at the end (not a race won by luck).
ynl on h1 --dump flow-get
pycheck "both flows outlasted the checks" 'len(y) == 2'
tonic_hosts_del
$MODPROBE -r tonic || ksft_fail "unload"
