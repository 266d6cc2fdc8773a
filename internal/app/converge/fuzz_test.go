package converge

import (
	"bytes"
	"fmt"
	"testing"
)

// fromSpec appends one event to base per byte of spec (at most 8),
// labelled prefix0, prefix1, ...: bit 0 refers to the event before it,
// bit 1 also to an earlier one chosen by bits 3-5, bit 2 mentions one
// chosen by bits 5-7 in its details.
func fromSpec(base []genEvent, prefix string, spec []byte) []genEvent {
	out := append([]genEvent(nil), base...)
	for i, b := range spec[:min(len(spec), 8)] {
		e := genEvent{label: fmt.Sprintf("%s%d", prefix, i)}
		if n := len(out); n > 0 {
			if b&1 != 0 {
				e.refs = append(e.refs, out[n-1].label)
			}
			if b&2 != 0 {
				if r := out[int(b>>3)%n].label; len(e.refs) == 0 || e.refs[0] != r {
					e.refs = append(e.refs, r)
				}
			}
			if b&4 != 0 {
				e.prose = out[int(b>>5)%n].label
			}
		}
		out = append(out, e)
	}
	return out
}

// FuzzMerge: for any two sides that only append to a common ancestor,
// the merge is clean and holds every event of both sides exactly once,
// IDs consecutive, ours' IDs kept, refs and prose naming the same
// events (by content) as before.
func FuzzMerge(f *testing.F) {
	f.Add(uint8(0), []byte{}, []byte{})
	f.Add(uint8(3), []byte{1, 2}, []byte{1, 3, 7})
	f.Add(uint8(0), []byte{}, []byte{0xff, 0xfe, 0x07})
	f.Add(uint8(5), []byte{0x13, 0x21}, []byte{})
	f.Add(uint8(1), []byte{0x06}, []byte{0xe7, 0x5f, 0x01, 0x02})
	text := gitText(f)
	f.Fuzz(func(t *testing.T, n uint8, oursSpec, theirsSpec []byte) {
		anc := fromSpec(nil, "base", make([]byte, int(n)%7))
		ours, theirs := fromSpec(anc, "o", oursSpec), fromSpec(anc, "t", theirsSpec)
		got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: render(genHead, anc), Ours: render(genHead, ours), Theirs: render(genHead, theirs), Text: text})
		if err != nil {
			t.Fatal(err)
		}
		checkMerged(t, got, ours, ours, theirs)
	})
}

// FuzzMergeEdit: when one side edits or deletes a committed event and
// the other appends, the merge never resolves it: exactly one conflict,
// naming that event, and every appended event is still in the result.
func FuzzMergeEdit(f *testing.F) {
	f.Add(uint8(3), uint8(1), false, []byte{1, 2})
	f.Add(uint8(1), uint8(0), true, []byte{})
	f.Add(uint8(5), uint8(4), true, []byte{7, 7, 7})
	text := gitText(f)
	f.Fuzz(func(t *testing.T, n, which uint8, del bool, theirsSpec []byte) {
		anc := fromSpec(nil, "base", make([]byte, 1+int(n)%6))
		k := int(which) % len(anc)
		ancLog := render(genHead, anc)
		ours := render(genHead, anc)
		id := fmt.Sprintf("evt-%03d", k+1)
		i := bytes.Index(ours, []byte("### "+id))
		if del {
			j := len(ours)
			if k+1 < len(anc) {
				j = bytes.Index(ours, []byte(fmt.Sprintf("### evt-%03d", k+2)))
			} else if i > len(genHead) {
				i -= len("\n---\n\n") // the separator before the last event
			}
			ours = append(append([]byte(nil), ours[:i]...), ours[j:]...)
		} else {
			ours = bytes.Replace(ours, []byte("**Summary**: "+anc[k].label+"\n"), []byte("**Summary**: "+anc[k].label+" edited\n"), 1)
		}
		theirs := fromSpec(anc, "t", theirsSpec)
		got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: ancLog, Ours: ours, Theirs: render(genHead, theirs), Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Conflicts) != 1 || got.Conflicts[0].Event != id {
			t.Fatalf("conflicts %+v, want one on %s\n%s", got.Conflicts, id, got.Data)
		}
		for _, e := range theirs[len(anc):] {
			if !bytes.Contains(got.Data, []byte("**Summary**: "+e.label+"\n")) {
				t.Fatalf("%q lost\n%s", e.label, got.Data)
			}
		}
	})
}
