package history

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// Finding is one change to a committed event, in one commit.
type Finding struct {
	Commit string // the commit that changed the event
	Parent string // the version it was compared with
	Author string // "Name <email>"
	Date   string // author date, strict ISO 8601
	diag.Diagnostic
}

// Options select what to audit.
type Options struct {
	// Since limits the walk to commits after this revision (REV..HEAD);
	// "" walks the whole history.
	Since string
}

// Result is what an audit found.
type Result struct {
	Commits  int // commits that touched the log or the archive
	Findings []Finding
}

type commit struct {
	id, author, date string
	parents          []string
}

// files are the log and archive blob IDs of one commit ("" if absent).
type files struct {
	log, archive, archiveName string
}

// Run audits the memory whose root is g.Dir.
func Run(ctx context.Context, g *gitx.Git, opt Options) (*Result, error) {
	res := &Result{}
	ok, err := g.HasHead()
	if err != nil {
		return nil, err
	}
	if !ok {
		return res, nil // no commits: nothing was ever committed
	}
	prefix, err := g.Prefix(ctx)
	if err != nil {
		return nil, err
	}
	rng := "HEAD"
	if opt.Since != "" {
		since, err := g.ResolveContext(ctx, opt.Since)
		if err != nil {
			return nil, err
		}
		rng = since + "..HEAD"
	}
	names := append([]string{workspace.LogName}, workspace.ArchiveNames...)
	// --raw gives the old and new blob of each file a commit changed,
	// so a plain commit needs no tree read at all; merges (for which
	// git prints no raw diff) read their trees below.
	args := []string{"log", "--no-renames", "--full-history", "--parents", "--topo-order", "--reverse", "--raw", "--no-abbrev",
		"--format=%x1e%H %P%x1f%an <%ae>%x1f%aI", "--end-of-options", rng, "--"}
	// Pathspecs are relative to the folder git runs in, the memory
	// root; the raw lines name paths from the top level (prefix+name).
	args = append(args, names...)
	// The batch process starts while git log runs.
	b, err := g.NewBatch(ctx)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	out, err := g.Run(ctx, args...)
	if err != nil {
		return nil, err
	}
	shallow, err := shallowCommits(ctx, g)
	if err != nil {
		return nil, err
	}
	type pair struct {
		c      commit
		parent string
		bf, hf files
	}
	var pairs []pair
	var merges []commit
	for _, rec := range strings.Split(string(out), "\x1e") {
		if rec == "" {
			continue
		}
		header, raw, _ := strings.Cut(rec, "\n")
		f := strings.Split(header, "\x1f")
		if len(f) != 3 {
			return nil, fmt.Errorf("git log: unexpected line %q", header)
		}
		ids := strings.Fields(f[0])
		c := commit{id: ids[0], parents: ids[1:], author: f[1], date: f[2]}
		res.Commits++
		if shallow[c.id] {
			// History stops here in this clone: what came before, and so
			// what this commit changed, cannot be read. Never a silent pass.
			return nil, &ShallowError{Commit: c.id}
		}
		switch len(c.parents) {
		case 0:
			continue // a root commit: nothing was committed before it
		case 1:
			bf, hf, err := rawFiles(raw, prefix)
			if err != nil {
				return nil, err
			}
			if bf != hf {
				pairs = append(pairs, pair{c: c, parent: c.parents[0], bf: bf, hf: hf})
			}
		default:
			merges = append(merges, c)
			pairs = append(pairs, pair{c: c}) // filled in from the trees
		}
	}
	if len(pairs) == 0 {
		return res, nil
	}

	// Merges: the tree of the memory root at the merge and at each
	// parent gives the blobs of the log and the archive.
	if len(merges) > 0 {
		var order []string
		seen := map[string]bool{}
		for _, c := range merges {
			for _, id := range append([]string{c.id}, c.parents...) {
				if !seen[id] {
					seen[id] = true
					order = append(order, id)
				}
			}
		}
		specs := make([]string, len(order))
		for i, id := range order {
			specs[i] = id + ":" + prefix
		}
		hashLen := len(merges[0].id) / 2
		tree := make(map[string]files, len(order))
		p := b.Pipeline(specs)
		for _, id := range order {
			data, ok, err := p.Next()
			if err != nil {
				return nil, err
			}
			var fs files
			if ok {
				entries, err := gitx.ParseTree(data, hashLen)
				if err != nil {
					return nil, err
				}
				fs = pick(entries)
			}
			tree[id] = fs
		}
		var all []pair
		for _, pr := range pairs {
			if len(pr.c.parents) < 2 {
				all = append(all, pr)
				continue
			}
			for _, par := range pr.c.parents {
				bf, hf := tree[par], tree[pr.c.id]
				if bf != hf {
					all = append(all, pair{c: pr.c, parent: par, bf: changed(bf, hf), hf: changed(hf, bf)})
				}
			}
		}
		pairs = all
	}

	// Every blob a comparison needs, each read once, in the order the
	// walk uses them; a blob is dropped after its last use.
	var blobs []string
	uses := map[string]int{}
	want := func(oid string) {
		if oid == "" {
			return
		}
		if uses[oid] == 0 {
			blobs = append(blobs, oid)
		}
		uses[oid]++
	}
	for _, pr := range pairs {
		for _, oid := range needed(pr.bf, pr.hf) {
			want(oid)
		}
	}
	have := map[string][]byte{}
	p := b.Pipeline(blobs)
	next := 0
	get := func(oid string) ([]byte, error) {
		if oid == "" {
			return nil, nil
		}
		for {
			if data, ok := have[oid]; ok {
				return data, nil
			}
			if next == len(blobs) {
				return nil, fmt.Errorf("git cat-file: blob %s was not read", oid)
			}
			data, ok, err := p.Next()
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, fmt.Errorf("git cat-file: blob %s is missing", blobs[next])
			}
			have[blobs[next]] = data
			next++
		}
	}
	release := func(oid string) {
		if oid == "" {
			return
		}
		if uses[oid]--; uses[oid] == 0 {
			delete(have, oid)
		}
	}
	for _, pr := range pairs {
		bf, hf := pr.bf, pr.hf
		need := needed(bf, hf)
		var data [4][]byte
		for i, oid := range need {
			if data[i], err = get(oid); err != nil {
				return nil, err
			}
		}
		logSame := bf.log == hf.log || PureAppend(data[0], data[2])
		archiveSame := bf.archive == hf.archive || PureAppend(data[1], data[3])
		if !logSame || !archiveSame {
			// A file whose blob did not change holds the same events on
			// both sides and takes no part: it is left out (nil) of both.
			// An archive move appends to the archive: its committed part
			// cannot have changed, so only what was added is parsed, and
			// compared with the log it came from. Positions are shifted
			// back to the whole file below.
			shift := 0
			if len(data[1]) > 0 && bf.archiveName == hf.archiveName && PureAppend(data[1], data[3]) {
				shift = bytes.Count(data[1], []byte{'\n'})
				data[1], data[3] = nil, data[3][len(data[1]):]
			}
			base := ParseSide(workspace.LogName, data[0], bf.archiveName, data[1])
			head := ParseSide(workspace.LogName, data[2], hf.archiveName, data[3])
			label := fmt.Sprintf("%.12s", pr.parent)
			var ds diag.Diagnostics
			if len(pr.c.parents) > 1 {
				ds = CompareMerge(base, head, label)
			} else {
				ds = Compare(base, head, label)
			}
			for _, d := range ds {
				if d.Rule == Renumbered && isNewEvent(d, base) {
					continue // a new event's numbering is lint's concern, not a change to history
				}
				if shift > 0 && d.Range.File == hf.archiveName {
					d.Range.Line += shift
					d.Range.EndLine += shift
				}
				res.Findings = append(res.Findings, Finding{Commit: pr.c.id, Parent: pr.parent, Author: pr.c.author, Date: pr.c.date, Diagnostic: d})
			}
		}
		for _, oid := range need {
			release(oid)
		}
	}
	return res, nil
}

