package lint

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

// Git is the view of a repository the history rules (MS301-MS305) get
// through the Pass, as every other rule gets files: they never run git
// themselves. gitx implements it over the git binary; tests use a map.
type Git interface {
	// Blob returns the file at path, relative to the memory root, in
	// revision rev: a commit ID, or ":0" for the index (the staged
	// version). ok is false when the file is not there.
	Blob(rev, path string) (data []byte, ok bool, err error)
	// Shallow reports whether the clone lacks history (a shallow clone),
	// so a missing base can be explained.
	Shallow() bool
}

// PastTexts is implemented by a Git that can tell whether a text was
// ever committed (gitx.Blobs). The history rules then take a change
// that gives an event back a text it had in an earlier commit (the
// edit reverted, the deleted event put back) for the restore their
// advice asks for, not for another change to refuse.
type PastTexts interface {
	// HadText reports whether one of paths (relative to the memory
	// root) held text, byte for byte, in rev or a commit before it.
	HadText(rev, text string, paths ...string) (bool, error)
}

// Merges is implemented by a Git that can find the merge commits
// between two commits (gitx.Blobs). The merge driver renumbers the
// events one side appended when it merges (docs/convergence.md), so the
// log of a head that merged another branch since the base may hold the
// base's events under other numbers: lint --base then judges the base's
// events as audit judges a merge (compareMerge), every committed text
// kept, and what changed after the newest merge as any other commit.
type Merges interface {
	// LastMerge returns the newest merge commit on head's first-parent
	// line since base, an ancestor of head, or "" when there is none:
	// git rev-list --first-parent --merges -n 1 base..head.
	LastMerge(base, head string) (string, error)
}

// Revisions names the two versions of the log the history rules
// compare: the base, as committed, and the head.
type Revisions struct {
	Base string // commit ID of the base
	// Head is a commit ID, ":0" for the index, or "" for the working
	// tree, read like every other file through Input.ReadFile.
	Head string
	// Label names the base in messages: "main (0123456789ab)".
	Label string
	// Merge says head merges base with another branch: order and IDs
	// are then free, only the committed texts must survive.
	Merge bool
	// NoteBase starts each finding's detail with the base commit in
	// full, so a reader can git show it (lint --base; audit prints the
	// commits on lines of its own).
	NoteBase bool
	// OnlyCommitted leaves out the numbering of events the base did not
	// have (MS305 on a new event): that is lint's concern on the working
	// tree, not a change to history (the audit).
	OnlyCommitted bool
	// Onto is set when the revision the user named has moved on since
	// the head forked from it (lint --base REV, REV not an ancestor of
	// the head): Base is then their merge base and Onto REV's commit,
	// whose new events MS306 compares with the head's.
	Onto string
	// OntoName names REV in messages as the user wrote it.
	OntoName string
	// Merging is set by lint --staged while git brings other commits'
	// changes into the index (a merge, cherry-pick, rebase or squash
	// merge that stopped, or was told not to commit), nil otherwise:
	// MS307 checks that the staged log keeps the events they added.
	Merging *Merging
}

// Merging is a git operation in progress that brings the changes of
// other commits into the index, and what it brings.
type Merging struct {
	Op Op
	// Heads are the commits brought in, each with the commit its new
	// events are counted from: for a merge (one per branch of an
	// octopus) and a squash merge, its merge base with HEAD; for a
	// cherry-pick or a rebase, the parent of the commit replayed.
	Heads []Merged
}

// Merged is one commit an operation brings in. Base is the commit its
// new events are counted from, "" when this clone has none (a shallow
// clone, or a root commit): every event of Commit is then checked.
type Merged struct {
	Commit, Base string
}

// Op is a git operation that combines commits.
type Op int

// The operations MS307 checks, each named by the file git keeps its
// commits in (Ref). A revert is not one: it takes events out, which the
// append-only rules refuse.
const (
	OpMerge      Op = iota + 1 // git merge: MERGE_HEAD
	OpCherryPick               // git cherry-pick: CHERRY_PICK_HEAD
	OpRebase                   // git rebase: REBASE_HEAD
	OpSquash                   // git merge --squash: SQUASH_MSG
)

