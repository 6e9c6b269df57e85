#!/bin/sh
# Install everything the build, the tests and the demo need, from Debian's
# packages.  Idempotent: packages already present are not touched, so a
# second run costs one dpkg query.
# The RDMA test bed (Soft-RoCE, rdma_rxe, in the guest): rdma-core,
# ibverbs-utils (ibv_devinfo, ibv_rc_pingpong), ibverbs-providers (the
# dlopen'ed librxe provider), libibverbs-dev (the verbs programs
# tonic_rdma_xfer and tonic_verbs_target; named though librdmacm-dev
# depends on it), librdmacm-dev, rdmacm-utils (rping), perftest
# (ib_write_bw, ...); the `rdma` tool comes with iproute2.
set -e
# linux-source-6.12: its YNL tools (tools/net/ynl: ynl-gen-c.py, cli.py) and
# schemas generate and check the netlink code (scripts/ynl-gen.sh), with
# python3-yaml and python3-jsonschema.
PKGS="linux-image-amd64 linux-headers-amd64 linux-source-6.1 qemu-system-x86
busybox-static kmod cpio gzip iproute2 iperf3 libnl-3-dev libnl-genl-3-dev
pkg-config gcc make clang libclang-rt-14-dev sparse python3 procps
python3-matplotlib ethtool linux-source-6.12 python3-yaml python3-jsonschema
rdma-core ibverbs-utils ibverbs-providers libibverbs-dev librdmacm-dev rdmacm-utils perftest"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing:$missing (run as root)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
