package memory

import (
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// sealedAt tells handEdits what it needs of the history at a derived
// file's horizon: a digest known without reading anything more, and
// where to replay to it when none is.
type sealedAt struct {
	root string
	opt  materialize.Options
	// digest returns the seal's source digest of the events through the
	// event id when the caller has it at hand (the history cache's head,
	// the hash status takes as it streams); nil or false for none.
	digest func(id string) ([]byte, bool)
}

// handEdits lists what the derived file rel on disk (cur) holds that
// memsys did not write and that what regen writes now (want, which
// differs from cur) would drop: nil when regen may replace it.
//
// A file without a seal was kept by hand (lint.Curated against want).
// A sealed one was written by memsys, from the events through its
// horizon: when its seal still verifies against them, it is exactly what
// memsys wrote then, and what it holds that want lacks is what later
// events superseded, legitimately dropped. When it does not verify, it
// was edited since (or the options or the renderer changed): what it
// holds that neither the replay at its horizon nor the current one draws
// was added by hand. A file at the current horizon needs neither: the
// current replay is the one at its horizon. A sealed file whose horizon
// no event of the history has (the log was cut back or rewritten) cannot
// be checked and is replaced.
//
// The common stale file (behind the log after an append) costs a
// comparison with want, or a seal check when digest knows the horizon;
// a replay to the horizon happens only when rows would be lost and the
// seal is not known to verify.
func (s sealedAt) handEdits(rel string, cur, want []byte) []string {
	if !materialize.HasSeal(cur) {
		return lint.Curated(rel, cur, want, false)
	}
	h, line := materialize.FindHorizon(cur)
	now, _ := materialize.FindHorizon(want)
	if line == 0 || h == "" || parse.SameEvent(h, now) {
		// No horizon to replay to (a sealed file whose horizon line was
		// edited away, or an empty history's), or the current one.
		return lint.Curated(rel, cur, want, false)
	}
	if s.digest != nil {
		if d, ok := s.digest(h); ok && materialize.Sealed(cur, d) {
			return nil
		}
	}
	sealMisses++
	items := lint.Curated(rel, cur, want, false)
	if len(items) == 0 {
		return nil
	}
	_, x, err := replayStream(s.root, s.opt, h)
	if err != nil {
		// The horizon names no event of the history: the log was cut
		// back (a checkout of an older one) or rewritten. The seal
		// cannot be checked, and the file is one memsys wrote: it is
		// replaced, as before seals were checked at the horizon.
		return nil
	}
	if materialize.Sealed(cur, x.SourceSum()) {
		return nil
	}
	then := x.GraphFile()
	if rel == parse.ContextFile {
		then = x.ContextFile()
	}
	return lint.CuratedAll(rel, cur, false, want, then)
}

// sealMisses counts the sealed files behind the log whose seal handEdits
// could not check without reading them against the replay, for the
// tests to see that the history cache's digests were used.
var sealMisses int

// headDigest is the sealedAt digest of the history cache's checkpoint
// c: the source digest through its last event, or through the last
// events of the heads it replaced (earlierOf); nil without one.
func headDigest(c *checkpointed) func(id string) ([]byte, bool) {
	if c == nil || c.head == nil {
		return nil
	}
	return func(id string) ([]byte, bool) {
		for _, e := range earlierOf(c) {
			if parse.SameEvent(id, e.ID) {
				return e.Sum, true
			}
		}
		return nil, false
	}
}
