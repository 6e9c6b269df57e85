#!/bin/sh
# Print the newest kernel version that has both an installed image and its
# matching headers; the project never hard-codes a kernel version.
set -e
for img in /boot/vmlinuz-*; do
	[ -e "$img" ] || continue
	v=${img#/boot/vmlinuz-}
	[ -e "/lib/modules/$v/build/Makefile" ] && echo "$v"
done | sort -V | tail -n 1 | grep . || {
	echo "kver.sh: no kernel image with matching headers; run scripts/install-deps.sh" >&2
	exit 1
}
