package memory

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/memsys/memsys/internal/base/words"
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

// BadAgent reports whether name cannot be an event's agent: the
// heading "### evt-NNN | time | agent | type" splits on '|', and a line
// break would end the heading.
func BadAgent(name string) bool { return strings.IndexByte(name, '|') >= 0 || hasBreak(name) }

// CheckDefaultAgent checks the agent DefaultAgent(flag) picks, naming
// where it came from (--agent, $MEMSYS_AGENT or $USER): memsys mcp and
// memsys-mcp check it at start, since every append that names no agent
// of its own would fail with it.
func CheckDefaultAgent(flag string) error {
	for _, src := range [][2]string{{"--agent", flag}, {"$MEMSYS_AGENT", os.Getenv("MEMSYS_AGENT")}, {"$USER", os.Getenv("USER")}} {
		if v := strings.TrimSpace(src[1]); v != "" {
			if BadAgent(v) {
				return fmt.Errorf("%s %q contains '|' or a line break: use a plain name", src[0], words.Clip(v))
			}
			return nil
		}
	}
	return nil
}

// Now is the time of an event that names none: the current minute in
// UTC. The log stores zone-less wall-clock minutes; UTC is the only
// default that gives the same stamp for agents on machines in
// different zones.
func Now() string {
	return time.Now().UTC().Format("2006-01-02 15:04")
}