// String names the operation in messages.
func (o Op) String() string {
	switch o {
	case OpMerge:
		return "merge"
	case OpCherryPick:
		return "cherry-pick"
	case OpRebase:
		return "rebase"
	case OpSquash:
		return "squash merge"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Ref is the file in the git folder that names the operation's commits.
func (o Op) Ref() string {
	switch o {
	case OpMerge:
		return "MERGE_HEAD"
	case OpCherryPick:
		return "CHERRY_PICK_HEAD"
	case OpRebase:
		return "REBASE_HEAD"
	case OpSquash:
		return "SQUASH_MSG"
	}
	return ""
}

// Git returns the repository the history rules read, nil without one.
func (p *Pass) Git() Git { return p.shared.in.Git }

// Revisions returns the versions the history rules compare, nil when
// lint runs without --base or --staged.
func (p *Pass) Revisions() *Revisions { return p.shared.in.Revisions }

// Fail records an error that stops lint from judging the memory (a
// blob git cannot read): the Session reports it from Err, and the
// command exits 2 rather than pass silently.
func (p *Pass) Fail(err error) {
	if p.shared.err == nil {
		p.shared.err = err
	}
}

// historyRule is the Run of MS301-MS305: the comparison of base and
// head runs once per Session, and each rule reports its own findings
// from it, at the severity its Pass carries.
func historyRule(p *Pass) {
	for _, d := range p.history() {
		if d.Rule == p.Rule.ID {
			p.Report(d)
		}
	}
}

// history compares the two revisions once per Session.
func (p *Pass) history() diag.Diagnostics {
	sh := p.shared
	revs := p.Revisions()
	if revs == nil || sh.historyDone {
		return sh.historyFindings
	}
	sh.historyDone = true
	base, head, err := p.sides()
	if err != nil {
		p.Fail(err)
		return nil
	}
	label := revs.Label
	if label == "" {
		label = fmt.Sprintf("%.12s", revs.Base)
	}
	var ds diag.Diagnostics
	switch {
	case revs.Merge:
		ds = compareMerge(base, head, label, true, nil)
	case revs.OnlyCommitted:
		ds = compareCommitted(base, head, label)
	default:
		ds = compare(base, head, label)
		if len(ds) > 0 {
			if m := p.lastMerge(revs); m != "" {
				ds = p.acrossMerge(base, head, label, m, ds)
			}
		}
	}
	if pt, ok := p.Git().(PastTexts); ok && !revs.Merge {
		ds, sh.restored = dropRestored(ds, head, revs.Base, pt)
	}
	if len(ds) > 0 && p.incomingFirst(head) {
		ds = nil
	}
	if revs.NoteBase {
		for i := range ds {
			ds[i].Detail = "base commit " + revs.Base + "\n" + ds[i].Detail
		}
	}
	sh.historyFindings = ds
	return ds
}

// moved reports whether a base event is not under its own number, with
// its text, in at: the merge driver renumbered it (the branch merged in
// keeps its IDs, and the events base added since they forked follow
// them, docs/convergence.md), or it was edited or dropped.
func moved(base, at side) bool {
	ae := at.events()
	byNum := make(map[int]string, len(ae))
	for _, e := range ae {
		if _, dup := byNum[e.Num]; !dup {
			byNum[e.Num] = parse.EndedText(e.Text)
		}
	}
	for _, b := range base.events() {
		if text, ok := byNum[b.Num]; !ok || text != parse.EndedText(b.Text) {
			return true
		}
	}
	return false
}

// lastMerge returns the newest merge on the head's line since the base
// (Merges), "" without one, asked of git only when the comparison found
// something. The index is compared with HEAD, and its merges are the
// operation in progress (Revisions.Merging); an error keeps the findings.
func (p *Pass) lastMerge(revs *Revisions) string {
	m, ok := p.Git().(Merges)
	if !ok || revs.Head == ":0" || revs.Merge {
		return ""
	}
	head := revs.Head
	if head == "" {
		head = "HEAD"
	}
	merge, err := m.LastMerge(revs.Base, head)
	if err != nil {
		return ""
	}
	return merge
}

// acrossMerge judges a head that merged another branch since the base,
// merge being the newest such merge, ds the plain comparison's
// findings. A merge that left every base event under its number, with
// its text, renumbered nothing (GitHub's test merge of a pull request,
// the checkout of refs/pull/N/merge: a merge commit on top of the base),
// and ds stands. Otherwise the base's events are judged as audit judges
// a merge: each text kept, number and place free. What changed after
// the merge is judged as any commit is, against the log the merge
// committed, so a hand renumbering, an edit or a gap in the numbers
// after it is reported as without a merge. A base event the merge kept
// is left to that second comparison, which names the change more
// exactly: one finding per change. If the merge's log cannot be read,
// the first judgement alone stands.
func (p *Pass) acrossMerge(base, head side, label, merge string, ds diag.Diagnostics) diag.Diagnostics {
	at, err := p.readSide(merge)
	if err != nil {
		return compareMerge(base, head, label, false, nil)
	}
	if !moved(base, at) {
		return ds
	}
	ds = compareMerge(base, head, label, false, newTexts(at.events()).kept)
	mlabel := fmt.Sprintf("the merge (%.12s)", merge)
	for _, d := range compare(at, head, mlabel) {
		d.Detail = "merge commit " + merge + "\n" + d.Detail
		ds = append(ds, d)
	}
	ds.Sort()
	return ds
}

// incomingFirst reports whether the staged history is a merge (or
// squash merge) of one branch in progress, laid out the other way round: the merged branch's events
// with their IDs, then HEAD's events since the merge base, renumbered
// after them, their text otherwise kept. The merge driver writes that
// when the branch merged in is the trunk (git merge origin/main on a
// feature branch), so the trunk's committed events keep their IDs; the
// comparison with HEAD would take it for HEAD's events edited.
func (p *Pass) incomingFirst(staged side) bool {
	revs := p.Revisions()
	m := revs.Merging
	if m == nil || (m.Op != OpMerge && m.Op != OpSquash) || len(m.Heads) != 1 || m.Heads[0].Base == "" {
		return false
	}
	incoming, err := p.readSide(m.Heads[0].Commit)
	if err != nil {
		return false
	}
	if len(compare(incoming, staged, m.Op.Ref())) > 0 {
		return false
	}
	mb, err := p.readSide(m.Heads[0].Base)
	if err != nil {
		return false
	}
	head, err := p.readSide(revs.Base) // HEAD, which lint --staged compares with
	if err != nil {
		return false
	}
	// HEAD's events that the merge base already had are the incoming
	// side's too, which the comparison above kept as they were.
	return len(Unmerged(mb.events(), head.events(), staged.events())) == 0
}

// dropRestored drops the findings of ds that an edited (MS301) or
// inserted (MS304) event gives when its text in head is one the log or
// the archive held in base or before it: the event restored, as the
// earlier finding advised. Asked of git only for such findings, which
// are rare; an error keeps the finding. It returns the rest, and the
// headings of the restored events.
func dropRestored(ds diag.Diagnostics, head side, base string, pt PastTexts) (diag.Diagnostics, map[place]bool) {
	var places parse.Places
	var restored map[place]bool
	out := ds[:0]
	for _, d := range ds {
		if d.Rule == "MS301" || d.Rule == "MS304" {
			if places == nil {
				places = parse.PlacesOf(head.events())
			}
			if e := places.At(d.Range.File, d.Range.Line); e != nil && e.Text != "" && hadText(pt, base, e) {
				if restored == nil {
					restored = map[place]bool{}
				}
				restored[placeOf(e)] = true
				continue
			}
		}
		out = append(out, d)
	}
	return out, restored
}

// place is where an event's heading is.
type place struct {
	file string
	line int
}

func placeOf(e *parse.Event) place { return place{e.Range.File, e.Range.Line} }

// hadText reports whether the log or the archive held e's text in base
// or before it. The pickaxe matches bytes, and e.Text has LF endings:
// an event written with CRLF endings is looked for as written too, and
// either form can be the one committed (with core.autocrlf the blobs
// have LF while the checkout has CRLF).
func hadText(pt PastTexts, base string, e *parse.Event) bool {
	paths := append([]string{parse.LogFile}, parse.ArchiveFiles...)
	if had, err := pt.HadText(base, e.Text, paths...); err == nil && had {
		return true
	}
	if crs := e.Range.EndOffset - e.Range.Offset - len(e.Text); crs == 0 || crs != strings.Count(e.Text, "\n") {
		return false // no CR, or mixed endings: no one form to look for
	}
	had, err := pt.HadText(base, strings.ReplaceAll(e.Text, "\n", "\r\n"), paths...)
	return err == nil && had
}

// sides reads the base and head versions of the history once per
// Session: the history rules and MarkBaseline share them. A head whose
// log only appends to the base's (appendedAt) is not parsed whole: its
// events are the base's, then those of the bytes after them.
func (p *Pass) sides() (base, head side, err error) {
	sh := p.shared
	if !sh.sidesRead {
		sh.sidesRead = true
		revs := p.Revisions()
		var bb, hb sideBytes
		headRead := false
		// The base is read first, as it always was (its errors come
		// first), unless a summary of it may spare reading it.
		baseKey, headKey := p.sideKey(revs.Base), p.sideKey(revs.Head)
		if sum, ok := p.summary(baseKey); ok && prefixSides {
			if hb, sh.sidesErr = p.readBytes(revs.Head); sh.sidesErr != nil {
				return sh.base, sh.head, sh.sidesErr
			}
			headRead = true
			if base, head, ok := sum.sides(hb); ok {
				sh.base, sh.head = base, head
				summarySides++
				p.keepSummary(headKey, head, hb)
				return sh.base, sh.head, nil
			}
		}
		if bb, sh.sidesErr = p.readBytes(revs.Base); sh.sidesErr != nil {
			return sh.base, sh.head, sh.sidesErr
		}
		sh.base = bb.parse()
		p.keepSummary(baseKey, sh.base, bb)
		if !headRead {
			if hb, sh.sidesErr = p.readBytes(revs.Head); sh.sidesErr != nil {
				return sh.base, sh.head, sh.sidesErr
			}
		}
		if h, ok := appended(sh.base, bb, hb); ok && prefixSides {
			sh.head = h
			appendedSides++
		} else {
			sh.head = hb.parse()
		}
		p.keepSummary(headKey, sh.head, hb)
	}
	return sh.base, sh.head, sh.sidesErr
}

// prefixSides is false only in the tests, which compare the sides
// appended builds with whole parses.
var prefixSides = true

// appendedSides counts the heads appended built, and summarySides the
// sides built from a summary, for the tests.
var appendedSides, summarySides int

// sideBytes are the files of one version of the history: the log (nil
// if none) and the first archive found.
type sideBytes struct {
	log         []byte
	hasLog      bool
	archiveName string
	archive     []byte
}

// readBytes reads the log and the first archive found (in the order of
// parse.ArchiveFiles, as memsys reads them) at rev.
func (p *Pass) readBytes(rev string) (sideBytes, error) {
	var b sideBytes
	data, ok, err := p.blob(rev, parse.LogFile)
	if err != nil {
		return b, err
	}
	b.log, b.hasLog = data, ok
	for _, name := range parse.ArchiveFiles {
		data, ok, err := p.blob(rev, name)
		if err != nil {
			return b, err
		}
		if ok {
			b.archiveName, b.archive = name, data
			break
		}
	}
	return b, nil
}

// parse parses the files. The comparison reads only IDs, positions and
// text, so event bodies are not parsed into fields (parse.HeadersOnly).
func (b sideBytes) parse() side {
	var s side
	if b.hasLog {
		s.Log = parse.Parse(parse.LogFile, b.log, parse.HeadersOnly())
	}
	if b.archiveName != "" {
		s.Archive = parse.Parse(b.archiveName, b.archive, parse.Archive(), parse.HeadersOnly())
	}
	s.all = s.events()
	return s
}

// readSide reads and parses the version of the history at rev.
func (p *Pass) readSide(rev string) (side, error) {
	b, err := p.readBytes(rev)
	if err != nil {
		return side{}, err
	}
	return b.parse(), nil
}

// tailPre stands in for the log before the bytes appended to it: they
// are parsed after it, in the Event Log section, as they are after the
// base's last event (see appended).
const tailPre = "## Event Log\n\n"

// appended returns the head side whose files are hb, built from base
// (parsed from bb) when hb's log only appends events to bb's, and the
// archive is the same: the audit's prefix check (PureAppend, ClosedEnd)
// says the appended bytes leave every base event as it is, and what
// they add starts with an event heading from which it parses alone
// (parse.CutsAt), in the base's Event Log section. Only those bytes are
// parsed, and their events placed after the base's. ok is false in any
// other case: the head is then parsed whole.
func appended(base side, bb, hb sideBytes) (side, bool) {
	if !bb.hasLog || !hb.hasLog || base.Log == nil || bb.archiveName != hb.archiveName || !bytes.Equal(bb.archive, hb.archive) {
		return side{}, false
	}
	if bytes.Equal(bb.log, hb.log) {
		return base, true
	}
	old := base.Log
	if !old.HasEventLog || len(old.Events) == 0 || !old.Events[len(old.Events)-1].InLog ||
		!PureAppend(bb.log, hb.log) || !ClosedEnd(old, bb.log) {
		return side{}, false
	}
	rest := hb.log[len(bb.log):]
	if !appendsEvents(rest) {
		return side{}, false
	}
	body := make([]byte, 0, len(tailPre)+len(rest))
	body = append(append(body, tailPre...), rest...)
	more := parse.Parse(parse.LogFile, body, parse.HeadersOnly())
	lines := bytes.Count(bb.log, []byte{'\n'})
	dl, doff := lines-lineCount(tailPre), len(bb.log)-len(tailPre)
	for i := range more.Events {
		r := &more.Events[i].Range
		r.Line += dl
		r.EndLine += dl
		r.Offset += doff
		r.EndOffset += doff
	}
	log := *old
	// The head's events extend the base's slice in place when it has
	// room (the parser's growth leaves some): nothing writes to either
	// side's events, and a copy of 100k events cost a third of a
	// second of write barriers while the collector was marking.
	log.Events = append(old.Events, more.Events...)
	log.Problems = slices.Clone(old.Problems)
	for _, pr := range more.Problems {
		pr.Range.Line += dl
		pr.Range.EndLine += dl
		pr.Range.Offset += doff
		pr.Range.EndOffset += doff
		log.Problems = append(log.Problems, pr)
	}
	log.Lines = dl + more.Lines
	h := side{Archive: base.Archive, Log: &log}
	h.all = h.events()
	return h, true
}

// appendsEvents reports whether rest, the bytes after a version of
// the log with a closed end (ClosedEnd), is blank lines and separators,
// then an event heading from which it parses alone (parse.CutsAt). Only
// separators is false: rare, and parsed whole.
func appendsEvents(rest []byte) bool {
	pos := 0
	for pos < len(rest) {
		end := bytes.IndexByte(rest[pos:], '\n')
		if end < 0 {
			end = len(rest) - pos
		}
		if t := bytes.TrimSpace(rest[pos : pos+end]); len(t) != 0 && !bytes.Equal(t, []byte("---")) {
			break
		}
		pos += end + 1
	}
	return pos < len(rest) && parse.CutsAt(rest[pos:])
}

// lineCount is the number of line feeds in s.
func lineCount(s string) int { return strings.Count(s, "\n") }

// unchanged reports, for an event ID, whether the event is in the
// history both sides share unchanged from the start: the same events,
// byte for byte, in the same order, where an event restored to a text
// it had when committed (restored, from dropRestored) counts as
// unchanged, and a deleted event put back as one base had all along: a
// restore is the fix the history rules ask for, and the events after
// it are as committed. An event the change moved, edited or renumbered,
// and every event after it, is the change's doing and is judged in
// full. So is an ID a new event reuses (a rebase without the driver,
// whose line merge appends the replayed evt-003 after HEAD's evt-003):
// the finding on the new copy (MS107) names the shared ID, and marking
// it would let the duplicate through lint --staged.
func unchanged(base, head side, restored map[place]bool) func(string) bool {
	b, h := base.events(), head.events()
	nums := map[int]bool{}
	j := 0
	for i := 0; i < len(b) && j < len(h); j++ {
		r := restored[placeOf(&h[j])]
		if b[i].Text == h[j].Text || r && b[i].Num == h[j].Num {
			i++
		} else if !r {
			break
		} // else put back where it was: base lacks it
		nums[h[j].Num] = true
	}
	for ; j < len(h); j++ {
		delete(nums, h[j].Num)
	}
	return func(id string) bool {
		n, ok := parse.EventNum(id)
		return ok && nums[n]
	}
}

// blob reads name at rev: from git, or from the working tree when rev
// is "".
func (p *Pass) blob(rev, name string) ([]byte, bool, error) {
	if rev != "" {
		data, ok, err := p.Git().Blob(rev, name)
		switch {
		case err != nil && p.Git().Shallow():
			return nil, false, fmt.Errorf("read %s:%s: %w (this clone is shallow: fetch the commit, e.g. git fetch --depth=1 origin %s)", strings.TrimPrefix(rev, ":"), name, err, rev)
		case err != nil:
			return nil, false, fmt.Errorf("read %s:%s: %w", strings.TrimPrefix(rev, ":"), name, err)
		}
		return data, ok, nil
	}
	data, err := p.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	return data, err == nil, err
}
