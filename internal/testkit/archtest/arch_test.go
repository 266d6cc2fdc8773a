package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// root is the repository, two folders above this one.
const root = "../../.."

// source is one parsed Go file, with its path from the repository root.
type source struct {
	path string
	file *ast.File
	fset *token.FileSet
}

func (s source) test() bool { return strings.HasSuffix(s.path, "_test.go") }

func (s source) line(p token.Pos) int { return s.fset.Position(p).Line }

// sources parses every Go file of the repository.
func sources(t *testing.T) []source {
	t.Helper()
	var out []source
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, source{path: filepath.ToSlash(rel), file: f, fset: fset})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 50 {
		t.Fatalf("found %d Go files under %s: is the test running in its folder?", len(out), root)
	}
	return out
}

// osFileCalls are the os functions that touch the file system: only
// internal/io/workspace (and gitx, for git's own files) may call them.
var osFileCalls = map[string]bool{
	"Open": true, "OpenFile": true, "Create": true, "CreateTemp": true, "ReadFile": true, "WriteFile": true,
	"ReadDir": true, "Stat": true, "Lstat": true, "Remove": true, "RemoveAll": true, "Rename": true,
	"Mkdir": true, "MkdirAll": true, "MkdirTemp": true, "Chmod": true, "Chtimes": true, "Symlink": true,
	"Link": true, "Readlink": true, "Truncate": true, "DirFS": true,
}

// selector returns "pkg.Name" for a call of a package function.
func selector(call *ast.CallExpr) string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return id.Name + "." + sel.Sel.Name
}

func TestCommandIsThin(t *testing.T) {
	for _, s := range sources(t) {
		if !(strings.HasPrefix(s.path, "cmd/memsys/") || strings.HasPrefix(s.path, "cmd/memsys-mcp/")) || s.test() {
			continue
		}
		for _, imp := range s.file.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "os/exec" {
				t.Errorf("%s imports os/exec: cmd/memsys runs nothing; put it in a package (git: internal/io/gitx)", s.path)
			}
		}
		for _, d := range s.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if n := s.line(fn.End()) - s.line(fn.Pos()) + 1; n > 80 {
				t.Errorf("%s:%d: %s has %d lines, at most 80: move the logic into internal/app", s.path, s.line(fn.Pos()), fn.Name.Name, n)
			}
		}
		ast.Inspect(s.file, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if name := selector(call); strings.HasPrefix(name, "os.") && osFileCalls[strings.TrimPrefix(name, "os.")] {
					t.Errorf("%s:%d: %s in cmd/memsys: files are internal/io/workspace's job", s.path, s.line(call.Pos()), name)
				}
			}
			return true
		})
	}
}

func TestOnlyGitxRunsGit(t *testing.T) {
	for _, s := range sources(t) {
		if strings.HasPrefix(s.path, "internal/io/gitx/") {
			continue
		}
		ast.Inspect(s.file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			name := selector(call)
			if name != "exec.Command" && name != "exec.CommandContext" {
				return true
			}
			for _, a := range call.Args {
				if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING && lit.Value == `"git"` {
					t.Errorf("%s:%d: %s(\"git\" outside internal/io/gitx: run git through gitx.Git", s.path, s.line(call.Pos()), name)
				}
			}
			return true
		})
	}
}

// TestOneEventNumberParser fails on a function outside parse/id.go that
// both names the "evt-" prefix and converts digits to a number: that is
// a second reader of the event ID, which drifts (evt-+5 was read as
// evt-5 by one copy and refused by another). Use parse.EventNum.
func TestOneEventNumberParser(t *testing.T) {
	for _, s := range sources(t) {
		if s.path == "parse/id.go" || s.test() {
			continue
		}
		for _, d := range s.file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			prefix, number := false, false
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BasicLit:
					if v, err := strconv.Unquote(n.Value); err == nil && strings.EqualFold(v, "evt-") {
						prefix = true
					}
				case *ast.CallExpr:
					switch selector(n) {
					case "strconv.Atoi", "strconv.ParseInt", "strconv.ParseUint", "fmt.Sscanf", "fmt.Sscan":
						number = true
					}
				}
				return true
			})
			if prefix && number {
				t.Errorf("%s:%d: %s parses event numbers itself: use parse.EventNum", s.path, s.line(fn.Pos()), fn.Name.Name)
			}
		}
	}
}

