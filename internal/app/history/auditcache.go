package history

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/snapshot"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
)

// The commit cache of audit. A commit never changes, and what audit
// concludes about it depends only on its own files, its parents' files
// and the rules: so, under the same build and rules, the findings of a
// commit audited once are the findings of every later audit. The cache
// holds them per commit ID; a second audit lists the commits (git log)
// and reads only those it does not hold. A rebase or force-push makes
// new commit IDs: the old ones are simply not asked for again, and
// drop out when the entry is rewritten.

// commitCacheVersion changes whenever what an entry holds changes.
const commitCacheVersion = 4

// maxCachedCommits bounds an entry: commits of earlier audits that this
// walk did not list (a --since range, a rewritten branch) are kept only
// while the entry stays under it.
const maxCachedCommits = 200000

// cachedFinding is one finding of a commit, less the commit's ID.
type cachedFinding struct {
	Parent, Author, Date string
	D                    diag.Diagnostic
	Before, After        string
	EventLine            int
}

func (f cachedFinding) finding(commit string) Finding {
	return Finding{Commit: commit, Parent: f.Parent, Author: f.Author, Date: f.Date, Diagnostic: f.D, before: f.Before, after: f.After, eventLine: f.EventLine}
}

// commitEntry is the encoded form of a cache entry (the snapshot codec,
// like the replay and lint caches: strings come back byte for byte, so
// a finding's diff holding any bytes does too; and memsys links no
// encoding/gob, whose init every command would pay).
type commitEntry struct {
	Version int
	IDs     []string
	Finds   [][]cachedFinding
	// The last audit: its range (Since.., HEAD's ID) and what it
	// reported, the findings being those of the first Walked IDs; Last
	// is the last commit its walk listed.
	Head, Since, Last string
	Commits, Walked   int
}

// commitCache is the commit cache as one audit uses it.
type commitCache struct {
	name    string
	commits map[string][]cachedFinding
	// The last audit, as recorded in the entry.
	head, since, last string
	count             int
	walked            []string
}

// result is the last audit's result, rebuilt from the entry.
func (c *commitCache) result() *Result {
	res := &Result{Commits: c.count}
	for _, id := range c.walked {
		for _, f := range c.commits[id] {
			res.Findings = append(res.Findings, f.finding(id))
		}
	}
	return res
}

// cacheName names the entry of an audit of the memory at prefix under
// l's rules: the build and the configuration (severities, tier and
// every setting) decide the findings; the range does not, since a
// commit's findings come from it and its parents alone.
func cacheName(prefix string, l *lint.Linter) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%#v", commitCacheVersion, workspace.BuildID(), prefix, l.Config())
	return "audit-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// loadCommitCache reads entry name of root's cache; a missing, corrupt
// or foreign entry is an empty cache.
func loadCommitCache(root, name string) *commitCache {
	c := &commitCache{name: name, commits: map[string][]cachedFinding{}}
	data, ok := workspace.CacheGet(root, name)
	if !ok {
		return c
	}
	var e commitEntry
	if snapshot.Decode(data, &e) != nil || e.Version != commitCacheVersion || len(e.IDs) != len(e.Finds) || e.Walked > len(e.IDs) {
		return c
	}
	for i, id := range e.IDs {
		c.commits[id] = e.Finds[i]
	}
	c.head, c.since, c.last, c.count, c.walked = e.Head, e.Since, e.Last, e.Commits, e.IDs[:e.Walked]
	return c
}

// store writes the entry: every commit of ids (the commits of the
// walk's pairs, in walk order; from the cache or found now), then
// earlier ones while under the bound.
func (c *commitCache) store(root, head, since, last string, commits int, ids []string, found map[string][]Finding) {
	if !workspace.CacheEnabled() {
		return
	}
	e := commitEntry{Version: commitCacheVersion, Head: head, Since: since, Last: last, Commits: commits}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		fs, ok := c.commits[id]
		if !ok {
			fs = []cachedFinding{}
			for _, f := range found[id] {
				fs = append(fs, cachedFinding{Parent: f.Parent, Author: f.Author, Date: f.Date, D: f.Diagnostic, Before: f.before, After: f.after, EventLine: f.eventLine})
			}
		}
		e.IDs, e.Finds = append(e.IDs, id), append(e.Finds, fs)
	}
	e.Walked = len(e.IDs)
	if len(c.commits)+len(e.IDs) <= maxCachedCommits {
		// Sorted, so that an entry's bytes do not depend on map order.
		rest := make([]string, 0, len(c.commits))
		for id := range c.commits {
			if !seen[id] {
				rest = append(rest, id)
			}
		}
		slices.Sort(rest)
		for _, id := range rest {
			e.IDs, e.Finds = append(e.IDs, id), append(e.Finds, c.commits[id])
		}
	}
	data, err := snapshot.Encode(&e)
	if err != nil {
		return
	}
	workspace.CachePut(root, c.name, data)
}

// grownFrom reports whether the audit of since..head is the last
// audit's (since..c.head) plus commits in a line on top of last, the
// last commit that audit's walk listed: every commit of last..head has
// one parent, the first's being last. Then the whole walk lists the
// last audit's commits, in the same order, and after them the new
// ones, in the order a walk of last..head gives. With history
// simplification (--full-history, parents rewritten) a merge is
// always listed, so last, the top of the last walk, was its only
// commit without a listed child: the topological sort of the whole
// walk takes the new line first (from the top, before --reverse), then
// reaches last with exactly the state the last walk started from. A
// new merge, HEAD moved elsewhere, or a shallow clone: no (the whole
// range is walked, reading only commits the cache lacks).
func (c *commitCache) grownFrom(ctx context.Context, g *gitx.Git, head, since string, shallow bool) (last string, ok bool) {
	if c.last == "" || c.head == "" || c.since != since || shallow {
		return "", false
	}
	out, err := g.Run(ctx, "rev-list", "--parents", "--end-of-options", c.last+".."+head)
	if err != nil {
		return "", false
	}
	want := head
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 || f[0] != want {
			return "", false
		}
		want = f[1]
	}
	return c.last, want == c.last
}
