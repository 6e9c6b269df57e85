# Helpers for the netlink/CLI guest tests; `. /tests/netlink-lib.sh` after lib.sh.
TONIC=/usr/bin/tonic
J=/usr/bin/tonic_json
UNPRIV=/usr/bin/tonic_unpriv

# jget PATH: the value at PATH of the JSON in $OUT (set by jrun).
jget() {
	printf '%s' "$OUT" | $J "$1"
}

# jrun ARGS...: OUT = `tonic -j ARGS`, which must succeed and be valid JSON.
jrun() {
	OUT=$($TONIC -j "$@") || ksft_fail "tonic -j $* failed"
	printf '%s' "$OUT" | $J || ksft_fail "tonic -j $*: invalid JSON: $OUT"
}

# expect_err RC MESSAGE CMD...: CMD exits RC and its stderr contains MESSAGE.
expect_err() {
	want=$1 msg=$2; shift 2
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = "$want" ] || ksft_fail "$*: exit $rc, expected $want ($err)"
	case "$err" in
	*"$msg"*) ;;
	*) ksft_fail "$*: stderr \"$err\" lacks \"$msg\"" ;;
	esac
	echo "ok: $* -> $err"
}

# assert_eq WHAT GOT WANT
assert_eq() {
	[ "$2" = "$3" ] || ksft_fail "$1: got \"$2\", expected \"$3\""
}

# sockglue: true when the TCP integration (ULP "tonic") is in the module.
sockglue() {
	grep -qw tonic /proc/sys/net/ipv4/tcp_available_ulp 2>/dev/null
}

# dev_index NAME: index of device NAME in `tonic -j dev show` ($OUT), or fail.
dev_index() {
	n=$(jget '#')
	i=0
	while [ "$i" -lt "$n" ]; do
		[ "$(jget "[$i].name")" = "$1" ] && { echo "$i"; return 0; }
		i=$((i + 1))
	done
	return 1
}
