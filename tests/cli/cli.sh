#!/bin/sh
# cli.sh: tonic(8)'s command line on the host, no module needed (TAP in
# $B/results/cli.tap).  The family "tonic" is not registered here (or, if
# it is, the checks that need it not to be are skipped): a command that
# parses reaches the kernel and fails with the same message whatever
# abbreviation named it; usage errors (exit 2) come before the kernel.
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$TOP/build}
OUT=$B/results/cli.tap
TONIC=${TONIC:-$B/user/tonic}
mkdir -p "$B/results"
: > "$OUT"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1" >> "$OUT"; }
nok() {
	n=$((n + 1))
	echo "not ok $n - $1" >> "$OUT"
	printf '%s\n' "$2" | head -n 20 | sed 's/^/#   /' >> "$OUT"
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2" >> "$OUT"; }

# run ARGS...: RC, ERR (stderr), STDOUT of tonic ARGS.
run() {
	STDOUT=$("$TONIC" "$@" 2> "$B/results/cli.err")
	RC=$?
	ERR=$(cat "$B/results/cli.err")
}
# expect NAME RC MESSAGE ARGS...: exit RC, stderr contains MESSAGE.
expect() {
	name=$1 want=$2 msg=$3; shift 3
	run "$@"
	case "$RC:$ERR" in
	"$want:"*"$msg"*) ok "$name" ;;
	*) nok "$name" "tonic $*: exit $RC (want $want), stderr: $ERR" ;;
	esac
}
# same NAME ARGS1 -- ARGS2: both give the same exit code and stderr.
same() {
	name=$1; shift
	a=""
	while [ "$1" != -- ]; do a="$a $1"; shift; done
	shift
	# shellcheck disable=SC2086
	run $a; r1=$RC e1=$ERR
	run "$@"
	if [ "$r1" = "$RC" ] && [ "$e1" = "$ERR" ]; then
		ok "$name"
	else
		nok "$name" "tonic$a: $r1 $e1 / tonic $*: $RC $ERR"
	fi
}

NOMOD="is the tonic module loaded"
"$TONIC" dev show > /dev/null 2>&1
if grep -q '^tonic ' /proc/modules 2>/dev/null || "$TONIC" defaults show > /dev/null 2>&1; then
	have_mod=1
else
	have_mod=0
fi

# Usage and options, no kernel.
expect "no arguments: usage, exit 2" 2 "Usage: tonic"
expect "unknown object" 2 'unknown object "bogus"' bogus
expect "ambiguous object d (dev, defaults)" 2 'object "d" is ambiguous: dev, defaults' d show
expect "ambiguous object s (stats, set, sock)" 2 'object "s" is ambiguous: stats, set, sock' s
expect "unknown option" 2 'unknown option "-z"' -z dev show
expect "-n needs a name" 2 '"-n" needs a network namespace name' -n
run -h; [ "$RC" = 0 ] && case "$STDOUT" in *"-p, -pretty"*"-n, -netns NAME"*) true ;; *) false ;; esac &&
	ok "-h: 0, lists -p and -n" || nok "-h: 0, lists -p and -n" "$RC $STDOUT"
run h; [ "$RC" = 0 ] && case "$STDOUT" in *"Usage: tonic"*) true ;; *) false ;; esac &&
	ok "object prefix h: help" || nok "object prefix h: help" "$RC $STDOUT"
