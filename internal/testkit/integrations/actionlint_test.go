package integrations

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const actionPath = ".github/actions/memsys/action.yml"

// actionlint returns the path of actionlint. .ci/run installs it (go
// install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12), so in CI a
// missing actionlint is a failure; elsewhere the test is skipped.
func actionlint(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("actionlint")
	if err != nil {
		const install = "go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 and put $(go env GOPATH)/bin on PATH"
		if os.Getenv("CI") == "true" {
			t.Fatalf("actionlint is not on PATH: %s", install)
		}
		t.Skipf("actionlint is not on PATH (CI=true makes this a failure): %s", install)
	}
	return p
}

// runActionlint lints files (relative to dir, the project root
// actionlint finds local actions in) and returns its output and whether
// it passed. shellcheck, when installed (GitHub's runners have it), also
// checks the run scripts.
func runActionlint(t *testing.T, dir string, files ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(actionlint(t), append([]string{"-no-color", "-oneline"}, files...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("actionlint: %v", err)
	}
	return string(out), err == nil
}

func TestActionlintWorkflows(t *testing.T) {
	root := repoRoot(t)
	files, err := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows in .github/workflows (%v)", err)
	}
	for i, f := range files {
		files[i], _ = filepath.Rel(root, f)
	}
	if out, ok := runActionlint(t, root, files...); !ok {
		t.Errorf("actionlint %s:\n%s", strings.Join(files, " "), out)
	}
}

// project is a throwaway folder actionlint takes for a repository: it
// needs .git and .github/workflows, and finds ./.github/actions/memsys
// in it.
func project(t *testing.T, workflows map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), filepath.FromSlash(actionPath)))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{actionPath: string(src)}
	for name, wf := range workflows {
		files[".github/workflows/"+name] = wf
	}
	for rel, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A workflow that uses the local action: actionlint reads action.yml
// (runs.using, steps present, input names and required inputs). The
// control, an input the action does not have, must fail, or the check
// proves nothing.
func TestActionlintUsesAction(t *testing.T) {
	uses := func(with string) string {
		return `on: pull_request
permissions:
  contents: read
jobs:
  memory:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v5
      - uses: ./.github/actions/memsys
        with:
` + with
	}
	dir := project(t, map[string]string{
		"uses.yml": uses("          version: v0.1.0\n          args: --strict\n          base: auto\n          working-directory: .\n"),
	})
	if out, ok := runActionlint(t, dir, ".github/workflows/uses.yml"); !ok {
		t.Errorf("actionlint on a workflow using the action:\n%s", out)
	}
	dir = project(t, map[string]string{"bad.yml": uses("          bogus: x\n")})
	out, ok := runActionlint(t, dir, ".github/workflows/bad.yml")
	if ok || !strings.Contains(out, `"bogus"`) {
		t.Errorf("actionlint accepted an input the action does not have:\n%s", out)
	}
}

// actionlint checks workflows, not a composite action's own steps. So the
// steps are lifted into a reusable workflow whose inputs are the action's
// inputs: actionlint then checks every expression, every uses: and with:
// of a popular action, untrusted input in scripts, and (with shellcheck)
// the scripts themselves.
func TestActionlintActionSteps(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot(t), filepath.FromSlash(actionPath)))
	if err != nil {
		t.Fatal(err)
	}
	inputs, steps := actionParts(t, string(src))
	var wf strings.Builder
	wf.WriteString("on:\n  pull_request:\n  workflow_call:\n    inputs:\n")
	for _, in := range inputs {
		wf.WriteString("      " + in + ":\n        type: string\n")
	}
	wf.WriteString("permissions:\n  contents: read\njobs:\n  action:\n    runs-on: ubuntu-latest\n    steps:\n")
	for _, line := range steps {
		if line != "" {
			line = "  " + line
		}
		wf.WriteString(line + "\n")
	}
	dir := project(t, map[string]string{"steps.yml": wf.String()})
	if out, ok := runActionlint(t, dir, ".github/workflows/steps.yml"); !ok {
		t.Errorf("actionlint on the action's steps:\n%s\nworkflow:\n%s", out, wf.String())
	}
}

