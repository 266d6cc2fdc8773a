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
