// Command deps is the start-up floor of a Go program that links
// memsys's third-party libraries and nothing of memsys: their package
// initialisation (goldmark's regexps and entity tables, go-diff's
// regexps, urfave/cli) runs before main in every memsys command.
// BenchmarkCost times it beside memsys --version.
package main

import (
	"fmt"
	"os"

	_ "github.com/sergi/go-diff/diffmatchpatch"
	_ "github.com/urfave/cli/v3"
	_ "github.com/yuin/goldmark/parser"
)

func main() { fmt.Fprintln(os.Stdout, "deps") }
