#!/bin/sh
# mkinitramfs.sh KVER OUT TESTLIST MODE
# Build the guest's initramfs: static busybox, the real tools the tests
# call by absolute path (with their shared libraries), the kernel modules
# they need, the project's modules, tools and guest selftests.
# Environment: TONIC_MODROOT (the kernel's modules are under
# $TONIC_MODROOT/lib/modules/KVER; default /), TONIC_KO_DIR (where tonic.ko
# and tests/kmod/*.ko are; default the source tree), TONIC_TIMEOUT_SCALE
# (factor for every test's `# timeout:` in the guest; default 1).
set -e
KVER=$1 OUT=$2 TESTS=$3 MODE=$4
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=${B:-$TOP/build}
MODROOT=${TONIC_MODROOT:-}
KODIR=${TONIC_KO_DIR:-$TOP}
mkdir -p "$B"
R=$(mktemp -d "$B/initramfs.XXXXXX")
# mktemp makes it 0700: the guest's / must be usable by unprivileged test users.
chmod 755 "$R"
trap 'rm -rf "$R"' EXIT

# Kernel modules the guest loads, resolved with their dependencies.  Only
# copied: a module is loaded when a test modprobes it.  The RDMA bed's
# (Soft-RoCE): rdma_rxe (with ib_core, ib_uverbs, udp_tunnel), rdma_ucm (the
# rdma_cm of rping and perftest -R), and crc32_generic, which rxe asks the
# crypto API for at run time (ICRC), so modprobe --show-depends cannot see it.
GUEST_KMODS="veth sch_prio sch_netem sch_fq sch_tbf sch_red sch_ingress cls_matchall cls_u32 act_gact bridge tcp_diag rdma_rxe ib_uverbs rdma_ucm crc32_generic"
# Real programs, called by absolute path (busybox's applets shadow names).
GUEST_BINS="/usr/bin/ip /usr/sbin/tc /usr/bin/ss /usr/bin/iperf3 /usr/bin/kmod
/usr/bin/timeout /usr/bin/sha256sum /usr/bin/head /usr/bin/dd /usr/bin/python3
/usr/sbin/ethtool"
# The RDMA bed's userspace, copied only for tests that source rdma-lib.sh
# (and for the shell): verbs/rdma_cm tools, perftest, iproute2's rdma.
GUEST_RDMA_BINS="/usr/bin/ibv_devinfo /usr/bin/ibv_devices /usr/bin/ibv_rc_pingpong
/usr/bin/rping /usr/bin/ucmatose /usr/bin/udaddy /usr/bin/ib_write_bw /usr/bin/ib_read_bw /usr/bin/ib_send_bw
/usr/bin/ib_send_lat /usr/bin/ib_write_lat /usr/bin/ib_read_lat /usr/bin/rdma"

mkdir -p "$R"/bin "$R"/usr/bin "$R"/usr/sbin "$R"/proc "$R"/sys "$R"/dev \
	"$R"/tmp "$R"/run "$R"/etc "$R"/root "$R"/tests "$R"/lib/modules/"$KVER"/extra
cp /bin/busybox "$R"/bin/busybox
for a in $(/bin/busybox --list); do
	[ -e "$R/bin/$a" ] || ln -s busybox "$R/bin/$a"
done

