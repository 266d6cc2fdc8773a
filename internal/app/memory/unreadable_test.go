package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// staleBeside returns a full-tier root whose derived files are what
// regen wrote at evt-001, one event behind the log (so every writer
// would replace them), but for bad, which memsys cannot read, even as
// root: context.md a folder, or graph.md a symlink to a folder inside
// the root (which a write would replace by a file). good is the other
// file's path and bytes; intact reports whether bad is still what it
// was.
func staleBeside(t *testing.T, bad string) (root, good string, was []byte, intact func() bool) {
	t.Helper()
	root = t.TempDir()
	write(t, root, parse.LogFile, head+event(1, "create"))
	write(t, root, parse.TodoFile, "# TODO\n") // the full tier
	if _, err := Regenerate(root, RegenOptions{}); err != nil {
		t.Fatal(err)
	}
	write(t, root, parse.LogFile, head+event(1, "create")+"\n---\n\n"+event(2, "create"))
	good = parse.GraphFile
	if bad == parse.GraphFile {
		good = parse.ContextFile
	}
	p := filepath.Join(root, filepath.FromSlash(bad))
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(p, "kept")
	if bad == parse.GraphFile {
		write(t, root, "kept/kept", "kept\n")
		if err := os.Symlink(filepath.Join("..", "kept"), p); err != nil {
			t.Fatal(err)
		}
		kept = filepath.Join(root, "kept", "kept")
	} else {
		write(t, root, bad+"/kept", "kept\n")
	}
	was, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(good)))
	if err != nil {
		t.Fatal(err)
	}
	intact = func() bool {
		b, err := os.ReadFile(filepath.Join(p, "kept"))
		k, _ := os.ReadFile(kept)
		return err == nil && string(b) == "kept\n" && string(k) == "kept\n"
	}
	return root, filepath.Join(root, filepath.FromSlash(good)), was, intact
}

// TestWritersStopOnUnreadableDerived: every path that writes the
// derived files (regen, append --regen and adopt through Regen,
// WriteDerived, lint --fix) decides through readDerived: a derived file
// it cannot read, for another reason than its absence, stops it with
// that file's read error before anything is written. It used to count
// as "differs": refuseHandKept never saw the file, a symlink to a
// folder was replaced by a file, and graph.md was written before the
// write of context.md failed. With and without the history cache.
func TestWritersStopOnUnreadableDerived(t *testing.T) {
	for _, bad := range []string{parse.ContextFile, parse.GraphFile} {
		want := bad + ": is a directory, not a file: move it away and run memsys init"
		for _, cached := range []bool{false, true} {
			for _, w := range []struct {
				name string
				run  func(root string) error
			}{
				{"regen", func(root string) error { _, err := Regenerate(root, RegenOptions{}); return err }},
				{"append --regen", func(root string) error { _, err := regenCfg(root, false); return err }},
				{"adopt (forced)", func(root string) error { _, err := regenCfg(root, true); return err }},
				{"WriteDerived", func(root string) error {
					_, err := WriteDerived(root, []Derived{{parse.GraphFile, []byte("new\n")}, {parse.ContextFile, []byte("new\n")}})
					return err
				}},
				{"lint --fix", func(root string) error {
					_, err := Lint(context.Background(), root, LintOptions{Fix: true})
					return err
				}},
			} {
				t.Run(fmt.Sprintf("%s %s cache=%v", bad, w.name, cached), func(t *testing.T) {
					if !cached {
						t.Setenv(workspace.EnvNoCache, "1")
					}
					root, good, was, intact := staleBeside(t, bad)
					err := w.run(root)
					if err == nil || !strings.HasSuffix(err.Error(), want) {
						t.Fatalf("err = %v, want one ending %q", err, want)
					}
					if now, _ := os.ReadFile(good); !bytes.Equal(now, was) {
						t.Error("the readable file was written before the unreadable one stopped the run")
					}
					if !intact() {
						t.Errorf("%s was replaced", bad)
					}
				})
			}
		}
	}
}

