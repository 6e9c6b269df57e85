#!/bin/sh
# build-debug-kernel.sh: build the debug kernel of `make check-debug`
# (lockdep, KASAN, KFENCE, atomic-sleep and debug-objects checks) from
# Debian's linux-source package, on a minimal config: `make tinyconfig`
# plus tests/qemu/debug.config.  Idempotent and cached:
#
#   $DEBUG_KERNEL_DIR/src/             the extracted source tarball
#   $DEBUG_KERNEL_DIR/obj/             the O= build tree (KDIR for modules)
#   $DEBUG_KERNEL_DIR/mods/lib/modules/KREL/   modules.builtin, .order, ...
#   $DEBUG_KERNEL_DIR/bzImage, kernelrelease, build.log
#
# DEBUG_KERNEL_DIR defaults to $B/debug-kernel (B defaults to build/).  The
# cache is keyed by a hash of the source tarball, the config fragment and
# RECIPE below: nothing is done when it matches; a new tarball starts over,
# a new fragment reconfigures and rebuilds incrementally.  Several callers
# may share one cache: a lock serializes them.  Always `nice -n 19`.
# Never edit this file in place while a build runs (sh reads it as it goes).
#
# Prints the bzImage path on its last line of stdout.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$TOP/build}
DIR=${DEBUG_KERNEL_DIR:-$B/debug-kernel}
FRAG=$TOP/tests/qemu/debug.config
# Bump when the way the kernel is configured or built changes.
RECIPE=1
JOBS=${DEBUG_KERNEL_JOBS:-2}
# linux-source-6.1, the series of the guest kernel (make deps installs
# it; linux-source-6.12 is there too, for its YNL tools only).
TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -n "$TARBALL" ] && [ -f "$TARBALL" ] || {
	echo "build-debug-kernel: no $TARBALL: make deps" >&2
	exit 1
}

# The kernel build needs more than the module build does.
missing=""
for p in flex bison bc libelf-dev libssl-dev cpio xz-utils; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "build-debug-kernel: missing:$missing (run as root)" >&2
		exit 1
	fi
	echo "build-debug-kernel: installing$missing" >&2
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
		install -y -q --no-install-recommends $missing >/dev/null
fi

mkdir -p "$DIR"
exec 9> "$DIR/.lock"
if ! flock -n 9; then
	echo "build-debug-kernel: waiting for another build of $DIR" >&2
	flock 9
fi

tar_key=$(sha256sum < "$TARBALL" | cut -c1-64)
key=$( { echo "$tar_key recipe $RECIPE"; cat "$FRAG"; } | sha256sum | cut -c1-64)
K="nice -n 19 make -s -C $DIR/src O=$DIR/obj ARCH=x86_64"

if [ "$(cat "$DIR/obj/.tonic-key" 2>/dev/null)" = "$key" ] && [ -f "$DIR/bzImage" ]; then
	echo "build-debug-kernel: $(cat "$DIR/kernelrelease") up to date in $DIR" >&2
	echo "$DIR/bzImage"
	exit 0
fi

start=$(date +%s)
LOG=$DIR/build.log
: > "$LOG"
if [ "$(cat "$DIR/src/.tonic-tarball" 2>/dev/null)" != "$tar_key" ]; then
	echo "build-debug-kernel: extracting $TARBALL" >&2
	rm -rf "$DIR/src" "$DIR/obj" "$DIR/src.new"
	mkdir -p "$DIR/src.new"
	nice -n 19 tar -xJf "$TARBALL" -C "$DIR/src.new" --strip-components=1
	echo "$tar_key" > "$DIR/src.new/.tonic-tarball"
	mv "$DIR/src.new" "$DIR/src"
fi

echo "build-debug-kernel: configuring (tinyconfig + $(basename "$FRAG"))" >&2
mkdir -p "$DIR/obj"
rm -f "$DIR/obj/.tonic-key"
$K tinyconfig >> "$LOG" 2>&1
"$DIR/src/scripts/kconfig/merge_config.sh" -m -O "$DIR/obj" "$DIR/obj/.config" "$FRAG" >> "$LOG" 2>&1
$K olddefconfig >> "$LOG" 2>&1
# Every line of the fragment must have survived (a dependency it lacks
# makes Kconfig drop it silently).
bad=$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*=.*\)$/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1=n/p' "$FRAG" |
while IFS= read -r want; do
	sym=${want%%=*}
	got=$(grep -E "^$sym=|^# $sym is not set" "$DIR/obj/.config" | sed 's/^# \(.*\) is not set/\1=n/')
	[ "${got:-$sym=n}" = "$want" ] || echo "  $want (config has ${got:-nothing})"
done)
if [ -n "$bad" ]; then
	echo "build-debug-kernel: $FRAG: not in the resulting config:" >&2
	echo "$bad" >&2
	exit 1
fi

echo "build-debug-kernel: building (nice -n 19 make -j$JOBS; log $LOG)" >&2
$K -j"$JOBS" bzImage modules >> "$LOG" 2>&1 || {
	tail -n 40 "$LOG" >&2
	echo "build-debug-kernel: build failed (log $LOG)" >&2
	exit 1
}
krel=$($K kernelrelease)
rm -rf "$DIR/mods"
$K INSTALL_MOD_PATH="$DIR/mods" modules_install >> "$LOG" 2>&1
cp "$DIR/obj/arch/x86/boot/bzImage" "$DIR/bzImage"
echo "$krel" > "$DIR/kernelrelease"
echo "$key" > "$DIR/obj/.tonic-key"
echo "build-debug-kernel: $krel built in $(( $(date +%s) - start )) s" >&2
echo "$DIR/bzImage"