// needed returns the blobs a comparison must read, in the order base
// log, base archive, head log, head archive: a file whose blob did not
// change is not read at all (the archive can be large and is rarely
// touched).
func needed(bf, hf files) [4]string {
	var n [4]string
	if bf.log != hf.log {
		n[0], n[2] = bf.log, hf.log
	}
	if bf.archive != hf.archive {
		n[1], n[3] = bf.archive, hf.archive
	}
	return n
}

// ShallowError says the walk reached the edge of a shallow clone.
type ShallowError struct{ Commit string }

func (e *ShallowError) Error() string {
	return fmt.Sprintf("history is cut short at commit %.12s (a shallow clone): run git fetch --unshallow (in GitHub Actions, set fetch-depth: 0 on actions/checkout), or audit less with --since", e.Commit)
}

// shallowCommits reads the commits whose parents this clone lacks
// (.git/shallow), or nothing for a complete clone.
func shallowCommits(ctx context.Context, g *gitx.Git) (map[string]bool, error) {
	if !g.Shallow(ctx) {
		return nil, nil
	}
	out, err := g.Run(ctx, "rev-parse", "--path-format=absolute", "--git-path", "shallow")
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(strings.TrimSpace(string(out)))
	if err != nil {
		return nil, fmt.Errorf("read the shallow list: %w", err)
	}
	set := map[string]bool{}
	for _, id := range strings.Fields(string(data)) {
		set[id] = true
	}
	return set, nil
}