// TestRegenKeepsUnreadableHandKept: a hand-kept graph.md that memsys may
// not read is not replaced (refuseHandKept could not look at it). Root
// reads it anyway, so this runs only as another user; the folder cases
// above run everywhere.
func TestRegenKeepsUnreadableHandKept(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads a file without read permission")
	}
	t.Setenv(workspace.EnvNoCache, "1")
	root := t.TempDir()
	write(t, root, parse.LogFile, head+event(1, "create"))
	write(t, root, parse.TodoFile, "# TODO\n")
	hand := "# Graph\n\n| billing | component | active |\n"
	write(t, root, parse.GraphFile, hand)
	p := filepath.Join(root, filepath.FromSlash(parse.GraphFile))
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(p, 0o644)
	_, err := Regenerate(root, RegenOptions{})
	if err == nil || !strings.Contains(err.Error(), ".memory/graph.md: cannot read: permission denied: check its permissions") {
		t.Fatalf("regen on an unreadable graph.md: err = %v", err)
	}
	os.Chmod(p, 0o644)
	if now, _ := os.ReadFile(p); string(now) != hand {
		t.Error("regen replaced a graph.md it could not read")
	}
}

// TestDerivedStatusUnreadable: a derived file status cannot read is
// "unreadable", with the read error as the reason, not "missing: run
// memsys regen" (regen stops on it too, so the agents' boot line would
// loop); only fs.ErrNotExist is missing. The JSON gains the state and
// the reason, nothing else; each front end words the reason's advice.
func TestDerivedStatusUnreadable(t *testing.T) {
	rel := parse.ContextFile
	missing := fmt.Errorf("%s: no such file%w", rel, fs.ErrNotExist)
	if d := derivedStatus(rel, nil, missing, "evt-001", true, nil, true); d.State != "missing" {
		t.Errorf("a missing file: state %q", d.State)
	}
	readErr := front.Errorf("%s: is a directory, not a file: move it away and run %s", rel, front.Init.Word())
	d := derivedStatus(rel, nil, readErr, "evt-001", true, nil, true)
	if d.State != "unreadable" || d.Reason != "is a directory, not a file: move it away and run memsys init" {
		t.Fatalf("an unreadable file: %+v", d)
	}
	r := &StatusReport{Context: d, Graph: DerivedStatus{File: parse.GraphFile, State: "missing"}}
	for _, f := range []front.Front{front.CLI, front.MCP} {
		var b strings.Builder
		r.WriteText(&b, f)
		line := ".memory/context.md: unreadable: is a directory, not a file: move it away and run " + front.Init.Word().For(f) + "\n"
		if !strings.Contains(b.String(), line) || strings.Contains(b.String(), "context size") {
			t.Errorf("front %v: text\n%s\nwant the line %q and no context size", f, b.String(), line)
		}
		if strings.Contains(line, "regen") {
			t.Errorf("front %v: the advice names regen: %q", f, line)
		}
	}
	b, _ := json.Marshal(d)
	if want := `{"file":".memory/context.md","expected":true,"state":"unreadable","horizon":"","reason":"is a directory, not a file: move it away and run memsys init"}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	b, _ = json.Marshal(derivedStatus(rel, nil, missing, "evt-001", true, nil, true))
	if want := `{"file":".memory/context.md","expected":true,"state":"missing","horizon":""}`; string(b) != want {
		t.Errorf("JSON of a missing file %s, want %s (unchanged)", b, want)
	}
}

// TestReadStatusUnreadable: ReadStatus on a root whose context.md is a
// folder reports it unreadable and fails (exit 1), with and without the
// history cache.
func TestReadStatusUnreadable(t *testing.T) {
	for _, cached := range []bool{false, true} {
		t.Run(fmt.Sprint("cache=", cached), func(t *testing.T) {
			if !cached {
				t.Setenv(workspace.EnvNoCache, "1")
			}
			root, _, _, _ := staleBeside(t, parse.ContextFile)
			r, err := ReadStatus(root)
			if err != nil {
				t.Fatal(err)
			}
			if r.Context.State != "unreadable" || !r.Fails() || r.LoopsFrom == parse.ContextFile {
				t.Errorf("context %+v, fails %v, loops from %q", r.Context, r.Fails(), r.LoopsFrom)
			}
			if r.Context.Reason != "is a directory, not a file: move it away and run memsys init" {
				t.Errorf("reason %q", r.Context.Reason)
			}
		})
	}
}
