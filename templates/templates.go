package templates

import (
	_ "embed"

	"github.com/memsys/memsys/parse"
)

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

// The markers around the protocol block, so init adds it once and can
// restore it (parse owns them: lint's MS207 reads them too).
const (
	ProtocolBegin = parse.ProtocolBegin
	ProtocolEnd   = parse.ProtocolEnd
)
