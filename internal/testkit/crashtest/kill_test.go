//go:build unix

package crashtest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// killEvents is the size of the log the kill tests work on: large
// enough that each command spends most of its time after start-up
// (reading, rendering, writing megabytes), small enough that dozens of
// kills fit in CI time.
const killEvents = 20000

func kills(t *testing.T) int {
	if testing.Short() {
		return 8
	}
	return 20
}

// killCase describes one command to interrupt.
type killCase struct {
	name string
	// prepare turns a freshly regenerated repository into the state the
	// command starts from.
	prepare func(t *testing.T, dir string)
	args    []string
	// check runs after the per-file old/new check on a killed copy; it
	// may repair (as an agent would: rerun the command, regen) and must
	// then leave a memory lint accepts.
	check func(t *testing.T, dir string, old, new map[string][]byte)
	// torn lists files whose new version may sit beside the old
	// version of every other file (the command writes them first or
	// independently); each such state is also built and checked
	// directly, since a random kill rarely lands between two renames.
	torn []string
}

// TestKill interrupts regen, append and archive with SIGKILL at many
// moments spread over their run time and checks after each kill that
// every file is its complete old or complete new version, that no
// event is lost, and that lint passes once regen has run.
func TestKill(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	base := newRepo(t, killEvents)
	cases := []killCase{
		{
			name: "regen",
			// Append 500 events behind memsys's back so regen has both
			// derived files to rewrite.
			prepare: func(t *testing.T, dir string) {
				more := loggen.Generate(killEvents+500, 1)
				write(t, dir, "CHANGELOG.md", more)
			},
			args:  []string{"regen"},
			check: recoverAndLint,
			torn:  []string{".memory/graph.md", ".memory/context.md"},
		},
		{
			name:    "append",
			prepare: func(*testing.T, string) {},
			args: []string{"append", "--type", "test", "--scope", "crash", "--summary", "killed append",
				"--agent", "crashtest", "--detail", "target=crash", "--detail", "result=pass",
				"--time", "2099-01-01 00:00", "--regen"},
			check: recoverAndLint,
			torn:  []string{"CHANGELOG.md", ".memory/graph.md", ".memory/context.md"},
		},
		{
			name: "archive",
			// A generated log cannot be archived: its early decisions
			// and dependencies stay active, and the Archival Protocol
			// keeps every event an active node refers to. Escalations
			// make no nodes, so all but the last 20 events move.
			prepare: func(t *testing.T, dir string) {
				write(t, dir, "CHANGELOG.md", escalationLog(killEvents))
				// The derived files are another history's (their seal
				// does not verify against this one's events through
				// their horizon), so regen keeps their rows without
				// --force.
				mustRun(t, dir, "regen", "--force")
			},
			args:  []string{"archive", "--agent", "crashtest", "--time", "2099-01-01 00:00"},
			check: recoverArchive,
			// The one state no kill moment can be made to hit on purpose:
			// the archive written, the log not yet.
			torn: []string{"changelog-archive.md"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start, old, new, took := baseline(t, base, c.prepare, c.args)
			if left := extra(new, old, old); len(left) > 0 && !allDerived(left, new) {
				t.Errorf("a normal %s left files behind: %v", c.name, left)
			}
			if bytes.Equal(new["CHANGELOG.md"], old["CHANGELOG.md"]) && equalMaps(old, new) {
				t.Fatalf("%s changed nothing: the kill test would prove nothing", c.name)
			}
			t.Logf("%s takes %v on %d events", c.name, took, killEvents)

			r := rand.New(rand.NewPCG(1, uint64(len(c.name))))
			n := kills(t)
			var sawOld, sawNew, sawMixed int
			for i := 0; i < n; i++ {
				// Moments spread evenly over the run, jittered, a little
				// past the end so "already finished" is covered too; every
				// other kill lands in the last third, where the writes are.
				f := (float64(i/2) + r.Float64()) / float64((n+1)/2)
				if i%2 == 1 {
					f = 0.7 + 0.4*f
				}
				at := time.Duration(f * 1.1 * float64(took))
				dir := copyTree(t, start)
				killAt(t, dir, at, c.args)
				got := snapshot(t, dir)
				o, nw := checkOldOrNew(t, c.name, at, got, old, new)
				switch {
				case o && !nw:
					sawOld++
				case nw && !o:
					sawNew++
				default:
					sawMixed++
				}
				checkNoEventLost(t, c.name, at, got, old)
				c.check(t, dir, old, new)
			}
			for _, f := range c.torn {
				dir := copyTree(t, start)
				write(t, dir, f, new[f])
				got := snapshot(t, dir)
				checkNoEventLost(t, c.name+" torn after "+f, 0, got, old)
				c.check(t, dir, old, new)
			}
			t.Logf("%d kills: %d left the old state, %d the new, %d a file-by-file mix", n, sawOld, sawNew, sawMixed)
		})
	}
}

