package templates

import (
	"bytes"
	"testing"
)

func TestProtocolMarkers(t *testing.T) {
	if !bytes.HasPrefix(AgentsProtocol, []byte(ProtocolBegin+"\n")) || !bytes.HasSuffix(AgentsProtocol, []byte(ProtocolEnd+"\n")) {
		t.Error("the protocol block must start and end with its markers")
	}
	if !bytes.Contains(AgentsProtocol, []byte("## Memory System Protocol")) {
		t.Error("the protocol block lacks its heading")
	}
	if !bytes.Contains(Changelog, []byte("\n## Event Log\n")) {
		t.Error("the changelog template lacks its Event Log section")
	}
}
