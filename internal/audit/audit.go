package audit

import (
	"context"
	"fmt"
	"strings"

	"github.com/memsys/memsys/internal/appendonly"
	"github.com/memsys/memsys/internal/diag"
	"github.com/memsys/memsys/internal/gitx"
	"github.com/memsys/memsys/internal/workspace"
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
	args := []string{"log", "--full-history", "--parents", "--topo-order", "--reverse",
		"--format=%H %P%x1f%an <%ae>%x1f%aI", "--end-of-options", rng, "--"}
	for _, n := range names {
		args = append(args, prefix+n)
	}
	out, err := g.Run(ctx, args...)
	if err != nil {
		return nil, err
	}
	var commits []commit
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\x1f")
		if len(f) != 3 {
			return nil, fmt.Errorf("git log: unexpected line %q", line)
		}
		ids := strings.Fields(f[0])
		commits = append(commits, commit{id: ids[0], parents: ids[1:], author: f[1], date: f[2]})
	}
	res.Commits = len(commits)
	if len(commits) == 0 {
		return res, nil
	}

	b, err := g.NewBatch(ctx)
	if err != nil {
		return nil, err
	}
	defer b.Close()

	// Pass 1: the tree of the memory root at every commit and parent,
	// for the blob IDs of the log and the archive.
	var order []string
	seen := map[string]bool{}
	for _, c := range commits {
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
	hashLen := len(commits[0].id) / 2
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

	// Pass 2: every blob a comparison needs, each read once, in the
	// order the walk uses them; a blob is dropped after its last use.
	type pair struct {
		c      commit
		parent string
	}
	var pairs []pair
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
	for _, c := range commits {
		hf := tree[c.id]
		for _, par := range c.parents {
			bf := tree[par]
			if bf == hf {
				continue
			}
			pairs = append(pairs, pair{c, par})
			want(bf.log)
			want(bf.archive)
			want(hf.log)
			want(hf.archive)
		}
	}
	have := map[string][]byte{}
	p = b.Pipeline(blobs)
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
		bf, hf := tree[pr.parent], tree[pr.c.id]
		var data [4][]byte
		for i, oid := range []string{bf.log, bf.archive, hf.log, hf.archive} {
			if data[i], err = get(oid); err != nil {
				return nil, err
			}
		}
		if !(appendonly.PureAppend(data[0], data[2]) && appendonly.PureAppend(data[1], data[3])) {
			base := appendonly.ParseSide(workspace.LogName, data[0], bf.archiveName, data[1])
			head := appendonly.ParseSide(workspace.LogName, data[2], hf.archiveName, data[3])
			label := fmt.Sprintf("%.12s", pr.parent)
			var ds diag.Diagnostics
			if len(pr.c.parents) > 1 {
				ds = appendonly.CompareMerge(base, head, label)
			} else {
				ds = appendonly.Compare(base, head, label)
			}
			for _, d := range ds {
				if d.Rule == appendonly.Renumbered && isNewEvent(d, base) {
					continue // a new event's numbering is lint's concern, not a change to history
				}
				res.Findings = append(res.Findings, Finding{Commit: pr.c.id, Parent: pr.parent, Author: pr.c.author, Date: pr.c.date, Diagnostic: d})
			}
		}
		for _, oid := range []string{bf.log, bf.archive, hf.log, hf.archive} {
			release(oid)
		}
	}
	return res, nil
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
func isNewEvent(d diag.Diagnostic, base appendonly.Side) bool {
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
