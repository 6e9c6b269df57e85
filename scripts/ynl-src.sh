#!/bin/sh
# ynl-src.sh: print a directory holding the kernel's YNL tools
# (tools/net/ynl: ynl-gen-c.py, cli.py, lib/) and schemas
# (Documentation/netlink/genetlink*.yaml), taken from Debian's
# linux-source-6.12 tarball (the newest 6.12 one in /usr/src) and extracted
# once into $B/ynl/.  YNL_SRC=DIR uses DIR instead (a kernel tree).
set -e
if [ -n "${YNL_SRC:-}" ]; then
	[ -f "$YNL_SRC/tools/net/ynl/ynl-gen-c.py" ] ||
		{ echo "ynl-src: no tools/net/ynl/ynl-gen-c.py in $YNL_SRC" >&2; exit 1; }
	echo "$YNL_SRC"
	exit 0
fi
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$TOP/build}
TAR=$(ls /usr/src/linux-source-6.12*.tar.xz 2>/dev/null | sort -V | tail -n 1)
[ -n "$TAR" ] || { echo "ynl-src: no /usr/src/linux-source-6.12*.tar.xz: make deps" >&2; exit 1; }
D=$B/ynl/$(basename "$TAR" .tar.xz)
if [ ! -f "$D/.done" ]; then
	rm -rf "$D.tmp"
	mkdir -p "$D.tmp"
	tar -xJf "$TAR" -C "$D.tmp" --strip-components=1 --wildcards \
		'*/tools/net/ynl' '*/Documentation/netlink/genetlink*.yaml' \
		'*/Documentation/netlink/netlink-raw.yaml'
	touch "$D.tmp/.done"
	rm -rf "$D"
	mv "$D.tmp" "$D"
fi
echo "$D"