// escalationLog is a log of n escalation events, about 300 bytes each.
func escalationLog(n int) []byte {
	var b bytes.Buffer
	b.WriteString(loggen.Header)
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString("\n---\n\n")
		}
		// One a minute, 28 days a month: monotone for up to 9M events.
		m := i / (28 * 1440)
		fmt.Fprintf(&b, "### %s | %04d-%02d-%02d %02d:%02d | ops-agent | escalation\n\n",
			loggen.ID(i), 2024+m/12, 1+m%12, 1+i/1440%28, i/60%24, i%60)
		b.WriteString("**Scope**: project\n**Summary**: Escalate: credentials for the staging database are missing again\n\n")
		b.WriteString("**Details**:\n- reason: credentials for the staging database are missing\n- requested_action: provide staging credentials\n\n")
		b.WriteString("**Refs**: none\n**Tags**: escalation\n")
	}
	return b.Bytes()
}

// killAt starts memsys and sends SIGKILL after d.
func killAt(t *testing.T, dir string, d time.Duration, args []string) {
	t.Helper()
	cmd := exec.Command(memsys(t), append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "MEMSYS_AGENT=crashtest")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(d, func() { cmd.Process.Kill() })
	cmd.Wait()
	timer.Stop()
}

// checkOldOrNew fails unless every file that exists in old or new is
// byte-equal to one of them in got (a file new creates may be absent).
// It reports whether all files are old, and whether all are new.
func checkOldOrNew(t *testing.T, name string, at time.Duration, got, old, new map[string][]byte) (allOld, allNew bool) {
	t.Helper()
	allOld, allNew = true, true
	names := map[string]bool{}
	for k := range old {
		names[k] = true
	}
	for k := range new {
		names[k] = true
	}
	for k := range names {
		if k == ".memsys.lock" {
			// The lock file is bookkeeping, not memory: while an append
			// writes, it holds the append's journal, which the next
			// writer consumes (recoverAndLint's regen takes the lock).
			continue
		}
		g, inGot := got[k]
		o, inOld := old[k]
		w, inNew := new[k]
		isOld := inGot == inOld && (!inGot || bytes.Equal(g, o))
		isNew := inGot == inNew && (!inGot || bytes.Equal(g, w))
		if !isOld && !isNew {
			t.Errorf("%s killed after %v: %s is neither its old nor its new version (%d bytes; old %d, new %d)",
				name, at, k, len(g), len(o), len(w))
		}
		allOld = allOld && isOld
		allNew = allNew && isNew
	}
	return allOld, allNew
}

