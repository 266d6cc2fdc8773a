// Package loggen generates large, realistic CHANGELOG.md event logs for
// benchmarks, fuzz seeds and fault tests. Output is a pure function of
// (n, seed): the same call gives the same bytes on every machine, so a
// benchmark figure or a crash-test failure can always be reproduced.
package loggen
