package integrations

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// actionScript returns the run script of the action's step called name,
// as the runner hands it to bash.
func actionScript(t *testing.T, name string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), filepath.FromSlash(actionPath)))
	if err != nil {
		t.Fatal(err)
	}
	_, steps := actionParts(t, string(src))
	var script []string
	in, inRun := false, false
	for _, l := range steps {
		switch {
		case strings.HasPrefix(l, "    - "):
			in = l == "    - name: "+name
			inRun = false
		case in && l == "      run: |":
			inRun = true
		case inRun && (strings.HasPrefix(l, "        ") || l == ""):
			script = append(script, strings.TrimPrefix(l, "        "))
		default:
			inRun = false
		}
	}
	if len(script) == 0 {
		t.Fatalf("%s: no run script in step %q", actionPath, name)
	}
	return strings.Join(script, "\n") + "\n"
}

// runStep runs one of the action's scripts with bash -e as the runner
// does (shell: bash is bash --noprofile --norc -eo pipefail {0}), in dir,
// with env added to the repository's environment.
func (r *gitRepo) runStep(t *testing.T, dir, step string, env ...string) (string, int) {
	t.Helper()
	f := filepath.Join(t.TempDir(), "step.sh")
	if err := os.WriteFile(f, []byte(actionScript(t, step)), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := r.dir
	r.dir = dir
	defer func() { r.dir = saved }()
	savedEnv := r.env
	r.env = append(append([]string{}, r.env...), env...)
	defer func() { r.env = savedEnv }()
	return r.run("bash", "--noprofile", "--norc", "-eo", "pipefail", f)
}

// The action's own scripts, run against a shallow clone of a pull request
// the way the runner runs them (memsys comes from this checkout rather
// than go install, which needs the published module): the fetch step
// brings the one base commit, lint annotates an edited event and writes
// the job summary, args are split but never run by a shell, and an empty
// base skips the append-only check.
func TestActionScripts(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the action runs bash scripts; runners for it are Linux and macOS")
	}
	// Upstream: the base commit (two events), then the pull request's
	// head, which appends evt-003 and rewrites evt-001.
	up := newMemoryRepo(t, "")
	base := strings.TrimSpace(up.git("rev-parse", "HEAD"))
	up.write("CHANGELOG.md", changelog(3, map[int]string{1: "rewritten"}))
	up.regen("")
	up.git("commit", "-q", "--no-verify", "-am", "evt-003, evt-001 rewritten")
	up.git("config", "uploadpack.allowReachableSHA1InWant", "true")

	clone := filepath.Join(t.TempDir(), "clone")
	up.git("clone", "-q", "--depth=1", "file://"+filepath.ToSlash(up.dir), clone)
	if _, code := up.run("git", "-C", clone, "cat-file", "-e", base+"^{commit}"); code == 0 {
		t.Fatal("the shallow clone has the base commit already; the test would prove nothing")
	}
	event := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, []byte(`{"pull_request":{"base":{"sha":"`+base+`"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(t.TempDir(), "summary.md")
	gh := []string{"GITHUB_ACTIONS=true", "GITHUB_EVENT_PATH=" + event, "GITHUB_STEP_SUMMARY=" + summary}

	// A payload that is not a commit ID is refused before git sees it.
	out, code := up.runStep(t, clone, "Fetch the pull request base commit", append(gh, "BASE_SHA=--upload-pack=touch pwned")...)
	if code != 2 || !strings.Contains(out, "::error title=memsys::pull_request.base.sha") {
		t.Errorf("fetch with a bad BASE_SHA: exit %d\n%s", code, out)
	}

	out, code = up.runStep(t, clone, "Fetch the pull request base commit", append(gh, "BASE_SHA="+base)...)
	if code != 0 {
		t.Fatalf("fetch step: exit %d\n%s", code, out)
	}
	if _, code := up.run("git", "-C", clone, "cat-file", "-e", base+"^{commit}"); code != 0 {
		t.Fatal("the fetch step did not bring the base commit")
	}
	out, code = up.runStep(t, clone, "Fetch the pull request base commit", append(gh, "BASE_SHA="+base)...)
	if code != 0 || !strings.Contains(out, "is here already") {
		t.Errorf("fetch step, base present: exit %d\n%s", code, out)
	}

	lint := func(baseIn, args string) (string, int) {
		return up.runStep(t, clone, "memsys lint", append(gh, "MEMSYS_BASE="+baseIn, "MEMSYS_ARGS="+args)...)
	}
	out, code = lint("auto", "")
	if code != 1 || !regexp.MustCompile(`(?m)^::error file=CHANGELOG\.md,line=\d+,.*title=MS301::evt-001 was changed`).MatchString(out) {
		t.Errorf("lint --base auto on an edited event: exit %d\n%s", code, out)
	}
	if b, err := os.ReadFile(summary); err != nil || !strings.Contains(string(b), "MS301") {
		t.Errorf("job summary has no MS301 row (%v):\n%s", err, b)
	}

	// args are split on white space and passed as they are.
	out, code = lint("auto", " --rule\n MS301=warning  --rule MS205=off ")
	if code != 0 || !strings.Contains(out, "::warning file=CHANGELOG.md") {
		t.Errorf("lint with --rule MS301=warning in args: exit %d\n%s", code, out)
	}
	out, code = lint("auto", "--strict --rule MS301=warning")
	if code != 1 {
		t.Errorf("lint with --strict in args: exit %d, want 1\n%s", code, out)
	}
	// ... and never run by a shell.
	out, code = lint("auto", "$(touch pwned) `touch pwned` ;touch pwned")
	if code != 2 || !strings.Contains(out, `matches "$(touch"`) {
		t.Errorf("lint with shell syntax in args: exit %d, want 2 (a pattern that matches nothing)\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(clone, "pwned")); err == nil {
		t.Error("args were run by a shell")
	}

	// An empty base runs lint without the append-only check.
	out, code = lint("", "")
	if code != 0 || strings.Contains(out, "MS301") {
		t.Errorf("lint without base: exit %d\n%s", code, out)
	}

	// A merge queue (merge_group event), where a required check runs
	// too, names its base in merge_group.base_sha: the fetch step
	// fetches it (the runner evaluates its if and env, so they are read
	// here) and lint compares with it.
	src, err := os.ReadFile(filepath.Join(repoRoot(t), filepath.FromSlash(actionPath)))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"      if: inputs.base == 'auto' && (github.event.pull_request.base.sha != '' || github.event.merge_group.base_sha != '')\n",
		"        BASE_SHA: ${{ github.event.pull_request.base.sha || github.event.merge_group.base_sha }}\n",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("%s: the fetch step lacks %q", actionPath, strings.TrimSpace(want))
		}
	}
	mq := filepath.Join(t.TempDir(), "merge_group.json")
	if err := os.WriteFile(mq, []byte(`{"merge_group":{"base_sha":"`+base+`"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code = up.runStep(t, clone, "memsys lint", "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=merge_group", "GITHUB_EVENT_PATH="+mq,
		"GITHUB_STEP_SUMMARY="+summary, "MEMSYS_BASE=auto", "MEMSYS_ARGS=")
	if code != 1 || !strings.Contains(out, "title=MS301::evt-001 was changed") {
		t.Errorf("lint --base auto on a merge_group event: exit %d\n%s", code, out)
	}

	// The job lints once: the lint step turns the history cache off
	// (its env, which the runner sets), so nothing is written to it.
	if want := "        MEMSYS_NO_CACHE: \"1\"\n"; !strings.Contains(string(src), want) {
		t.Errorf("%s: the lint step lacks %q", actionPath, strings.TrimSpace(want))
	}
	cache := filepath.Join(clone, ".git", "memsys-cache")
	if err := os.RemoveAll(cache); err != nil {
		t.Fatal(err)
	}
	out, code = up.runStep(t, clone, "memsys lint", append(gh, "MEMSYS_BASE=auto", "MEMSYS_ARGS=", "MEMSYS_NO_CACHE=1")...)
	if code != 1 {
		t.Errorf("lint step with the cache off: exit %d, want 1\n%s", code, out)
	}
	if _, err := os.Stat(cache); err == nil {
		t.Errorf("the lint step wrote the history cache %s, which no later step reads", cache)
	}
}

// A memory in a subfolder, as a monorepo keeps it, checked by the
// action on a pull request's merge commit (what actions/checkout checks
// out by default) in a shallow clone. With the default working-directory
// the step fails in one line naming the input to set, not MS101's "run
// memsys init"; with working-directory set the edited event is
// annotated at its repository-relative path and line.
func TestActionSubfolder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the action runs bash scripts; runners for it are Linux and macOS")
	}
	up := newMemoryRepo(t, "services/billing")
	base := strings.TrimSpace(up.git("rev-parse", "HEAD"))
	up.git("checkout", "-q", "-b", "pr")
	up.write("services/billing/CHANGELOG.md", changelog(3, map[int]string{2: "rewritten"}))
	up.regen("services/billing")
	up.git("commit", "-q", "--no-verify", "-am", "evt-003, evt-002 rewritten")
	// refs/pull/N/merge: the head merged into the base.
	up.git("checkout", "-q", "-b", "pull-merge", base)
	up.git("merge", "-q", "--no-ff", "--no-edit", "pr")
	up.git("config", "uploadpack.allowReachableSHA1InWant", "true")
	clone := filepath.Join(t.TempDir(), "clone")
	up.git("clone", "-q", "--depth=1", "--branch=pull-merge", "file://"+filepath.ToSlash(up.dir), clone)

	event := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, []byte(`{"pull_request":{"base":{"sha":"`+base+`","ref":"main"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	gh := []string{"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH=" + event, "GITHUB_BASE_REF=main",
		"GITHUB_STEP_SUMMARY=" + filepath.Join(t.TempDir(), "summary.md"), "GITHUB_WORKSPACE=" + clone,
		"BASE_SHA=" + base, "MEMSYS_BASE=auto", "MEMSYS_ARGS="}
	sub := filepath.Join(clone, "services", "billing")
	if out, code := up.runStep(t, sub, "Fetch the pull request base commit", gh...); code != 0 {
		t.Fatalf("fetch step in services/billing: exit %d\n%s", code, out)
	}

	out, code := up.runStep(t, clone, "memsys lint", gh...)
	if code != 2 || strings.Contains(out, "MS101") || !regexp.MustCompile(`(?m)^::error title=memsys::memsys: lint: .*working-directory: services/billing\)`).MatchString(out) {
		t.Errorf("lint at the top, memory in services/billing: exit %d, want 2 and an annotation naming working-directory\n%s", code, out)
	}
	out, code = up.runStep(t, sub, "memsys lint", gh...)
	// The edited line (the summary), where the pull request's diff shows it.
	line := strings.Count(strings.Split(changelog(3, nil), "**Summary**: event number 2")[0], "\n") + 1
	if code != 1 || !strings.Contains(out, fmt.Sprintf("::error file=services/billing/CHANGELOG.md,line=%d,", line)) {
		t.Errorf("lint with working-directory services/billing: exit %d, want 1 and MS301 at services/billing/CHANGELOG.md:%d\n%s", code, line, out)
	}
}
