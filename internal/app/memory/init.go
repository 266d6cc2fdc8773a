package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
	"github.com/memsys/memsys/templates"
)

// InitResult is what memsys init did: one line per file created or
// updated ("created CHANGELOG.md"), and a warning for the log.
type InitResult struct {
	// Tier is the tier init deployed: the one asked for, else the one
	// the memory declares or its files show, else full.
	Tier    parse.Tier
	Done    []string
	Warning string // "" or a sentence about the existing log
	// Kept has a sentence for each existing derived file init left
	// alone although it is not what regen writes (kept by hand before
	// memsys): lint would fail on it, so init says what to run.
	Kept []string
	// Agents is "" or a sentence about an AGENTS.md protocol section
	// init kept although it never mentions memsys: agents that follow
	// it go on keeping the memory by hand.
	Agents string
}

// Init deploys the files of tier at root, as the seed's Tiers table
// lists them, and adds the Memory System Protocol block to AGENTS.md
// once. An existing file is never overwritten or truncated, so running
// it again changes nothing. graph.md and context.md are rendered from
// the log, so they are current even when CHANGELOG.md already had
// events. On an error, Done still lists what was written before it.
//
// An empty tier means the tier the memory declares (.memsys.json's
// "tier", else AGENTS.md's "**Tier**:" line), else the one its files
// show, as status reports it, else full (parse.InitTier). A tier that
// disagrees with the declared one is refused before anything is
// written: status, lint and regen read the declared tier, so the files
// only the other tier has would never be regenerated, and lint would
// fail on them (MS202) from the first append.
func Init(root string, tier parse.Tier) (*InitResult, error) {
	// A bare repository (or a .git folder) has no working tree: files
	// written there are never committed, and they clutter git's own
	// folder. One git call, for init only.
	if (&gitx.Git{Dir: root}).InGitDir(context.Background()) {
		return nil, fmt.Errorf("init: %s is inside a git directory (a bare repository or .git), which has no working tree: run memsys init in a checkout of the repository", words.ClipPath(root))
	}
	unlock, err := workspace.LockInit(root)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Read the configuration before creating anything, so a broken one
	// or a tier conflict leaves the folder as it was.
	cfg, err := LoadConfig(root)
	if err != nil {
		return nil, err
	}
	tier, err = initTier(root, cfg, tier)
	if err != nil {
		return nil, err
	}
	r := &InitResult{Tier: tier}
	create := func(rel string, data []byte) error {
		if workspace.Lstat(root, rel) == nil {
			if p, err := workspace.Resolve(root, rel); err == nil && workspace.IsDirNoFollow(p) {
				// Not the file the tier needs: saying nothing would
				// leave regen and lint to fail on it later.
				return fmt.Errorf("%s: is a directory, not a file: move it away and run memsys init", rel)
			}
			return nil // never overwrite
		}
		// In git's line endings, so that git add takes it as it is.
		if err := workspace.WriteFile(root, rel, newFileEndings(root, rel, data)); err != nil {
			return err
		}
		r.Done = append(r.Done, "created "+rel)
		return nil
	}
	if err := create(parse.LogFile, templates.Changelog); err != nil {
		return r, err
	}
	// Read and render before creating anything else, so a log memsys
	// cannot read leaves the folder as it was (but for a new log).
	mem, x, err := Replay(root, lint.RenderOptions(cfg), "")
	if err != nil {
		return r, err
	}
	// A log saved as UTF-16 stopped at Replay (readWhole): the folder
	// stays as it was, since nothing was read to render.
	if !mem.Log.HasEventLog {
		// init never edits an existing log, so it can only say so.
		r.Warning = parse.LogFile + " has no \"## Event Log\" section: " + parse.NoEventLogFix(x.Context().Horizon != "")
	}
	derived := Derive(x, tier)
	if tier == parse.Full {
		if err := create(parse.TodoFile, templates.Todo); err != nil {
			return r, err
		}
	}
	for _, f := range derived {
		cur, err := workspace.ReadFile(root, f.File)
		if err := create(f.File, f.Data); err != nil {
			return r, err
		}
		if err == nil {
			r.Kept = append(r.Kept, keptDerived(f.File, cur, f.Data)...)
		}
	}
	gi, err := workspace.ReadFile(root, ".gitignore")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return r, err
	}
	if ignore, add := IgnoreLock(gi); add {
		if len(gi) == 0 {
			ignore = newFileEndings(root, ".gitignore", ignore)
		}
		if err := workspace.WriteFile(root, ".gitignore", ignore); err != nil {
			return r, err
		}
		r.Done = append(r.Done, "updated .gitignore (ignores "+workspace.LockName+")")
	}
	added, byHand, err := addProtocol(root)
	if added != "" {
		r.Done = append(r.Done, added)
	}
	if byHand {
		r.Agents = fmt.Sprintf("kept the %q section of %s, which never mentions memsys, so agents that follow it keep computing event IDs and editing .memory/ by hand: to use memsys, rename or delete that section and run %s again, which adds memsys's block, then move the rules you keep into it",
			"## "+parse.ProtocolHeading, parse.AgentsFile, front.Init.Word())
	}
	return r, err
}

