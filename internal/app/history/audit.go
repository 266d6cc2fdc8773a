package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// Finding is one change to a committed event, in one commit.
type Finding struct {
	Commit string // the commit that changed the event
	Parent string // the version it was compared with
	Author string // "Name <email>"
	Date   string // author date, strict ISO 8601
	diag.Diagnostic
	// before and after are the event's text in the parent and in the
	// commit ("" where it is not there), for dropRestores.
	before, after string
	// eventLine is the line of the event's heading in the commit, 0
	// when the finding's range is not in the event it names.
	eventLine int
	// atHead is where the finding is in HEAD's files, "" File when HEAD
	// does not hold its event: where the annotations of Lint go
	// (placeAtHead).
	atHead diag.Range
}

// Options select what to audit.
type Options struct {
	// Since limits the walk to commits after this revision (REV..HEAD);
	// "" walks the whole history.
	Since string
	// Linter gives the history rules their severities: a rule switched
	// off is not reported. nil means the default severities.
	Linter *lint.Linter
	// full compares every pair of versions through lint's history
	// rules, without the prefix check that settles an append without
	// parsing: the reference the tests compare the fast path with.
	full bool
	// catFile reads every blob through cat-file, not the object store:
	// the reference the tests compare the store with.
	catFile bool
}

// Result is what an audit found.
type Result struct {
	Commits  int // commits that touched the log or the archive
	Findings []Finding
	// blobs counts the objects read from git, trees included, for the
	// tests that check a warm audit reads only new commits.
	blobs int
	// parses counts the versions parsed: pairs compared through the
	// rules and versions whose end was checked (closedEnd).
	parses int
	// stored counts the blobs read from the object store, not cat-file.
	stored int
	// listed counts the commits this run's walk listed: only the new
	// ones when the history grew from a cached audit's.
	listed int
}

type commit struct {
	id, author, date string
	parents          []string
	// prefix is the memory root in this commit, from the top of the
	// work tree; from is the root in its parents: prefix, unless the
	// commit moved the memory there (followMoves).
	prefix, from string
}

// files are the log and archive blob IDs of one commit ("" if absent).
type files struct {
	log, archive, archiveName string
}

