// Package bench holds memsys's performance suite: testing.B benchmarks
// over generated logs (internal/testkit/loggen) of 1k, 10k, 100k and, with
// MEMSYS_BENCH_1M=1, 1M events. Every memsys operation is measured
// beside a plain goldmark parse of the same whole file in the same run,
// and reported as a ratio to it, because absolute times depend on the
// machine and ratios do not (much).
//
// Peak memory is real peak RSS: the test binary re-executes itself for
// one operation on one log and reads the child's Maxrss, so the figure
// includes everything the operation held at once (source, AST, GC
// headroom), not just bytes allocated.
//
// run.sh runs the suite and prints the Markdown table that
// docs/benchmarks.md holds.
package bench