// startupHeavy are packages no memsys command may link: their package
// initialisation (and the MCP SDK's that pulls them in) cost every
// command ~7 ms of start-up at 1k events, more than git status takes.
// The MCP server lives in cmd/memsys-mcp for that reason.
var startupHeavy = []string{
	"github.com/modelcontextprotocol/go-sdk/",
	"github.com/memsys/memsys/internal/app/mcpserver",
	"net/http",
	"encoding/gob",
	"golang.org/x/oauth2",
	"github.com/google/jsonschema-go/",
}

// TestMemsysDoesNotLinkMCP runs `go list -deps ./cmd/memsys`: the
// linked packages, test files excluded, exactly as go install builds it.
func TestMemsysDoesNotLinkMCP(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	cmd := exec.Command(gobin, "list", "-deps", "./cmd/memsys")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/memsys: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/memsys/memsys/parse") {
		t.Fatalf("go list -deps ./cmd/memsys lists no parse package: %q", deps)
	}
	for _, d := range deps {
		for _, h := range startupHeavy {
			if d == strings.TrimSuffix(h, "/") || strings.HasPrefix(d, h) {
				t.Errorf("cmd/memsys links %s: every command would pay its init at start-up; keep it in cmd/memsys-mcp (find the importer with go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./cmd/memsys)", d)
			}
		}
	}
}

// TestOneConfigLoader: commands read .memsys.json through
// memory.LoadConfig, which checks the rule settings lint checks, so a
// file one command refuses no other reads as the defaults. Only that
// loader calls workspace.LoadConfig or config.Parse; audit's
// history.Audit, below memory, builds its lint.Linter from what it
// loads, which checks the same (lint.CheckConfig is lint.New's check).
func TestOneConfigLoader(t *testing.T) {
	allowed := map[string]bool{
		"internal/app/memory/config.go":   true,
		"internal/app/history/report.go":  true,
		"internal/io/workspace/config.go": true, // LoadConfig itself
		"internal/io/workspace/view.go":   true, // the index's file, checked by memory
		"internal/app/memory/staged.go":   true, // the index's file, checked by memory
	}
	for _, s := range sources(t) {
		if s.test() || allowed[s.path] || strings.HasPrefix(s.path, "bench/") || strings.HasPrefix(s.path, "internal/testkit/") {
			continue
		}
		ast.Inspect(s.file, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if name := selector(call); name == "workspace.LoadConfig" || name == "config.Parse" {
					t.Errorf("%s:%d: %s: read the configuration with memory.LoadConfig, which checks its rules as lint does", s.path, s.line(call.Pos()), name)
				}
			}
			return true
		})
	}
}

// TestOneTierRule: the memory's tier (.memsys.json's, else AGENTS.md's,
// else the files') is worked out by parse.TierOf alone; status, regen,
// archive, lint and its --staged and --fix each wrote the precedence
// out themselves. Outside parse no code calls parse.DetectTier or
// tests a Tier field against "".
func TestOneTierRule(t *testing.T) {
	for _, s := range sources(t) {
		if s.test() || strings.HasPrefix(s.path, "parse/") {
			continue
		}
		ast.Inspect(s.file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if selector(n) == "parse.DetectTier" {
					t.Errorf("%s:%d: parse.DetectTier: use parse.TierOf (workspace.TierAt, View.TierOf), which puts .memsys.json's tier first", s.path, s.line(n.Pos()))
				}
			case *ast.BinaryExpr:
				sel, ok := n.X.(*ast.SelectorExpr)
				lit, isLit := n.Y.(*ast.BasicLit)
				if ok && sel.Sel.Name == "Tier" && isLit && lit.Value == `""` && (n.Op == token.EQL || n.Op == token.NEQ) {
					t.Errorf("%s:%d: a Tier tested against \"\": the configured-or-detected tier is parse.TierOf's", s.path, s.line(n.Pos()))
				}
			}
			return true
		})
	}
}
