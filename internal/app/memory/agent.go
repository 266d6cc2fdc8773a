package memory

import (
	"os"
	"strings"
	"time"
)

// DefaultAgent picks the agent name of an event: flag, then
// $MEMSYS_AGENT, then $USER, then "agent", so an event always has one.
// memsys and memsys-mcp both use it, so an append names the same agent
// through either.
func DefaultAgent(flag string) string {
	for _, v := range []string{flag, os.Getenv("MEMSYS_AGENT"), os.Getenv("USER")} {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return "agent"
}

// Now is the time of an event that names none: the current minute in
// UTC. The log stores zone-less wall-clock minutes; UTC is the only
// default that gives the same stamp for agents on machines in
// different zones.
func Now() string {
	return time.Now().UTC().Format("2006-01-02 15:04")
}
