package memory

import (
	"strings"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// inSupersedes is append's --supersedes, the "supersedes" parameter.
var inSupersedes = front.Input{Flag: "--supersedes", Param: "supersedes"}

// historyEdges returns the Supersedes fields of the archive (arch, may
// be nil) and the log, in history order, read from the parsed events
// (not parse.ScanSupersedes' prediction): what lint's MS126 reads.
// Only an append that supersedes something pays for it.
func historyEdges(file string, log LogFile, archName string, arch LogFile) ([]parse.Supersession, error) {
	var edges []parse.Supersession
	each := func(e *parse.Event) {
		if s, ok := parse.SupersessionOf(e); ok {
			edges = append(edges, s)
		}
	}
	if arch != nil {
		src, err := readAll(arch)
		if err != nil {
			return nil, err
		}
		parse.Stream(archName, src, each, parse.Archive())
	}
	src, err := readAll(log)
	if err != nil {
		return nil, err
	}
	parse.Stream(file, src, each)
	return edges, nil
}

// cachedEdges is historyEdges answered from the history cache, for an
// append holding the log open (log) under the lock, whose entry is the
// one for the render options opt: the head
// checkpoint of the last replay keeps the Supersedes fields of the
// history up to its prefix (replayCheckpoint.Edges); the log is
// checked against that prefix by its hash (read, not parsed), and
// only the events after it are parsed, alone, as a resumed replay
// parses them (resumeLog). ok is false when no checkpoint matches: no
// cache (--no-cache, MEMSYS_NO_CACHE), another archive, the log
// edited before the prefix's end, or bytes after it that do not parse
// alone (resumable). The caller then parses the whole history, so the
// edges are historyEdges' either way (TestAppendSupersedesCachedEqualsCold):
// the cache changes what append --supersedes costs, never its answer.
func cachedEdges(root string, opt materialize.Options, log *workspace.File, archName string, arch LogFile) ([]parse.Supersession, bool) {
	if !workspace.CacheEnabled() {
		return nil, false
	}
	// The entry's name hashes the archive as the replay read it: by
	// its name, which append found the same way (workspace.ArchiveNames).
	mem := &workspace.Memory{Root: root}
	if arch != nil {
		var err error
		if mem.ArchiveBytes, err = readAll(arch); err != nil {
			return nil, false
		}
		mem.ArchivePath = archName
	}
	c, ok := checkCheckpoint(root, opt, mem, log.ReadAfterMarksIf, nil, false)
	if !ok {
		return nil, false
	}
	return edgesAfter(c), true
}

// heldEdges is cachedEdges over a history already read
// (workspace.ReadOpen): the checkpoint is checked against the bytes
// held, and returned for the regen that follows (appendWith.cp).
func heldEdges(root string, opt materialize.Options, held *workspace.Memory) ([]parse.Supersession, *checkpointed, bool) {
	c, ok := loadCheckpointFrom(root, opt, held)
	if !ok {
		return nil, nil, false
	}
	return edgesAfter(c), c, true
}

// edgesAfter is the Supersedes fields of the history through c's head
// (replayCheckpoint.Edges) and of the events after it, parsed alone.
func edgesAfter(c *checkpointed) []parse.Supersession {
	edges := c.head.Edges // decoded for this call alone
	suffix := c.suffix()
	resumeLog(c.head, suffix, func(e *parse.Event) {
		if s, ok := parse.SupersessionOf(e); ok {
			edges = append(edges, s)
		}
	})
	edgeHits++
	edgeParsed += len(suffix)
	return edges
}

// edgeHits counts the appends whose Supersedes check the history cache
// answered, and edgeParsed the bytes of log they parsed to do it, for
// the tests.
var edgeHits, edgeParsed int

// CheckSupersedes refuses the event id, about to be appended after a
// history whose Supersedes fields are edges, when its Supersedes
// (sup, normalised) would leave an event superseded by two live
// events: lint's MS126 error, by materialize.SupersededTwice, the
// rule's own definition, so append never writes what lint flags.
// Findings the history already has are not append's to refuse. The
// way to correct a correction is to supersede it: the new event then
// names the correction (and, if it likes, the original too), and the
// correction stops being live.
func CheckSupersedes(edges []parse.Supersession, id string, sup []string) error {
	if len(sup) == 0 {
		return nil
	}
	had := map[[2]int]bool{}
	for _, tw := range materialize.SupersededTwice(edges) {
		had[twiceKey(tw)] = true
	}
	all := append(edges[:len(edges):len(edges)], parse.Supersession{ID: id, Targets: sup})
	for _, tw := range materialize.SupersededTwice(all) {
		if had[twiceKey(tw)] {
			continue
		}
		first, target := all[tw.First].ID, tw.Target
		if tw.Edge == len(edges) {
			return front.Errorf("%s %s: %s already corrects it, and two live corrections of one event are lint's MS126 error: correct %s instead (%s %s), or name both (%s %s,%s)",
				inSupersedes.Name(), target, first, first, inSupersedes.Name(), first, inSupersedes.Name(), target, first)
		}
		// Superseding a correction made an event it had superseded
		// live again, and that one corrects what another live event
		// corrects: name the revived one too.
		revived, other := all[tw.First].ID, all[tw.Edge].ID
		if materialize.Live(edges)[tw.First] {
			revived, other = other, revived
		}
		return front.Errorf("%s %s: it makes %s live again, which corrects %s as %s does (lint's MS126 error): name %s in %s as well",
			inSupersedes.Name(), strings.Join(sup, ","), revived, target, other, revived, inSupersedes.Ref())
	}
	return nil
}

// twiceKey identifies a finding by its later edge and the event
// number it names twice: adding an edge at the end keeps the indices
// of the others.
func twiceKey(tw materialize.Twice) [2]int {
	n, _ := parse.EventNum(strings.TrimSpace(tw.Target))
	return [2]int{tw.Edge, n}
}
