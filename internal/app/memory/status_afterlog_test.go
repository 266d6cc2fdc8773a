package memory

import (
	"bytes"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
)

// TestStatusSectionAfterLog: a section after the last event (lint's
// MS138), where append and adopt refuse to write, is named by status,
// text and JSON, cold and after a regen left the history cache's
// checkpoint: directly after the last event or after a "### Notes"
// heading that is no event. Once the section is gone, status says
// nothing of it, from the cache too (the checkpoint was taken with the
// section there); a section added after a checkpoint is seen; moved
// above the log, it is no section after it. It does not change the exit status: lint warns
// of it, and regen, which the boot line runs on exit 1, cannot move it.
func TestStatusSectionAfterLog(t *testing.T) {
	events := orderedLog(1, 2, 3)
	direct := events + "---\n\n## Appendix\n\n- kept by hand\n"
	notes := events + "---\n\n### Notes\n\nkept by hand\n\n## Appendix\n\n- more\n"
	above := strings.Replace(events, "## Event Log\n", "## Appendix\n\n- kept by hand\n\n## Event Log\n", 1)
	const want = `event log: CHANGELOG.md:%s: section "## Appendix" follows the Event Log, where appended events go: move it above "## Event Log"` + "\n"
	says := func(t *testing.T, root, line string) {
		t.Helper()
		r, err := Status(root)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		r.WriteText(&b, front.CLI)
		got := strings.Contains(b.String(), "follows the Event Log")
		switch {
		case line == "" && (got || r.AfterLog != nil):
			t.Errorf("status names a section after the log:\n%s", b.String())
		case line != "" && !strings.Contains(b.String(), strings.Replace(want, "%s", line, 1)):
			t.Errorf("status does not name the section at line %s:\n%s", line, b.String())
		case line != "" && (r.AfterLog == nil || r.AfterLog.File != parse.LogFile || r.AfterLog.Heading != "## Appendix"):
			t.Errorf("JSON: %+v", r.AfterLog)
		}
		if r.Fails() {
			t.Errorf("status fails: %+v", r)
		}
	}
	for _, tc := range []struct {
		name, log, line string
		next            string // the line once evt-004 follows evt-003
	}{
		{"direct", direct, "47", "61"},
		{"after notes", notes, "51", "65"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := newCachedRoot(t, nil)
			write(t, root, parse.LogFile, tc.log)
			says(t, root, tc.line)
			if _, err := regenCfg(root, false); err != nil {
				t.Fatal(err)
			}
			says(t, root, tc.line)
			// Removed, the events unchanged: the checkpoint taken with
			// the section after the log must not bring it back.
			write(t, root, parse.LogFile, events)
			says(t, root, "")
			if _, err := regenCfg(root, false); err != nil {
				t.Fatal(err)
			}
			says(t, root, "")
			// Added again after that checkpoint.
			write(t, root, parse.LogFile, tc.log)
			says(t, root, tc.line)
			// An event appended after that checkpoint, then the
			// section: status reads on from the checkpoint, and the
			// section lies in what it reads.
			write(t, root, parse.LogFile, events)
			if _, err := regenCfg(root, false); err != nil {
				t.Fatal(err)
			}
			hits := statusHits
			appendFile(t, root, parse.LogFile, "---\n\n"+strings.TrimPrefix(orderedLog(4), head)+strings.TrimPrefix(tc.log, events))
			says(t, root, tc.next)
			if statusHits == hits {
				t.Error("status did not use the cache")
			}
			// Moved above the log.
			write(t, root, parse.LogFile, above)
			says(t, root, "")
		})
	}
}
