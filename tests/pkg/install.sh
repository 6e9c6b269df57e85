#!/bin/sh
# install.sh: the packaging, on the host (TAP in $B/results/install-check.tap,
# the suite's name).
#   - `make install DESTDIR=D PREFIX=P` puts exactly the expected files
#     under D (module under /lib/modules/KVER/extra, the rest under P) and
#     nothing outside D; `make uninstall` with the same variables removes
#     every one of them.  Twice: PREFIX=/usr, and the default /usr/local.
#   - one version: VERSION, the module's MODULE_VERSION (modinfo), the
#     CLI's -V and dkms.conf's PACKAGE_VERSION agree.
#   - tonic(8) links libnl dynamically, statically with STATIC=1; CFLAGS
#     and LDFLAGS from the command line are appended (a later -D wins, an
#     rpath shows up).
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$TOP/build}
OUT=$B/results/install-check.tap
mkdir -p "$B/results"
: > "$OUT"
cd "$TOP" || exit 1
T=$(mktemp -d "$B/pkg-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
n=0
# check NAME CMD...: one TAP line; the command's output goes under a failure.
check() {
	name=$1; shift
	n=$((n + 1))
	if out=$("$@" 2>&1); then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		echo "$out" | head -n 20 | sed 's/^/#   /'
	fi >> "$OUT"
}

KVER=$(scripts/kver.sh) || exit 1
V=$(cat VERSION)

# files D: every file and symlink under D, relative, sorted.
files() { (cd "$1" && find . ! -type d | sed 's|^\./|/|' | sort); }

# The directories an install outside DESTDIR would write to.
WATCH="/lib/modules/$KVER /usr/local /usr/sbin /usr/share/man /usr/share/ynl /usr/include/linux"
same_list() {
	[ "$1" = "$2" ] || { printf 'got:\n%s\nwant:\n%s\n' "$1" "$2"; return 1; }
}
outside() {
	# Files changed since the stamp, in the watched directories.
	new=$(find $WATCH -newer "$T/stamp" ! -type d 2>/dev/null)
	[ -z "$new" ] || { echo "written outside DESTDIR: $new"; return 1; }
}

for prefix in /usr /usr/local; do
	D=$T/root$(echo "$prefix" | tr / -)
	mkdir -p "$D"
	touch "$T/stamp"
	sleep 1
	args="DESTDIR=$D"
	[ "$prefix" = /usr/local ] || args="$args PREFIX=$prefix"
	# shellcheck disable=SC2086
	check "make install $args" make -s --no-print-directory install $args
	want=$(printf '%s\n' "/lib/modules/$KVER/extra/tonic.ko" "/lib/modules/$KVER/extra/tonic_rdma.ko" "$prefix/sbin/tonic" \
		"/lib/modules/$KVER/extra/tonic_drdma.ko" "$prefix/sbin/tonic-drdma" "$prefix/include/linux/tonic_drdma.h" \
		"$prefix/share/man/man8/tonic.8" "$prefix/include/linux/tonic.h" "$prefix/include/linux/tonic_nl.h" \
		"$prefix/share/ynl/specs/tonic.yaml" "$prefix/share/bash-completion/completions/tonic" | sort)
	check "PREFIX=$prefix: exactly the expected files under DESTDIR" same_list "$(files "$D")" "$want"
	check "PREFIX=$prefix: nothing written outside DESTDIR" outside
	check "PREFIX=$prefix: the installed module is version $V" \
		sh -c "[ \"\$(modinfo -F version '$D/lib/modules/$KVER/extra/tonic.ko')\" = '$V' ]"
	check "PREFIX=$prefix: the installed CLI prints 'tonic utility, $V'" \
		sh -c "[ \"\$('$D$prefix/sbin/tonic' -V)\" = 'tonic utility, $V' ]"
	check "PREFIX=$prefix: man page, completion, header and YNL spec are the sources" sh -c \
		"cmp userspace-tools/tonic/tonic.8 '$D$prefix/share/man/man8/tonic.8' &&
		 cmp userspace-tools/tonic/tonic.bash-completion '$D$prefix/share/bash-completion/completions/tonic' &&
		 cmp include/uapi/linux/tonic.h '$D$prefix/include/linux/tonic.h' &&
		 cmp include/uapi/linux/tonic_nl.h '$D$prefix/include/linux/tonic_nl.h' &&
		 cmp Documentation/netlink/specs/tonic.yaml '$D$prefix/share/ynl/specs/tonic.yaml'"
	# shellcheck disable=SC2086
	check "make uninstall $args" make -s --no-print-directory uninstall $args
	check "PREFIX=$prefix: uninstall leaves no file" same_list "$(files "$D")" ""
	check "PREFIX=$prefix: uninstall wrote nothing outside DESTDIR" outside
done

# One version everywhere.
mv=$(modinfo -F version tonic.ko)
cv=$("$B"/user/tonic -V)
check "modinfo -F version tonic.ko ($mv) is VERSION ($V)" [ "$mv" = "$V" ]
rv=$(modinfo -F version rdma-glue/tonic_rdma.ko)
check "modinfo -F version tonic_rdma.ko ($rv) is VERSION ($V)" [ "$rv" = "$V" ]
dv=$(modinfo -F version drdma/tonic_drdma.ko)
check "modinfo -F version tonic_drdma.ko ($dv) is VERSION ($V)" [ "$dv" = "$V" ]
check "tonic -V ($cv) names the module's version" [ "$cv" = "tonic utility, $mv" ]
dv=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
check "dkms.conf PACKAGE_VERSION ($dv) is VERSION" [ "$dv" = "$V" ]
check "dkms.conf builds without the test modules" grep -q 'TONIC_TEST_MODULES=n modules' dkms.conf

# Linking and the user's flags (separate build directories).
check "tonic(8) links libnl dynamically by default" sh -c "ldd '$B/user/tonic' | grep -q libnl-genl-3.so"
check "STATIC=1 builds tonic(8)" make -s --no-print-directory B="$T/static" STATIC=1 "$T/static/user/tonic"
check "STATIC=1: no libnl shared library" sh -c \
	"ldd '$T/static/user/tonic' | grep -q libc.so && ! ldd '$T/static/user/tonic' | grep -q libnl"
check "CFLAGS/LDFLAGS from the command line build tonic(8)" make -s --no-print-directory B="$T/flags" \
	CFLAGS="-UTONIC_VERSION -DTONIC_VERSION=\\\"from-cflags\\\"" \
	LDFLAGS="-Wl,-rpath,/tonic-ldflags-test" "$T/flags/user/tonic"
check "CFLAGS appended after the project's (a later -D wins)" \
	sh -c "[ \"\$('$T/flags/user/tonic' -V)\" = 'tonic utility, from-cflags' ]"
check "LDFLAGS used at link" sh -c "readelf -d '$T/flags/user/tonic' | grep -q tonic-ldflags-test"

echo "1..$n" >> "$OUT"
cat "$OUT"
! grep -q '^not ok' "$OUT"