// initTier is the tier Init deploys when asked for tier ("" when not
// asked): see Init.
func initTier(root string, cfg config.Config, tier parse.Tier) (parse.Tier, error) {
	declared, where, fix := parse.Tier(cfg.Tier), config.FileName, "set \"tier\" in "+config.FileName+" to \""+string(tier)+"\""
	// As parse.DetectTier reads it; a file that cannot be read is
	// addProtocol's to report.
	agents, _ := workspace.ReadFile(root, parse.AgentsFile)
	if declared == "" {
		if t, ok := parse.DeclaredTier(agents); ok {
			declared, where, fix = t, parse.AgentsFile, "change its Tier line to "+string(tier)
		}
	}
	switch {
	case tier == "" && declared == "":
		// The tier status reports, as the files show it (parse.InitTier).
		return parse.InitTier("", func(rel string) bool { return workspace.Lstat(root, rel) == nil }, agents), nil
	case tier == "":
		return declared, nil
	case declared != "" && tier != declared:
		return "", fmt.Errorf("init --tier %s: %s declares the %s tier, which memsys reads: run memsys init --tier %s, or %s first", tier, where, declared, declared, fix)
	}
	return tier, nil
}

// keptDerived is what init says of the existing derived file rel (cur)
// when it is not what regen writes (want): rows to adopt first, or a
// file to regenerate. Line endings aside, as lint's drift rules judge.
func keptDerived(rel string, cur, want []byte) []string {
	if sameText(cur, want) {
		return nil
	}
	if rows := lint.Curated(rel, cur, want); len(rows) > 0 {
		them := "them"
		if len(rows) == 1 {
			them = "it"
		}
		if advice, edge := lint.HandKeptAdvice(rows); edge {
			// Edge attributes adopt cannot record: lint's advice.
			return []string{fmt.Sprintf("kept %s, which holds %s no replay of the log produces (%s): %s",
				rel, words.Plural(len(rows), "item"), words.Clip(strings.Join(rows, ", ")), advice)}
		}
		return []string{fmt.Sprintf("kept %s, which holds %s no replay of the log produces (%s): run memsys adopt to record %s as events, then memsys regen",
			rel, words.Plural(len(rows), "item"), words.Clip(strings.Join(rows, ", ")), them)}
	}
	return []string{"kept " + rel + ", which is not what memsys regen writes from the log: run memsys regen (memsys lint shows the difference)"}
}

// addProtocol adds the Memory System Protocol block to AGENTS.md once:
// it creates the file, or appends the block when neither the markers nor
// a "## Memory System Protocol" heading are there yet, or restores the
// section between the markers when they are there without the heading
// (restoreProtocol). The rest of the file is kept byte for byte. A begin
// marker without an end marker is left alone: where the section ends is
// unknown (MS207 says what to do). byHand is true when the file keeps a
// protocol section of its own, outside memsys's markers, that never
// mentions memsys.
func addProtocol(root string) (done string, byHand bool, err error) {
	rel := parse.AgentsFile
	cur, err := workspace.ReadFile(root, rel)
	if err != nil && errors.Is(workspace.Lstat(root, rel), fs.ErrNotExist) {
		data := append([]byte("# AGENTS.md\n\n"), templates.AgentsProtocol...)
		if err := workspace.WriteFile(root, rel, newFileEndings(root, rel, data)); err != nil {
			return "", false, err
		}
		return "created " + rel, false, nil
	}
	if err != nil {
		return "", false, err
	}
	// The block takes the file's line ending, so a CRLF file stays CRLF.
	nl := Newline(cur)
	switch pr := parse.FindAgentsProtocol(cur); {
	case pr.Heading && !pr.Marker:
		return "", !pr.NamesMemsys, nil
	case pr.Heading, pr.Marker && pr.Begin < 0:
		return "", false, nil
	case pr.Begin >= 0:
		data := restoreProtocol(cur, pr, nl)
		if err := workspace.WriteFile(root, rel, data); err != nil {
			return "", false, err
		}
		return "updated " + rel + " (restored the Memory System Protocol section between the memsys markers)", false, nil
	}
	data := append([]byte{}, cur...)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, nl...)
	}
	data = append(append(data, nl...), withNewline(templates.AgentsProtocol, nl)...)
	if err := workspace.WriteFile(root, rel, data); err != nil {
		return "", false, err
	}
	return "updated " + rel + " (added the Memory System Protocol block)", false, nil
}

// restoreProtocol puts the template's section back between the markers
// of cur (pr.Begin to pr.End); no byte outside them changes. Text
// between the markers that is all the template's own lines (the rest
// of the section, its heading deleted) is replaced; any other text
// there is the user's and is kept, after the section, so nothing is
// lost.
func restoreProtocol(cur []byte, pr parse.AgentsProtocol, nl string) []byte {
	inner := bytes.TrimPrefix(templates.AgentsProtocol, []byte(templates.ProtocolBegin+"\n"))
	inner = bytes.TrimSuffix(inner, []byte(templates.ProtocolEnd+"\n"))
	known := map[string]bool{}
	for _, l := range bytes.Split(inner, []byte("\n")) {
		known[string(bytes.TrimSpace(l))] = true
	}
	between := cur[pr.Begin:pr.End]
	ours := true
	for _, l := range bytes.Split(between, []byte("\n")) {
		if !known[string(bytes.TrimSpace(l))] {
			ours = false
			break
		}
	}
	data := make([]byte, 0, len(cur)+len(inner)+len(inner)/8)
	data = append(data, cur[:pr.Begin]...)
	data = append(data, withNewline(inner, nl)...)
	if !ours {
		data = append(data, between...)
	}
	return append(data, cur[pr.End:]...)
}

// withNewline returns text (written with "\n") with nl line endings.
func withNewline(text []byte, nl string) []byte {
	if nl == "\n" {
		return text
	}
	return bytes.ReplaceAll(text, []byte("\n"), []byte(nl))
}
