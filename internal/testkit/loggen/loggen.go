package loggen

import (
	"bytes"
	"math/rand/v2"
	"strconv"
)

// Header is the text before the first event: an ordinary changelog
// preamble, then the "## Event Log" section heading the parser looks for.
const Header = `# Changelog

All notable changes to this project are recorded here as events.
Agents append; memsys materializes .memory/graph.md and .memory/context.md.

## Event Log

`

// cycle is the order in which event types are written. create appears
// twice and delete once, so the set of live components grows until the
// entity pool is used up; after that a second create becomes a delete
// and the live set hovers near the pool size, as in a long-lived repo.
var cycle = [...]string{
	"create", "modify", "decision", "dependency", "create", "blocker",
	"test", "fix", "modify", "milestone", "handoff", "delete", "escalation",
}

var (
	areas = []string{
		"auth", "billing", "search", "cache", "ingest", "export", "report",
		"notify", "session", "profile", "upload", "queue", "scheduler",
		"metrics", "gateway", "admin", "audit", "config", "storage", "sync",
	}
	kinds = []string{
		"module", "service", "handler", "store", "api", "worker", "client",
		"index", "schema", "cli", "adapter", "router", "validator", "pool",
		"parser",
	}
	libs = []string{
		"pyjwt", "bcrypt", "redis-py", "sqlalchemy", "fastapi", "pydantic",
		"httpx", "celery", "boto3", "alembic", "pytest", "uvicorn", "orjson",
		"structlog", "tenacity", "click", "jinja2", "psycopg", "grpcio",
		"protobuf", "numpy", "pandas", "requests", "cryptography",
	}
	agents = []string{
		"architect", "builder-1", "builder-2", "reviewer", "tester",
		"planner", "ops-agent", "doc-writer",
	}
	// attributes pairs each decided attribute with the options agents
	// choose between, so a decision reads as one a team would make.
	attributes = []struct {
		name    string
		options []string
	}{
		{"storage", []string{"sqlite", "postgres", "redis", "flat files"}},
		{"token_strategy", []string{"jwt", "opaque tokens", "session cookies"}},
		{"transport", []string{"grpc", "http/json", "message queue"}},
		{"retry_policy", []string{"exponential backoff", "fixed delay", "no retries"}},
		{"cache_ttl", []string{"5 minutes", "1 hour", "24 hours"}},
		{"auth_scheme", []string{"oauth2", "api keys", "mutual tls"}},
		{"schema_version", []string{"v1", "v2", "v3"}},
		{"concurrency", []string{"worker pool", "single goroutine", "one task per request"}},
	}
	rationales = []string{
		"benchmarks showed it is simpler and faster for our load",
		"the team already runs it in production elsewhere",
		"it removes a moving part and one failure mode",
		"review found the old choice hard to test in isolation",
	}
	// goals finish summaries: agents say why, not only what.
	goals = []string{
		"so the next release can ship on schedule",
		"to unblock the integration tests in CI",
		"as agreed in the last planning handoff",
		"to keep p99 latency under the agreed budget",
		"after the review asked for smaller units",
		"before the migration window opens",
	}
	changes  = []string{"split read and write paths", "added input validation", "renamed config keys", "moved retries into the client", "reduced allocations in the hot loop", "added structured logging", "tightened error messages", "extracted an interface for tests"}
	reasons  = []string{"superseded by a shared implementation", "feature removed after review", "merged into a sibling component", "dead code found by coverage"}
	symptoms = []string{"intermittent timeouts under load", "wrong totals after a retry", "stale reads after a restart", "crash on empty input", "duplicate rows after a replay"}
	causes   = []string{"connection pool too small", "retry was not idempotent", "cache invalidated too late", "missing nil check", "event applied twice"}
	fixes    = []string{"raised the pool size and added a bound", "made the retry idempotent with a key", "invalidate before the write commits", "guard and return a clear error", "deduplicate by event ID"}
	escalate = []string{"credentials for the staging database are missing", "two agents disagree on the schema", "license of a dependency is unclear", "production data needed to reproduce"}
	requests = []string{"provide staging credentials", "pick one schema and record a decision", "confirm the license with legal", "share an anonymised sample"}
)

type gen struct {
	r         *rand.Rand
	b         bytes.Buffer
	minutes   int64 // minutes since 2024-01-01 00:00
	names     []string
	live      []int // indexes into names
	isLive    []bool
	lastEvt   map[int]int // entity index -> last event number touching it
	blocker   int         // last blocker event number, 0 if resolved
	milestone int

	// sem turns on issue 12's fields (GenerateSemantic), drawn from
	// their own generator so Generate's output stays as it was.
	sem        bool
	sr         *rand.Rand
	open       []int        // escalations and commitments not yet closed
	superseded map[int]bool // events already superseded
	supers     map[int]bool // events that supersede others
}

