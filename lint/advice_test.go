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