run dev help; [ "$RC" = 0 ] && [ "$STDOUT" = "Usage: tonic dev show [[dev] NAME]
       tonic dev set DEV prog PROGRAM param INDEX VALUE" ] &&
	ok "dev help without the module" || nok "dev help without the module" "$RC $STDOUT $ERR"
expect "-n with no such namespace" 1 'cannot open network namespace "tonic-no-such-ns"' \
	-n tonic-no-such-ns dev show
expect "-netns long form" 1 'cannot open network namespace "tonic-no-such-ns"' \
	-netns tonic-no-such-ns flow show
# Arguments are parsed before the kernel is asked: usage errors need no module.
expect "flow show id x: not a number, exit 2" 2 'is not a number' fl sh i x
expect "flow show bogus: unknown filter" 2 'unknown filter "bogus"' flow show bogus 1
expect "set s: ambiguous (seg, sub_delay_us)" 2 'setting "s" is ambiguous: seg, sub_delay_us' se s 1
expect "dev bogus: unknown command" 2 'dev: unknown command "bogus"' dev bogus
expect "flow s: ambiguous (show, set)" 2 'flow: command "s" is ambiguous: show, set' flow s id x
expect "flow sh: show (list is another word)" 2 'is not a number' flow sh id x
expect "flow set: usage" 2 'flow set: DEV ID param INDEX VALUE' flow set soft0 1 param 2
expect "flow set: index 0..7" 2 'param index: "8" is not a number in 0..7' flow set soft0 1 param 8 5
expect "dev set: usage" 2 'dev set: DEV prog PROGRAM param INDEX VALUE' dev set soft0 prog dcqcn param 2
expect "dev set: prog first" 2 'dev set: DEV prog PROGRAM param INDEX VALUE' dev set soft0 param 2 prog dcqcn 1
expect "dev set: index 0..7" 2 'param index: "8" is not a number in 0..7' dev set soft0 prog dcqcn param 8 5
expect "dev set: value" 2 'param value: "-1" is not a number' dev set soft0 prog dcqcn param 1 -1
expect "tenant add: uid or cgroup" 2 'tenant add: give a uid or a cgroup' tenant add t1
expect "tenant add: not both" 2 'tenant add: give a uid or a cgroup' tenant add t1 uid 1 cgroup /
expect "tenant add: a cgroup directory" 2 'not a cgroup v2 directory' tenant add t1 cgroup /nonexistent
expect "tenant add: name length" 2 'a name of 1 to 15 characters' tenant add 0123456789abcdef uid 1
expect "tenant add: fixed range" 2 'fixed: "70000" is not a number in 0..65535' tenant add t1 uid 1 fixed 70000
expect "tenant add: unknown key" 2 'tenant add: unknown key "bogus"' tenant add t1 bogus 1
expect "tenant del: usage" 2 'tenant del: NAME' tenant del
expect "tenant bogus: unknown command" 2 'tenant: unknown command "bogus"' tenant bogus
run -V; [ "$RC" = 0 ] && ok "-V" || nok "-V" "$RC $ERR"

if [ $have_mod = 1 ]; then
	for t in "fl sh" "fl sh, -j -p, -s" "d ambiguous after the kernel" "set prefixes" \
		 "stats prefixes" "sock prefixes" "defaults prefix"; do
		skip "$t" "the tonic family is registered on this host"
	done
else
	expect "flow show without the module" 1 "$NOMOD" flow show
	same "tonic fl sh = tonic flow show" fl sh -- flow show
	same "tonic -j -p -s f sh = tonic flow show" -j -p -s f sh -- flow show
	same "tonic -json -pretty -stats flow list i 3 = tonic flow show id 3" \
		-json -pretty -stats flow list i 3 -- flow show id 3
	same "tonic se p reno se 1000 de 2 a on = tonic set prog reno ..." se p reno se 1000 de 2 a on -- \
		set prog reno seg 1000 delay 2 auto on
	same "tonic st sh d soft0 = tonic stats dev soft0" st sh d soft0 -- stats dev soft0
	same "tonic so sh p 80 = tonic sock show port 80" so sh p 80 -- sock show port 80
	same "tonic def s = tonic defaults show" def s -- defaults show
	same "tonic dev = tonic device show" dev -- device show
	same "tonic m = tonic monitor" m -- monitor
fi

# The output writer (tests/cli/out_test.c): UTF-8 intact, RFC 8259
# escapes, a byte that is not UTF-8 as U+FFFD, booleans, -p, no trailing
# blanks; JSON keys are the YNL names, text keys the plain words.
OT=${OT:-$B/user/out_test}
want_json='[{"name":"café € 🐟","esc":"q\"b\\n\nt\t\u0001\u007f bad\ufffd\ufffd(","n":42,"yes":true,"no":false,"auto-offload":false,"program":["reno","sack"],"empty":[]}]'
got=$("$OT" json)
[ "$got" = "$want_json" ] && ok "JSON: UTF-8 intact, escapes, booleans" ||
	nok "JSON: UTF-8 intact, escapes, booleans" "got:  $got
want: $want_json"
want_pretty='[
    {
        "name": "café € 🐟",
        "esc": "q\"b\\n\nt\t\u0001\u007f bad\ufffd\ufffd(",
        "n": 42,
        "yes": true,
        "no": false,
        "auto-offload": false,
        "program": [
            "reno",
            "sack"
        ],
        "empty": []
    }
]'
got=$("$OT" pretty)
[ "$got" = "$want_pretty" ] && ok "-p: indented JSON" || nok "-p: indented JSON" "$got"
got=$("$OT" text)
printf '%s\n' "$got" | grep -q ' $' && nok "text: no trailing blanks" "$(printf '%s\n' "$got" | cat -A)" ||
	ok "text: no trailing blanks"