// Generate returns a CHANGELOG.md holding Header and n events. Events
// cycle through the seed's 11 types with the seed's detail keys, refer
// to earlier events, have non-decreasing timestamps and consecutive IDs
// (evt-001, ..., zero-padded to at least three digits), and average
// about 320 bytes, so 100,000 events make about 32 MB.
func Generate(n int, seed int64) []byte { return generate(n, seed, false) }

// GenerateSemantic is Generate with issue 12's fields as a long-lived
// log would have them: priorities (one decision in 200 P0, one in four
// P2; P3 tests), commitments (with owner and due) in place of every other
// escalation, milestones that close the oldest open loop with
// `closes:`, and about one event in forty superseding a recent one.
// The events are otherwise Generate's.
func GenerateSemantic(n int, seed int64) []byte { return generate(n, seed, true) }

func generate(n int, seed int64, sem bool) []byte {
	g := &gen{
		r:       rand.New(rand.NewPCG(uint64(seed), 0x6d656d737973)),
		lastEvt: make(map[int]int),
		sem:     sem,
	}
	if sem {
		g.sr = rand.New(rand.NewPCG(uint64(seed), 0x73656d616e746963))
		g.superseded, g.supers = map[int]bool{}, map[int]bool{}
	}
	for _, a := range areas {
		for _, k := range kinds {
			g.names = append(g.names, a+"_"+k)
		}
	}
	g.isLive = make([]bool, len(g.names))
	g.minutes = 9 * 60
	g.b.Grow(len(Header) + n*330)
	g.b.WriteString(Header)
	for i := 1; i <= n; i++ {
		if i > 1 {
			g.b.WriteString("\n---\n\n")
		}
		g.event(i)
	}
	return g.b.Bytes()
}

func (g *gen) pick(s []string) string { return s[g.r.IntN(len(s))] }

// pickLive returns a live entity, creating the impression of work
// concentrated on a few components: half the time one of the ten most
// recently created.
func (g *gen) pickLive() int {
	if len(g.live) == 0 {
		return -1
	}
	if g.r.IntN(2) == 0 {
		k := min(10, len(g.live))
		return g.live[len(g.live)-1-g.r.IntN(k)]
	}
	return g.live[g.r.IntN(len(g.live))]
}

