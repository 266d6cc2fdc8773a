package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/base/buildinfo"
	"github.com/memsys/memsys/internal/base/words"
)

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print the memsys version (as memsys --version does)",
		ArgsUsage: " ",
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usageErr("version takes no arguments, got %q", words.Clip(cmd.Args().First()))
			}
			fmt.Fprintln(cmd.Root().Writer, "memsys version "+buildinfo.Version())
			return nil
		},
	}
}

// didYouMean is ` (did you mean "lint"?)` when name is a command
// mistyped by at most two edits, else "".
func didYouMean(cmds []*cli.Command, name string) string {
	best, bestD := "", 3
	for _, c := range cmds {
		if c.Hidden {
			continue
		}
		for _, n := range c.Names() {
			// A name no longer than the distance shares nothing with
			// what was typed: "x" is one edit from help's alias "h".
			if d := editDistance(name, n); d < bestD && d < len(n) {
				best, bestD = n, d
			}
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance of a and b, by bytes:
// command names are ASCII.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
