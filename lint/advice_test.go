package lint

import (
	"testing"

	"github.com/memsys/memsys/internal/base/diag"
)

// TestRootAdvice checks which words become "memsys -C DIR cmd": the
// commands a message advises, never memsys named as a program, and
// only for a root below the start folder.
func TestRootAdvice(t *testing.T) {
	for _, tc := range []struct{ dir, msg, want string }{
		{"services/b", "stale: run memsys regen", "stale: run memsys -C services/b regen"},
		{"services/b", "kept: run memsys adopt to record them (memsys regen or lint --fix alone would drop them)",
			"kept: run memsys -C services/b adopt to record them (memsys -C services/b regen or lint --fix alone would drop them)"},
		{"services/b", "not written by memsys: run memsys lint --write-baseline", "not written by memsys: run memsys -C services/b lint --write-baseline"},
		{"services/b", "sealed by another version of memsys (its text)", "sealed by another version of memsys (its text)"},
		{"my svc", "run memsys regen", "run memsys -C 'my svc' regen"},
		{"it's", "run memsys regen", `run memsys -C 'it'\''s' regen`},
		{".", "run memsys regen", "run memsys regen"},
		{"..", "run memsys regen", "run memsys regen"},
		{"../..", "run memsys regen", "run memsys regen"},
		{"", "run memsys regen", "run memsys regen"},
	} {
		ds := diag.Diagnostics{{Message: tc.msg}}
		RootAdvice(ds, tc.dir)
		if ds[0].Message != tc.want {
			t.Errorf("RootAdvice(%q, %q) = %q, want %q", tc.msg, tc.dir, ds[0].Message, tc.want)
		}
	}
}

// TestChdirAdvice: with -C DIR, the memsys and git commands a message
// advises carry DIR, so they run from where memsys was started; words
// that are no command, and a run without -C, stay as they are.
func TestChdirAdvice(t *testing.T) {
	for _, tc := range []struct{ dir, msg, want string }{
		{"svc", "stale: run memsys regen, then git add .memory/graph.md", "stale: run memsys -C svc regen, then git -C svc add .memory/graph.md"},
		{"svc", "gone: restore it (git show 0123456789ab:./CHANGELOG.md)", "gone: restore it (git -C svc show 0123456789ab:./CHANGELOG.md)"},
		{"svc", "sealed by another version of memsys; git adds nothing", "sealed by another version of memsys; git adds nothing"},
		{"my svc", "run memsys regen, then git add .memory", "run memsys -C 'my svc' regen, then git -C 'my svc' add .memory"},
		{"..", "run memsys regen", "run memsys -C .. regen"},
		{"/abs/svc", "run memsys regen", "run memsys -C /abs/svc regen"},
		{".", "run memsys regen, then git add .memory", "run memsys regen, then git add .memory"},
		{"", "run memsys regen, then git add .memory", "run memsys regen, then git add .memory"},
	} {
		ds := diag.Diagnostics{{Message: tc.msg}}
		ChdirAdvice(ds, tc.dir)
		if ds[0].Message != tc.want {
			t.Errorf("ChdirAdvice(%q, %q) = %q, want %q", tc.msg, tc.dir, ds[0].Message, tc.want)
		}
	}
}

// TestEditedAdvice: with an edited committed event (MS301) in the same
// findings, a seal-only drift says to restore the event; other drift,
// and seal-only drift without MS301, keep their advice.
func TestEditedAdvice(t *testing.T) {
	sealed := ".memory/graph.md was sealed for other events (an event edited in place?), other context options in .memsys.json, or by another version of memsys (its text is what regen writes): run memsys regen or memsys lint --fix"
	edited := ".memory/graph.md differs from what regen writes (edited by hand?): run memsys regen or memsys lint --fix"
	mk := func(withMS301 bool) diag.Diagnostics {
		ds := diag.Diagnostics{
			{Rule: "MS204", Range: diag.Range{File: ".memory/graph.md"}, Message: sealed, MCP: "x"},
			{Rule: "MS205", Range: diag.Range{File: ".memory/context.md"}, Message: edited},
		}
		if withMS301 {
			ds = append(ds, diag.Diagnostic{Rule: "MS301", Message: "evt-001 was changed"})
		}
		return ds
	}
	ds := mk(true)
	EditedAdvice(ds)
	if want := ".memory/graph.md was sealed for the log before a committed event was edited (MS301): restore the event and the file is current again"; ds[0].Message != want || ds[0].MCP != "" {
		t.Errorf("seal-only with MS301: %q (MCP %q), want %q", ds[0].Message, ds[0].MCP, want)
	}
	if ds[1].Message != edited {
		t.Errorf("a text drift changed: %q", ds[1].Message)
	}
	ds = mk(false)
	EditedAdvice(ds)
	if ds[0].Message != sealed {
		t.Errorf("without MS301 the advice changed: %q", ds[0].Message)
	}
}