// Run audits the memory whose root is g.Dir. The findings come from
// lint's history rules (MS301-MS305), at the severities of opt.Linter.
func Run(ctx context.Context, g *gitx.Git, opt Options) (*Result, error) {
	res := &Result{}
	if opt.Linter == nil {
		l, err := lint.New(config.Default())
		if err != nil {
			return nil, err
		}
		opt.Linter = l
	}
	layout, err := g.Layout(ctx)
	if err != nil {
		return nil, err
	}
	head := layout.Head
	if head == "" {
		// No commits: nothing was ever committed. A --since revision
		// is still resolved, so a name that does not exist is the
		// error it is once there are commits, not an empty audit.
		if opt.Since != "" {
			if _, err := g.ResolveContext(ctx, opt.Since); err != nil {
				return nil, err
			}
		}
		return res, nil
	}
	prefix, objects, shallow := layout.Prefix, layout.Objects, layout.Shallow
	if layout.Replaced {
		// git replace or grafts: a commit's ID no longer pins what git
		// shows for it, nor a blob's what cat-file returns. Read every
		// object through git and neither trust nor write the cache.
		opt.catFile = true
	}
	// The walk names HEAD by its ID, so what it lists is what the cache
	// records under that ID even if HEAD moves meanwhile.
	rng, since := head, ""
	if opt.Since != "" {
		if since, err = g.ResolveContext(ctx, opt.Since); err != nil {
			return nil, err
		}
		rng = since + ".." + head
	}
	// Commits are immutable: what an earlier audit concluded about a
	// commit, under the same build and rules, still holds. Only the
	// others are read; and the audit of the same range ending at the
	// same commit is the same audit, unless the clone has become
	// shallow since (a cut history is an error, never a silent pass).
	cache := &commitCache{commits: map[string][]cachedFinding{}}
	if !layout.Replaced {
		cache = loadCommitCache(g.Dir, cacheName(prefix, opt.Linter))
	}
	if cache.head == head && cache.since == since && shallow == nil {
		res := cache.result()
		res.Findings = dropRestores(res.Findings)
		return res, nil
	}
	// When HEAD only added commits in a line on top of the last audit's
	// walk, that audit's findings come first, in its order, and only the
	// new commits are walked (grownFrom says why the order is then the
	// one a whole walk gives).
	revs := []string{rng}
	var ids []string // the commits of the pairs, in walk order
	last, grown := cache.grownFrom(ctx, g, head, since, shallow != nil)
	if grown {
		prior := cache.result()
		res.Commits, res.Findings = prior.Commits, prior.Findings
		ids = append(ids, cache.walked...)
		revs = []string{head, "^" + last}
		if since != "" {
			revs = append(revs, "^"+since)
		}
	}
	names := append([]string{workspace.LogName}, workspace.ArchiveNames...)
	pairs, merges, walked, err := walk(ctx, g, prefix, names, revs, shallow, res)
	if err != nil {
		return res, err
	}
	if pairs, merges, err = followMoves(ctx, g, since, shallow, pairs, merges, res); err != nil {
		return res, err
	}
	if walked != "" {
		last = walked
	}
	var todo []pair
	var todoMerges []commit
	for _, pr := range pairs {
		if _, ok := cache.commits[pr.c.id]; !ok {
			todo = append(todo, pr)
		}
	}
	for _, c := range merges {
		if _, ok := cache.commits[c.id]; !ok {
			todoMerges = append(todoMerges, c)
		}
	}
	found := map[string][]Finding{}
	if len(todo) > 0 {
		// cat-file starts only if the trees of merges or blobs the
		// object store lacks are to be read.
		b := &lazyBatch{ctx: ctx, g: g}
		defer b.close()
		if len(todoMerges) > 0 {
			if todo, err = mergePairs(b, todo, todoMerges, res); err != nil {
				return nil, err
			}
		}
		store, retry, done := openStore(ctx, g, opt, objects, len(head)/2)
		err = compareAll(b, store, retry, opt, todo, res, found)
		done()
		if err != nil {
			return nil, err
		}
	}
	// The findings in walk order: one pair per commit in pairs.
	for _, pr := range pairs {
		ids = append(ids, pr.c.id)
		if fs, ok := cache.commits[pr.c.id]; ok {
			for _, f := range fs {
				res.Findings = append(res.Findings, f.finding(pr.c.id))
			}
			continue
		}
		res.Findings = append(res.Findings, found[pr.c.id]...)
	}
	if !layout.Replaced && (len(todo) > 0 || cache.head != head || cache.since != since) {
		cache.store(g.Dir, head, since, last, res.Commits, ids, found)
	}
	res.Findings = dropRestores(res.Findings)
	return res, nil
}

// dropRestores leaves out of fs (in walk order: parents before
// children) each finding of a commit that gives an event back the text
// it had before an earlier finding changed or deleted it: git revert of
// an edit, or a deleted event put back where it was. That is the fix
// the earlier finding asks for ("restore it"); reported, it would read
// as a second change, and its advice would be to restore the bad text.
// The earlier finding stays: the history still holds that commit. A
// restore whose change lies before --since is reported, as audit then
// never saw the text it restores. Commits are judged alone and cached
// so; this runs on the whole report.
func dropRestores(fs []Finding) []Finding {
	var orig map[string]string
	out := fs[:0:0]
	for _, f := range fs {
		if f.after != "" && (f.Rule == "MS301" || f.Rule == "MS304") {
			if t, ok := orig[f.Event]; ok && t == f.after {
				continue
			}
		}
		if f.before != "" && (f.Rule == "MS301" || f.Rule == "MS302") {
			if orig == nil {
				orig = map[string]string{}
			}
			if _, ok := orig[f.Event]; !ok {
				orig[f.Event] = f.before
			}
		}
		out = append(out, f)
	}
	return out
}