// actionParts returns the input names of action.yml and the lines of its
// runs.steps, as written (indented four spaces).
func actionParts(t *testing.T, src string) (inputs, steps []string) {
	t.Helper()
	section := ""
	for _, line := range strings.Split(src, "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
			continue
		case line != "" && line[0] != ' ':
			section = strings.TrimSuffix(line, ":")
			continue
		}
		switch {
		case section == "inputs" && regexp.MustCompile(`^  [a-z-]+:$`).MatchString(line):
			inputs = append(inputs, strings.TrimSuffix(strings.TrimSpace(line), ":"))
		case section == "runs" && line == "  steps:":
			section = "steps"
		case section == "steps":
			steps = append(steps, line)
		}
	}
	if len(inputs) == 0 || len(steps) == 0 {
		t.Fatalf("%s: no inputs or no runs.steps found", actionPath)
	}
	return inputs, steps
}

// What actionlint does not check in a composite action: a shell on every
// run step (required in composite actions), inputs that reach scripts
// only through env (script injection), the documented inputs and
// defaults, and actions pinned to a major version.
func TestActionStructure(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot(t), filepath.FromSlash(actionPath)))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	if !strings.Contains(text, "\n  using: composite\n") {
		t.Errorf("%s: runs.using is not composite", actionPath)
	}
	for name, def := range map[string]string{"version": "latest", "args": `""`, "base": "auto", "working-directory": "."} {
		re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + `:\n(    .*\n)*?    default: ` + regexp.QuoteMeta(def) + `\n`)
		if !re.MatchString(text) {
			t.Errorf("%s: input %s with default %s not found", actionPath, name, def)
		}
	}
	_, steps := actionParts(t, text)
	var step []string
	check := func() {
		if len(step) == 0 {
			return
		}
		body := strings.Join(step, "\n")
		inRun := false
		hasRun, hasShell := false, false
		for _, l := range step {
			key := strings.TrimPrefix(strings.TrimPrefix(l, "    - "), "      ")
			switch {
			case strings.HasPrefix(key, "run:"):
				hasRun, inRun = true, true
				continue
			case strings.HasPrefix(key, "shell:"):
				hasShell = true
			case strings.HasPrefix(key, "uses:"):
				if !regexp.MustCompile(`^uses: [\w.-]+/[\w./-]+@v\d+$`).MatchString(key) {
					t.Errorf("%s: %q: pin an action to its major version (@vN)", actionPath, key)
				}
			}
			if inRun && strings.HasPrefix(l, "        ") && strings.Contains(l, "${{") {
				t.Errorf("%s: %q: pass inputs through env, never ${{ }} in a script", actionPath, strings.TrimSpace(l))
			}
			if !strings.HasPrefix(l, "        ") {
				inRun = false
			}
		}
		if hasRun && !hasShell {
			t.Errorf("%s: a run step without shell (composite actions require one):\n%s", actionPath, body)
		}
		step = nil
	}
	for _, l := range steps {
		if strings.HasPrefix(l, "    - ") {
			check()
		}
		if strings.TrimSpace(l) != "" {
			step = append(step, l)
		}
	}
	check()
}

// The workflows shown in the documentation (the copy-paste pull request
// workflow, the SARIF variant) pass actionlint as written.
func TestActionlintDocs(t *testing.T) {
	root := repoRoot(t)
	fence := regexp.MustCompile("(?ms)^```ya?ml\n(.*?)^```")
	workflows := map[string]string{}
	for _, doc := range []string{"docs/integrations.md", "README.md"} {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(doc)))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range fence.FindAllStringSubmatch(string(src), -1) {
			if !regexp.MustCompile(`(?m)^on:`).MatchString(m[1]) || !regexp.MustCompile(`(?m)^jobs:`).MatchString(m[1]) {
				continue // a pre-commit config or a fragment, not a workflow
			}
			n++
			name := strings.NewReplacer("/", "-", ".", "-").Replace(doc) + "-" + string(rune('a'+n-1)) + ".yml"
			workflows[name] = m[1]
		}
		if doc == "docs/integrations.md" && n < 2 {
			t.Errorf("%s: %d workflows found, want the pull request workflow and the SARIF variant", doc, n)
		}
	}
	dir := project(t, workflows)
	for name := range workflows {
		if out, ok := runActionlint(t, dir, ".github/workflows/"+name); !ok {
			t.Errorf("actionlint on the workflow %s:\n%s\n%s", name, out, workflows[name])
		}
	}
}
