# Helpers for the PCIe-backend guest tests; `. /tests/pci-lib.sh` after lib.sh.

# pci_guest: true when the guest was booted with a Tonic PCIe function
# (tests/qemu/run.sh --backend pci); says why not otherwise.
pci_guest() {
	grep -qw 'tonic.backend=pci' /proc/cmdline && return 0
	echo "no Tonic PCIe function in this guest (run.sh --backend pci)"
	return 1
}

# pci_dev: PCI_DEV = sysfs directory of the device bound to tonic_pci.
pci_dev() {
	PCI_DEV=
	[ -d /sys/bus/pci/drivers/tonic_pci ] || { echo "tonic.ko has no tonic_pci driver"; return 1; }
	for d in /sys/bus/pci/drivers/tonic_pci/0000:*; do
		[ -e "$d/tonic_info" ] && PCI_DEV=$d && return 0
	done
	return 1
}

# pci_info KEY: one value of the device's tonic_info.
pci_info() {
	sed -n "s/^$1: *//p" "$PCI_DEV/tonic_info"
}

# pci_wait_state STATE SECONDS
pci_wait_state() {
	i=0
	while [ "$(pci_info state)" != "$1" ]; do
		i=$((i + 1))
		[ $i -gt $(($2 * 10)) ] && return 1
		sleep 0.1
	done
}

# pci_need_dev: pci_dev, or exit: skip when tonic.ko has no PCIe driver,
# fail when it has one but nothing is bound.
pci_need_dev() {
	pci_dev && return 0
	[ -d /sys/bus/pci/drivers/tonic_pci ] || exit $KSFT_SKIP
	ksft_fail "no PCI device bound to tonic_pci"
}

# pci_need_offload: skip unless the TCP offload ("tonic" congestion control) is in the module.
pci_need_offload() {
	grep -qw tonic /proc/sys/net/ipv4/tcp_available_congestion_control && return 0
	echo "tonic.ko has no TCP offload yet"
	exit $KSFT_SKIP
}

# pci_loopback FLOWS SEGMENTS: run the driver's loopback self-test, wait for
# it, print its figures; true if it passed.
pci_loopback() {
	echo "$1 $2" > "$PCI_DEV/tonic_loopback" || return 1
	i=0
	while grep -q '^result: running' "$PCI_DEV/tonic_loopback"; do
		i=$((i + 1))
		[ $i -gt 600 ] && return 1
		sleep 0.1
	done
	cat "$PCI_DEV/tonic_loopback"
	grep -q '^result: ok' "$PCI_DEV/tonic_loopback"
}