// openStore opens the object store the blobs are read from, unless
// opt says cat-file or it cannot be opened (then every blob comes
// through cat-file: store is nil). A blob the store lists but cannot
// rebuild is read by retry, through a second cat-file started when
// first needed. done closes both.
func openStore(ctx context.Context, g *gitx.Git, opt Options, objects string, hashLen int) (store *gitx.Objects, retry func(string) ([]byte, bool, error), done func()) {
	second := &lazyBatch{ctx: ctx, g: g}
	retry = func(oid string) ([]byte, bool, error) {
		b, err := second.get()
		if err != nil {
			return nil, false, err
		}
		return b.ContentsUpTo(oid, maxBlob)
	}
	if !opt.catFile {
		if s, err := gitx.OpenObjects(objects, hashLen); err == nil {
			store = s
			store.Limit = maxBlob
		}
	}
	return store, retry, func() {
		if store != nil {
			store.Close()
		}
		second.close()
	}
}

// lazyBatch is a cat-file process started when first used.
type lazyBatch struct {
	ctx context.Context
	g   *gitx.Git
	b   *gitx.Batch
}

func (l *lazyBatch) get() (*gitx.Batch, error) {
	if l.b == nil {
		b, err := l.g.NewBatch(l.ctx)
		if err != nil {
			return nil, err
		}
		l.b = b
	}
	return l.b, nil
}

func (l *lazyBatch) close() {
	if l.b != nil {
		l.b.Close()
	}
}

// pair is one comparison of the walk: a commit against one parent, with
// the blobs of the log and the archive on both sides.
type pair struct {
	c      commit
	parent string
	bf, hf files
	// trees says the files are still to be read from the trees of the
	// commit and its parents (mergePairs): a merge, or a move.
	trees bool
	// created says the commit created the log, as far as the walk
	// sees: followMoves keeps it only if the log was moved here.
	created bool
}

// walk lists the commits of revs that touched the log or the archive
// (pathspecs, for the memory root prefix), oldest first, counting them
// in res: one pair per plain commit that changed a file, and the
// merges, whose pairs come from their trees. last is the last commit
// listed ("" for none). shallow holds the commits whose parents this
// clone lacks (nil for a whole clone).
func walk(ctx context.Context, g *gitx.Git, prefix string, pathspecs, revs []string, shallow map[string]bool, res *Result) (pairs []pair, merges []commit, last string, err error) {
	// --raw gives the old and new blob of each file a commit changed,
	// so a plain commit needs no tree read at all; merges (for which
	// git prints no raw diff) read their trees in mergePairs.
	args := []string{"log", "--no-renames", "--full-history", "--parents", "--topo-order", "--reverse", "--raw", "--no-abbrev",
		"--format=%x1e%H %P%x1f%an <%ae>%x1f%aI", "--end-of-options"}
	args = append(args, revs...)
	args = append(args, "--")
	// The raw lines name paths from the top level (prefix+name).
	args = append(args, pathspecs...)
	out, err := g.Run(ctx, args...)
	if err != nil {
		return nil, nil, "", err
	}
	for _, rec := range strings.Split(string(out), "\x1e") {
		if rec == "" {
			continue
		}
		header, raw, _ := strings.Cut(rec, "\n")
		f := strings.Split(header, "\x1f")
		if len(f) != 3 {
			return nil, nil, "", fmt.Errorf("git log: unexpected line %q", words.Clip(header))
		}
		ids := strings.Fields(f[0])
		c := commit{id: ids[0], parents: ids[1:], author: f[1], date: f[2], prefix: prefix, from: prefix}
		res.Commits++
		res.listed++
		last = c.id
		if shallow[c.id] {
			// History stops here in this clone: what came before, and so
			// what this commit changed, cannot be read. Never a silent pass.
			return nil, nil, "", &ShallowError{Commit: c.id}
		}
		switch len(c.parents) {
		case 0:
			// A root commit, or none of its ancestors touched the log
			// (the walk rewrites parents to the commits it lists): the
			// log was created here, with nothing committed before it;
			// unless it was moved here, which followMoves asks git.
			if bf, hf, err := rawFiles(raw, prefix); err != nil {
				return nil, nil, "", err
			} else if hf.log != "" {
				pairs = append(pairs, pair{c: c, bf: bf, hf: hf, created: true})
			}
		case 1:
			bf, hf, err := rawFiles(raw, prefix)
			if err != nil {
				return nil, nil, "", err
			}
			if bf != hf {
				pairs = append(pairs, pair{c: c, parent: c.parents[0], bf: bf, hf: hf})
			}
		default:
			merges = append(merges, c)
			pairs = append(pairs, pair{c: c, trees: true})
		}
	}
	return pairs, merges, last, nil
}

