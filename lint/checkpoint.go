package lint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/snapshot"
	"github.com/memsys/memsys/materialize"
)

// sessionState is everything a Session carries from one event to the
// next: each visiting rule's State, the index of IDs and the counts the
// rules share, the findings so far and the drift rules' replay. The
// lint cache stores it after the last event of a log and resumes from
// it when the log has only grown, so linting the rest gives exactly the
// findings a run from the first event would (TestSplitSession).
type sessionState struct {
	Rules     []string // the visiting rules, in order
	States    [][]byte // their State, encoded
	Findings  diag.Diagnostics
	First     firstIndex
	Count     int
	LogEvents int
	Last      string
	Replayed  bool // the Session replayed (drift rules, Derive); its state is the tail
}

// Checkpoint drains the Session and encodes its state after the events
// seen so far, for Linter.Resume: WriteCheckpoint's bytes.
func (s *Session) Checkpoint() ([]byte, error) {
	var b bytes.Buffer
	if err := s.WriteCheckpoint(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteCheckpoint drains the Session and writes its state after the
// events seen so far to w, for Linter.Resume. Call it after the last
// event and before Finish; no Event may follow it (Finish may). It
// fails before writing anything, and the caller then lints cold next
// time, when a visiting rule declares no State (nothing may be lost
// silently), when the history has a Supersedes field (the replay
// cannot be resumed: a later event can undo an earlier one, see
// materialize.Replayer.MarshalBinary), or when a rule could not judge
// the memory. The replay state, most of the bytes, is streamed
// (materialize.Replayer.EncodeTo) after the rest.
func (s *Session) WriteCheckpoint(w io.Writer) error {
	s.drain()
	if s.sh.err != nil {
		return s.sh.err
	}
	if len(s.sh.sups) > 0 {
		return errors.New("lint checkpoint: a history with Supersedes fields is not cached")
	}
	st := sessionState{Findings: s.ds, First: s.sh.first, Count: s.sh.count, LogEvents: s.sh.logEvents, Last: s.sh.last}
	for _, v := range s.visitors {
		if v.v.State == nil {
			return fmt.Errorf("lint checkpoint: rule %s declares no Visitor State", v.p.Rule.ID)
		}
		b, err := snapshot.Encode(v.v.State)
		if err != nil {
			return fmt.Errorf("lint checkpoint: rule %s: %w", v.p.Rule.ID, err)
		}
		st.Rules = append(st.Rules, v.p.Rule.ID)
		st.States = append(st.States, b)
	}
	if s.replay != nil {
		if err := s.replay.Saveable(); err != nil {
			return err
		}
		st.Replayed = true
	}
	// The replay state is the tail (snapshot.EncodeTail's layout):
	// Resume decodes it where it lies instead of copying it out of a
	// field first.
	head, err := snapshot.Encode(&st)
	if err != nil {
		return err
	}
	if _, err := w.Write(binary.AppendUvarint(nil, uint64(len(head)))); err != nil {
		return err
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	if s.replay == nil {
		return nil
	}
	return s.replay.EncodeTo(w)
}

// Resume starts a Session over in that continues from a Checkpoint of
// a Session of the same Linter (the same build, configuration and rule
// settings: the caller keys the bytes by them). data must not change
// afterwards: the restored state shares its memory. Its visitors are made
// afresh by each rule's Visit and each State is restored in place, so
// their functions see it. Pass the events after the checkpoint to
// Event, then call Finish with the whole logs as parsed. It fails when
// data does not decode or does not fit this Linter and input (another
// set of rules, a replay where none is needed now or the reverse).
func (l *Linter) Resume(in Input, data []byte) (*Session, error) {
	var st sessionState
	replay, err := snapshot.DecodeTail(data, &st)
	if err != nil {
		return nil, fmt.Errorf("lint checkpoint: %w", err)
	}
	s := l.Start(in)
	fail := func(err error) (*Session, error) {
		s.drain()
		return nil, fmt.Errorf("lint checkpoint: %w", err)
	}
	if len(st.Rules) != len(s.visitors) || len(st.States) != len(st.Rules) {
		return fail(errors.New("the visiting rules differ"))
	}
	for i, v := range s.visitors {
		if v.p.Rule.ID != st.Rules[i] {
			return fail(errors.New("the visiting rules differ"))
		}
		if v.v.State == nil {
			return fail(fmt.Errorf("rule %s declares no Visitor State", v.p.Rule.ID))
		}
		if err := snapshot.Decode(st.States[i], v.v.State); err != nil {
			return fail(fmt.Errorf("rule %s: %w", v.p.Rule.ID, err))
		}
	}
	if st.Replayed != (s.replay != nil) {
		return fail(errors.New("the replay differs"))
	}
	if st.Replayed {
		x, err := materialize.UnmarshalReplayer(replay)
		if err != nil {
			return fail(err)
		}
		s.replay = x
		s.replayEvent, s.hashEvent = x.Split()
	}
	s.ds = st.Findings
	s.sh.first, s.sh.count, s.sh.logEvents, s.sh.last = st.First, st.Count, st.LogEvents, st.Last
	s.sh.pos = st.Count
	return s, nil
}
