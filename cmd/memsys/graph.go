package main

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/materialize"
)

// graphCommand prints the replayed graph: as graph.md would hold it,
// as JSON, as Mermaid (renders on GitHub) or as DOT (Graphviz).
func graphCommand() *cli.Command {
	return &cli.Command{
		Name:  "graph",
		Usage: "print the knowledge graph replayed from the events (md, json, mermaid or dot)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "md", Usage: "output `FORMAT`: md, json, mermaid or dot"},
			&cli.StringFlag{Name: "status", Usage: "only nodes with `STATUS` (comma-separated: active,blocked,completed,deprecated,planned) and edges between them"},
			lcAtFlag(),
		},
		Action: runGraph,
	}
}

func runGraph(ctx context.Context, cmd *cli.Command) error {
	format, err := lcFormat(cmd, "md", "json", "mermaid", "dot")
	if err != nil {
		return err
	}
	if cmd.Args().Len() > 0 {
		return usageErr("graph takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	var statuses []string
	if v := cmd.String("status"); v != "" || cmd.IsSet("status") {
		// A blank --status (an unset variable) is refused, not read as
		// every status.
		if err := memory.CheckStatusGiven(v); err != nil {
			return cannotRun{err}
		}
		statuses = strings.Split(v, ",")
	}
	at, err := lcAt(cmd)
	if err != nil {
		return err
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	g, err := memory.Graph(root, at, statuses)
	if err != nil {
		return cannotRun{err}
	}
	w := cmd.Root().Writer
	switch format {
	case "json":
		return lcJSON(w, memory.GraphJSON(g))
	case "mermaid":
		_, err = w.Write(memory.Mermaid(g))
	case "dot":
		_, err = w.Write(memory.DOT(g))
	default:
		_, err = w.Write(materialize.RenderGraph(g))
	}
	return err
}
