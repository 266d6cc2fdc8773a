package converge

import (
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Render replays archive (may be nil) then log and renders graph.md and
// context.md, byte for byte what memsys regen writes for that history
// (sealed, materialize.Replayer.Files).
func Render(logName string, log []byte, archiveName string, archive []byte, opt materialize.Options) (graph, context []byte) {
	// The streaming replay skips a superseded event when it passes, so
	// it must be told beforehand which events later ones supersede:
	// predicted from the bytes, as regen does, and replayed again with
	// the fields the events hold when the prediction was wrong.
	var expect []parse.Supersession
	if archive != nil {
		expect = parse.ScanSupersedes(archiveName, archive)
	}
	expect = append(expect, parse.ScanSupersedes(logName, log)...)
	x := replayBytes(logName, log, archiveName, archive, opt, expect)
	if !x.Exact() {
		x = replayBytes(logName, log, archiveName, archive, opt, x.Seen())
	}
	return x.Files()
}

func replayBytes(logName string, log []byte, archiveName string, archive []byte, opt materialize.Options, expect []parse.Supersession) *materialize.Replayer {
	x := materialize.NewReplayer(opt)
	x.Expect(expect)
	apply := func(e *parse.Event) { x.Apply(e) }
	if archive != nil {
		parse.Stream(archiveName, archive, apply, parse.Archive())
	}
	parse.Stream(logName, log, apply)
	return x
}