func (g *gen) event(num int) {
	typ := cycle[(num-1)%len(cycle)]
	if typ == "create" && len(g.live) == len(g.names) {
		typ = "delete"
	}
	if len(g.live) == 0 && typ != "create" && typ != "dependency" && typ != "milestone" && typ != "handoff" && typ != "escalation" && typ != "decision" {
		typ = "create"
	}
	g.minutes += int64(1 + g.r.IntN(29))
	if g.r.IntN(20) == 0 {
		g.minutes += int64(60 * (10 + g.r.IntN(14))) // overnight gap
	}
	agent := g.pick(agents)
	if g.sem && typ == "escalation" && g.sr.IntN(2) == 0 {
		typ = "commitment"
	}

	b := &g.b
	b.WriteString("### ")
	writeID(b, num)
	b.WriteString(" | ")
	writeTime(b, g.minutes)
	b.WriteString(" | ")
	b.WriteString(agent)
	b.WriteString(" | ")
	b.WriteString(typ)
	b.WriteString("\n\n")

	var (
		scope, summary string
		details        [][2]string
		refs           []int
		tags           []string
		ent            = -1
	)
	switch typ {
	case "create":
		ent = g.newEntity()
		name := g.names[ent]
		scope = areaOf(name)
		summary = "Create " + name + " to handle " + scope + " requests"
		details = [][2]string{{"entity", name}, {"path", "src/" + scope + "/" + kindOf(name) + ".py"}, {"purpose", kindOf(name) + " for the " + scope + " area, used by the web and mobile clients"}}
		tags = []string{scope, "create"}
	case "modify":
		ent = g.pickLive()
		name := g.names[ent]
		c := g.pick(changes)
		scope = areaOf(name)
		summary = "Modify " + name + ": " + c
		details = [][2]string{{"entity", name}, {"changes", c}}
		tags = []string{scope, "refactor"}
	case "decision":
		a := attributes[g.r.IntN(len(attributes))]
		attr := a.name
		k := g.r.IntN(len(a.options))
		from, to := a.options[k], a.options[(k+1+g.r.IntN(len(a.options)-1))%len(a.options)]
		name := "architecture"
		if e := g.pickLive(); e >= 0 {
			ent = e
			name = g.names[e]
		}
		scope = areaOf(name)
		summary = "Use " + to + " instead of " + from + " for " + attr
		details = [][2]string{{"from", from}, {"to", to}, {"rationale", g.pick(rationales)}, {"entity", name}, {"attribute", attr}}
		tags = []string{"decision", attr}
	case "dependency":
		lib := g.pick(libs)
		ver := strconv.Itoa(1+g.r.IntN(5)) + "." + strconv.Itoa(g.r.IntN(20)) + "." + strconv.Itoa(g.r.IntN(10))
		comp := "project"
		if e := g.pickLive(); e >= 0 {
			ent = e
			comp = g.names[e]
		}
		scope = comp
		summary = "Add " + lib + " " + ver + " as a dependency of " + comp
		details = [][2]string{{"entity", lib}, {"version", ver}}
		tags = []string{"dependency", lib}
	case "blocker":
		ent = g.pickLive()
		blocking := g.pick(libs)
		if e := g.pickLive(); e != ent {
			blocking = g.names[e]
		}
		name := g.names[ent]
		scope = areaOf(name)
		summary = name + " is blocked until " + blocking + " is ready"
		details = [][2]string{{"blocked_entity", name}, {"blocking_entity", blocking}}
		tags = []string{"blocker", scope}
		g.blocker = num
	case "test":
		ent = g.pickLive()
		name := g.names[ent]
		scope = areaOf(name)
		res := "pass, " + strconv.Itoa(70+g.r.IntN(30)) + "% coverage"
		if g.r.IntN(6) == 0 {
			res = "fail, " + strconv.Itoa(1+g.r.IntN(5)) + " of " + strconv.Itoa(40+g.r.IntN(200)) + " cases"
		}
		summary = "Test " + name + ": " + res
		details = [][2]string{{"target", name}, {"result", res}}
		tags = []string{"test", scope}
	case "fix":
		i := g.r.IntN(len(symptoms))
		scope = "runtime"
		if e := g.pickLive(); e >= 0 {
			ent = e
			scope = areaOf(g.names[e])
		}
		summary = "Fix " + symptoms[i]
		details = [][2]string{{"symptom", symptoms[i]}, {"root_cause", causes[i]}, {"resolution", fixes[i]}}
		if g.blocker > 0 {
			refs = append(refs, g.blocker)
			g.blocker = 0
		}
		tags = []string{"fix", scope}
	case "milestone":
		g.milestone++
		m := "M" + strconv.Itoa(g.milestone)
		scope = "project"
		summary = "Reach milestone " + m + ": " + g.pick(areas) + " feature complete"
		details = [][2]string{{"name", m}, {"criteria_met", "all tests pass, reviewed, documented"}}
		tags = []string{"milestone"}
	case "handoff":
		from, to := g.pick(agents), g.pick(agents)
		scope = "pipeline"
		summary = "Hand off from " + from + " to " + to + " for the next phase"
		details = [][2]string{{"from_agent", from}, {"to_agent", to}}
		tags = []string{"handoff"}
	case "delete":
		ent = g.pickLive()
		name := g.names[ent]
		r := g.pick(reasons)
		scope = areaOf(name)
		summary = "Delete " + name + ": " + r
		details = [][2]string{{"entity", name}, {"reason", r}}
		tags = []string{"delete", scope}
	case "escalation", "commitment":
		i := g.r.IntN(len(escalate))
		scope = "project"
		summary = "Escalate: " + escalate[i]
		details = [][2]string{{"reason", escalate[i]}, {"requested_action", requests[i]}}
		tags = []string{"escalation"}
		if typ == "commitment" {
			summary = "Promise to " + requests[i]
			var due bytes.Buffer
			writeTime(&due, g.minutes+7*1440)
			details = [][2]string{{"owner", agent}, {"due", due.String()[:10]}}
			tags = []string{"commitment"}
		}
		if g.sem {
			g.open = append(g.open, num)
		}
	}
	var supersedes int
	if g.sem {
		details, supersedes = g.semantics(num, typ, details)
	}
	if ent >= 0 {
		if last, ok := g.lastEvt[ent]; ok && typ != "create" && (len(refs) == 0 || refs[0] != last) {
			refs = append(refs, last)
		}
		g.lastEvt[ent] = num
		if typ == "delete" {
			g.kill(ent)
		}
	}
	if len(refs) == 0 && num > 1 && g.r.IntN(3) == 0 {
		refs = append(refs, num-1-g.r.IntN(min(num-1, 50)))
	}

	b.WriteString("**Scope**: ")
	b.WriteString(scope)
	b.WriteString("\n**Summary**: ")
	b.WriteString(summary)
	b.WriteByte(' ')
	b.WriteString(g.pick(goals))
	b.WriteString("\n\n**Details**:\n")
	for _, d := range details {
		b.WriteString("- ")
		b.WriteString(d[0])
		b.WriteString(": ")
		b.WriteString(d[1])
		b.WriteByte('\n')
	}
	b.WriteString("\n**Refs**: ")
	if len(refs) == 0 {
		b.WriteString("none")
	}
	for i, r := range refs {
		if i > 0 {
			b.WriteString(", ")
		}
		writeID(b, r)
	}
	b.WriteString("\n**Tags**: ")
	for i, t := range tags {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t)
	}
	b.WriteByte('\n')
	if supersedes > 0 {
		b.WriteString("**Supersedes**: ")
		writeID(b, supersedes)
		b.WriteByte('\n')
	}
}

