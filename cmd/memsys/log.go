package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// logCommand lists events oldest first, one line each, archive
// included. Filters combine with AND.
func logCommand() *cli.Command {
	return &cli.Command{
		Name:  "log",
		Usage: "list events oldest first, one line each, filtered by entity, type, agent, date or refs",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "entity", Usage: "only events that touched graph node `NAME` (its full history)"},
			&cli.StringFlag{Name: "type", Usage: "only events of `TYPE` (comma-separated for several)"},
			&cli.StringFlag{Name: "agent", Usage: "only events by `AGENT`"},
			&cli.StringFlag{Name: "since", Usage: "only events at or after `DATE` (YYYY-MM-DD or \"YYYY-MM-DD HH:MM\")"},
			&cli.StringFlag{Name: "until", Usage: "only events at or before `DATE` (a date includes the whole day)"},
			&cli.StringFlag{Name: "refs-to", Usage: "only events whose Refs name `evt-NNN`"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
			lcAtFlag(),
		},
		Action: runLog,
	}
}

// lcBound parses a --since/--until value into a Time key; end widens a
// date-only bound to the end of its day.
func lcBound(flag, v string, end bool) (int64, error) {
	t, msg := parse.ParseTime(v)
	if msg != "" {
		return 0, usageErr("--%s %q is not a date: write YYYY-MM-DD or \"YYYY-MM-DD HH:MM\"", flag, v)
	}
	if t.DateOnly && end {
		t.Hour, t.Minute = 23, 59
	}
	return t.Key(), nil
}

func runLog(ctx context.Context, cmd *cli.Command) error {
	format, err := lcFormat(cmd, "text", "json")
	if err != nil {
		return err
	}
	if cmd.Args().Len() > 0 {
		return usageErr("log takes no arguments, got %q: filter with --entity, --type, --agent, --since, --until or --refs-to", cmd.Args().First())
	}
	var since, until int64 = 0, 1 << 62
	if v := cmd.String("since"); v != "" {
		if since, err = lcBound("since", v, false); err != nil {
			return err
		}
	}
	if v := cmd.String("until"); v != "" {
		if until, err = lcBound("until", v, true); err != nil {
			return err
		}
	}
	_, evs, err := lcLoad(cmd)
	if err != nil {
		return err
	}
	refsTo := 0
	if v := cmd.String("refs-to"); v != "" {
		i, err := lcFind(evs, v, "--refs-to")
		if err != nil {
			return err
		}
		refsTo = evs[i].Num
	}
	var types []string
	if v := cmd.String("type"); v != "" {
		for _, t := range strings.Split(v, ",") {
			types = append(types, strings.ToLower(strings.TrimSpace(t)))
		}
	}
	var touched map[int]bool
	if ent := cmd.String("entity"); ent != "" {
		if touched, err = lcTouched(evs, ent); err != nil {
			return err
		}
	}
	agent := cmd.String("agent")

	out := []eventLine{}
	for i, e := range evs {
		switch {
		case touched != nil && !touched[i],
			types != nil && !lcContains(types, e.Type),
			agent != "" && !strings.EqualFold(agent, e.Agent),
			e.Time.Key() < since || e.Time.Key() > until,
			refsTo != 0 && !lcRefersTo(e, refsTo):
			continue
		}
		out = append(out, lcEventLine(e))
	}
	w := cmd.Root().Writer
	if format == "json" {
		return lcJSON(w, out)
	}
	for _, l := range out {
		fmt.Fprintln(w, l)
	}
	return nil
}

func lcContains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// lcTouched returns the indexes of the events that added or updated
// node name or an edge from or to it, per Replay's change records.
func lcTouched(evs []parse.Event, name string) (map[int]bool, error) {
	g, changes := materialize.Replay(evs)
	n := g.Node(name)
	if n == nil {
		return nil, usageErr("--entity %q: no such node in the graph: memsys graph lists the nodes", name)
	}
	touched := map[int]bool{}
	for i := range evs {
		c := lcChangesFor(changes, evs, i)
		hit := lcContains(c.NodesAdded, n.Name) || lcContains(c.NodesUpdated, n.Name)
		for _, e := range append(c.EdgesAdded, c.EdgesUpdated...) {
			from, to := lcEdgeEnds(e)
			hit = hit || from == n.Name || to == n.Name
		}
		if hit {
			touched[i] = true
		}
	}
	return touched, nil
}

// lcEdgeEnds splits materialize's "from -relation-> to" edge label.
func lcEdgeEnds(s string) (from, to string) {
	loc := edgeArrowRE().FindStringIndex(s)
	if loc == nil {
		return "", ""
	}
	return s[:loc[0]], s[loc[1]:]
}

// edgeArrowRE matches the " -relation-> " arrow; relations are
// lower-case snake words, so a dash inside a node name does not match.
var edgeArrowRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` -[a-z_]+-> `) })
