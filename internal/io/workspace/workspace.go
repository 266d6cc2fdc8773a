package workspace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/parse"
)

// Names of the memory files, relative to the memory root (the seed's
// "Deployed Structure").
// They are parse's names (the format's owner), here under the names the
// file-handling code has always used.
const (
	LogName     = parse.LogFile
	MemoryDir   = parse.MemoryDir
	GraphName   = parse.GraphName
	ContextName = parse.ContextName
	TodoName    = parse.TodoFile
	AgentsName  = parse.AgentsFile
	GraphPath   = parse.GraphFile
	ContextPath = parse.ContextFile
)

// ArchiveNames are the archive files memsys reads (parse.ArchiveFiles).
var ArchiveNames = parse.ArchiveFiles

// Limits on what memsys reads. Past them it refuses with a clear error
// rather than exhaust memory: a log this large should be archived.
const (
	MaxFileSize   = 512 << 20           // bytes per file (a 1M-event log is ~320 MB)
	MaxEvents     = 2_000_000           // events in log and archive together
	MaxLineLength = parse.MaxLineLength // bytes per line; the parser stops at a longer one
)

// Tier is the deployment tier of the seed's Tiers table (parse.Tier).
type Tier = parse.Tier

// The tiers.
const (
	MVP  = parse.MVP
	Core = parse.Core
	Full = parse.Full
)

// DetectTier reads root's tier from its files alone: declared in
// AGENTS.md, else from which files exist (parse.DetectTier). A command
// wants TierAt, which puts .memsys.json's tier first.
func DetectTier(root string) Tier { return TierAt(root, "") }

// TierAt is root's tier as every command reads it (parse.TierOf over
// the working tree): configured (.memsys.json's "tier", "" for none),
// else declared in AGENTS.md, else from which files exist.
func TierAt(root, configured string) Tier {
	return parse.TierOf(configured, func(rel string) bool {
		_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil
	}, func() []byte {
		agents, _ := ReadFile(root, parse.AgentsFile)
		return agents
	})
}

// Memory is everything read from one memory root.
type Memory struct {
	Root        string
	Log         *parse.Log // CHANGELOG.md; never nil after a successful Load
	Archive     *parse.Log // the archive file, nil if there is none
	ArchivePath string     // its name relative to Root, "" if none
	// Events holds the archive's events first, then the log's: the whole
	// history in order. Without archived events it shares its elements
	// with Log.Events.
	Events []parse.Event
	Tier   Tier
	// LogBytes and ArchiveBytes are the files as read. LogBytes is nil
	// after a replay resumed from the history cache, which reads only
	// the bytes appended since.
	LogBytes, ArchiveBytes []byte
}

// FindRoot returns the memory root. With explicit (the -C flag) it is dir
// itself. Otherwise memsys walks up from dir to the nearest folder whose
// CHANGELOG.md has an event log section, stopping at the repository root
// (the first folder holding .git); if none has one, the nearest folder
// with a CHANGELOG.md at all, so lint can say what is wrong with it; and
// if there is none at all, dir itself.
func FindRoot(dir string, explicit bool) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if explicit {
		fi, err := os.Stat(abs)
		if err != nil {
			return "", fmt.Errorf("-C %s: %w", words.ClipPath(dir), errors.Unwrap(err))
		}
		if !fi.IsDir() {
			return "", fmt.Errorf("-C %s: not a directory", words.ClipPath(dir))
		}
		return abs, nil
	}
	first := ""
	for d := abs; ; {
		p := filepath.Join(d, LogName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			if first == "" {
				first = d
			}
			if hasEventLog(p) {
				return d, nil
			}
		}
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if first != "" {
		return first, nil
	}
	// No log anywhere: the start folder is the root, so lint can report
	// the missing log (MS101) and other commands say to run init.
	return abs, nil
}

// hasEventLog is a cheap check for the section heading; Load does the
// real parse. It streams the file and stops at the first match, which
// sits near the top of any log, so finding the root costs the same for
// 10 events as for a million: it never reads a whole log. A line
// longer than MaxLineLength ends the search, as it ends the parser.
func hasEventLog(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), MaxLineLength)
	for sc.Scan() {
		if isEventLogHeading(sc.Bytes()) {
			return true
		}
	}
	return false
}

// isEventLogHeading reports whether line names the event log section.
func isEventLogHeading(line []byte) bool {
	l := bytes.TrimSpace(bytes.TrimLeft(line, "#"))
	return len(l) > 0 && (bytes.EqualFold(l, []byte("event log")) || bytes.EqualFold(l, []byte("events")))
}

