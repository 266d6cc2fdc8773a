package parse

import (
	"runtime"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// This file runs a parse over the chunks of a file (see chunkStarts):
// in order on one goroutine, or, for a large file, with block
// recognition on a second goroutine feeding the event reader.

// state is one run of Parse. It walks the top-level blocks of every
// chunk in order; an event is open from its heading to the next heading
// of level 3 or less.
type state struct {
	file    string
	archive bool
	// headersOnly and whole mirror the options of the same names.
	headersOnly, whole, sequential bool
	src                            []byte
	s                              string // src as one string: every text in the result is a substring of it, not a copy
	bom                            int
	crlf                           []int
	lc                             lineCursor
	log                            *Log
	scratch                        []block
	cells                          []eventCell // see newEvent
	// reuse, full, retired and handed recycle the cells of streamed
	// events (Reuse): full is the slab cells comes from, retired the
	// slabs used up, oldest first, handed the events handed over.
	reuse   Returner
	full    *slab
	retired []retired
	handed  int
	mem     blockArena // the sequential loop's
	// fieldChunk, detailChunk and strChunk are the chunks that events
	// kept for good take their Fields, Details, Scopes and Tags from
	// (see makeDetails).
	fieldChunk  []Field
	detailChunk []Detail
	strChunk    []string

	inLog bool   // inside an Event Log section
	cur   *Event // event being read, nil between events
	field int    // index in cur.Fields of the last field, -1 if none
	// fieldKey is keyOf the last field's key; keys has bit k set when
	// cur has a field of key k (bit 0: of some other key), see seenKey.
	fieldKey fieldKey
	keys     uint16
	// each receives every kept event when streaming (see Stream); nil
	// when the events are collected in log.Events.
	each func(*Event)
	// pending holds streamed events seen before any Event Log section:
	// whether they count depends on whether such a section comes later.
	pending []*Event
	// listTo names where the next bullet list goes: "details", "refs",
	// "tags" after a field with an empty value, "" otherwise.
	listTo string
	// cut is a "## heading" that closed an event inside the Event Log
	// section; if an event heading follows it, the heading was text in
	// that event, not the end of the log (see heading).
	cut *cutHeading
	// conflicts are the conflict markers not yet found quoted.
	conflicts []conflict
}

type cutHeading struct {
	start int    // offset of the heading line
	text  string // the heading's text
	event string // the event it cut, "" if it closed none
	level int    // the heading's level, 1 or 2
}

func (p *state) run(starts []int) {
	// Every event starts a chunk, so this never grows; cur can point
	// into the slice safely. A stream allocates events one by one.
	if p.each == nil {
		p.log.Events = make([]Event, 0, len(starts))
		if !p.headersOnly {
			// Room for the template's five fields of every event, in
			// one allocation: one per event was a fifth of a Parse's
			// allocations at 1k events.
			p.fieldChunk = make([]Field, 5*len(starts))
		}
	}
	if len(starts) < pipelineMin || runtime.GOMAXPROCS(0) < 2 || p.sequential {
		for i := 0; i < len(starts); {
			var blocks []block
			blocks, i = p.blocksAt(starts, i, p.scratch[:0], &p.mem)
			p.consume(blocks)
			p.scratch = blocks[:0]
			p.mem.reset()
		}
	} else {
		p.pipeline(starts)
	}
	p.closeEvent(len(p.src))
	p.reportConflicts()
	p.finish()
}

// pipelineMin is the number of chunks from which block recognition runs
// on its own goroutine, ahead of event extraction. Below it the
// goroutine costs more than it saves: at 1k events the pipeline took
// ~10% more CPU than the sequential loop (bench BenchmarkCost), for a
// wall-clock gain of a millisecond or two.
const pipelineMin = 2048

// batch carries the blocks of consecutive chunk groups from the
// recogniser goroutine to the event reader, in file order.
type batch struct {
	arena  []block
	mem    blockArena
	groups [][]block
}

// pipeline overlaps block recognition (pure: it reads only p.src) with
// event extraction, which must run in order. Batches are recycled so
// steady state allocates nothing for blocks.
func (p *state) pipeline(starts []int) {
	full := make(chan *batch, 2)
	free := make(chan *batch, 3)
	for range 3 {
		free <- &batch{arena: make([]block, 0, 8*256)}
	}
	go func() {
		defer close(full)
		for i := 0; i < len(starts); {
			b := <-free
			b.arena, b.groups = b.arena[:0], b.groups[:0]
			b.mem.reset()
			for n := 0; n < 256 && i < len(starts); n++ {
				var blocks []block
				tail := b.arena[len(b.arena):]
				blocks, i = p.blocksAt(starts, i, tail, &b.mem)
				if len(blocks) > 0 && len(blocks) <= cap(tail) && &blocks[0] == &tail[:1][0] {
					b.arena = b.arena[:len(b.arena)+len(blocks)] // stayed in the arena
				}
				b.groups = append(b.groups, blocks)
			}
			full <- b
		}
	}()
	for b := range full {
		for _, g := range b.groups {
			p.consume(g)
		}
		free <- b
	}
}

// blocksAt returns the blocks of the chunk group starting at starts[i]
// and the index of the next group. It appends into out when it can, and
// the blocks' lines and items may live in a until it is reset. It
// reads only p.src and p.headersOnly, so it may run on another
// goroutine than consume.
func (p *state) blocksAt(starts []int, i int, out []block, a *blockArena) ([]block, int) {
	end := len(p.src)
	if i+1 < len(starts) {
		end = starts[i+1]
	}
	if i > 0 && p.headersOnly && !hasOpener(p.src[starts[i]:end]) && !hidesHeading(p.src[starts[i]:end]) {
		if blocks, ok := fastBlocks(out, a, p.src, starts[i], lineEnd(p.src, starts[i])); ok {
			return blocks, i + 1
		}
	}
	if i > 0 {
		if blocks, ok := fastBlocks(out, a, p.src, starts[i], end); ok {
			return blocks, i + 1
		}
	}
	// A chunk is parsed alone. If it ends inside a fenced code or HTML
	// block the cut after it was wrong (the heading there is code), so
	// the chunk grows, doubling each time, until it ends cleanly: the
	// result equals a whole-file parse and stays linear even when an
	// unterminated fence swallows the rest.
	j, grow := i+1, 1
	var doc ast.Node
	for {
		end = len(p.src)
		if j < len(starts) {
			end = starts[j]
		}
		doc = blockParser().Parse(text.NewReader(p.src[starts[i]:end]))
		if j >= len(starts) || !endsOpen(doc, p.src[starts[i]:end]) {
			break
		}
		j = min(j+grow, len(starts))
		grow *= 2
	}
	blocks := goldmarkBlocks(doc, p.src, starts[i])
	if j >= len(starts) && endsOpen(doc, p.src[starts[i]:]) {
		// A fence or HTML block open at the end of the file is valid
		// CommonMark, but when it swallows event headings it is a
		// mistake that would hide them without a word.
		if at := max(doc.LastChild().Pos(), 0) + starts[i]; hidesEvents(p.src[at:]) {
			blocks = append(blocks, block{kind: bUnclosed, lines: []srcLine{{off: at, end: lineEnd(p.src, at)}}})
		}
	}
	return blocks, j
}
