package materialize

import "testing"

func TestNearest(t *testing.T) {
	g := &Graph{}
	for _, n := range []string{"auth_module", "auth", "billing", "token_service"} {
		g.Nodes = append(g.Nodes, &Node{Name: n})
	}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"autth", []string{"auth"}},
		{"auth", []string{"auth", "auth_module"}},
		{"Token Servise", []string{"token_service"}},
		{"zzzzzz", nil},
	} {
		got := Nearest(g, tc.name, 3)
		if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
			t.Errorf("Nearest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
