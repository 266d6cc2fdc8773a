//go:build unix

package crashtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/internal/testkit/usercache"
)

var (
	buildOnce sync.Once
	memsysBin string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	// The memories outside a repository keep their history caches in a
	// folder of their own, not the user's.
	code := usercache.Isolated(m).Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// memsys returns the path of a memsys binary built from this checkout.
func memsys(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "memsys-crashtest-")
		if buildErr != nil {
			return
		}
		memsysBin = filepath.Join(binDir, "memsys")
		out, err := exec.Command("go", "build", "-o", memsysBin, "github.com/memsys/memsys/cmd/memsys").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return memsysBin
}

// result is one finished memsys run.
type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

// run runs memsys -C dir args... to completion.
func run(t testing.TB, dir string, args ...string) result {
	t.Helper()
	return runIn(t, context.Background(), nil, dir, args...)
}

// runIn is run under ctx, with extra environment: it fails the test when
// ctx ends first (a hang), on a run that could not start, and on a panic.
func runIn(t testing.TB, ctx context.Context, env []string, dir string, args ...string) result {
	t.Helper()
	cmd := exec.CommandContext(ctx, memsys(t), append([]string{"-C", dir}, args...)...)
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1", "MEMSYS_AGENT=crashtest"), env...)
	cmd.WaitDelay = time.Second
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("memsys %s: still running when its deadline passed (waiting on a named pipe?)", strings.Join(args, " "))
	}
	r := result{stdout: so.String(), stderr: se.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("memsys %v: %v", args, err)
	}
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		t.Fatalf("memsys %v panicked:\n%s", args, r)
	}
	return r
}

// mustRun runs memsys and fails unless it exits 0.
func mustRun(t testing.TB, dir string, args ...string) result {
	t.Helper()
	r := run(t, dir, args...)
	if r.code != 0 {
		t.Fatalf("memsys %v: %s", args, r)
	}
	return r
}

const agentsMD = "# Agents\n\n## Memory System Protocol\n\nAppend events with memsys append; run memsys regen at the end of a session.\n"

// newRepo makes a full-tier memory of n generated events (TODO.md and
// .memory/ present, so regen writes both derived files) and
// regenerates it. The folder is a git repository so root detection and
// lint --base behave as in real use.
func newRepo(t testing.TB, n int) string {
	t.Helper()
	return newRepoWith(t, loggen.Generate(n, 1))
}

// newRepoWith is newRepo with the given log.
func newRepoWith(t testing.TB, log []byte) string {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, "CHANGELOG.md", log)
	write(t, dir, "AGENTS.md", []byte(agentsMD))
	write(t, dir, "TODO.md", []byte("# TODO\n\n## In Progress\n\n## Up Next\n\n## Completed\n\n## Backlog\n"))
	if err := os.MkdirAll(filepath.Join(dir, ".memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := (&gitx.Git{Dir: dir}).Run(context.Background(), "init", "-q"); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	mustRun(t, dir, "regen")
	return dir
}

func write(t testing.TB, dir, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t testing.TB, dir, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// snapshot maps every regular file under dir (except .git) to its
// contents.
func snapshot(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			m[filepath.ToSlash(rel)] = b
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// copyTree copies the regular files and folders of src (with .git) into
// a new temporary folder.
func copyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		q := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(q, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(q, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// extra lists files in got that are in neither old nor new: temporary
// files a run left behind.
func extra(got, old, new map[string][]byte) []string {
	var out []string
	for k := range got {
		if _, ok := old[k]; ok {
			continue
		}
		if _, ok := new[k]; ok {
			continue
		}
		if strings.HasSuffix(k, ".lock") || strings.HasPrefix(k, ".memory/.lock") {
			continue // a lock file is permanent by design, not a leftover
		}
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
