//go:build unix

package bench

import (
	"bytes"
	"io/fs"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// An op is one measured operation. prep runs outside the timer and
// returns the work to time; the peak-memory child runs prep and the
// work once each, so an op's peak covers the whole pipeline up to and
// including its step (render's peak includes the parse it needs).
type op struct {
	name string
	prep func(src []byte) func()
}

// ops lists the operations in table order; goldmark must stay first:
// the others are reported as ratios to it.
var ops = []op{
	{"goldmark", func(src []byte) func() {
		return func() { goldmark.New().Parser().Parse(text.NewReader(src)) }
	}},
	// linescan is the floor: reading every line once, the least any
	// tool that looks at the whole log can do.
	{"linescan", func(src []byte) func() {
		return func() {
			n := 0
			for line := range bytes.Lines(src) {
				if bytes.HasPrefix(line, []byte("### evt-")) {
					n++
				}
			}
			sink = n
		}
	}},
	{"parse", func(src []byte) func() {
		return func() { sink = parse.Parse("CHANGELOG.md", src) }
	}},
	// parse-headers is what append reads: headings, not bodies.
	{"parse-headers", func(src []byte) func() {
		return func() { sink = parse.Parse("CHANGELOG.md", src, parse.HeadersOnly()) }
	}},
	// replay is the step alone, over events parsed outside the timer.
	{"replay", func(src []byte) func() {
		evs := parse.Parse("CHANGELOG.md", src).Events
		return func() { sink, _ = materialize.Replay(evs) }
	}},
	{"render-graph", func(src []byte) func() {
		g, _ := materialize.Replay(parse.Parse("CHANGELOG.md", src).Events)
		return func() { sink = materialize.RenderGraph(g) }
	}},
	// parse+replay from scratch is issue 2's target: at most 0.4x the
	// time and 0.15x the peak memory of the goldmark parse. It is what
	// regen does: events are replayed, on a second goroutine, as the
	// parser completes them, and none is kept.
	{"parse+replay", func(src []byte) func() {
		return func() {
			a := materialize.NewAsync(materialize.DefaultOptions())
			a.Expect(parse.ScanSupersedes("CHANGELOG.md", src))
			parse.Stream("CHANGELOG.md", src, a.Add)
			sink = a.Wait()
		}
	}},
	// parse+replay-kept parses the whole log first and keeps it, as
	// lint and the commands that look events up must.
	{"parse+replay-kept", func(src []byte) func() {
		return func() { sink, _ = materialize.Replay(parse.Parse("CHANGELOG.md", src).Events) }
	}},
	// render is both derived files from a replayed graph.
	{"render", func(src []byte) func() {
		evs := parse.Parse("CHANGELOG.md", src).Events
		g, _ := materialize.Replay(evs)
		opt := materialize.DefaultOptions()
		return func() {
			sink = materialize.RenderGraph(g)
			sink = materialize.RenderContext(materialize.BuildContext(evs, g, opt))
		}
	}},
	// regen is the command's work without the file system: parse,
	// replay, render graph.md and context.md, from scratch.
	{"regen", func(src []byte) func() {
		return func() { sink, sink = regen(src) }
	}},
	// lint is the command's work without the file system, from scratch:
	// the streamed parse, every rule (replay and render included, for
	// the drift rules) over a full-tier memory whose derived files are
	// current.
	{"lint", func(src []byte) func() {
		readFile, exists := currentMemory(src)
		l, err := lint.New(config.Default())
		if err != nil {
			panic(err)
		}
		return func() {
			// As the command does: the history streams through a
			// Session and no event is kept.
			s := l.Start(lint.Input{LogFile: "CHANGELOG.md", ReadFile: readFile, Exists: exists})
			s.Expect(parse.ScanSupersedes("CHANGELOG.md", src))
			log := parse.Stream("CHANGELOG.md", src, s.Event, parse.Reuse(s))
			ds := s.Finish(log, nil)
			for _, d := range ds {
				if d.Severity == diag.Error {
					panic("lint finds an error in the generated log: " + d.Error())
				}
			}
			sink = ds
		}
	}},
}

// regen streams the log through a Replayer and renders the files, each
// sealed with the digest of the events, as the command does.
func regen(src []byte) (graph, context []byte) {
	a := materialize.NewAsync(materialize.DefaultOptions())
	a.Expect(parse.ScanSupersedes("CHANGELOG.md", src))
	parse.Stream("CHANGELOG.md", src, a.Add, parse.Reuse(a))
	return a.Wait().Files()
}

// currentMemory reads a full-tier memory around log src whose derived
// files are what regen writes, for a lint.Input without the file system.
func currentMemory(src []byte) (readFile func(string) ([]byte, error), exists func(string) bool) {
	graph, context := regen(src)
	files := map[string][]byte{
		".memory/graph.md": graph, ".memory/context.md": context,
		"AGENTS.md": []byte("# Agents\n\n## Memory System Protocol\n"),
		"TODO.md":   []byte("# TODO\n"),
	}
	readFile = func(rel string) ([]byte, error) {
		if b, ok := files[rel]; ok {
			return b, nil
		}
		if rel == ".memory" {
			return nil, nil
		}
		return nil, fs.ErrNotExist
	}
	exists = func(rel string) bool { _, err := readFile(rel); return err == nil }
	return readFile, exists
}

// sink keeps results alive so the compiler cannot drop the work.
var sink any
