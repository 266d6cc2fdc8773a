package materialize

import (
	"bytes"
	"testing"

	"github.com/memsys/memsys/parse"
)

func TestSeal(t *testing.T) {
	evs := []parse.Event{ev(1, t0, "create", "entity: auth"), ev(2, t0, "modify", "entity: auth", "changes: x")}
	for i := range evs {
		evs[i].Text = "### " + evs[i].ID + " | ...\n\n**Summary**: " + evs[i].Summary + "\n"
	}
	g, _ := Replay(evs)
	src := SourceDigest(evs, DefaultOptions())
	file := Seal(RenderGraph(g), src)
	if !Sealed(file, src) {
		t.Fatal("a sealed file is not Sealed")
	}
	if !Sealed(bytes.ReplaceAll(file, []byte("\n"), []byte("\r\n")), src) {
		t.Error("a CRLF checkout breaks the seal")
	}
	if !bytes.Equal(Unseal(file), RenderGraph(g)) {
		t.Error("Unseal does not give the rendered file back")
	}
	edited := bytes.Replace(file, []byte("| auth |"), []byte("| Auth |"), 1)
	if Sealed(edited, src) {
		t.Error("a hand edit keeps the seal")
	}
	if Sealed(Unseal(file), src) {
		t.Error("a file without a seal is Sealed")
	}
	other := SourceDigest(evs, Options{WindowEvents: 3})
	if Sealed(file, other) {
		t.Error("other options keep the seal")
	}
	// Blank lines and trailing blanks are not part of an event.
	spaced := append([]parse.Event(nil), evs...)
	spaced[0].Text = "### " + evs[0].ID + " | ...  \n\n\n**Summary**: " + evs[0].Summary + "\t\n"
	if !bytes.Equal(SourceDigest(spaced, DefaultOptions()), src) {
		t.Error("blank lines change the digest")
	}
	spaced[0].Text += "- x: y\n"
	if bytes.Equal(SourceDigest(spaced, DefaultOptions()), src) {
		t.Error("a new line leaves the digest")
	}
}

// TestSourceDigestOptions: every option that changes context.md changes
// the seal's source digest, the decay days included (they did not, so
// status called fresh a context.md lint found differs); the defaults
// written out or left zero digest alike, and so do decay days the floor
// raises to the same number.
func TestSourceDigestOptions(t *testing.T) {
	evs := parse.Parse(parse.LogFile, []byte("## Event Log\n\n### evt-001 | 2026-03-01 09:00 | a | test\n\n**Scope**: api\n**Summary**: s\n")).Events
	base := SourceDigest(evs, Options{})
	if !bytes.Equal(base, SourceDigest(evs, DefaultOptions())) {
		t.Errorf("the defaults written out digest differently from zero options")
	}
	for _, o := range []Options{{ContextWords: 100}, {WindowHours: 24}, {WindowEvents: 5}, {DecayP2Days: 10}, {DecayP3Days: 5}} {
		if bytes.Equal(base, SourceDigest(evs, o)) {
			t.Errorf("%+v digests as the defaults do", o)
		}
	}
	if !bytes.Equal(SourceDigest(evs, Options{DecayP3Days: 1}), SourceDigest(evs, Options{DecayP3Days: 4})) {
		t.Errorf("decay days below the floor (4 with a 48-hour window) digest apart")
	}
}
