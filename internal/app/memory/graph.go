package memory

import (
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/materialize"
)

// Graph replays root's history (as of event at, when not "") and
// returns the graph memsys graph prints: with statuses, only the nodes
// with one of them (any case) and the edges between those. An unknown
// status is an error that lists the valid ones.
func Graph(root, at string, statuses []string) (*materialize.Graph, error) {
	var keep []string
	for _, s := range statuses {
		s = strings.ToLower(strings.TrimSpace(s))
		if !slices.Contains(materialize.NodeStatuses, s) {
			return nil, front.Errorf("%s %q: unknown status: use %s", inStatus.Name(), words.Clip(s), strings.Join(materialize.NodeStatuses, ", "))
		}
		keep = append(keep, s)
	}
	at, err := ResolveAt(root, at)
	if err != nil {
		return nil, err
	}
	// Only the graph is shown: replay as the log streams past.
	_, x, err := Replay(root, materialize.DefaultOptions(), at)
	if err != nil {
		return nil, err
	}
	g := x.Graph()
	if keep != nil {
		g = FilterGraph(g, keep)
	}
	return g, nil
}
