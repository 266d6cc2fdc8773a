package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// showCommand prints one event, what it did to the graph, and the
// events that refer to it.
func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show one event, what it changed in the graph, and the events that refer to it",
		UsageText: "memsys show [--format text|json] [--at evt-NNN] evt-NNN",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
			lcAtFlag(),
		},
		Action: runShow,
	}
}

// lcAtFlag is the --at flag of the read commands.
func lcAtFlag() cli.Flag {
	return &cli.StringFlag{Name: "at", Usage: "read the memory as of event `evt-NNN` (events after it are ignored)"}
}

// lcLoad loads the memory and returns its events (archive first, then
// log) cut after --at when given.
func lcLoad(cmd *cli.Command) (*workspace.Memory, []parse.Event, error) {
	root, err := lcRoot(cmd)
	if err != nil {
		return nil, nil, err
	}
	mem, err := memory.LoadHistory(root)
	if err != nil {
		return nil, nil, err
	}
	evs := mem.Events
	if at := cmd.String("at"); at != "" {
		i, err := lcFind(evs, at, "--at")
		if err != nil {
			return nil, nil, err
		}
		evs = evs[:i+1]
	}
	return mem, evs, nil
}

// lcFind returns the index of event id (matched by number, so evt-7
// finds evt-007) or an exit-2 error naming the flag or argument.
func lcFind(evs []parse.Event, id, what string) (int, error) {
	num, ok := parse.EventNum(id)
	if !ok {
		return 0, memory.ErrNotEventID(what, id)
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Num == num {
			return i, nil
		}
	}
	return 0, memory.ErrNoSuchEvent(what, id)
}

// showResult is the JSON form of show.
type showResult struct {
	eventLine
	Details      []detailJSON `json:"details"`
	Refs         []string     `json:"refs"`
	Tags         []string     `json:"tags"`
	Text         string       `json:"text"`
	Changes      changeJSON   `json:"changes"`
	ReferencedBy []eventLine  `json:"referenced_by"`
}

type detailJSON struct {
	Key      string       `json:"key"`
	Value    string       `json:"value"`
	Children []detailJSON `json:"children,omitempty"`
}

type changeJSON struct {
	NodesAdded   []string `json:"nodes_added"`
	NodesUpdated []string `json:"nodes_updated"`
	EdgesAdded   []string `json:"edges_added"`
	EdgesUpdated []string `json:"edges_updated"`
	Notes        []string `json:"notes"`
}

func lcDetails(ds []parse.Detail) []detailJSON {
	out := make([]detailJSON, 0, len(ds))
	for _, d := range ds {
		out = append(out, detailJSON{Key: d.Key, Value: d.Value, Children: lcDetailKids(d.Children)})
	}
	return out
}

func lcDetailKids(ds []parse.Detail) []detailJSON {
	if len(ds) == 0 {
		return nil
	}
	return lcDetails(ds)
}

func lcNonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// lcChangesFor returns the change record of event i. Replay returns one
// Change per event in order; the ID check guards against a mismatch.
func lcChangesFor(changes []materialize.Change, evs []parse.Event, i int) changeJSON {
	c := materialize.Change{}
	if i < len(changes) && changes[i].Event == evs[i].ID {
		c = changes[i]
	} else {
		for _, x := range changes {
			if x.Event == evs[i].ID {
				c = x
			}
		}
	}
	return changeJSON{
		NodesAdded: lcNonNil(c.NodesAdded), NodesUpdated: lcNonNil(c.NodesUpdated),
		EdgesAdded: lcNonNil(c.EdgesAdded), EdgesUpdated: lcNonNil(c.EdgesUpdated),
		Notes: lcNonNil(c.Notes),
	}
}

func lcRefersTo(e parse.Event, num int) bool {
	for _, r := range e.Refs {
		if n, ok := parse.EventNum(r); ok && n == num {
			return true
		}
	}
	return false
}

func runShow(ctx context.Context, cmd *cli.Command) error {
	format, err := lcFormat(cmd, "text", "json")
	if err != nil {
		return err
	}
	if cmd.Args().Len() != 1 {
		return usageErr("show takes one event ID, e.g. memsys show evt-042")
	}
	_, evs, err := lcLoad(cmd)
	if err != nil {
		return err
	}
	i, err := lcFind(evs, cmd.Args().First(), "event")
	if err != nil {
		return err
	}
	e := evs[i]
	_, changes := materialize.Replay(evs[:i+1])
	r := showResult{
		eventLine: lcEventLine(e),
		Details:   lcDetails(e.Details),
		Refs:      lcNonNil(e.Refs),
		Tags:      lcNonNil(e.Tags),
		Text:      e.Text,
		Changes:   lcChangesFor(changes, evs, i),
	}
	r.ReferencedBy = []eventLine{}
	for _, x := range evs[i+1:] {
		if lcRefersTo(x, e.Num) {
			r.ReferencedBy = append(r.ReferencedBy, lcEventLine(x))
		}
	}
	w := cmd.Root().Writer
	if format == "json" {
		return lcJSON(w, r)
	}
	fmt.Fprintf(w, "%s:%d\n\n", e.Range.File, e.Range.Line)
	fmt.Fprint(w, strings.TrimRight(e.Text, "\n")+"\n")
	fmt.Fprintln(w, "\nGraph changes:")
	n := 0
	for _, g := range []struct {
		label string
		items []string
	}{
		{"node added", r.Changes.NodesAdded}, {"node updated", r.Changes.NodesUpdated},
		{"edge added", r.Changes.EdgesAdded}, {"edge updated", r.Changes.EdgesUpdated},
		{"note", r.Changes.Notes},
	} {
		for _, it := range g.items {
			fmt.Fprintf(w, "- %s: %s\n", g.label, it)
			n++
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "- none")
	}
	fmt.Fprintln(w, "\nReferenced by:")
	for _, x := range r.ReferencedBy {
		fmt.Fprintf(w, "- %s\n", x)
	}
	if len(r.ReferencedBy) == 0 {
		fmt.Fprintln(w, "- none")
	}
	return nil
}
