#!/bin/sh
# run.sh runs memsys's performance suite and prints the Markdown table
# of docs/benchmarks.md. Arguments are passed to go test, e.g.
#   bench/run.sh -benchtime 5x
#   MEMSYS_BENCH_1M=1 bench/run.sh        # add the 1M-event log (needs ~10 GB)
# Ratios compare each operation with a plain goldmark parse of the same
# file measured in the same run.
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
go test -run '^$' -bench '^Benchmark(Ops|Commands|Paired|Cost)$' -benchtime 3x -timeout 60m "$@" ./bench >"$out" 2>&1 || {
	cat "$out" >&2
	exit 1
}
printf '%s\n' "$(grep -E '^(goos|goarch|cpu):' "$out" | tr '\n' ' ')"
echo
echo '| events | operation | time/op | ns/event | × goldmark time | peak MB | × goldmark peak | × git status |'
echo '|-------:|-----------|--------:|---------:|----------------:|--------:|----------------:|-------------:|'
awk '
/^Benchmark(Ops|Commands)\// {
	split($1, parts, "/")
	n = parts[2]; sub(/^events=/, "", n)
	name = parts[3]; sub(/-[0-9]+$/, "", name)
	if (parts[1] ~ /Commands/) name = "`" name "` (process)"
	ns = ""; ev = ""; x = ""; pk = ""; px = ""; gs = ""
	for (i = 3; i < NF; i++) {
		u = $(i + 1)
		if (u == "ns/op") ns = $i
		else if (u == "ns/event") ev = $i
		else if (u == "x-goldmark") x = $i
		else if (u == "peak-MB") pk = $i
		else if (u == "peak-x-goldmark") px = $i
		else if (u == "x-git-status") gs = sprintf("%.1f", $i)
	}
	if (ns >= 1e9) t = sprintf("%.2f s", ns / 1e9)
	else if (ns >= 1e6) t = sprintf("%.1f ms", ns / 1e6)
	else t = sprintf("%.0f µs", ns / 1e3)
	if (x == "") x = "1"; else x = sprintf("%.3f", x)
	if (px == "") px = (pk == "" ? "" : "1"); else px = sprintf("%.3f", px)
	if (pk != "") pk = sprintf("%.0f", pk)
	printf "| %s | %s | %s | %.0f | %s | %s | %s | %s |\n", n, name, t, ev, x, pk, px, gs
}' "$out"
echo
echo 'Paired runs (goldmark, parse+replay and lint one after the other in each iteration; ratios of the medians):'
echo
awk '/^BenchmarkPaired\/events=/ {
	split($1, parts, "/"); n = parts[2]; sub(/^events=/, "", n); sub(/-[0-9]+$/, "", n)
	r = ""; l = ""
	for (i = 3; i < NF; i++) {
		if ($(i + 1) == "replay-x-goldmark") r = $i
		if ($(i + 1) == "lint-x-replay") l = $i
	}
	printf "- %s events: parse+replay %.3f× goldmark; lint %.2f× parse+replay\n", n, r, l
}' "$out"
echo
echo 'Issue 15 (BenchmarkCost: processes, median CPU time over the iterations; ratios in the same run):'
echo
awk '/^BenchmarkCost\/events=/ {
	split($1, parts, "/"); n = parts[2]; sub(/^events=/, "", n); sub(/-[0-9]+$/, "", n)
	out = ""
	for (i = 3; i < NF; i++) if ($(i + 1) ~ /-x-/) out = out sprintf(" %s %.3g;", $(i + 1), $i)
	printf "- %s events:%s\n", n, out
}
/append 100k \/ append 1k/ { sub(/^.*append 100k/, "append 100k"); print "- " $0 " (CPU time)" }' "$out"
