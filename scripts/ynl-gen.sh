#!/bin/sh
# ynl-gen.sh [--check]: generate, with the kernel's YNL code generator
# (ynl-gen-c.py, scripts/ynl-src.sh), from Documentation/netlink/specs/tonic.yaml:
#
#   include/uapi/linux/tonic_nl.h  the family's constants, enums, attribute
#                                  and command IDs (--mode uapi), included
#                                  by include/uapi/linux/tonic.h
#   admin/netlink/tonic-nl-gen.[ch]      the per-command attribute policies and
#                                  the ops table (--mode kernel), used by
#                                  admin/netlink/family.c
#
# --check: generate into a scratch directory and compare with the files in
# the tree instead; print the differences and fail if there are any.
# TONIC_YNL_SPEC=FILE generates from another spec (the tests use it).
set -e
TOP=$(cd "$(dirname "$0")/.." && pwd)
CHECK=0
[ "${1:-}" = --check ] && CHECK=1
SPEC=${TONIC_YNL_SPEC:-$TOP/Documentation/netlink/specs/tonic.yaml}
Y=$("$TOP"/scripts/ynl-src.sh)

S=$(mktemp -d)
trap 'rm -rf "$S"' EXIT
# ynl-gen-c.py names the spec by its path below the tree's top (the
# directory with MAINTAINERS) and looks for the schema two levels above
# the spec: lay out a kernel-like tree.
mkdir -p "$S/Documentation/netlink/specs" "$S/out"
: > "$S/MAINTAINERS"
cp "$Y"/Documentation/netlink/*.yaml "$S/Documentation/netlink/"
cp "$SPEC" "$S/Documentation/netlink/specs/tonic.yaml"
gen() {
	python3 "$Y/tools/net/ynl/ynl-gen-c.py" --spec "$S/Documentation/netlink/specs/tonic.yaml" \
		--mode "$1" "$2" -o "$S/out/$3"
}
gen uapi --header tonic_nl.h
gen kernel --header tonic-nl-gen.h
gen kernel --source tonic-nl-gen.c

rc=0
for f in include/uapi/linux/tonic_nl.h admin/netlink/tonic-nl-gen.h admin/netlink/tonic-nl-gen.c; do
	if [ $CHECK = 1 ]; then
		if ! diff -u "$TOP/$f" "$S/out/$(basename "$f")" > "$S/diff"; then
			echo "ynl-gen: $f differs from what the spec generates:"
			sed 's/^/    /' "$S/diff"
			rc=1
		fi
	elif ! cmp -s "$S/out/$(basename "$f")" "$TOP/$f"; then
		cp "$S/out/$(basename "$f")" "$TOP/$f"
		echo "ynl-gen: wrote $f"
	fi
done
[ $rc = 0 ] || echo "ynl-gen: run scripts/ynl-gen.sh to regenerate" >&2
exit $rc
