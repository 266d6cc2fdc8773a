package templates

import _ "embed"

// Changelog is the default CHANGELOG.md: an empty Event Log section.
//
//go:embed changelog.md
var Changelog []byte

// Todo is the default TODO.md of the Full tier (the seed's Task
// Management sections).
//
//go:embed todo.md
var Todo []byte

// AgentsProtocol is the "Memory System Protocol" block added to
// AGENTS.md, between ProtocolBegin and ProtocolEnd.
//
//go:embed agents-protocol.md
var AgentsProtocol []byte

// The markers around the protocol block, so init adds it once.
const (
	ProtocolBegin = "<!-- memsys:protocol:begin -->"
	ProtocolEnd   = "<!-- memsys:protocol:end -->"
)
