#!/bin/sh
# The device spec (Documentation/device-spec.rst) against the one header the
# driver and the device model include (include/uapi/linux/tonic_pci.h):
# every TONIC_PCI_* constant of the header is in the spec's tables with the
# same value, every constant and struct field offset the spec lists is the
# header's.  TAP in build/results/device-spec.tap.
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$TOP/build}
H=$TOP/include/uapi/linux/tonic_pci.h
RST=$TOP/Documentation/device-spec.rst
OUT=$B/results/device-spec.tap
W=$B/device-spec
mkdir -p "$B/results" "$W"
: > "$OUT"

# Spec rows: ``NAME``  ``VALUE`` ...
sed -n 's/^``\([A-Za-z0-9_.]*\)`` *``\([0-9a-fx]*\)``.*/\1 \2/p' "$RST" |
	grep -E '^(TONIC_PCI_|tonic_pci_)' > "$W/spec.txt"
# Header constants: object-like #defines with a value.
sed -n 's/^#define \(TONIC_PCI_[A-Z0-9_]*\)[ 	]\{1,\}[^ 	].*/\1/p' "$H" > "$W/names.txt"

{
	echo '#include <stdio.h>'
	echo '#include <stddef.h>'
	echo '#include <uapi/linux/tonic_pci.h>'
	echo 'int main(void) {'
	while read -r n; do
		printf 'printf("%%s %%llu\\n", "%s", (unsigned long long)(%s));\n' "$n" "$n"
	done < "$W/names.txt"
	while read -r n v; do
		case $n in
		tonic_pci_*)
			s=${n%%.*}; f=${n#*.}
			printf 'printf("%%s %%llu\\n", "%s", (unsigned long long)offsetof(struct %s, %s));\n' \
				"$n" "$s" "$f" ;;
		esac
	done < "$W/spec.txt"
	echo 'return 0; }'
} > "$W/dump.c"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*" >> "$OUT"; }
nok() { n=$((n + 1)); echo "not ok $n - $*" >> "$OUT"; }
if ${CC:-cc} -std=gnu11 -Wall -I"$TOP/include" -o "$W/dump" "$W/dump.c" 2> "$W/cc.log" &&
   "$W/dump" > "$W/header.txt"; then
	ok "device-spec: header constants compile"
else
	nok "device-spec: header constants compile"
	sed 's/^/#   /' "$W/cc.log" | head -20 >> "$OUT"
	echo "1..$n" >> "$OUT"
	exit 1
fi

bad=0
while read -r name val; do
	spec=$(awk -v n="$name" '$1 == n { print $2; exit }' "$W/spec.txt")
	if [ -z "$spec" ]; then
		echo "#   $name = $val: missing from the spec" >> "$W/diff.txt"; bad=$((bad + 1))
	elif [ $((spec)) -ne "$val" ]; then
		echo "#   $name: spec says $spec, header says $val" >> "$W/diff.txt"; bad=$((bad + 1))
	fi
done < "$W/header.txt"
while read -r name val; do
	grep -q "^$name " "$W/header.txt" ||
		{ echo "#   $name: in the spec, not in the header" >> "$W/diff.txt"; bad=$((bad + 1)); }
done < "$W/spec.txt"
total=$(wc -l < "$W/header.txt")
if [ $bad = 0 ]; then
	ok "device-spec: $total constants and field offsets agree with the header"
else
	nok "device-spec: $bad disagreement(s) between spec and header"
	cat "$W/diff.txt" >> "$OUT"
fi
rm -f "$W/diff.txt"
echo "1..$n" >> "$OUT"
! grep -q '^not ok' "$OUT"
