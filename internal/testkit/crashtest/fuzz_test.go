//go:build unix

package crashtest

import (
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// FuzzLint runs every lint rule over arbitrary bytes as CHANGELOG.md,
// beside arbitrary bytes as graph.md: no panic, every diagnostic points
// into the file it names, and the result is the same twice. Seeds are
// the CHANGELOG.md of every testscript (the bad-input catalogue
// included), a generated log and the hostile log; without -fuzz they
// run as a plain test in CI.
func FuzzLint(f *testing.F) {
	scripts, _ := filepath.Glob("../../../testscripts/*.txtar")
	pending, _ := filepath.Glob("../../../testscripts/bad-pending/*.txtar")
	for _, p := range append(scripts, pending...) {
		a, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		var log, graph []byte
		for _, file := range a.Files {
			switch file.Name {
			case "CHANGELOG.md":
				log = file.Data
			case ".memory/graph.md":
				graph = file.Data
			}
		}
		if log != nil {
			f.Add(log, graph)
		}
	}
	f.Add(loggen.Generate(30, 1), []byte(nil))
	f.Add([]byte(hostileLog()), []byte("## Nodes\n\n| Node |\n|---|\n| a | b |\n"))

	l, err := lint.New(config.Default())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src, graph []byte) {
		check := func() []string {
			log := parse.Parse("CHANGELOG.md", src)
			files := map[string][]byte{"AGENTS.md": []byte(agentsMD), "TODO.md": []byte("# TODO\n"), ".memory": nil}
			if graph != nil {
				files[".memory/graph.md"] = graph
			}
			read := func(rel string) ([]byte, error) {
				if b, ok := files[rel]; ok {
					return b, nil
				}
				return nil, fs.ErrNotExist
			}
			exists := func(rel string) bool { _, err := read(rel); return err == nil }
			ds := l.Check(lint.Input{LogFile: "CHANGELOG.md", Log: log, Events: log.Events, ReadFile: read, Exists: exists})
			// The command streams instead: same findings.
			// It predicts supersessions from the bytes and, when wrong,
			// replays again from a second stream.
			s := l.Start(lint.Input{LogFile: "CHANGELOG.md", ReadFile: read, Exists: exists,
				Restream: func(each func(*parse.Event)) error { parse.Stream("CHANGELOG.md", src, each); return nil }})
			s.Expect(parse.ScanSupersedes("CHANGELOG.md", src))
			if streamed := s.Finish(parse.Stream("CHANGELOG.md", src, s.Event), nil); !reflect.DeepEqual(streamed, ds) {
				t.Errorf("streamed lint differs from Check:\n%v\n%v", streamed, ds)
			}
			var out []string
			for _, d := range ds {
				if d.Range.File == "CHANGELOG.md" && (d.Range.Line < 0 || d.Range.Line > log.Lines+1) {
					t.Errorf("%s: line %d outside the %d-line file", d.Error(), d.Range.Line, log.Lines)
				}
				if d.Message == "" || strings.ContainsAny(d.Message, "\n\r") {
					t.Errorf("diagnostic %s: message must be one non-empty line", d.Rule)
				}
				out = append(out, d.Error())
			}
			return out
		}
		if a, b := check(), check(); !reflect.DeepEqual(a, b) {
			t.Errorf("lint gives different results on the same input:\n%q\n%q", a, b)
		}
	})
}