// Load reads and parses the log and the archive of root. Errors are one
// line naming the file, what is wrong and what to do.
func Load(root string) (*Memory, error) {
	m, err := read(root)
	if err != nil {
		return nil, err
	}
	m.Log = parse.Parse(LogName, m.LogBytes)
	if m.ArchivePath != "" {
		m.Archive = parse.Parse(m.ArchivePath, m.ArchiveBytes, parse.Archive())
	}
	n := len(m.Log.Events)
	if m.Archive != nil {
		n += len(m.Archive.Events)
	}
	if err := CheckCount(n); err != nil {
		return nil, err
	}
	if m.Archive == nil || len(m.Archive.Events) == 0 {
		// The history is the log's events: share them rather than copy
		// 370 bytes an event. Three-index slice: an append to Events
		// must not write into Log.Events.
		m.Events = m.Log.Events[:len(m.Log.Events):len(m.Log.Events)]
		return m, nil
	}
	m.Events = make([]parse.Event, 0, n)
	m.Events = append(m.Events, m.Archive.Events...)
	m.Events = append(m.Events, m.Log.Events...)
	return m, nil
}

// Stream reads root like Load but hands the history to each one event
// at a time, archive first, as the parser completes them, and keeps
// none: Memory.Events stays nil and the logs hold only their problems.
// Commands that fold the history (regen) use it so their memory does
// not grow with the number of events. Both files are read before the
// first event is handed over, so an unreadable archive stops the
// command before any work. opts go to the parser (parse.HeadersOnly
// for a command that needs only the headings).
func Stream(root string, each func(*parse.Event), opts ...parse.Option) (*Memory, error) {
	return StreamWith(root, nil, each, opts...)
}

// StreamWith is Stream, calling before (when not nil) once both files
// are read and before the first event: a replay learns there which
// events will be superseded (Memory.Supersessions).
func StreamWith(root string, before func(*Memory), each func(*parse.Event), opts ...parse.Option) (*Memory, error) {
	m, err := read(root)
	if err != nil {
		return nil, err
	}
	if before != nil {
		before(m)
	}
	if err := m.Stream(each, opts...); err != nil {
		return nil, err
	}
	return m, nil
}

// Stream parses the bytes of a Memory from Read as the function Stream
// does, setting Log and Archive.
func (m *Memory) Stream(each func(*parse.Event), opts ...parse.Option) error {
	n := 0
	count := func(e *parse.Event) {
		n++
		each(e)
	}
	if m.ArchivePath != "" {
		m.Archive = parse.Stream(m.ArchivePath, m.ArchiveBytes, count, append(opts, parse.Archive())...)
	}
	m.Log = parse.Stream(LogName, m.LogBytes, count, opts...)
	return CheckCount(n)
}

// Read reads the log and the archive of root like Load, without
// parsing them: Log and Archive are nil. The history cache reads the
// bytes first to decide how much of them to parse.
func Read(root string) (*Memory, error) { return read(root) }

// ReadArchive is Read without the log: LogBytes stays nil. The history
// cache reads the log itself, only past what it has seen.
func ReadArchive(root string) (*Memory, error) {
	m := &Memory{Root: root, Tier: DetectTier(root)}
	return m, m.readArchive()
}

// Supersessions predicts the Supersedes fields of the history from the
// bytes read, archive first (parse.ScanSupersedes; a replay checks the
// prediction against the events).
func (m *Memory) Supersessions() []parse.Supersession {
	var out []parse.Supersession
	if m.ArchivePath != "" {
		out = parse.ScanSupersedes(m.ArchivePath, m.ArchiveBytes)
	}
	return append(out, parse.ScanSupersedes(LogName, m.LogBytes)...)
}