// mergePairs replaces each pair of pairs to be read from trees (the
// merges, and the commits that moved the memory: merges lists their
// commits) by one pair per parent whose files differ: the tree of the
// memory root at the commit and at each parent (the root it was moved
// from) gives the blobs of the log and the archive.
func mergePairs(lb *lazyBatch, pairs []pair, merges []commit, res *Result) ([]pair, error) {
	var specs []string
	seen := map[string]bool{}
	for _, c := range merges {
		specs = append(specs, c.id+":"+c.prefix)
		for _, par := range c.parents {
			specs = append(specs, par+":"+c.from)
		}
	}
	specs = slices.DeleteFunc(specs, func(s string) bool {
		dup := seen[s]
		seen[s] = true
		return dup
	})
	hashLen := len(merges[0].id) / 2
	tree := make(map[string]files, len(specs))
	b, err := lb.get()
	if err != nil {
		return nil, err
	}
	p := b.Pipeline(specs)
	for _, spec := range specs {
		data, ok, err := p.Next()
		if err != nil {
			return nil, err
		}
		res.blobs++
		var fs files
		if ok {
			entries, err := gitx.ParseTree(data, hashLen)
			if err != nil {
				return nil, err
			}
			fs = pick(entries)
		}
		tree[spec] = fs
	}
	var all []pair
	for _, pr := range pairs {
		if !pr.trees {
			all = append(all, pr)
			continue
		}
		for _, par := range pr.c.parents {
			bf, hf := tree[par+":"+pr.c.from], tree[pr.c.id+":"+pr.c.prefix]
			if bf != hf {
				all = append(all, pair{c: pr.c, parent: par, bf: changed(bf, hf), hf: changed(hf, bf)})
			}
		}
	}
	return all, nil
}

// followMoves follows the log back across each commit of pairs that
// moved the memory into its root from another folder (git mv
// CHANGELOG.md ... mem/): without it, that commit would read as the
// log's creation, and every commit before the move, an edit among
// them, would go unaudited. The move becomes a pair read from trees,
// the old root's files against the new root's (a move that changes no
// byte is no change), and the history of the old root before it is
// walked and added in front, following its own moves in turn. since
// limits that walk as it limits the first.
func followMoves(ctx context.Context, g *gitx.Git, since string, shallow map[string]bool, pairs []pair, merges []commit, res *Result) ([]pair, []commit, error) {
	var before, kept []pair
	var beforeMerges []commit
	for _, pr := range pairs {
		if pr.trees || pr.bf.log != "" || pr.hf.log == "" {
			kept = append(kept, pr)
			continue
		}
		from, parent, ok, err := movedFrom(ctx, g, pr.c.id, pr.c.prefix)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			if !pr.created {
				kept = append(kept, pr)
			}
			continue
		}
		c := pr.c
		c.from, c.parents = from, []string{parent}
		kept = append(kept, pair{c: c, trees: true})
		merges = append(merges, c)
		revs := []string{parent}
		if since != "" {
			revs = append(revs, "^"+since)
		}
		var specs []string
		for _, n := range append([]string{workspace.LogName}, workspace.ArchiveNames...) {
			specs = append(specs, ":(top,literal)"+from+n)
		}
		p, m, _, err := walk(ctx, g, from, specs, revs, shallow, res)
		if err != nil {
			return nil, nil, err
		}
		if p, m, err = followMoves(ctx, g, since, shallow, p, m, res); err != nil {
			return nil, nil, err
		}
		before, beforeMerges = append(before, p...), append(beforeMerges, m...)
	}
	return append(before, kept...), append(beforeMerges, merges...), nil
}

