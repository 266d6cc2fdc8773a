package lint

import (
	"strings"
	"unicode"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

// entityKeys are the detail keys whose values name graph entities.
var entityKeys = []string{"entity", "blocked_entity", "blocking_entity", "target"}

func init() {
	register(&Rule{
		ID:    "MS116",
		Name:  "entity-name-variants",
		Title: "one entity is always written the same way",
		Doc: "Entity names (the `entity`, `blocked_entity`, `blocking_entity` and `target` " +
			"details) that differ only by case, `-`/`_` or spacing, such as `auth-module` and " +
			"`Auth_Module`, are probably one thing written two ways; the graph may then hold two " +
			"nodes, or merge names the author meant apart. Write every later mention exactly as " +
			"the first.",
		Bad:      "- entity: auth-module\n...\n- entity: Auth_Module",
		Good:     "- entity: auth-module\n...\n- entity: auth-module",
		Content:  true,
		Severity: diag.Warning,
		Visit:    visitEntityNameVariants,
	})
}

type entitySeen struct {
	name string
	at   diag.Range
}

func visitEntityNameVariants(p *Pass) Visitor {
	st := struct {
		first    map[string]entitySeen // folded name -> first spelling
		reported map[string]bool       // spellings already reported
		// settled holds spellings that are the first of their folded
		// name: an entity named again the same way costs one lookup,
		// no folding.
		settled map[string]bool
	}{map[string]entitySeen{}, map[string]bool{}, map[string]bool{}}
	return Visitor{State: &st, Event: func(e *parse.Event) {
		for _, d := range e.Details {
			if !isEntityKey(d.Norm()) {
				continue
			}
			name := strings.TrimSpace(d.Value)
			if name == "" || st.settled[name] {
				continue
			}
			at := lineRange(e.Range.File, d.Line)
			if d.Line == 0 {
				at = headerRange(e)
			}
			f := foldEntity(name)
			s, ok := st.first[f]
			switch {
			case !ok:
				st.first[f] = entitySeen{name, at}
				st.settled[name] = true
			case s.name != name && !st.reported[name]:
				st.reported[name] = true
				p.Report(diag.Diagnostic{
					Range: at, Event: e.ID,
					Message: "entity \"" + name + "\" differs from \"" + s.name + "\" (" + where(s.at, at.File) +
						") only by case, \"-\", \"_\" or spaces: write \"" + s.name + "\"",
					Related: []diag.Range{s.at},
				})
			}
		}
	}}
}

// isEntityKey reports whether norm, a normalised detail key
// (parse.Detail.Norm), is one of entityKeys: the parser normalised each
// key once, so this compares strings instead of folding the key again.
func isEntityKey(norm string) bool {
	for _, ek := range entityKeys {
		if norm == ek {
			return true
		}
	}
	return false
}

// foldEntity lower-cases name and drops "-", "_" and white space.
func foldEntity(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range name {
		if r == '-' || r == '_' || unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
