# Helpers of the guest's benchmarks (bench-e2e.sh, bench-pci.sh): iperf3
# from h1 to h2 (servers on ports 5201...), goodput and the whole guest's
# CPU per GB, medians over $R runs of $T seconds.

median() { sort -n | awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : 0 }'; }

# Busy jiffies of the whole guest: user nice system irq softirq steal.
busy_jiffies() { awk '/^cpu / { printf "%d\n", $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }

# iperf_run CC [SECONDS [PORT [STREAMS]]] -> "goodput_Mbps cpu_s_per_GB"
iperf_run() {
	j0=$(busy_jiffies)
	on h1 $IPERF -c 10.0.0.2 -p ${3:-5201} -t ${2:-$T} -P ${4:-1} -C "$1" -f m \
		2>/dev/null > /tmp/iperf.out
	j1=$(busy_jiffies)
	awk -v j=$((j1 - j0)) -v t=${2:-$T} -v p=${4:-1} '
		/receiver$/ && (p == 1 || /SUM/) {
			for (i = 1; i <= NF; i++) if ($i == "Mbits/sec") g = $(i - 1) }
		END { gb = g * t / 8000; printf "%s %.1f\n", (g ? g : 0), (gb > 0 ? j / 100 / gb : 0) }' \
		/tmp/iperf.out
}

# cell CC [SECONDS]: the median goodput and CPU/GB of R runs, "g c".
cell() {
	_cc=$1 _t=$2
	: > /tmp/g; : > /tmp/c
	i=0
	while [ $i -lt $R ]; do
		set -- $(iperf_run $_cc $_t)
		echo "$1" >> /tmp/g; echo "$2" >> /tmp/c
		i=$((i + 1))
	done
	echo "$(median < /tmp/g) $(median < /tmp/c)"
}

# pingpong_run cubic|offloaded BYTES ROUND_TRIPS: TCP_NODELAY messages of
# BYTES from h1 to h2's echo server and back (tonic_xfer -Q), h1 with
# kernel cubic or offloaded -> "p50_us p99_us cpu_us_per_rt
# h1_pkts_per_rt" (the whole guest's busy CPU, both ends being in it).
pingpong_run() {
	on h2 tonic_xfer -s 7300 -Q > /dev/null 2>&1 &
	sleep 0.3
	_j0=$(busy_jiffies) _p0=$(on h1 cat /sys/class/net/eth0/statistics/tx_packets)
	if [ $1 = offloaded ]; then
		on h1 tonic_xfer -c 10.0.0.2 7300 $3 -Q -m $2 -U -T 0 -r
	else
		on h1 tonic_xfer -c 10.0.0.2 7300 $3 -Q -m $2 -C cubic
	fi > /tmp/pingpong.out
	_j1=$(busy_jiffies) _p1=$(on h1 cat /sys/class/net/eth0/statistics/tx_packets)
	wait
	awk -v j=$((_j1 - _j0)) -v p=$((_p1 - _p0)) -v n=$3 '/^pingpong:/ {
		for (i = 1; i <= NF; i++) { if ($i == "p50") p50 = $(i + 1); if ($i == "p99") p99 = $(i + 1) }
		printf "%s %s %.0f %.2f\n", p50, p99, j * 10000 / n, p / n }' /tmp/pingpong.out
}