// semantics adds issue 12's details to an event of GenerateSemantic and
// picks the event it supersedes (0 for none).
func (g *gen) semantics(num int, typ string, details [][2]string) ([][2]string, int) {
	switch typ {
	case "decision":
		switch k := g.sr.IntN(200); {
		case k < 1:
			details = append(details, [2]string{"priority", "P0"})
		case k < 50:
			details = append(details, [2]string{"priority", "P2"})
		}
	case "test":
		if g.sr.IntN(3) == 0 {
			details = append(details, [2]string{"priority", "P3"})
		}
	case "milestone":
		if len(g.open) > 0 {
			details = append(details, [2]string{"closes", ID(g.open[0])})
			g.open = g.open[1:]
		}
	}
	if num <= 50 || g.sr.IntN(40) != 0 {
		return details, 0
	}
	t := num - 1 - g.sr.IntN(20)
	if g.superseded[t] || g.supers[t] {
		return details, 0
	}
	g.superseded[t], g.supers[num] = true, true
	return details, t
}

// newEntity brings a component to life: a never-used name first, then
// one deleted long ago, so names recur as they do when code is rebuilt.
func (g *gen) newEntity() int {
	start := g.r.IntN(len(g.names))
	for k := range g.names {
		i := (start + k) % len(g.names)
		if !g.isLive[i] {
			g.isLive[i] = true
			g.live = append(g.live, i)
			return i
		}
	}
	return g.live[0]
}

func (g *gen) kill(ent int) {
	g.isLive[ent] = false
	for i, e := range g.live {
		if e == ent {
			g.live = append(g.live[:i], g.live[i+1:]...)
			return
		}
	}
}

func areaOf(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] == '_' {
			return name[:i]
		}
	}
	return name
}

func kindOf(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] == '_' {
			return name[i+1:]
		}
	}
	return name
}

// ID formats event number num as written in generated logs.
func ID(num int) string {
	var b bytes.Buffer
	writeID(&b, num)
	return b.String()
}

func writeID(b *bytes.Buffer, num int) {
	b.WriteString("evt-")
	if num < 100 {
		b.WriteByte('0')
	}
	if num < 10 {
		b.WriteByte('0')
	}
	b.WriteString(strconv.Itoa(num))
}

// writeTime writes minutes since 2024-01-01 00:00 as YYYY-MM-DD HH:MM
// with a proleptic Gregorian calendar and no time zone.
func writeTime(b *bytes.Buffer, minutes int64) {
	days := minutes / 1440
	y, m, d := civilFromDays(days + daysFromCivil(2024, 1, 1))
	hm := minutes % 1440
	pad := func(v, w int) {
		s := strconv.Itoa(v)
		for i := len(s); i < w; i++ {
			b.WriteByte('0')
		}
		b.WriteString(s)
	}
	pad(y, 4)
	b.WriteByte('-')
	pad(m, 2)
	b.WriteByte('-')
	pad(d, 2)
	b.WriteByte(' ')
	pad(int(hm/60), 2)
	b.WriteByte(':')
	pad(int(hm%60), 2)
}

// daysFromCivil and civilFromDays are Howard Hinnant's algorithms,
// valid for years 0 and later, which is all a generated log uses.
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	yoe := y - era*400
	doy := (153*((m+9)%12)+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

func civilFromDays(z int64) (int, int, int) {
	z += 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return int(y), int(m), int(d)
}