// movedTo reports, for a memory root whose log is gone, the root the
// log moved to when the last commit that removed it moved it (git mv),
// following later moves of that root while its log is gone too: as a
// path relative to this root, and the commit of the first move.
func movedTo(ctx context.Context, g *gitx.Git, root string) (to, commit string, ok bool, err error) {
	prefix, err := g.Prefix(ctx)
	if err != nil {
		return "", "", false, err
	}
	cur := prefix
	// A bound, for a history that moves the log in a circle.
	for range 100 {
		out, err := g.Run(ctx, "log", "-1", "--format=%H", "--diff-filter=D", "--end-of-options", "HEAD", "--", ":(top,literal)"+cur+workspace.LogName)
		id := strings.TrimSpace(string(out))
		if err != nil || id == "" {
			break // no commits, or none removed it
		}
		out, err = g.Run(ctx, "diff-tree", "-r", "-M", "-z", "--raw", "--no-abbrev", "--no-commit-id", "--end-of-options", id)
		if err != nil {
			return "", "", false, err
		}
		next := ""
		for _, r := range renames(string(out)) {
			if r[0] == cur+workspace.LogName && path.Base(r[1]) == workspace.LogName {
				next = strings.TrimSuffix(r[1], workspace.LogName)
			}
		}
		if next == "" {
			break
		}
		if commit == "" {
			commit = id
		}
		cur = next
		rel, err := filepath.Rel(filepath.FromSlash("/"+prefix), filepath.FromSlash("/"+cur))
		if err != nil {
			return "", "", false, err
		}
		to = filepath.ToSlash(rel)
		if err := workspace.Stat(filepath.Join(root, rel), parse.LogFile); !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	return to, commit, to != "", nil
}

// renames returns the old and new path of each rename in the output
// of git diff-tree -z --raw (after any commit line).
func renames(out string) [][2]string {
	var rs [][2]string
	f := strings.Split(out, "\x00")
	for i := 0; i < len(f); i++ {
		m := strings.Fields(f[i])
		if !strings.HasPrefix(f[i], ":") || len(m) < 5 {
			continue // the commit line, or the end
		}
		if !strings.HasPrefix(m[4], "R") || i+2 >= len(f) {
			i++ // one path
			continue
		}
		rs = append(rs, [2]string{f[i+1], f[i+2]})
		i += 2
	}
	return rs
}

// movedFrom reports the memory root, from the top of the work tree,
// whose log commit id moved to prefix's (git's rename detection), and
// the commit's parent, when it did. A merge or a root commit moves
// nothing.
func movedFrom(ctx context.Context, g *gitx.Git, id, prefix string) (from, parent string, ok bool, err error) {
	out, err := g.Run(ctx, "diff-tree", "-r", "-M", "-z", "--raw", "--no-abbrev", "--format=%P", "--end-of-options", id)
	if err != nil {
		return "", "", false, err
	}
	f := strings.Split(string(out), "\x00")
	if parents := strings.Fields(f[0]); len(parents) == 1 {
		parent = parents[0]
	} else {
		return "", "", false, nil
	}
	for _, r := range renames(string(out)) {
		if r[1] == prefix+workspace.LogName && path.Base(r[0]) == workspace.LogName {
			return strings.TrimSuffix(r[0], workspace.LogName), parent, true, nil
		}
	}
	return "", "", false, nil
}

// blobCache reads every blob the comparisons need, each once, in the
// order the walk uses them: from the object store where it can
// (gitx.Objects: each version rebuilt from its predecessor and a
// delta, nothing copied through a pipe), the rest through one
// pipelined cat-file. A blob is dropped after its last use; a buffer
// the pipe filled is read into again, unless the blob was parsed
// (parse's results share their bytes). The store's buffers are its
// own and never reused here.
type blobCache struct {
	uses   map[string]int
	have   map[string][]byte
	pinned map[string]bool
	free   [][]byte
	// store reads the blobs it holds (inStore); the others come from
	// pipe, in the order of piped. retry reads a blob the store listed
	// but could not rebuild, through a second cat-file.
	store   *gitx.Objects
	inStore map[string]bool
	retry   func(oid string) ([]byte, bool, error)
	piped   []string
	isPiped map[string]bool
	pipe    *gitx.Pipe
	next    int
	read    int
	stored  int
}

func newBlobCache(b *lazyBatch, store *gitx.Objects, retry func(string) ([]byte, bool, error), pairs []pair) (*blobCache, error) {
	c := &blobCache{uses: map[string]int{}, have: map[string][]byte{}, pinned: map[string]bool{},
		store: store, inStore: map[string]bool{}, isPiped: map[string]bool{}, retry: retry}
	for _, pr := range pairs {
		for _, oid := range needed(pr.bf, pr.hf) {
			if oid == "" {
				continue
			}
			if c.uses[oid] == 0 {
				if store != nil && store.Has(oid) {
					c.inStore[oid] = true
				} else {
					c.piped = append(c.piped, oid)
					c.isPiped[oid] = true
				}
			}
			c.uses[oid]++
		}
	}
	if len(c.piped) > 0 {
		bt, err := b.get()
		if err != nil {
			return nil, err
		}
		c.pipe = bt.Pipeline(c.piped)
		c.pipe.Limit = maxBlob
	}
	return c, nil
}

func (c *blobCache) get(oid string) ([]byte, error) {
	if oid == "" {
		return nil, nil
	}
	if data, ok := c.have[oid]; ok {
		return data, nil
	}
	if c.inStore[oid] {
		data, ok := c.store.Blob(oid)
		if ok {
			c.stored++
		} else {
			var err error
			if data, ok, err = c.retry(oid); err != nil {
				return nil, err
			}
		}
		if !ok {
			return nil, fmt.Errorf("git cat-file: blob %s is missing", oid)
		}
		c.read++
		c.have[oid] = data
		return data, nil
	}
	for {
		if data, ok := c.have[oid]; ok {
			return data, nil
		}
		if c.next == len(c.piped) {
			return nil, fmt.Errorf("git cat-file: blob %s was not read", oid)
		}
		var buf []byte
		if n := len(c.free); n > 0 {
			buf, c.free = c.free[n-1], c.free[:n-1]
		}
		data, ok, err := c.pipe.NextInto(buf)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("git cat-file: blob %s is missing", c.piped[c.next])
		}
		c.read++
		c.have[c.piped[c.next]] = data
		c.next++
	}
}