// ReadOpen is Read of the log and the archive a caller holds open (an
// append, under the lock): the bytes of those very files, up to their
// Size. arch is nil when there is no archive; archPath names it.
func ReadOpen(root string, log *File, archPath string, arch *File) (*Memory, error) {
	m := &Memory{Root: root, Tier: DetectTier(root), ArchivePath: archPath}
	reserveForHistory(root)
	var err error
	if m.LogBytes, err = log.ReadAll(); err != nil {
		return nil, err
	}
	if arch != nil {
		if m.ArchiveBytes, err = arch.ReadAll(); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// read reads the log and the archive of root, without parsing them.
func read(root string) (*Memory, error) {
	m := &Memory{Root: root, Tier: DetectTier(root)}
	reserveForHistory(root)
	src, err := ReadFile(root, LogName)
	if err != nil {
		return nil, err
	}
	m.LogBytes = src
	return m, m.readArchive()
}

func (m *Memory) readArchive() error {
	name := archiveName(m.Root)
	if name == "" {
		return nil
	}
	asrc, err := ReadFile(m.Root, name)
	if err != nil {
		return err
	}
	m.ArchiveBytes, m.ArchivePath = asrc, name
	return nil
}

// archiveName is the archive Load reads: the first of ArchiveNames
// that exists, even as a broken link (which Load then refuses), or "".
func archiveName(root string) string {
	for _, name := range ArchiveNames {
		if _, err := os.Lstat(filepath.Join(root, name)); err == nil {
			return name
		}
	}
	return ""
}

// OpenArchive opens the archive Load would read, with Load's errors;
// f is nil and name "" when there is none. A reader at offsets of the
// archive Load parses, for a command that reads part of the history.
func OpenArchive(root string) (f *File, name string, err error) {
	name = archiveName(root)
	if name == "" {
		return nil, "", nil
	}
	if f, err = Open(root, name); err != nil {
		return nil, "", err
	}
	return f, name, nil
}

// CheckCount refuses a history of n events over MaxEvents.
func CheckCount(n int) error {
	if n > MaxEvents {
		return front.Errorf("%s: %d events, over the limit of %d: archive older events (%s) or split the log", LogName, n, MaxEvents, front.Archive.Word())
	}
	return nil
}

// Unread returns an error when the log or the archive was saved as
// UTF-16 (Windows "Unicode", PowerShell 5's Out-File): the parser read
// nothing from it, and lint reports it (MS121). A command that answers
// from the events or writes from them must refuse, as for an Incomplete
// history, or it would show an empty history or write derived files
// from none.
func (m *Memory) Unread() error {
	for _, f := range []struct {
		name string
		l    *parse.Log
		src  []byte
	}{{m.ArchivePath, m.Archive, m.ArchiveBytes}, {LogName, m.Log, m.LogBytes}} {
		if (f.l != nil && f.l.UTF16()) || parse.HasUTF16BOM(f.src) {
			return fmt.Errorf("%s is UTF-16, which memsys does not read: re-save it as UTF-8, then run this again", f.name)
		}
	}
	return nil
}

// Incomplete returns an error when the parser had to stop before the end
// of the log or the archive (a line over MaxLineLength), and nil
// otherwise. Lint reports such a line as a finding (MS120); a command
// that writes from the events (regen, init, append) must refuse instead,
// or it would write files from a history cut short.
func (m *Memory) Incomplete() error {
	for _, l := range []*parse.Log{m.Archive, m.Log} {
		if l == nil {
			continue
		}
		for _, p := range l.Problems {
			if p.Kind == parse.KindLineLength {
				return fmt.Errorf("%s: %s", p.Range, p.Message)
			}
		}
	}
	return nil
}

// ReadFile reads rel inside root within the limits: a regular file (or
// a symlink that stays inside root), at most MaxFileSize bytes.
func ReadFile(root, rel string) ([]byte, error) {
	p, err := checked(root, rel)
	if err != nil {
		return nil, err
	}
	observeRead(p)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read: %v: check its permissions", rel, errors.Unwrap(err))
	}
	return b, nil
}

// checked resolves rel inside root and checks it is a regular file
// within the size limit; the errors are ReadFile's.
func checked(root, rel string) (string, error) {
	p, err := Resolve(root, rel)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if rel == LogName {
			return "", MissingLog(root)
		}
		return "", fmt.Errorf("%s: no such file%w", rel, silent{fs.ErrNotExist})
	case errors.Is(err, syscall.ENOTDIR):
		if e := folderIsFile(root, rel); e != nil {
			return "", fmt.Errorf("%s: %w", rel, e)
		}
		return "", fmt.Errorf("%s: %v", rel, errors.Unwrap(err))
	case err != nil:
		return "", fmt.Errorf("%s: %v", rel, errors.Unwrap(err))
	case fi.IsDir() && initDeploys(rel):
		return "", front.Errorf("%s: is a directory, not a file: move it away and run %s", rel, front.Init.Word())
	case fi.IsDir():
		return "", fmt.Errorf("%s: is a directory, not a file: move it away", rel)
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s: not a regular file (%s): replace it with a regular file", rel, kind(fi.Mode()))
	case fi.Size() > MaxFileSize && isDerived(rel):
		return "", derivedTooLarge(rel, fi.Size())
	case fi.Size() > MaxFileSize && rel != LogName:
		// Archiving shrinks the log and nothing else (it grows the
		// archive).
		return "", fmt.Errorf("%s: %d bytes, over the %d MiB limit: memsys does not read a file this large; shorten it or move it away", rel, fi.Size(), MaxFileSize>>20)
	case fi.Size() > MaxFileSize:
		return "", front.Errorf("%s: %d bytes, over the %d MiB limit: archive older events (%s)", rel, fi.Size(), MaxFileSize>>20, front.Archive.Word())
	}
	return p, nil
}

