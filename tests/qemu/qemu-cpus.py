#!/usr/bin/env python3
# qemu-cpus.py MONITOR_SOCKET SYSTEM_MAP: where each vCPU of a guest that
# stopped making progress is, for run.sh to print before it kills QEMU.
#
# A guest can hang where it cannot say so itself: every CPU spinning with
# interrupts off leaves no soft-lockup or RCU report (TCG has no NMI
# watchdog).  So first SysRq-L through the emulated keyboard (NMI
# backtraces of all CPUs into the serial log, when the guest still takes
# the key), then the monitor's registers: RIP, named from System.map where
# that is the real one (nokaslr keeps the kernel where it says; Debian's is
# a stub), and whether interrupts are on.
import re
import socket
import sys
import time
from bisect import bisect_right


def monitor(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    out = b""
    s.sendall(b"sendkey alt-sysrq-l\n")
    time.sleep(1)
    s.sendall(b"info registers -a\n")
    end = time.time() + 10
    while time.time() < end:
        try:
            b = s.recv(65536)
        except socket.timeout:
            break
        if not b:
            break
        out += b
        if out.count(b"RIP=") and out.rstrip().endswith(b"(qemu)"):
            break
    s.close()
    return out.decode(errors="replace")


def symbols(path):
    addrs, names = [], []
    try:
        with open(path) as f:
            for line in f:
                a, t, n = line.split()[:3]
                if t in "tTwW":
                    addrs.append(int(a, 16))
                    names.append(n)
    except OSError:
        pass
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def main():
    mon, smap = sys.argv[1], sys.argv[2]
    try:
        text = monitor(mon)
    except OSError as e:
        print(f"no monitor ({e})")
        return
    addrs, names = symbols(smap)
    cpu = -1
    for line in text.splitlines():
        m = re.match(r"CPU#(\d+)", line)
        if m:
            cpu = int(m.group(1))
        m = re.search(r"RIP=([0-9a-f]+) RFL=([0-9a-f]+)", line)
        if not m:
            continue
        rip, rfl = int(m.group(1), 16), int(m.group(2), 16)
        i = bisect_right(addrs, rip) - 1
        where = f" {names[i]}+{rip - addrs[i]:#x}" if i >= 0 and rip - addrs[i] < 1 << 16 else ""
        print(f"cpu{cpu} rip {rip:#x}{where} interrupts {'on' if rfl & 0x200 else 'OFF'}")


main()