// pin keeps oid's buffer from being reused: it was parsed, and the
// findings may hold strings over its bytes.
func (c *blobCache) pin(oid string) {
	if oid != "" {
		c.pinned[oid] = true
	}
}

func (c *blobCache) release(oid string) {
	if oid == "" {
		return
	}
	if c.uses[oid]--; c.uses[oid] == 0 {
		switch data := c.have[oid]; {
		case c.pinned[oid]:
		case c.inStore[oid]:
			c.store.Release(oid)
		case cap(data) > 0:
			c.free = append(c.free, data[:0])
		}
		delete(c.have, oid)
	}
}

// compareAll judges every pair through lint's history rules, adding
// the findings of each commit to found.
func compareAll(b *lazyBatch, store *gitx.Objects, retry func(string) ([]byte, bool, error), opt Options, pairs []pair, res *Result, found map[string][]Finding) error {
	cache, err := newBlobCache(b, store, retry, pairs)
	if err != nil {
		return err
	}
	ends := ends{closed: map[string]bool{}, parses: &res.parses}
	for _, pr := range pairs {
		need := needed(pr.bf, pr.hf)
		var data [4][]byte
		for i, oid := range need {
			var err error
			if data[i], err = cache.get(oid); err != nil {
				return tooLarge(err, pr, i)
			}
		}
		ds, parsed, err := comparePair(opt, &ends, pr, data)
		if err != nil {
			return err
		}
		if parsed {
			res.parses++
		}
		var before map[string]string
		var after parse.Places
		if len(ds) > 0 {
			before, after = eventTexts(pr, data)
		}
		for _, d := range ds {
			e := after.At(d.Range.File, d.Range.Line)
			f := Finding{Commit: pr.c.id, Parent: pr.parent, Author: pr.c.author, Date: pr.c.date, Diagnostic: d,
				before: before[d.Event], after: textOf(e)}
			if e != nil && e.ID == d.Event {
				f.eventLine = e.Range.Line
			}
			found[pr.c.id] = append(found[pr.c.id], f)
		}
		for _, oid := range need {
			if parsed {
				cache.pin(oid)
			}
			cache.release(oid)
		}
	}
	res.blobs += cache.read
	res.stored += cache.stored
	return nil
}