// isDerived reports whether rel is a file memsys regen writes.
func isDerived(rel string) bool {
	return rel == parse.GraphFile || rel == parse.ContextFile
}

// derivedTooLarge is the error for the derived file rel (shown as
// where, which may name the revision) over MaxFileSize: no replay
// renders one that large, so it is not what memsys wrote, and regen,
// which reads it first for rows kept by hand, stops on it too. Moving
// it away lets regen write it afresh; "archive older events" (the log's
// advice) would not shrink it.
func derivedTooLarge(where string, size int64) error {
	return front.Errorf("%s: %d bytes, over the %d MiB limit: it is not what memsys writes: move it away and run %s", where, size, MaxFileSize>>20, front.Regen.Word())
}

// kind names what a file that is not a regular file or a folder is, for
// the one line that refuses it: reading a named pipe would wait for a
// writer forever, so memsys never opens one.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "a special file"
}

// Resolve returns the path of rel inside root, refusing any path whose
// existing components include a symlink that leads outside root (the
// file itself, or .memory). A hostile repository cannot make memsys read
// or write through a link to elsewhere.
func Resolve(root, rel string) (string, error) {
	if filepath.IsAbs(rel) || strings.HasPrefix(filepath.Clean(filepath.FromSlash(rel)), "..") {
		return "", fmt.Errorf("%s: outside the memory root", rel)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("%s: %v", root, errors.Unwrap(err))
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	// Walk down the components that exist and check where links lead.
	cur := realRoot
	for _, part := range strings.Split(filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel))), "/") {
		next := filepath.Join(cur, part)
		fi, err := os.Lstat(next)
		if err != nil {
			break // the rest does not exist yet
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(next)
			if err != nil {
				return "", fmt.Errorf("%s: broken symlink: remove it or point it inside the repository", rel)
			}
			if !within(realRoot, target) {
				return "", fmt.Errorf("%s: symlink to %s, outside the memory root: memsys refuses to follow it; replace it with a regular file", rel, target)
			}
			next = target
		}
		cur = next
	}
	return p, nil
}

func within(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// silent wraps an error so errors.Is sees it while the message, already
// written in full, does not repeat it.
// MissingLog is the error of every command run where root has no
// CHANGELOG.md: there is no memory to read, so the command cannot run
// (exit 2). lint says it too, whatever MS101's severity: a missing log
// used to be an MS101 finding, which .memsys.json could turn off, and
// lint then passed where there was no memory at all.
func MissingLog(root string) error {
	return front.Errorf("%s: no such file in %s: run %s to create the memory, or %s%w", LogName, root, front.Init.Word(), otherRoot, silent{fs.ErrNotExist})
}

// otherRoot is the advice for a folder that holds no memory: on the
// command line, name the memory's folder; over MCP, serve it (the
// server's root is fixed when it starts).
var otherRoot = front.Word{CLI: "pass -C DIR", MCP: "start the server in the memory's folder (" + front.CLICommand("memsys mcp -C DIR") + ")"}

type silent struct{ err error }

func (s silent) Error() string { return "" }
func (s silent) Unwrap() error { return s.err }

// Lstat reports on rel inside root without following a final symlink:
// nil when something is there, an error satisfying
// errors.Is(err, fs.ErrNotExist) when nothing is.
func Lstat(root, rel string) error {
	_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	return err
}

// Stat reports on rel inside root, following symlinks: nil when a file
// or folder is there.
func Stat(root, rel string) error {
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	return err
}

// folderIsFile is the error for rel when a folder on its path inside
// root is a file (".memory is a file: move it away"), nil when none is:
// the one wording for a .memory that is no folder, whether memsys
// reads the file (status, lint, regen --check, adopt) or writes it
// (regen, init, lint --fix), so the commands never disagree.
func folderIsFile(root, rel string) error {
	for d := filepath.Dir(filepath.FromSlash(rel)); d != "." && d != string(filepath.Separator); d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(root, d)); err == nil && !fi.IsDir() {
			return fmt.Errorf("%s is a file: move it away", filepath.ToSlash(d))
		}
	}
	return nil
}

// initDeploys reports whether memsys init writes rel, so "run memsys
// init" can follow "move it away"; for the archive or the baseline it
// would do nothing.
func initDeploys(rel string) bool {
	switch rel {
	case LogName, parse.GraphFile, parse.ContextFile, parse.TodoFile, parse.AgentsFile:
		return true
	}
	return false
}
