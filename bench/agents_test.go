//go:build unix

package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// agentMemory is a full-tier memory of the generated n-event log with
// current derived files, so recall takes its fast path (a fresh
// graph.md) and lint finds the derived files in order.
func agentMemory(b *testing.B, n int) string {
	src, _ := logOf(b, n)
	d := b.TempDir()
	if err := os.WriteFile(filepath.Join(d, "CHANGELOG.md"), src, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "TODO.md"), []byte("# TODO\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if out, err := exec.Command(memsysBin, "-C", d, "regen").CombinedOutput(); err != nil {
		b.Fatalf("regen: %v\n%s", err, out)
	}
	return d
}

// paired runs each command once per iteration, one after the other, and
// reports each one's median time over the first's (a cold `memsys
// lint` of the same memory): issue 13's yardsticks. Load on the shared
// host hits the commands of an iteration alike.
func paired(b *testing.B, cmds map[string][]string, order []string) {
	times := map[string][]float64{}
	for range b.N {
		for _, name := range order {
			args := cmds[name]
			start := time.Now()
			code, out := runCmd(args)
			if code != 0 && !(name == "lint" && code == 1) {
				b.Fatalf("%v: exit %d\n%s", args, code, out)
			}
			times[name] = append(times[name], float64(time.Since(start)))
		}
	}
	base := median(times[order[0]])
	b.ReportMetric(base/1e6, order[0]+"-ms")
	for _, name := range order[1:] {
		b.ReportMetric(median(times[name])/1e6, name+"-ms")
		b.ReportMetric(median(times[name])/base, name+"-x-"+order[0])
	}
}

// BenchmarkRecall: `memsys recall` of the busiest node (protobuf in the
// generated log: the largest pack) and of a quiet one, against a cold
// `memsys lint` of the same 100k-event memory, as processes. Issue 13
// asks for recall within 0.2× the lint. recall-replay is the slow path
// (graph.md stale: the whole history replayed).
func BenchmarkRecall(b *testing.B) {
	buildMemsys(b)
	for _, n := range []int{10_000, 100_000} {
		b.Run("events="+strconv.Itoa(n), func(b *testing.B) {
			d := agentMemory(b, n)
			stale := agentMemory(b, n)
			if err := os.Remove(filepath.Join(stale, ".memory", "graph.md")); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			paired(b, map[string][]string{
				"lint":          {memsysBin, "-C", d, "lint"},
				"recall":        {memsysBin, "-C", d, "recall", "protobuf"},
				"recall-depth2": {memsysBin, "-C", d, "recall", "--depth", "2", "sync_api"},
				"recall-replay": {memsysBin, "-C", stale, "recall", "protobuf"},
			}, []string{"lint", "recall", "recall-depth2", "recall-replay"})
		})
	}
}

// BenchmarkLedger: `memsys export` of the 100k-event memory, and
// `memsys import` of a 10,000-line ledger (the export of the 10k log)
// into an empty memory, each against a cold lint of the same memory.
func BenchmarkLedger(b *testing.B) {
	buildMemsys(b)
	b.Run("export/events=100000", func(b *testing.B) {
		d := agentMemory(b, 100_000)
		b.ResetTimer()
		paired(b, map[string][]string{
			"lint":   {memsysBin, "-C", d, "lint"},
			"export": {"sh", "-c", memsysBin + " -C " + d + " export >/dev/null"},
		}, []string{"lint", "export"})
	})
	b.Run("import/lines=10000", func(b *testing.B) {
		src := agentMemory(b, 10_000)
		ledger := filepath.Join(b.TempDir(), "ledger.jsonl")
		out, err := exec.Command(memsysBin, "-C", src, "export").Output()
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(ledger, out, 0o644); err != nil {
			b.Fatal(err)
		}
		empty := b.TempDir()
		if out, err := exec.Command(memsysBin, "-C", empty, "init", "--tier", "mvp").CombinedOutput(); err != nil {
			b.Fatalf("init: %v\n%s", err, out)
		}
		log, err := os.ReadFile(filepath.Join(empty, "CHANGELOG.md"))
		if err != nil {
			b.Fatal(err)
		}
		// Each import starts from the empty log again.
		reset := filepath.Join(b.TempDir(), "reset.sh")
		if err := os.WriteFile(reset, []byte("cp "+filepath.Join(empty, "CHANGELOG.md.empty")+" "+filepath.Join(empty, "CHANGELOG.md")+" && "+
			memsysBin+" -C "+empty+" import --from "+ledger+" >/dev/null\n"), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(empty, "CHANGELOG.md.empty"), log, 0o644); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		paired(b, map[string][]string{
			"lint":   {memsysBin, "-C", src, "lint"},
			"import": {"sh", reset},
		}, []string{"lint", "import"})
	})
}
