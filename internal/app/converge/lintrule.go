package converge

import (
	"fmt"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/udiff"
	"github.com/memsys/memsys/parse"
)

// CollisionRule is the lint rule ID of a collision (registered in
// lint/ms306.go).
const CollisionRule = "MS306"

// CollisionDiagnostics reports, one finding per event of head, every
// ID that head and rev (named revName in messages) both added since
// base with other content.
func CollisionDiagnostics(base, rev, head []parse.Event, revName string) diag.Diagnostics {
	ds := diag.Diagnostics{}
	for _, c := range Collide(base, rev, head) {
		ds = append(ds, diag.Diagnostic{Rule: CollisionRule, Severity: diag.Error, Range: c.B.Range, Event: c.B.ID,
			Message: fmt.Sprintf("%s is also %s on %s with other content: run `memsys renumber --onto %s`", c.B.ID, c.A.ID, revName, revName),
			Detail:  udiff.Unified(c.A.ID+" on "+revName, c.B.ID+" here", []byte(c.A.Text), []byte(c.B.Text))})
	}
	return ds
}
