package lint

import (
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/parse"
)

func TestCollide(t *testing.T) {
	events := func(log string) []parse.Event { return parse.Parse("CHANGELOG.md", []byte(log)).Events }
	base := head + ev(1, "one")
	a := base + ev(2, "a two") + ev(3, "a three")
	b := base + ev(2, "b two") + ev(3, "b three")
	c := base + ev(2, "a two") + ev(3, "c three")
	for _, tc := range []struct {
		name string
		x, y string
		want string
	}{
		{"both appended", a, b, "evt-002,evt-003"},
		{"one took the other's event", a, c, "evt-003"},
		{"nothing new on one side", a, base, ""},
		{"same branch", a, a, ""},
	} {
		var ids []string
		for _, c := range Collide(events(base), events(tc.x), events(tc.y)) {
			ids = append(ids, c.ID)
			if c.A.Text == c.B.Text {
				t.Errorf("%s: %s reported with equal text", tc.name, c.ID)
			}
		}
		if got := strings.Join(ids, ","); got != tc.want {
			t.Errorf("%s: collisions %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestCollisionRuleThroughThePass runs MS306 on a fake repository: the
// merge base, REV and the working tree.
func TestCollisionRuleThroughThePass(t *testing.T) {
	base := head + ev(1, "one")
	git := fakeGit{blobs: map[string]string{
		"b45e:CHANGELOG.md": base,
		"0470:CHANGELOG.md": base + ev(2, "main two"),
	}}
	l, err := New(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		revs *Revisions
		want string
	}{
		{"REV moved on", &Revisions{Base: "b45e", Onto: "0470", OntoName: "origin/main"},
			"MS306 evt-002 is also evt-002 on origin/main with other content: run `memsys renumber --onto origin/main`"},
		{"REV is an ancestor", &Revisions{Base: "b45e"}, ""},
	} {
		files := memFS{"CHANGELOG.md": []byte(base + ev(2, "branch two") + ev(3, "branch three"))}
		var got []string
		for _, d := range l.Check(Input{Git: git, Revisions: c.revs, ReadFile: files.read, Exists: files.exists}) {
			if strings.HasPrefix(d.Rule, "MS3") {
				got = append(got, d.Rule+" "+d.Message)
			}
		}
		if g := strings.Join(got, "\n"); g != c.want {
			t.Errorf("%s: got %q, want %q", c.name, g, c.want)
		}
	}
}