# copy_libs FILE...: the shared libraries the programs need, at the same paths.
copy_libs() {
	for f in "$@"; do
		ldd "$f" 2>/dev/null | awk '/=> \// { print $3 } /^\t\/lib/ { print $1 }' |
		while read -r lib; do
			[ -e "$R$lib" ] && continue
			mkdir -p "$R$(dirname "$lib")"
			cp -L "$lib" "$R$lib"
		done
	done
}
copy_with_libs() {
	for f in "$@"; do
		[ -e "$f" ] || continue
		mkdir -p "$R$(dirname "$f")"
		cp -L "$f" "$R$f"
		copy_libs "$f"
	done
}
# python3 is optional and large: only copied, with its standard library
# (less tests, IDLE, Tk, ...; its extension modules with their libraries)
# and PyYAML, if a test asks for it.
bins=$(echo "$GUEST_BINS" | tr ' ' '\n' | grep -v python3)
PY=
[ -n "$TESTS" ] && grep -qs python3 $TESTS &&
	PY=$(python3 -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
if [ -n "$PY" ]; then
	bins="$bins /usr/bin/python3"
	mkdir -p "$R/usr/lib/python3/dist-packages"
	tar -C /usr/lib --exclude="$PY/test" --exclude="$PY/idlelib" --exclude="$PY/tkinter" \
		--exclude="$PY/turtledemo" --exclude="$PY/ensurepip" --exclude="$PY/lib2to3" \
		--exclude="$PY/pydoc_data" --exclude="$PY/config-*" --exclude="$PY/*-packages" \
		--exclude="$PY/unittest/test" --exclude="$PY/distutils/tests" -cf - "$PY" |
		tar -C "$R/usr/lib" -xf -
	cp -a /usr/lib/python3/dist-packages/yaml "$R/usr/lib/python3/dist-packages/"
	bins="$bins $(ls /usr/lib/"$PY"/lib-dynload/*.so /usr/lib/python3/dist-packages/yaml/*.so 2>/dev/null)"
fi
# shellcheck disable=SC2086
copy_with_libs $bins
# libibverbs dlopen()s its providers (lib<name>-rdmav*.so, named by the
# /etc/libibverbs.d/*.driver files), so ldd on the tools does not see them;
# glibc dlopen()s libgcc_s.so.1 for pthread_cancel/pthread_exit (rping,
# perftest's threads) and aborts without it.
if [ "$MODE" = shell ] || { [ -n "$TESTS" ] && grep -qs rdma-lib.sh $TESTS; }; then
	# shellcheck disable=SC2086
	copy_with_libs $GUEST_RDMA_BINS
	copy_with_libs $(dpkg -L ibverbs-providers 2>/dev/null | grep '/libibverbs/lib.*\.so$')
	copy_with_libs $(ldconfig -p | awk '/libgcc_s\.so\.1 .*x86-64/ { print $NF; exit }')
	mkdir -p "$R"/etc/libibverbs.d
	cp /etc/libibverbs.d/*.driver "$R"/etc/libibverbs.d/ 2>/dev/null || true
fi
# The kernel's YNL tool (cli.py and its library, linux-source-6.12) and
# the family's spec under /ynl, for a test that runs it (with
# --no-schema: the spec is validated on the host, tests/ynl).
if [ -n "$TESTS" ] && grep -qs '/ynl/tools/net/ynl/' $TESTS; then
	Y=$(B=$B "$TOP"/scripts/ynl-src.sh)
	mkdir -p "$R/ynl/tools/net/ynl" "$R/ynl/Documentation/netlink/specs"
	cp -a "$Y/tools/net/ynl/cli.py" "$Y/tools/net/ynl/lib" "$R/ynl/tools/net/ynl/"
	cp "$TOP/Documentation/netlink/specs/tonic.yaml" "$R/ynl/Documentation/netlink/specs/"
	# Compiled here: the guest's (TCG) python would compile them at every run.
	python3 -m compileall -q "$R/ynl/tools/net/ynl" > /dev/null
fi
# merged-/usr hosts resolve the loader through /lib64.
mkdir -p "$R"/lib64 && cp -L /lib64/ld-linux-x86-64.so.2 "$R"/lib64/
ln -sf /usr/bin/kmod "$R"/usr/sbin/modprobe
ln -sf /usr/bin/kmod "$R"/usr/sbin/insmod
ln -sf /usr/bin/kmod "$R"/usr/sbin/rmmod
ln -sf /usr/bin/kmod "$R"/usr/sbin/lsmod
ln -sf /usr/bin/kmod "$R"/usr/sbin/modinfo

M=/lib/modules/$KVER
# Built-in ones (listed in modules.builtin) show as "builtin NAME": no copy.
for m in $GUEST_KMODS; do
	modprobe ${MODROOT:+-d "$MODROOT"} -S "$KVER" --show-depends "$m" |
		awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r ko; do
	dst=$R$M/${ko#"$MODROOT$M"/}
	mkdir -p "$(dirname "$dst")"
	cp "$ko" "$dst"
done
cp "$MODROOT$M"/modules.order "$MODROOT$M"/modules.builtin "$MODROOT$M"/modules.builtin.modinfo \
	"$R$M"/ 2>/dev/null || true
for ko in "$KODIR"/*.ko "$KODIR"/rdma-glue/*.ko "$KODIR"/drdma/*.ko "$KODIR"/tests/kmod/*.ko; do
	[ -e "$ko" ] && cp "$ko" "$R$M/extra/"
done
depmod -b "$R" "$KVER"

# Userspace tools and guest test programs built on the host.
# They are linked dynamically (tonic(8) against libnl): their libraries too.
if [ -d "$B/guest" ]; then
	cp -a "$B/guest/." "$R/usr/bin/"
	for f in "$B"/guest/*; do
		[ -f "$f" ] && [ -x "$f" ] && copy_libs "$f"
	done
fi
cp "$TOP"/tests/qemu/guest-init.sh "$R"/init
cp "$TOP"/tests/selftests/*lib.sh "$R"/tests/
for t in $TESTS; do
	cp "$t" "$R/tests/"
	basename "$t" >> "$R/tests/LIST"
done
touch "$R/tests/LIST"
echo "$MODE" > "$R/tests/MODE"
echo "${TONIC_TIMEOUT_SCALE:-1}" > "$R/tests/TIMEOUT_SCALE"
chmod +x "$R"/init "$R"/tests/*

(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$OUT"
