package adopt

import (
	"errors"
	"io/fs"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// Outcome is what Run did, for the command to print.
type Outcome struct {
	Plan   Plan
	Result Result
	// Wrote lists the derived files regenerated (none on a dry run).
	Wrote []string
}

// Run adopts root's hand-kept derived files: under the memory's lock,
// it plans (Make), appends the events (Apply) and regenerates, unless
// dry, when it only plans and renders. agent and time fill every event.
func Run(root string, dry bool, agent, time string) (Outcome, error) {
	var o Outcome
	if !dry {
		unlock, err := workspace.Lock(root)
		if err != nil {
			return o, err
		}
		defer unlock()
	}
	cfg, err := memory.LoadConfig(root)
	if err != nil {
		return o, err
	}
	mem, err := memory.LoadHistory(root)
	if err != nil {
		return o, err
	}
	in := Input{Events: mem.Events, Options: lint.RenderOptions(cfg)}
	for _, f := range []struct {
		rel string
		dst *[]byte
	}{{parse.GraphFile, &in.Graph}, {parse.ContextFile, &in.Context}} {
		b, err := workspace.ReadFile(root, f.rel)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return o, err
		}
		*f.dst = b
	}
	o.Plan = Make(in)
	o.Result, err = Apply(parse.LogFile, mem.LogBytes, mem.Archive, in, o.Plan, agent, time)
	if err != nil || dry || len(o.Result.IDs) == 0 {
		return o, err
	}
	if err := workspace.WriteFile(root, parse.LogFile, o.Result.Log); err != nil {
		return o, err
	}
	o.Wrote, err = memory.Regen(root, cfg, true)
	return o, err
}