// changed returns a with the files it shares with b blanked: an
// unchanged file takes no part in a comparison.
func changed(a, b files) files {
	if a.log == b.log {
		a.log = ""
	}
	if a.archive == b.archive {
		a.archive, a.archiveName = "", ""
	}
	return a
}

// rawFiles reads the raw diff lines of one commit
// (":100644 100644 OLD NEW M\tpath") into the old and new blobs of the
// log and the archive. Only files that changed are named.
func rawFiles(raw, prefix string) (bf, hf files, err error) {
	for _, line := range strings.Split(raw, "\n") {
		if !strings.HasPrefix(line, ":") {
			continue
		}
		meta, path, ok := strings.Cut(line, "\t")
		m := strings.Fields(meta)
		if !ok || len(m) < 5 {
			return bf, hf, fmt.Errorf("git log: unexpected raw line %q", line)
		}
		name := strings.TrimPrefix(path, prefix)
		oldOID, newOID := blobOID(m[0][1:], m[2]), blobOID(m[1], m[3])
		if name == workspace.LogName {
			bf.log, hf.log = oldOID, newOID
			continue
		}
		if oldOID != "" {
			bf.archive, bf.archiveName = oldOID, name
		}
		if newOID != "" {
			hf.archive, hf.archiveName = newOID, name
		}
	}
	return bf, hf, nil
}

// blobOID returns oid for a regular file, "" for an absent one or
// anything else (a symlink or submodule is not a log).
func blobOID(mode, oid string) string {
	if (mode != "100644" && mode != "100755") || strings.Trim(oid, "0") == "" {
		return ""
	}
	return oid
}

// pick finds the log and the archive among a tree's entries (regular
// files only: a symlinked log is refused elsewhere, and a submodule or
// folder of that name is not a log).
func pick(entries []gitx.TreeEntry) files {
	var fs files
	for _, e := range entries {
		if e.Mode != "100644" && e.Mode != "100755" {
			continue
		}
		switch {
		case e.Name == workspace.LogName:
			fs.log = e.OID
		case fs.archive == "" || e.Name == workspace.ArchiveNames[0]:
			for _, n := range workspace.ArchiveNames {
				if e.Name == n {
					fs.archive, fs.archiveName = e.OID, n
				}
			}
		}
	}
	return fs
}

// isNewEvent reports whether d concerns an event the base did not have
// (an ID that does not continue the sequence), rather than a committed
// event given a new number.
func isNewEvent(d diag.Diagnostic, base Side) bool {
	for _, l := range []*parse.Log{base.Log, base.Archive} {
		if l == nil {
			continue
		}
		for _, e := range l.Events {
			if e.ID == d.Event {
				return false
			}
		}
	}
	return true
}
