package parse

import "strings"

// Names of the memory files relative to the memory root, with forward
// slashes, as the seed's Deployed Structure names them. Every package
// that names a memory file uses these.
const (
	LogFile     = "CHANGELOG.md"
	MemoryDir   = ".memory"
	GraphName   = "graph.md"   // inside MemoryDir
	ContextName = "context.md" // inside MemoryDir
	GraphFile   = MemoryDir + "/" + GraphName
	ContextFile = MemoryDir + "/" + ContextName
	TodoFile    = "TODO.md"
	AgentsFile  = "AGENTS.md"
)

// ArchiveFile is the archive the seed names, which memsys archive
// creates when there is none.
const ArchiveFile = "changelog-archive.md"

// ArchiveFiles are the archive files memsys reads, in order of
// preference; logs kept in upper case use CHANGELOG-archive.md.
var ArchiveFiles = []string{ArchiveFile, "CHANGELOG-archive.md"}

// Tier is the deployment tier of the seed's Tiers table.
type Tier string

// The tiers.
const (
	MVP  Tier = "mvp"  // CHANGELOG.md only
	Core Tier = "core" // + .memory/context.md
	Full Tier = "full" // + TODO.md and .memory/graph.md
)

// TierOf is the memory's tier, worked out one way for every command
// and rule: the tier the configuration names (configured, .memsys.json's
// "tier"; "" when it names none) wins; else DetectTier's: the one
// AGENTS.md declares, else the one the files present show. exists and
// agents (AGENTS.md's bytes, nil when there is none) are called only
// when nothing is configured, so a configured tier costs no read. Each
// command used to write the precedence out itself.
func TierOf(configured string, exists func(rel string) bool, agents func() []byte) Tier {
	if configured != "" {
		return Tier(configured)
	}
	return DetectTier(exists, agents())
}

// DetectTier reads the tier: the one AGENTS.md declares (agents, nil
// when there is none; see DeclaredTier) wins; else it follows from
// which files exist (exists takes a path relative to the memory root):
// graph.md or TODO.md mean full, context.md or a .memory folder mean
// core, else mvp. The declaration wins because a team that chose the
// core tier may still keep a TODO.md of its own.
func DetectTier(exists func(rel string) bool, agents []byte) Tier {
	if t, ok := DeclaredTier(agents); ok {
		return t
	}
	switch {
	case exists(TodoFile) || exists(GraphFile):
		return Full
	case exists(MemoryDir) || exists(ContextFile):
		return Core
	}
	return MVP
}

// InitTier is the tier memsys init deploys when asked for none: TierOf's
// (the configured tier, else the one AGENTS.md declares, else the one
// the files show), so that a plain init keeps the tier status reports.
// Only where TierOf falls back to mvp because no file of a higher tier
// is there does init deploy full, the seed's default, unless memsys was
// set up here already (AGENTS.md holds memsys's protocol block, or a
// protocol section that names memsys): a project's own CHANGELOG.md
// (release notes) is no mvp memory, while init --tier mvp leaves the
// log and that block and nothing else. init used to deploy full
// whenever nothing was declared, so a plain init after init --tier core
// added TODO.md and graph.md to the memory status called core.
func InitTier(configured string, exists func(rel string) bool, agents []byte) Tier {
	t := TierOf(configured, exists, func() []byte { return agents })
	if t != MVP || configured != "" {
		return t
	}
	if _, ok := DeclaredTier(agents); ok {
		return t
	}
	if pr := FindAgentsProtocol(agents); pr.Marker || pr.Heading && pr.NamesMemsys {
		return t
	}
	return Full
}

// HasGraph reports whether the tier includes .memory/graph.md.
func (t Tier) HasGraph() bool { return t == Full }

// HasContext reports whether the tier includes .memory/context.md.
func (t Tier) HasContext() bool { return t == Full || t == Core }

// DeclaredTier reads the tier AGENTS.md declares, as the seed's Tiers
// table names them, on a line of its own such as "**Tier**: Core",
// "- Tier: full" or "Tier: MVP" (any case, the first such line wins).
// A UTF-8 byte-order mark before it is no part of the line: Notepad and
// PowerShell 5 save one, and "Tier: core" on the first line of such a
// file was not read, so the memory was taken for the full tier.
func DeclaredTier(agents []byte) (Tier, bool) {
	for _, line := range strings.Split(strings.TrimPrefix(string(agents), "\ufeff"), "\n") {
		l := strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		l = strings.TrimSpace(strings.TrimLeft(l, "-*+ "))
		l = strings.ReplaceAll(l, "**", "")
		l = strings.ReplaceAll(l, "__", "")
		k, v, ok := strings.Cut(l, ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "tier") {
			continue
		}
		v = strings.ToLower(strings.Trim(strings.TrimSpace(v), "`*_."))
		if f := strings.Fields(v); len(f) > 0 {
			v = f[0]
		}
		switch Tier(v) {
		case MVP, Core, Full:
			return Tier(v), true
		}
	}
	return "", false
}

// NoEventLogFix says what to do about a log that has no Event Log
// section: the one wording of lint's MS101, status, init and append, so
// that they cannot disagree. hasEvents reports whether the file holds
// event headings: then the section heading goes above the first of them.
// Added at the end of such a file, as every command but lint used to
// advise, it leaves each event outside the section (MS115) and append
// numbers from evt-001 again. A file with no event (release notes kept
// before memsys) gets it at its end, where append writes.
func NoEventLogFix(hasEvents bool) string {
	if hasEvents {
		return `add the line "## Event Log" above the first event (events are read only below it)`
	}
	return `add the line "## Event Log" at the end of the file (events are read only below it)`
}
