// Command hello is the start-up floor of any Go program on this host:
// BenchmarkCost times it beside git status and memsys --version.
package main

import (
	"fmt"
	"os"
)

func main() { fmt.Fprintln(os.Stdout, "hello") }
