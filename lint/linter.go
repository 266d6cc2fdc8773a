package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Input is one memory as read from disk by the caller.
type Input struct {
	// LogFile is the log's path as reported when the log is missing
	// (Log is nil); usually "CHANGELOG.md".
	LogFile string
	Log     *parse.Log // CHANGELOG.md as parsed; nil when missing
	Archive *parse.Log // the archive file as parsed; nil when none
	// Events are the archive's events, then the log's: the whole
	// history in file order.
	Events []parse.Event
	// ReadFile reads a file relative to the memory root. A missing file
	// gives an error satisfying errors.Is(err, fs.ErrNotExist).
	ReadFile func(rel string) ([]byte, error)
	// Exists reports whether a file or folder exists, relative to the
	// memory root.
	Exists func(rel string) bool
	// Git and Revisions feed the history rules (MS301-MS305): the
	// repository and the two versions of the log to compare. Without
	// Revisions those rules find nothing.
	Git       Git
	Revisions *Revisions
	// Summaries, when set with a Git that names blobs (BlobIDs), keeps
	// what the comparison learnt of each version of the log it parsed
	// (sideSummary), by its blob IDs: the next lint whose head extends
	// that version (the next commit's hook) need not read it again.
	Summaries Store
	// Derive makes a Session replay the events even when no drift rule
	// needs it, so Derived has the files for lint --fix.
	Derive bool
	// Restream hands the history to each again, for the rare replay
	// whose predicted supersessions (Session.Expect) were wrong. Check
	// sets it from Events; without it such a replay stays inexact.
	Restream func(each func(*parse.Event)) error
}

// Linter runs the registered rules with severities from a configuration.
type Linter struct {
	cfg config.Config
	sev map[string]diag.Severity
	// by is what set each rule's severity that is not its default:
	// config.FileName or "--rule" (RuleState.SetBy).
	by map[string]string
}

// New resolves the rule settings of cfg, then overrides (typically from
// the command line, which wins over the file). An unknown rule is an
// error naming where it was written.
func New(cfg config.Config, overrides ...config.RuleSetting) (*Linter, error) {
	l := &Linter{cfg: cfg, sev: map[string]diag.Severity{}, by: map[string]string{}}
	for _, r := range registry {
		l.sev[r.ID] = r.DefaultLevel()
	}
	// setIn is where the file set each rule: config checks a key
	// written twice, but not one rule written as its ID and its name
	// (or in two cases), where the later silently won.
	setIn := map[string]config.RuleSetting{}
	for i, s := range append(append([]config.RuleSetting(nil), cfg.Rules...), overrides...) {
		r := Lookup(s.Rule)
		if r == nil {
			// The advice names the command that lists the rules as
			// each front end names it: memsys_lint refuses a
			// .memsys.json with such a rule too, and no tool lists them.
			advice := front.Sprintf("unknown rule %q: use an ID or name that %s prints", words.Clip(s.Rule), front.ListRules.Word())
			msg := advice.String()
			if i < len(cfg.Rules) {
				// A config.Error, so the file is shown as every
				// configuration error's is (workspace.DisplayError).
				return nil, &config.Error{File: cfg.File, Line: s.Line, Msg: msg, MCP: advice.For(front.MCP)}
			}
			return nil, errors.New("--rule: " + msg)
		}
		if i < len(cfg.Rules) {
			// Two lines that agree read as the team meant: a config that
			// loaded before stays loading. Two that disagree are refused.
			if first, ok := setIn[r.ID]; ok && first.Severity != s.Severity {
				return nil, &config.Error{File: cfg.File, Line: s.Line, Msg: fmt.Sprintf("rule %q is %s, which line %d sets already as %q, to %s: keep one", s.Rule, r.ID, first.Line, first.Rule, first.Severity)}
			}
			setIn[r.ID] = s
			l.by[r.ID] = config.FileName
		} else {
			l.by[r.ID] = SetByFlag
		}
		l.sev[r.ID] = s.Severity
	}
	return l, nil
}

// CheckConfig reports the first rule setting of cfg that New refuses
// (an unknown rule, one rule set twice to different severities), in
// New's words, as a *config.Error naming the file and line. config
// parses the file without the registry, so this is the check every
// command runs after loading it: a configuration lint refuses is one
// no command reads in silence with the defaults instead.
func CheckConfig(cfg config.Config) error {
	_, err := New(cfg)
	return err
}

