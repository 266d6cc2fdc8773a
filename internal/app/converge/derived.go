package converge

import (
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Render replays archive (may be nil) then log and renders graph.md and
// context.md, byte for byte what memsys regen writes for that history.
func Render(logName string, log []byte, archiveName string, archive []byte, opt materialize.Options) (graph, context []byte) {
	x := materialize.NewReplayer(opt)
	apply := func(e *parse.Event) { x.Apply(e) }
	if archive != nil {
		parse.Stream(archiveName, archive, apply, parse.Archive())
	}
	parse.Stream(logName, log, apply)
	return x.Render()
}