// checkNoEventLost fails unless every event ID of old's log and archive
// is still in got's log or archive, with the same text.
func checkNoEventLost(t *testing.T, name string, at time.Duration, got, old map[string][]byte) {
	t.Helper()
	have := map[string]string{}
	for _, f := range []string{"changelog-archive.md", "CHANGELOG-archive.md", "CHANGELOG.md"} {
		if src, ok := got[f]; ok {
			var opts []parse.Option
			if f != "CHANGELOG.md" {
				opts = append(opts, parse.Archive())
			}
			for _, e := range parse.Parse(f, src, opts...).Events {
				have[e.ID] = e.Text
			}
		}
	}
	var lost []string
	for _, f := range []string{"changelog-archive.md", "CHANGELOG-archive.md", "CHANGELOG.md"} {
		src, ok := old[f]
		if !ok {
			continue
		}
		var opts []parse.Option
		if f != "CHANGELOG.md" {
			opts = append(opts, parse.Archive())
		}
		for _, e := range parse.Parse(f, src, opts...).Events {
			if txt, ok := have[e.ID]; !ok || txt != e.Text {
				lost = append(lost, e.ID)
			}
		}
	}
	if len(lost) > 0 {
		sort.Strings(lost)
		t.Errorf("%s killed after %v lost %d events, first %s", name, at, len(lost), lost[0])
	}
}

// recoverAndLint does what an agent does after a crash: regen, then
// lint. Stale temporary files of the killed run must be cleaned up or
// ignored; lint must pass.
func recoverAndLint(t *testing.T, dir string, old, new map[string][]byte) {
	t.Helper()
	mustRun(t, dir, "regen")
	// regen took the lock, which consumes an interrupted append's
	// journal: nothing of it may be left.
	if b, err := os.ReadFile(filepath.Join(dir, ".memsys.lock")); err == nil && len(b) > 0 {
		t.Errorf("the append journal survived the next writer: %d bytes", len(b))
	}
	if r := run(t, dir, "lint"); r.code != 0 {
		t.Errorf("lint after kill and regen: %s", r)
	}
}

// recoverArchive: archive writes the archive, then the log. A kill
// between the two leaves the moved events in both files (none lost,
// checked before this). lint reports the duplicates (MS107), and running
// archive again finishes the interrupted move (docs/memory.md); then
// regen and lint must pass, as after any other kill.
func recoverArchive(t *testing.T, dir string, old, new map[string][]byte) {
	t.Helper()
	got := snapshot(t, dir)
	overlap := bytes.Equal(got["CHANGELOG.md"], old["CHANGELOG.md"]) && got["changelog-archive.md"] != nil &&
		bytes.Equal(got["changelog-archive.md"], new["changelog-archive.md"])
	if !overlap {
		recoverAndLint(t, dir, old, new)
		return
	}
	mustRun(t, dir, "regen")
	if r := run(t, dir, "lint"); r.code != 1 || !strings.Contains(r.stdout, "[MS107]") {
		t.Errorf("lint on an archive killed between its two writes should report the duplicated events (MS107): %s", r)
	}
	if r := run(t, dir, "archive", "--agent", "crashtest", "--time", "2099-01-01 00:00"); r.code != 0 {
		t.Errorf("archive run again over an interrupted archive should finish it: %s", r)
	}
	checkNoEventLost(t, "archive resumed", 0, snapshot(t, dir), old)
	recoverAndLint(t, dir, old, new)
}

func equalMaps(a, b map[string][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

// allDerived reports whether the new files are ones a command is meant
// to create (the archive, derived files), not temporaries.
func allDerived(files []string, new map[string][]byte) bool {
	for _, f := range files {
		switch {
		case f == "changelog-archive.md", f == "CHANGELOG-archive.md",
			f == ".memory/graph.md", f == ".memory/context.md":
		default:
			return false
		}
	}
	return true
}

// baseline copies base, prepares the copy (start) and runs args to the
// end in a second copy: what an interrupted run must leave either as it
// found (old) or as a whole run leaves it (new), and how long a whole
// run takes, for picking the moments to interrupt.
func baseline(t *testing.T, base string, prepare func(*testing.T, string), args []string) (start string, old, new map[string][]byte, took time.Duration) {
	t.Helper()
	start = copyTree(t, base)
	prepare(t, start)
	old = snapshot(t, start)
	done := copyTree(t, start)
	t0 := time.Now()
	mustRun(t, done, args...)
	took = time.Since(t0)
	return start, old, snapshot(t, done), took
}