case "$got" in "dev0: name café € 🐟 esc"*"yes auto_offload off
    programs reno sack") ok "text: the pairs, on/off, flags" ;;
*) nok "text: the pairs, on/off, flags" "$got" ;; esac

# Bash completion (userspace-tools/tonic/tonic.bash-completion), without
# bash-completion's helpers or the module.
comp() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tonic
		 echo "${COMPREPLY[*]}"' sh "$TOP/userspace-tools/tonic/tonic.bash-completion" "$@" 2>&1
}
compcheck() {	# NAME WANT WORDS...
	name=$1 want=$2; shift 2
	got=$(comp "$@")
	[ "$got" = "$want" ] && ok "completion: $name" || nok "completion: $name" "got \"$got\", want \"$want\""
}
compcheck "objects" "dev flow stats set defaults sock monitor tenant help" tonic ""
compcheck "object prefix" "flow" tonic fl
compcheck "options" "-p -pretty" tonic -p
compcheck "after -n NETNS and -j" "show dev help" tonic -n x -j st ""
compcheck "flow show filters" "dev id prog netns" tonic fl sh ""
compcheck "set auto" "on off" tonic set auto ""
compcheck "sock offload on|off" "on off" tonic so o ""
compcheck "tenant commands" "show list add del help" tonic tenant ""
compcheck "tenant add keys" "uid cgroup fixed" tonic tenant add t1 ""
compcheck "dev commands" "show list set help" tonic dev ""
compcheck "flow set: param" "param" tonic flow set soft0 1 ""
compcheck "dev set: prog" "prog" tonic dev set soft0 ""
compcheck "dev set: param" "param" tonic dev set soft0 prog dcqcn ""

# tonic-drdma (userspace-tools/drdma/): usage errors (exit 2) before any
# file is touched or the device opened; then the device's absence (exit 1).
DR=$B/user/tonic-drdma
drexpect() {
	name=$1 want=$2 msg=$3; shift 3
	err=$("$DR" "$@" 2>&1 >/dev/null)
	rc=$?
	case "$rc:$err" in
	"$want:"*"$msg"*) ok "tonic-drdma: $name" ;;
	*) nok "tonic-drdma: $name" "tonic-drdma $*: exit $rc (want $want): $err" ;;
	esac
}
T=$(mktemp -d)
drexpect "no command" 2 usage
drexpect "unknown command" 2 usage frob
drexpect "stats takes nothing" 2 usage stats x
drexpect "bad MAC" 2 usage write eth0 02:00:00:00:00 0 /etc/hostname
drexpect "bad DBA" 2 "not a number: 1x" write eth0 02:00:00:00:00:01 1x /etc/hostname
drexpect "bad policy" 2 usage write eth0 02:00:00:00:00:01 0 /etc/hostname fast
drexpect "read of 0 bytes" 2 usage read eth0 02:00:00:00:00:01 0 0 "$T/out"
drexpect "bad size" 2 "not a number: big" serve eth0 "$T/mem" big
drexpect "bad probability" 2 "not a probability: 2" serve eth0 "$T/mem" 4096 refuse 2
drexpect "unknown serve option" 2 usage serve eth0 "$T/mem" 4096 sometimes
[ ! -e "$T/out" ] && [ ! -e "$T/mem" ] && ok "tonic-drdma: usage errors create no file" ||
	nok "tonic-drdma: usage errors create no file" "$(ls "$T")"
if [ -e /dev/tonic-drdma ]; then
	skip "tonic-drdma: no device" "/dev/tonic-drdma exists"
else
	drexpect "no device" 1 "/dev/tonic-drdma: No such file" stats
	drexpect "a missing file first" 1 "$T/none: No such file" write eth0 02:00:00:00:00:01 0 "$T/none"
fi
rm -rf "$T"

echo "1..$n" >> "$OUT"
! grep -q '^not ok' "$OUT"
