package parse

import (
	"bytes"
	"strings"
)

// The lines around the Memory System Protocol block that memsys init
// writes into AGENTS.md: the text between them is memsys's to restore.
const (
	ProtocolBegin   = "<!-- memsys:protocol:begin -->"
	ProtocolEnd     = "<!-- memsys:protocol:end -->"
	ProtocolHeading = "Memory System Protocol"
)

// AgentsProtocol is what an AGENTS.md holds of the protocol section:
// the one reading that lint's MS207 and memsys init share, so the rule
// never asks for a repair init would not make.
type AgentsProtocol struct {
	// Heading is true when a "Memory System Protocol" heading is there,
	// read through the block structure: the seed shows the section in a
	// fence, and a copy of that documentation is not the section.
	Heading bool
	// NamesMemsys is true when the section under that heading (to the
	// next heading of its level or above) mentions memsys: a protocol a
	// team wrote before memsys has agents keep the log by hand.
	NamesMemsys bool
	// Marker is true when the begin marker is there.
	Marker bool
	// Begin and End delimit the text between the markers: Begin is the
	// offset after the begin marker's line, End the start of the line
	// of the first end marker after it. Both are -1 unless both markers
	// are there, in that order.
	Begin, End int
}

// FindAgentsProtocol reads src, an AGENTS.md.
func FindAgentsProtocol(src []byte) AgentsProtocol {
	p := AgentsProtocol{Begin: -1, End: -1}
	hs := Headings(src)
	for i, h := range hs {
		if strings.EqualFold(strings.TrimSpace(h.Text), ProtocolHeading) {
			p.Heading = true
			last := -1 // the section's last line: to the end of the file
			for _, next := range hs[i+1:] {
				if next.Level <= h.Level {
					last = next.Line - 1
					break
				}
			}
			p.NamesMemsys = mentionsMemsys(src, h.Line, last)
			break
		}
	}
	b := bytes.Index(src, []byte(ProtocolBegin))
	if b < 0 {
		return p
	}
	p.Marker = true
	nl := bytes.IndexByte(src[b:], '\n')
	if nl < 0 {
		return p
	}
	begin := b + nl + 1
	e := bytes.Index(src[begin:], []byte(ProtocolEnd))
	if e < 0 {
		return p
	}
	end := begin + e
	end = bytes.LastIndexByte(src[:end], '\n') + 1 // the end marker's line
	if end < begin {
		end = begin
	}
	p.Begin, p.End = begin, end
	return p
}

// mentionsMemsys reports whether lines first through last (1-based, last
// -1 for the end) of src name memsys, in any case.
func mentionsMemsys(src []byte, first, last int) bool {
	for n, line := range bytes.SplitAfter(src, []byte("\n")) {
		if n+1 < first {
			continue
		}
		if last >= 0 && n+1 > last {
			break
		}
		if bytes.Contains(bytes.ToLower(line), []byte("memsys")) {
			return true
		}
	}
	return false
}