// eventTexts returns the text of each event in the base and the head
// of pr, whose files are data (needed's order; nil where a file did not
// change, which then holds no event a finding names). Only pairs with
// findings are parsed again for it, and those are rare.
func eventTexts(pr pair, data [4][]byte) (before map[string]string, after parse.Places) {
	before = map[string]string{}
	var head []parse.Event
	names := [4]string{workspace.LogName, pr.bf.archiveName, workspace.LogName, pr.hf.archiveName}
	for i, b := range data {
		if b == nil {
			continue
		}
		var opts []parse.Option
		if i%2 == 1 {
			opts = append(opts, parse.Archive())
		}
		for _, e := range parse.Parse(names[i], b, opts...).Events {
			if i < 2 {
				if _, dup := before[e.ID]; !dup {
					before[e.ID] = e.Text
				}
				continue
			}
			head = append(head, e)
		}
	}
	return before, parse.PlacesOf(head)
}

// textOf is e's text, "" for no event.
func textOf(e *parse.Event) string {
	if e == nil {
		return ""
	}
	return e.Text
}

// maxBlob is the largest version of the log or the archive audit
// reads, as every other command (workspace.MaxFileSize): a larger one
// stops the audit unread. A variable for the tests.
var maxBlob int64 = workspace.MaxFileSize

// tooLarge names the file and the commit of the i-th blob pair pr
// needs (needed's order) when err says it is over maxBlob, with what
// to do: audit only the commits after it was replaced.
func tooLarge(err error, pr pair, i int) error {
	var tl *gitx.TooLargeError
	if !errors.As(err, &tl) {
		return err
	}
	f, commit := pr.bf, pr.parent
	if i >= 2 {
		f, commit = pr.hf, pr.c.id
	}
	name := workspace.LogName
	if i%2 == 1 {
		name = f.archiveName
	}
	return fmt.Errorf("%s at commit %.12s: %v; audit only later commits: memsys audit --since REV, REV a commit after the one that replaced this version", name, commit, tl)
}

// ends remembers, per blob, whether bytes appended after it can change
// none of its events (closedEnd): found by a parse for the first
// version of a run of appends, then carried from each version to the
// next without one.
type ends struct {
	closed map[string]bool
	parses *int
}

// appended reports whether next is old with events appended that leave
// old's events as they were: old has a closed end and next starts with
// its bytes (lint.PureAppend). It records whether next's end is closed too.
func (e *ends) appended(oid, nextOID, name string, old, next []byte) bool {
	if !lint.PureAppend(old, next) {
		return false
	}
	if e.closed == nil {
		e.closed = map[string]bool{}
	}
	closed, ok := e.closed[oid]
	if !ok {
		closed = closedEnd(name, old)
		e.closed[oid] = closed
		*e.parses++
	}
	if closed && addedClean(old, next, name != workspace.LogName) {
		e.closed[nextOID] = true
	}
	return closed
}

// closedEnd parses data (the log or, by name, an archive) and reports
// whether text appended after it, starting with a heading, leaves its
// events as they are (lint.ClosedEnd).
func closedEnd(name string, data []byte) bool {
	var opts []parse.Option
	if name != workspace.LogName {
		opts = append(opts, parse.Archive())
	}
	return lint.ClosedEnd(parse.Parse(name, data, opts...), data)
}

