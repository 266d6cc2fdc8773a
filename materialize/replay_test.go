package materialize

import (
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

const t0 = "2026-03-02 09:00"

func TestReplayRules(t *testing.T) {
	tests := []struct {
		name   string
		events []parse.Event
		nodes  []string // every node row, in order
		edges  []string // every edge row, in order
		notes  []string // substrings expected among all notes
	}{{
		name:   "create",
		events: []parse.Event{ev(1, t0, "create", "entity: auth_module", "path: src/auth/", "purpose: login")},
		nodes:  []string{"auth_module|component|active|evt-001|evt-001|path=src/auth/;purpose=login"},
	}, {
		name:   "create with type and status",
		events: []parse.Event{ev(1, t0, "create", "Entity: write docs", "Type: Task", "status: todo")},
		nodes:  []string{"write docs|task|planned|evt-001|evt-001|"},
	}, {
		name:   "create with unknown type",
		events: []parse.Event{ev(1, t0, "create", "entity: x", "type: service")},
		nodes:  []string{"x|component|active|evt-001|evt-001|"},
		notes:  []string{`unknown node type "service": component`},
	}, {
		name:   "create falls back to Scope",
		events: []parse.Event{ev(1, t0, "create", "@scope: api, web", "path: api/")},
		nodes:  []string{"api|component|active|evt-001|evt-001|path=api/"},
		notes:  []string{"no entity detail: entity taken from Scope"},
	}, {
		name:   "create without entity or scope",
		events: []parse.Event{ev(1, t0, "create", "purpose: x")},
		notes:  []string{"create without entity, Scope or path: no node"},
	}, {
		name:   "create falls back to path",
		events: []parse.Event{ev(1, t0, "create", "path: src/x.go")},
		nodes:  []string{"src/x.go|component|active|evt-001|evt-001|path=src/x.go"},
		notes:  []string{"entity taken from path"},
	}, {
		name: "modify",
		events: []parse.Event{
			ev(1, t0, "create", "entity: api"),
			ev(2, t0, "modify", "entity: API", "changes: add rate limit", "status: done"),
		},
		nodes: []string{"api|component|completed|evt-001|evt-002|changes=add rate limit"},
	}, {
		name:   "modify before create",
		events: []parse.Event{ev(1, t0, "modify", "entity: cache", "changes: ttl 60s"), ev(2, t0, "create", "entity: cache", "type: document")},
		nodes:  []string{"cache|document|active|evt-002|evt-002|changes=ttl 60s"},
		notes:  []string{"modify before create: node created"},
	}, {
		name:   "delete",
		events: []parse.Event{ev(1, t0, "create", "entity: old"), ev(2, t0, "delete", "entity: old", "reason: replaced")},
		nodes:  []string{"old|component|deprecated|evt-001|evt-002|reason=replaced"},
	}, {
		name:   "delete of unknown node",
		events: []parse.Event{ev(1, t0, "delete", "entity: ghost", "reason: never existed")},
		nodes:  []string{"ghost|component|deprecated|evt-001|evt-001|reason=never existed"},
		notes:  []string{"delete of unknown node: row added as deprecated"},
	}, {
		name: "decision and supersede",
		events: []parse.Event{
			ev(1, t0, "decision", "entity: auth", "attribute: database", "from: sqlite", "to: postgres", "rationale: writes"),
			ev(2, t0, "create", "entity: auth"),
			ev(3, t0, "decision", "entity: Auth", "attribute: Database", "from: postgres", "to: mysql"),
		},
		nodes: []string{
			"database|decision|deprecated|evt-001|evt-003|from=sqlite;to=postgres;rationale=writes;superseded_by=evt-003",
			"auth|component|active|evt-002|evt-003|",
			"Database (evt-003)|decision|active|evt-003|evt-003|from=postgres;to=mysql;supersedes=database",
		},
		edges: []string{"auth -implements-> database|", "auth -implements-> Database (evt-003)|"},
		notes: []string{`decision before create: node "auth" created (component, planned)`, `decision supersedes "database"`},
	}, {
		name: "attributes and a retype",
		events: []parse.Event{
			ev(1, t0, "create", "entity: billing", "purpose: invoices"),
			withAttrs(ev(2, t0, "modify", "entity: billing", "type: task", "changes: x"), "owner", "team-a"),
		},
		nodes: []string{"billing|task|active|evt-001|evt-002|purpose=invoices;changes=x;owner=team-a"},
		notes: []string{`node "billing" retyped from component to task`},
	}, {
		name:   "decision on scopes without entity",
		events: []parse.Event{ev(1, t0, "decision", "@scope: api, web", "to: REST")},
		nodes: []string{
			"REST|decision|active|evt-001|evt-001|to=REST",
			"api|component|planned|evt-001|evt-001|", "web|component|planned|evt-001|evt-001|",
		},
		edges: []string{"api -implements-> REST|", "web -implements-> REST|"},
	}, {
		name:   "decision named by neither attribute nor a name-like choice",
		events: []parse.Event{ev(1, t0, "decision", "@scope: Review the API, then ship it.", "to: use REST for everything, always")},
		nodes:  []string{"decision|decision|active|evt-001|evt-001|to=use REST for everything, always"},
		notes:  []string{"decision without entity or Scope: no implements edge"},
	}, {
		name: "prose never names a node",
		events: []parse.Event{
			ev(1, t0, "create", "@scope: documentation accuracy (CURRENT-REPOSITORY-STATE, README)", "purpose: audit"),
			ev(2, t0, "create", "entity: Fix the login flow, then retest.", "@scope: login, signup"),
			ev(3, t0, "milestone", "@summary: Shipped the first public beta to all our early users today"),
			ev(4, t0, "milestone", "@summary: beta 1"),
		},
		nodes: []string{"login|component|active|evt-002|evt-002|", "beta 1|milestone|completed|evt-004|evt-004|"},
		notes: []string{"create without entity, Scope or path: no node", `entity "Fix the login flow, then retest." is not a name`, "milestone without name, and its Summary is not a name: no node"},
	}, {
		name: "dependency",
		events: []parse.Event{
			ev(1, t0, "create", "entity: auth_module"),
			ev(2, t0, "dependency", "@scope: auth_module", "entity: PyJWT", "version: 2.8.0"),
			ev(3, t0, "dependency", "@scope: Auth Module", "entity: pyjwt", "version: 2.9.0"),
		},
		nodes: []string{"auth_module|component|active|evt-001|evt-003|", "PyJWT|dependency|active|evt-002|evt-003|version=2.9.0"},
		edges: []string{"auth_module -depends_on-> PyJWT|"},
	}, {
		name:   "dependency without scope",
		events: []parse.Event{ev(1, t0, "dependency", "entity: lodash", "version: 4")},
		nodes:  []string{"lodash|dependency|active|evt-001|evt-001|version=4"},
		notes:  []string{"dependency without Scope: no depends_on edge"},
	}, {
		name:   "dependency component detail overrides scope",
		events: []parse.Event{ev(1, t0, "dependency", "@scope: backend", "entity: redis", "component: cache, queue")},
		nodes: []string{"redis|dependency|active|evt-001|evt-001|",
			"cache|component|active|evt-001|evt-001|", "queue|component|active|evt-001|evt-001|"},
		edges: []string{"cache -depends_on-> redis|", "queue -depends_on-> redis|"},
	}, {
		name: "blocker and fix",
		events: []parse.Event{
			ev(1, t0, "create", "entity: deploy", "type: task"),
			ev(2, t0, "blocker", "blocked_entity: deploy", "blocking_entity: staging db"),
			ev(3, t0, "fix", "symptom: db down", "root_cause: disk full", "resolution: resized", "@refs: evt-2"),
		},
		nodes: []string{"deploy|task|active|evt-001|evt-003|fix=resized;root_cause=disk full",
			"staging db|component|active|evt-002|evt-002|"},
		edges: []string{"staging db -blocks-> deploy|resolved=evt-003"},
	}, {
		name: "fix resolves one of two blockers",
		events: []parse.Event{
			ev(1, t0, "blocker", "blocked_entity: ship", "blocking_entity: a"),
			ev(2, t0, "blocker", "blocked_entity: ship", "blocking_entity: b"),
			ev(3, t0, "fix", "resolution: a fixed", "@refs: evt-001"),
		},
		nodes: []string{"ship|component|blocked|evt-001|evt-003|fix=a fixed", "a|component|active|evt-001|evt-001|", "b|component|active|evt-002|evt-002|"},
		edges: []string{"a -blocks-> ship|resolved=evt-003", "b -blocks-> ship|"},
	}, {
		// evt-+1 is no event ID: the fix resolves nothing, as lint says.
		name: "fix with a signed ref resolves nothing",
		events: []parse.Event{
			ev(1, t0, "blocker", "blocked_entity: ship", "blocking_entity: a"),
			ev(2, t0, "fix", "resolution: a fixed", "@refs: evt-+1"),
		},
		nodes: []string{"ship|component|blocked|evt-001|evt-001|", "a|component|active|evt-001|evt-001|"},
		edges: []string{"a -blocks-> ship|"},
	}, {
		name: "blocker reopened after fix",
		events: []parse.Event{
			ev(1, t0, "blocker", "blocked_entity: ship", "blocking_entity: a"),
			ev(2, t0, "fix", "entity: a", "resolution: patched", "@refs: evt-001"),
			ev(3, t0, "blocker", "blocked_entity: ship", "blocking_entity: a"),
			ev(4, t0, "fix", "resolution: again", "@refs: evt-001"),
		},
		nodes: []string{"ship|component|blocked|evt-001|evt-003|", "a|component|active|evt-001|evt-003|fix=patched"},
		edges: []string{"a -blocks-> ship|reopened=evt-003"},
		notes: []string{"blocks edge reopened", "blocker evt-001 already resolved"},
	}, {
		name: "blocker without blocking entity",
		events: []parse.Event{
			ev(1, t0, "blocker", "@scope: release"),
			ev(2, t0, "fix", "resolution: done", "@refs: evt-001"),
		},
		nodes: []string{"release|component|active|evt-001|evt-002|fix=done"},
		notes: []string{"blocker without blocking_entity: node blocked, no edge"},
	}, {
		name:   "test",
		events: []parse.Event{ev(1, t0, "create", "entity: auth"), ev(2, t0, "test", "target: auth", "result: 48 passed", "coverage: 91%")},
		nodes:  []string{"auth|component|active|evt-001|evt-002|result=48 passed;coverage=91%"},
	}, {
		name:   "milestone",
		events: []parse.Event{ev(1, t0, "milestone", "name: MVP", "criteria_met: all tests green")},
		nodes:  []string{"MVP|milestone|completed|evt-001|evt-001|criteria_met=all tests green"},
	}, {
		name:   "milestone without name",
		events: []parse.Event{ev(1, t0, "milestone", "@summary: Beta shipped")},
		nodes:  []string{"Beta shipped|milestone|completed|evt-001|evt-001|"},
		notes:  []string{"milestone without name"},
	}, {
		name: "handoff",
		events: []parse.Event{
			ev(1, t0, "handoff", "task: build api", "from_agent: architect", "to_agent: coder", "phase: implementation"),
			ev(2, t0, "handoff", "task: Build-API", "from_agent: coder", "to_agent: tester", "phase: testing"),
		},
		nodes: []string{"build api|task|active|evt-001|evt-002|assignee=tester;previous_assignee=coder;phase=testing"},
	}, {
		name: "relation details and precedes",
		events: []parse.Event{
			ev(1, t0, "create", "entity: a", "type: task", "precedes: b"),
			ev(2, t0, "create", "entity: b", "type: task", "after: c", "related_to: a"),
		},
		nodes: []string{"a|task|active|evt-001|evt-002|", "b|task|active|evt-002|evt-002|", "c|component|planned|evt-002|evt-002|"},
		edges: []string{"a -precedes-> b|", "c -precedes-> b|", "b -related_to-> a|"},
	}, {
		name:   "escalation and archive change nothing",
		events: []parse.Event{ev(1, t0, "escalation", "reason: x"), ev(2, t0, "archive"), ev(3, t0, "deploy")},
		notes:  []string{"no graph change", `unknown event type "deploy": no graph change`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, changes := Replay(tt.events)
			var nodes []string
			for _, n := range g.Nodes {
				nodes = append(nodes, nodeRow(n))
			}
			if !slices.Equal(nodes, tt.nodes) {
				t.Errorf("nodes:\n got %q\nwant %q", nodes, tt.nodes)
			}
			if edges := edgeRows(g); !slices.Equal(edges, tt.edges) {
				t.Errorf("edges:\n got %q\nwant %q", edges, tt.edges)
			}
			var notes []string
			for _, c := range changes {
				notes = append(notes, c.Notes...)
			}
			all := strings.Join(notes, "\n")
			for _, n := range tt.notes {
				if !strings.Contains(all, n) {
					t.Errorf("notes %q lack %q", notes, n)
				}
			}
			if len(changes) != len(tt.events) {
				t.Fatalf("%d changes for %d events", len(changes), len(tt.events))
			}
			for i, c := range changes {
				if c.Event != tt.events[i].ID {
					t.Errorf("change %d is for %q", i, c.Event)
				}
			}
			if g.Horizon != tt.events[len(tt.events)-1].ID || g.Updated != t0 {
				t.Errorf("horizon %q %q", g.Horizon, g.Updated)
			}
			checkSchema(t, g)
			back, err := ParseGraph(RenderGraph(g))
			if err != nil {
				t.Fatal(err)
			}
			sameGraph(t, back, g)
		})
	}
}

// checkSchema fails when the graph holds anything outside the seed's
// lists, or an edge end that is no node.
func checkSchema(t *testing.T, g *Graph) {
	t.Helper()
	for _, n := range g.Nodes {
		if !contains(NodeTypes, n.Type) || !contains(NodeStatuses, n.Status) {
			t.Errorf("node %q has type %q status %q", n.Name, n.Type, n.Status)
		}
	}
	for _, e := range g.Edges {
		if !contains(EdgeRelations, e.Relation) || g.Node(e.From) == nil || g.Node(e.To) == nil {
			t.Errorf("edge %q off schema", e.Label())
		}
	}
}

func TestChangeRecords(t *testing.T) {
	_, ch := Replay([]parse.Event{
		ev(1, t0, "create", "entity: auth"),
		ev(2, t0, "dependency", "@scope: auth", "entity: bcrypt", "version: 4"),
		ev(3, t0, "blocker", "blocked_entity: auth", "blocking_entity: bcrypt"),
		ev(4, t0, "fix", "resolution: pin", "@refs: evt-003"),
	})
	want := []string{
		"evt-001 +[auth] ~[] +[] ~[]",
		"evt-002 +[bcrypt] ~[auth] +[auth -depends_on-> bcrypt] ~[]",
		"evt-003 +[] ~[auth bcrypt] +[bcrypt -blocks-> auth] ~[]",
		"evt-004 +[] ~[auth] +[] ~[bcrypt -blocks-> auth]",
	}
	for i, c := range ch {
		got := c.Event + " +" + fmtList(c.NodesAdded) + " ~" + fmtList(c.NodesUpdated) + " +" + fmtList(c.EdgesAdded) + " ~" + fmtList(c.EdgesUpdated)
		if got != want[i] {
			t.Errorf("change %d:\n got %s\nwant %s", i, got, want[i])
		}
	}
}

func fmtList(s []string) string { return "[" + strings.Join(s, " ") + "]" }

func TestCanon(t *testing.T) {
	for _, s := range []string{"auth_module", "Auth Module", "auth-module", " AUTH__module ", "auth - module"} {
		if got := Canon(s); got != "auth_module" {
			t.Errorf("Canon(%q) = %q", s, got)
		}
	}
	if Canon("_x") != "x" || Canon("") != "" || Canon("---") != "" {
		t.Errorf("edge cases: %q %q %q", Canon("_x"), Canon(""), Canon("---"))
	}
	g, _ := Replay([]parse.Event{ev(1, t0, "create", "entity: Auth Module"), ev(2, t0, "modify", "entity: auth_module")})
	if len(g.Nodes) != 1 || g.Nodes[0].Name != "Auth Module" || g.Node("AUTH-MODULE") != g.Nodes[0] {
		t.Errorf("got %q", nodeRow(g.Nodes[0]))
	}
	// A Graph built by hand has no index; Node still finds by name.
	h := &Graph{Nodes: g.Nodes}
	if h.Node("auth module") == nil {
		t.Error("unindexed lookup failed")
	}
}

// withAttrs adds an "attributes" detail with one nested bullet per
// key, value pair.
func withAttrs(e parse.Event, kv ...string) parse.Event {
	d := parse.Detail{Key: "attributes"}
	for i := 0; i+1 < len(kv); i += 2 {
		d.Children = append(d.Children, parse.Detail{Key: kv[i], Value: kv[i+1]})
	}
	e.Details = append(e.Details, d)
	return e
}
