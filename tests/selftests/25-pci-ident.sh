#!/bin/sh
# PCIe backend: a device whose identification registers are broken or
# hostile is refused at probe, with every region's end computed in 64 bits:
# offsets near 4 GiB whose ring, table or block would wrap a 32-bit end
# back into the window, misaligned offsets, an impossible window bitmap.
# Each is written into the (unbound) device model's registers through the
# BAR; binding must fail with "inconsistent identification" and nothing
# else (no access outside the window: that would be an oops); with the
# original values back the device binds and works.
# timeout: 120
. /tests/lib.sh
. /tests/pci-lib.sh
pci_guest || exit $KSFT_SKIP
tonic_load || ksft_fail "modprobe tonic"
pci_need_dev
bdf=$(basename "$PCI_DEV")
DRV=/sys/bus/pci/drivers/tonic_pci
RES=/sys/bus/pci/devices/$bdf/resource2
BAR=/usr/bin/tonic_bar
echo "$bdf" > $DRV/unbind || ksft_fail "unbind"
# The BAR stays decoded for the test's own accesses.
echo 1 > "/sys/bus/pci/devices/$bdf/enable" 2>/dev/null
[ "$($BAR $RES 0x000)" = 0x43494e54 ] || ksft_fail "no Tonic magic through $RES"

# hostile REG VALUE WHY: with REG = VALUE the probe must refuse the device.
hostile() {
	orig=$($BAR $RES "$1") || ksft_fail "read $1"
	$BAR $RES "$1" "$2" || ksft_fail "write $1"
	dmesg -c > /dev/null
	echo "$bdf" > $DRV/bind 2>/dev/null && {
		echo "$bdf" > $DRV/unbind
		$BAR $RES "$1" "$orig"
		ksft_fail "bound with $3 ($1 = $2)"
	}
	$BAR $RES "$1" "$orig"
	dmesg | grep -q "inconsistent identification" ||
		ksft_fail "$3: no 'inconsistent identification' in the log: $(dmesg | tail -n 3)"
	echo "refused: $3 ($1 = $2)"
}
CMD_OFF=0x020 EVT_OFF=0x028 PROG_OFF=0x030 FSTAT_OFF=0x038 CSTAT_OFF=0x03c
cmd_n=$(($($BAR $RES 0x024)))
evt_n=$(($($BAR $RES 0x02c)))
flows=$(($($BAR $RES 0x00c)))
# offset + size == 2^32: the 32-bit end wraps to 0, below the window size.
hostile $CMD_OFF $(( (1 << 32) - cmd_n * 64 )) "command ring wrapping 4 GiB"
hostile $EVT_OFF $(( (1 << 32) - evt_n * 16 )) "event ring wrapping 4 GiB"
hostile $FSTAT_OFF $(( (1 << 32) - flows * 128 )) "flow statistics wrapping 4 GiB"
hostile $PROG_OFF $(( (1 << 32) - 32 * 16 )) "program table wrapping 4 GiB"
hostile $CSTAT_OFF $(( (1 << 32) - 0x80 )) "engine statistics wrapping 4 GiB"
hostile $CMD_OFF 0xffffffff "command ring at the top of 4 GiB"
# Misaligned, but inside the window and overlapping nothing: refused for the alignment alone.
hostile $FSTAT_OFF $(( $($BAR $RES $FSTAT_OFF) + 2 )) "misaligned flow statistics"
hostile $CSTAT_OFF 0x3fe "misaligned engine statistics"
hostile 0x01c 0xffffffff "window larger than the BAR"
hostile 0x024 0x80000000 "2^31 command entries"
hostile 0x010 4096 "window bitmap of 4096"
hostile 0x00c 0xffffffff "2^32 - 1 flows"

echo 0 > "/sys/bus/pci/devices/$bdf/enable" 2>/dev/null
echo "$bdf" > $DRV/bind || ksft_fail "bind with the original identification"
pci_dev || ksft_fail "not bound again"
pci_wait_state up 5 || ksft_fail "state after rebind: $(pci_info state)"
pci_loopback 2 5000 || ksft_fail "loopback after rebind"
$MODPROBE -r tonic || ksft_fail "unload"
exit $KSFT_PASS