// addedClean reports whether what next adds to old (lint.PureAppend holds)
// leaves next with a closed end as well: it ends its last line, no line
// is too long to read on, and from its first heading, an event heading,
// no line could open or close a block (parse.CutsAt). In an archive
// (archive true) the events may follow "## Archive: ..." section
// headings, as every archive move writes them: otherwise each move
// would parse the whole archive again.
func addedClean(old, next []byte, archive bool) bool {
	rest := next[len(old):]
	if len(rest) == 0 {
		return true
	}
	if rest[len(rest)-1] != '\n' {
		return false
	}
	section := false
	for pos := 0; pos < len(rest); {
		end := bytes.IndexByte(rest[pos:], '\n') + pos + 1
		line := rest[pos:end]
		if len(line) > parse.MaxLineLength {
			return false
		}
		switch t := bytes.TrimSpace(line); {
		case len(t) == 0, bytes.Equal(t, []byte("---")):
		case archive && parse.IsArchiveSection(bytes.TrimRight(line, "\r\n")):
			section = true
		default:
			for _, l := range bytes.SplitAfter(rest[end:], []byte{'\n'}) {
				if len(l) > parse.MaxLineLength {
					return false
				}
			}
			return parse.CutsAt(rest[pos:])
		}
		pos = end
	}
	// Only blank lines and separators, or a section without events: the
	// last event is old's, followed by a heading when section is true.
	return !section
}

// comparePair compares one pair whose files are data (base log, base
// archive, head log, head archive; nil where a file takes no part).
// parsed is false when the prefix check settled it without a parse.
func comparePair(opt Options, e *ends, pr pair, data [4][]byte) (_ diag.Diagnostics, parsed bool, _ error) {
	bf, hf := pr.bf, pr.hf
	logSame := bf.log == hf.log || !opt.full && e.appended(bf.log, hf.log, workspace.LogName, data[0], data[2])
	archiveAppended := !opt.full && bf.archive != hf.archive && bf.archiveName == hf.archiveName &&
		e.appended(bf.archive, hf.archive, bf.archiveName, data[1], data[3])
	if logSame && (bf.archive == hf.archive || archiveAppended) {
		return nil, false, nil
	}
	// A file whose blob did not change holds the same events on both
	// sides and takes no part: it is left out (nil) of both. An archive
	// move appends to the archive: its committed part cannot have
	// changed, so only what was added is parsed, and compared with the
	// log it came from. Positions are shifted back to the whole file
	// below.
	shift := 0
	if len(data[1]) > 0 && archiveAppended {
		shift = bytes.Count(data[1], []byte{'\n'})
		data[1], data[3] = nil, data[3][len(data[1]):]
	}
	git := versions{
		"base": {log: data[0], archiveName: bf.archiveName, archive: data[1]},
		"head": {log: data[2], archiveName: hf.archiveName, archive: data[3]},
	}
	ds, err := opt.Linter.CheckHistory(lint.Input{Git: git, Revisions: &lint.Revisions{
		Base: "base", Head: "head", Label: fmt.Sprintf("%.12s", pr.parent),
		Merge: len(pr.c.parents) > 1, OnlyCommitted: true,
	}})
	for i := range ds {
		if shift > 0 && ds[i].Range.File == hf.archiveName {
			ds[i].Range.Line += shift
			ds[i].Range.EndLine += shift
		}
	}
	return ds, true, err
}

// versions is the lint.Git of one compared pair: the files the walk
// read, under the revisions "base" and "head".
type versions map[string]version

type version struct {
	log         []byte
	archiveName string
	archive     []byte
}

func (v versions) Blob(rev, path string) ([]byte, bool, error) {
	f := v[rev]
	switch path {
	case workspace.LogName:
		return f.log, f.log != nil, nil
	case f.archiveName:
		return f.archive, f.archive != nil, nil
	}
	return nil, false, nil
}

// Shallow is false: the walk stops at a shallow edge before comparing.
func (versions) Shallow() bool { return false }

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
			return bf, hf, fmt.Errorf("git log: unexpected raw line %q", words.Clip(line))
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