// Config returns the configuration the linter was built with.
func (l *Linter) Config() config.Config { return l.cfg }

// Severity is rule id's configured severity (Off when unknown), for
// findings made outside a rule's Run: the baseline file's MS208.
func (l *Linter) Severity(id string) diag.Severity { return l.sev[id] }

// ParseFindings returns the findings lint reports for problems, parse
// problems of the archive and the log that a command other than lint
// prints itself (regen's warnings): each under the rule that reports
// its kind (ProblemRule) at l's severity for it, none for a rule l
// turns off, so the command can say what lint says and apply the
// baseline lint applies (Baseline.Filter). A content rule's finding on
// a superseded event, which lint makes a note with a longer message,
// is not: that needs the history, which these commands do not judge.
func (l *Linter) ParseFindings(problems []parse.Problem) diag.Diagnostics {
	ds := make(diag.Diagnostics, 0, len(problems))
	for _, p := range problems {
		id, sev := ProblemRule(p.Kind), diag.Warning
		if id != "" {
			sev = l.sev[id]
		}
		if sev != diag.Off {
			ds = append(ds, diag.Diagnostic{Rule: id, Severity: sev, Range: p.Range, Event: p.Event, Message: p.Message, MCP: problemMCP(p)})
		}
	}
	return ds
}

// RenderOptions returns the options graph.md and context.md are rendered
// with under cfg. It is the one conversion from the configuration to
// materialize's options, so lint's drift check and regen render with the
// same numbers.
func RenderOptions(cfg config.Config) materialize.Options {
	return materialize.Options{
		ContextWords: cfg.ContextWords,
		WindowHours:  cfg.WindowHours,
		WindowEvents: cfg.WindowEvents,
		DecayP2Days:  cfg.DecayP2Days,
		DecayP3Days:  cfg.DecayP3Days,
	}
}

// Check runs every enabled rule over in and returns the findings sorted
// as every printer prints them. It is a Session fed with in.Events.
func (l *Linter) Check(in Input) diag.Diagnostics {
	ds, _ := l.check(in)
	return ds
}

// CheckReplay is Check that always replays the events (Input.Derive)
// and returns the replay too, with RenderOptions of the linter's
// configuration: a caller that needs both (memsys report) replays the
// history once, not once for the drift rules and once more for itself.
func (l *Linter) CheckReplay(in Input) (diag.Diagnostics, *materialize.Replayer) {
	in.Derive = true
	return l.check(in)
}

func (l *Linter) check(in Input) (diag.Diagnostics, *materialize.Replayer) {
	if in.Restream == nil {
		in.Restream = func(each func(*parse.Event)) error {
			for i := range in.Events {
				each(&in.Events[i])
			}
			return nil
		}
	}
	s := l.Start(in)
	s.Expect(materialize.Supersessions(in.Events))
	for i := range in.Events {
		s.Event(&in.Events[i])
	}
	ds := s.Finish(in.Log, in.Archive)
	return ds, s.sh.replayed
}

// CheckHistory runs only the rules that read git (Rule.Git) over in,
// for the audit, which walks many pairs of versions and has no working
// tree to lint. Severities apply as in Check.
func (l *Linter) CheckHistory(in Input) (diag.Diagnostics, error) {
	s := &Session{l: l, in: &in, sh: &shared{in: &in, cfg: l.cfg}}
	s.judgeHistory(false)
	s.ds.Sort()
	return s.ds, s.sh.err
}

// WithHistory completes ds, the findings of a lint of in's files
// without revisions (in.Git and in.Revisions nil, as the lint cache
// judges them), into what a Session over in finds: the findings of the
// rules that read git, and ds's findings on events the base already
// has marked (MarkBaseline). Only the git rules read revisions and
// only MarkBaseline changes another rule's finding, so the files can
// be judged apart and the result is the same (lint --staged and
// --base through the cache). ds is not modified.
func (l *Linter) WithHistory(in Input, ds diag.Diagnostics) (diag.Diagnostics, error) {
	if in.ReadFile == nil {
		in.ReadFile = func(string) ([]byte, error) { return nil, fs.ErrNotExist }
	}
	s := &Session{l: l, in: &in, sh: &shared{in: &in, cfg: l.cfg}, ds: slices.Clone(ds)}
	s.judgeHistory(true)
	s.ds.Sort()
	return s.ds, s.sh.err
}
