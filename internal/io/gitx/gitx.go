package gitx

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/memsys/memsys/internal/base/words"
)

// MissingError says a revision could not be resolved. Shallow is true
// when the repository is a shallow clone, where the commit most likely
// exists upstream but was not fetched.
type MissingError struct {
	Rev     string
	Shallow bool
	// Empty is true when the repository has no commit at all: no
	// revision can be found, and fetching one is not the fix.
	Empty bool
	// Unborn is the branch HEAD is on when it has no commits yet (git
	// checkout --orphan, or git init) in a repository that has some:
	// HEAD names nothing yet, but other revisions may.
	Unborn string
	// Between holds the two commits when the revision missing is their
	// merge base (MergeBase): they share no history this clone has.
	Between [2]string
}

func (e *MissingError) Error() string {
	// A revision is quoted twice (the name and the fetch): clipped to a
	// path's length, a real branch name stays whole and a pasted file
	// stays one line.
	rev := words.ClipPath(e.Rev)
	var fix string
	switch expr := strings.ContainsAny(e.Rev, "~^:") || strings.Contains(e.Rev, "@{"); {
	case e.Empty:
		// The commands that know their next step say it (NoCommits);
		// this is the line for any other.
		return (&NoCommitsError{Why: fmt.Sprintf("there is no %q", rev), Next: "the command again"}).Error()
	case e.Unborn != "" && (e.Rev == "HEAD" || e.Rev == "@" || e.Rev == e.Unborn):
		return fmt.Sprintf("HEAD is branch %q, which has no commits yet, so there is no %q: commit on it first (git add -A && git commit), or name a revision that has commits", e.Unborn, rev)
	case e.Between[0] != "" && e.Shallow:
		return fmt.Sprintf("this is a shallow clone without the common history of %s and %s: run git fetch --unshallow (or, in GitHub Actions, set fetch-depth: 0 on actions/checkout)", short(e.Between[0]), short(e.Between[1]))
	case e.Between[0] != "":
		return fmt.Sprintf("%s and %s share no history (git merge-base finds no common commit): name revisions that grew from a common commit", short(e.Between[0]), short(e.Between[1]))
	case expr && e.Shallow:
		// A remote has no ref named HEAD~1: only more history helps.
		fix = fmt.Sprintf("this is a shallow clone without the history %s needs: run git fetch --unshallow (or, in GitHub Actions, set fetch-depth: 0 on actions/checkout)", rev)
	case expr:
		fix = "check the name: git log --oneline lists the commits there are"
	case e.Shallow:
		fix = fmt.Sprintf("this is a shallow clone: run git fetch --depth=1 origin %s (or, in GitHub Actions, set fetch-depth: 0 on actions/checkout)", fetchArg(rev))
	default:
		fix = fmt.Sprintf("check the name, or fetch it: git fetch origin %s", fetchArg(rev))
	}
	return fmt.Sprintf("git revision %q is not in this repository: %s", rev, fix)
}

// NoCommitsError is a command that needs a commit, run in a repository
// with none yet: no revision names anything, and fetching is not the
// fix. collisions, lint --base, renumber --onto and audit --since all
// say it in this one line, each with its own Why and Next.
type NoCommitsError struct {
	Why  string // what the command lacks: "there are no branches to compare"
	Next string // the command to run once the memory is committed
}

func (e *NoCommitsError) Error() string {
	return fmt.Sprintf("this repository has no commits yet, so %s: commit the memory first (git add -A && git commit), then run %s", e.Why, e.Next)
}

// NoCommits is err as a *NoCommitsError with why and next when err is a
// *MissingError of a repository with no commit (Empty), else err as it
// is: a caller resolving a revision passes its words through it.
func NoCommits(err error, why, next string) error {
	var me *MissingError
	if errors.As(err, &me) && me.Empty {
		return &NoCommitsError{Why: why, Next: next}
	}
	return err
}

// short is a commit ID as a message names it: its first 12 digits.
func short(commit string) string { return commit[:min(12, len(commit))] }

// fetchArg turns origin/main into main, the name a fetch from origin
// takes.
func fetchArg(rev string) string {
	return strings.TrimPrefix(rev, "origin/")
}

// CheckRev refuses a revision git could take as an option or that
// cannot be a single revision argument. It is applied to every
// user-supplied revision before git sees it.
func CheckRev(rev string) error {
	switch {
	case rev == "":
		return errors.New("empty git revision")
	case strings.HasPrefix(rev, "-"):
		return fmt.Errorf("git revision %q starts with \"-\": memsys never passes it to git as an option; name a commit, branch or tag", rev)
	case strings.ContainsAny(rev, "\x00\n\r"):
		return fmt.Errorf("git revision %q holds a control character", rev)
	}
	return nil
}

// NullID reports whether rev is git's null object ID (40 or 64 zeros),
// which names no commit: GitHub hands it as github.event.before on the
// push that creates a branch, and fetching it cannot help.
func NullID(rev string) bool {
	return (len(rev) == 40 || len(rev) == 64) && strings.Trim(rev, "0") == ""
}

// Git is a Repo backed by the git binary, run in Dir.
type Git struct {
	Dir string // any folder inside the work tree
	// Env is added to the environment of every git call.
	Env []string
}

// Open returns a Git for the repository around dir, or an error when dir
// is not inside a git work tree.
func Open(ctx context.Context, dir string) (*Git, error) {
	g := &Git{Dir: dir}
	if _, err := g.Run(ctx, "rev-parse", "--git-dir"); err != nil {
		return nil, NotARepo(dir, err)
	}
	return g, nil
}

// NotARepo is the error for dir outside any git work tree, given the
// failed git call that found it out. git's own line ("fatal: not a git
// repository (or any of the parent directories): .git") says nothing
// more; any other failure, such as a repository git refuses to use
// (another user's, without safe.directory), keeps git's words.
func NotARepo(dir string, err error) error {
	var ge *Error
	if errors.As(err, &ge) && strings.Contains(ge.Stderr, "not a git repository") {
		return fmt.Errorf("%s is not in a git repository: run memsys inside a git clone (git init makes one)", dir)
	}
	return fmt.Errorf("%s is not in a git repository: %w", dir, err)
}

// Error is a failed git call: its arguments and what git printed.
type Error struct {
	Args   []string
	Stderr string
	Err    error
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", e.Args[0], msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Ran reports whether git ran and failed, rather than could not start
// (not installed, not on PATH).
func (e *Error) Ran() bool {
	var ee *exec.ExitError
	return errors.As(e.Err, &ee)
}

// Line runs git with args and returns the first line of its output,
// for the rev-parse queries that answer with one path.
func (g *Git) Line(ctx context.Context, args ...string) (string, error) {
	out, err := g.Run(ctx, args...)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSuffix(line, "\r"), nil
}

func (g *Git) cmd(ctx context.Context, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, "git", args...)
	c.Dir = g.Dir
	// LC_ALL=C keeps git's messages stable; no pager, no prompts.
	c.Env = append(os.Environ(), "LC_ALL=C", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0")
	c.Env = append(c.Env, g.Env...)
	return c
}

// Run runs git with args and returns its standard output. The
// arguments are fixed by the caller; values from users must follow
// --end-of-options or --.
func (g *Git) Run(ctx context.Context, args ...string) ([]byte, error) {
	return g.RunInput(ctx, nil, args...)
}

// RunInput is Run with stdin as git's standard input (fast-import,
// hash-object --stdin); nil reads nothing.
func (g *Git) RunInput(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	c := g.cmd(ctx, args...)
	c.Stdin = stdin
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		return out.Bytes(), &Error{Args: args, Stderr: errb.String(), Err: err}
	}
	return out.Bytes(), nil
}

// Prefix returns the path of Dir relative to the top level, ending in
// "/" unless empty, so a memory root in a subfolder reads the right
// blobs.
func (g *Git) Prefix(ctx context.Context) (string, error) {
	out, err := g.Run(ctx, "rev-parse", "--show-prefix")
	return strings.TrimSpace(string(out)), err
}

// InGitDir reports whether Dir is inside a git directory: a bare
// repository, or the .git folder of a checkout. False outside any
// repository, or when git cannot run.
func (g *Git) InGitDir(ctx context.Context) bool {
	out, err := g.Run(ctx, "rev-parse", "--is-inside-git-dir")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// Shallow reports whether the repository is a shallow clone.
func (g *Git) Shallow(ctx context.Context) bool {
	out, err := g.Run(ctx, "rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// Resolve returns the full commit ID rev names. A commit missing from
// the object store (a shallow clone) gives a *MissingError.
func (g *Git) Resolve(rev string) (string, error) {
	return g.ResolveContext(context.Background(), rev)
}

// ResolveContext is Resolve with a context.
func (g *Git) ResolveContext(ctx context.Context, rev string) (string, error) {
	if err := CheckRev(rev); err != nil {
		return "", err
	}
	out, err := g.Run(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) && ge.Stderr == "" {
			me := &MissingError{Rev: rev, Shallow: g.Shallow(ctx)}
			if _, headErr := g.Run(ctx, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); headErr != nil {
				// HEAD names no commit: the repository has none, or
				// HEAD is on a branch that has none yet while others
				// have (git checkout --orphan), where fetching or
				// naming another revision still helps.
				if g.hasRefs(ctx) {
					me.Unborn = g.headBranch(ctx)
				} else {
					me.Empty = true
				}
			}
			return "", me
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// hasRefs reports whether the repository has a ref (a branch, a
// remote-tracking branch, a tag): then it has commits.
func (g *Git) hasRefs(ctx context.Context) bool {
	out, err := g.Run(ctx, "for-each-ref", "--count=1", "--format=%(refname)")
	return err == nil && len(bytes.TrimSpace(out)) > 0
}

// headBranch is the short name of the branch HEAD is on, "HEAD" when
// git cannot say (a detached HEAD names a commit, so is never unborn).
func (g *Git) headBranch(ctx context.Context) string {
	out, err := g.Run(ctx, "symbolic-ref", "--quiet", "--short", "HEAD")
	if b := strings.TrimSpace(string(out)); err == nil && b != "" {
		return b
	}
	return "HEAD"
}

// ReadFile returns path (from the top level) as of commit with one git
// cat-file call; ok is false when path does not exist there.
func (g *Git) ReadFile(commit, path string) ([]byte, bool, error) {
	return g.readObject(commit + ":" + path)
}

// ReadStaged returns stage 0 of path in the index; ok is false when it
// is not staged.
func (g *Git) ReadStaged(path string) ([]byte, bool, error) {
	return g.readObject(":0:" + path)
}

func (g *Git) readObject(spec string) ([]byte, bool, error) {
	ctx := context.Background()
	if _, err := g.Run(ctx, "cat-file", "-e", spec); err != nil {
		var ge *Error
		if errors.As(err, &ge) {
			return nil, false, nil
		}
		return nil, false, err
	}
	out, err := g.Run(ctx, "cat-file", "blob", spec)
	if err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// HasHead reports whether HEAD names a commit (false in a new
// repository before its first commit).
func (g *Git) HasHead() (bool, error) {
	_, ok, err := g.Head()
	return ok, err
}

// Head returns the commit ID HEAD names; ok is false in a new
// repository before its first commit.
func (g *Git) Head() (id string, ok bool, err error) {
	out, err := g.Run(context.Background(), "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) && ge.Stderr == "" {
			return "", false, nil
		}
		return "", false, err
	}
	return strings.TrimSpace(string(out)), true, nil
}

// Batch streams objects through one long-running
// `git cat-file --batch-command` process, so reading thousands of blobs
// costs one process rather than thousands (audit).
type Batch struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   *bufio.Writer
	inc  io.Closer
	outc io.Closer
	out  *bufio.Reader
	errb bytes.Buffer
}

// NewBatch starts the batch process.
func (g *Git) NewBatch(ctx context.Context) (*Batch, error) {
	// --buffer: git writes replies in large blocks, not one write per
	// object; every request list therefore ends with "flush".
	c := g.cmd(ctx, "cat-file", "--batch-command", "--buffer")
	b := &Batch{cmd: c}
	c.Stderr = &b.errb
	w, err := c.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, err := c.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("start git cat-file: %w", err)
	}
	if f, ok := r.(*os.File); ok {
		// audit streams hundreds of megabytes through this pipe. A
		// larger pipe (Linux) lets git write ahead in bigger blocks, and
		// a blocking read (Fd sets it) sleeps in the kernel instead of
		// parking in the runtime's poller: together about a sixth less
		// CPU per megabyte than the default 64 KB non-blocking pipe.
		growPipe(f)
		f.Fd()
	}
	b.in, b.inc, b.outc, b.out = bufio.NewWriter(w), w, r, bufio.NewReaderSize(r, 1<<16)
	return b, nil
}

// Info returns the object ID and type of spec ("<rev>:<path>" or an ID),
// or ok false when it does not exist.
func (b *Batch) Info(spec string) (oid, typ string, size int64, ok bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.send("info " + spec); err != nil {
		return "", "", 0, false, err
	}
	return b.header()
}

// Contents returns the blob spec names, or ok false when it does not
// exist or is not a file (a folder of that name is not a log).
func (b *Batch) Contents(spec string) ([]byte, bool, error) {
	return b.contents(spec, 0)
}

// A TooLargeError is a blob over the limit its reader set: it was not
// read.
type TooLargeError struct{ Size, Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%d bytes, over the %d MiB limit: memsys does not read a file this large", e.Size, e.Limit>>20)
}

// contents is Contents refusing a blob over limit bytes (0: none) with
// a TooLargeError: git's reply is skipped, never held, so a committed
// log of gigabytes costs a read through it, not its size in memory.
// ContentsUpTo is Contents refusing a blob over limit bytes with a
// TooLargeError, without reading it.
func (b *Batch) ContentsUpTo(spec string, limit int64) ([]byte, bool, error) {
	return b.contents(spec, limit)
}

func (b *Batch) contents(spec string, limit int64) ([]byte, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.send("contents " + spec); err != nil {
		return nil, false, err
	}
	_, typ, size, ok, err := b.header()
	if err != nil || !ok {
		return nil, ok, err
	}
	if limit > 0 && size > limit {
		if _, err := io.CopyN(io.Discard, b.out, size+1); err != nil {
			return nil, false, b.fail(err)
		}
		if typ != "blob" {
			return nil, false, nil
		}
		return nil, false, &TooLargeError{size, limit}
	}
	data := make([]byte, size+1) // the content and its trailing LF
	if _, err := io.ReadFull(b.out, data); err != nil {
		return nil, false, b.fail(err)
	}
	if typ != "blob" {
		return nil, false, nil
	}
	return data[:size], true, nil
}

func (b *Batch) send(line string) error {
	if strings.ContainsAny(line, "\n\x00") {
		return fmt.Errorf("git cat-file: object name %q holds a newline", line)
	}
	if _, err := b.in.WriteString(line + "\nflush\n"); err != nil {
		return b.fail(err)
	}
	if err := b.in.Flush(); err != nil {
		return b.fail(err)
	}
	return nil
}

// header reads "<oid> <type> <size>" or "<spec> missing".
func (b *Batch) header() (oid, typ string, size int64, ok bool, err error) {
	line, err := b.out.ReadString('\n')
	if err != nil {
		return "", "", 0, false, b.fail(err)
	}
	f := strings.Fields(line)
	if len(f) >= 2 && (f[len(f)-1] == "missing" || f[len(f)-1] == "ambiguous") {
		return "", "", 0, false, nil
	}
	if len(f) != 3 {
		return "", "", 0, false, fmt.Errorf("git cat-file: unexpected reply %q", strings.TrimSpace(line))
	}
	n, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return "", "", 0, false, fmt.Errorf("git cat-file: unexpected size in %q", strings.TrimSpace(line))
	}
	return f[0], f[1], n, true, nil
}

func (b *Batch) fail(err error) error {
	if msg := strings.TrimSpace(b.errb.String()); msg != "" {
		return fmt.Errorf("git cat-file: %s", msg)
	}
	return fmt.Errorf("git cat-file: %w", err)
}

// Close ends the process. Its output is closed too, so a git still
// writing replies nobody will read (a walk that stopped at an error)
// exits instead of blocking Wait forever.
func (b *Batch) Close() error {
	b.inc.Close()
	b.outc.Close()
	err := b.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return nil // killed by the closed pipe: nothing was lost
	}
	return err
}

// Pipe reads the replies to many requests written ahead by a goroutine,
// so a walk over thousands of objects pays no round trip per object.
type Pipe struct {
	b    *Batch
	errc chan error
	n    int
	// Limit, when not 0, is the size over which NextInto refuses an
	// object (a TooLargeError), skipping git's reply unread.
	Limit int64
}

// Pipeline sends "contents SPEC" for every spec at once and returns a
// Pipe whose Next reads the replies in order. Nothing else may use the
// Batch until every reply has been read.
func (b *Batch) Pipeline(specs []string) *Pipe {
	p := &Pipe{b: b, errc: make(chan error, 1), n: len(specs)}
	go func() {
		for _, s := range specs {
			if strings.ContainsAny(s, "\n\x00") {
				p.errc <- fmt.Errorf("git cat-file: object name %q holds a newline", s)
				return
			}
			if _, err := b.in.WriteString("contents " + s + "\n"); err != nil {
				p.errc <- b.fail(err)
				return
			}
		}
		if _, err := b.in.WriteString("flush\n"); err != nil {
			p.errc <- b.fail(err)
			return
		}
		p.errc <- b.in.Flush()
	}()
	return p
}

// Next returns the next object, ok false when it does not exist.
func (p *Pipe) Next() ([]byte, bool, error) { return p.NextInto(nil) }

// NextInto is Next reading into buf, grown only when the object is
// larger than its capacity: a walk over thousands of versions of a
// file reuses a few buffers instead of allocating (and zeroing) a new
// one per version. The result aliases buf.
func (p *Pipe) NextInto(buf []byte) ([]byte, bool, error) {
	if p.n == 0 {
		return nil, false, io.EOF
	}
	p.n--
	select {
	case err := <-p.errc:
		if err != nil {
			return nil, false, err
		}
	default:
	}
	_, _, size, ok, err := p.b.header()
	if err != nil || !ok {
		return nil, ok, err
	}
	if p.Limit > 0 && size > p.Limit {
		if _, err := io.CopyN(io.Discard, p.b.out, size+1); err != nil {
			return nil, false, p.b.fail(err)
		}
		return nil, false, &TooLargeError{size, p.Limit}
	}
	data := buf[:0]
	if int64(cap(data)) < size+1 {
		data = make([]byte, size+1, size+1+size/4)
	}
	data = data[:size+1] // the content and its trailing LF
	if _, err := io.ReadFull(p.b.out, data); err != nil {
		return nil, false, p.b.fail(err)
	}
	return data[:size], true, nil
}

// TreeEntry is one entry of a tree object.
type TreeEntry struct {
	Mode, Name, OID string
}

// ParseTree reads a raw tree object; hashLen is 20 for SHA-1
// repositories and 32 for SHA-256 ones.
func ParseTree(data []byte, hashLen int) ([]TreeEntry, error) {
	var out []TreeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+1+hashLen {
			return out, errors.New("git: malformed tree object")
		}
		out = append(out, TreeEntry{Mode: string(data[:sp]), Name: string(data[sp+1 : nul]), OID: fmt.Sprintf("%x", data[nul+1:nul+1+hashLen])})
		data = data[nul+1+hashLen:]
	}
	return out, nil
}

// Blobs reads the files of one memory root at any revision through one
// cat-file --batch process; it is the lint.Git the history rules read.
type Blobs struct {
	ctx    context.Context
	g      *Git
	b      *Batch
	prefix string
	// Limit, when not 0, is the size over which Blob refuses a blob
	// (a TooLargeError) instead of reading it: the memory files' limit
	// (workspace.MaxFileSize), which a committed version must not
	// escape.
	Limit int64
}

// NewBlobs starts the batch process for the memory root at prefix (as
// Prefix returns it). Close ends it.
func (g *Git) NewBlobs(ctx context.Context, prefix string) (*Blobs, error) {
	b, err := g.NewBatch(ctx)
	if err != nil {
		return nil, err
	}
	return &Blobs{ctx: ctx, g: g, b: b, prefix: prefix}, nil
}

// Blob returns path (relative to the memory root) at rev, a commit ID
// or ":0" for the index.
func (x *Blobs) Blob(rev, path string) ([]byte, bool, error) {
	return x.b.contents(rev+":"+x.prefix+path, x.Limit)
}

// BlobID returns the ID of the blob at path (relative to the memory
// root) in rev without reading it (lint.BlobIDs).
func (x *Blobs) BlobID(rev, path string) (string, bool, error) {
	oid, _, _, ok, err := x.b.Info(rev + ":" + x.prefix + path)
	return oid, ok, err
}

// maxPickaxe bounds the text HadText hands git as one argument: Linux
// refuses a longer one (MAX_ARG_STRLEN, 128 KiB).
const maxPickaxe = 64 << 10

// HadText reports whether one of paths (relative to the memory root)
// held text, byte for byte, in rev or a commit before it (lint.PastTexts):
// git's pickaxe lists the commits that changed how often it occurs, so
// any commit at all means it was there once. A text too long to pass
// is reported absent.
func (x *Blobs) HadText(rev, text string, paths ...string) (bool, error) {
	if len(text) > maxPickaxe || text == "" {
		return false, nil
	}
	args := []string{"log", "-1", "--format=%H", "--no-textconv", "-S" + text, "--end-of-options", rev, "--"}
	for _, p := range paths {
		args = append(args, ":(top,literal)"+x.prefix+p)
	}
	out, err := x.g.Run(x.ctx, args...)
	if err != nil {
		return false, err
	}
	return len(bytes.TrimSpace(out)) > 0, nil
}

// LastMerge returns the newest merge commit on head's first-parent line
// since base, "" when there is none (lint.Merges). base is an ancestor
// of head (lint --base compares with the merge base), so a merge lies
// between them exactly when that line holds one, and no merge follows
// the one returned: the commits after it add to it one by one.
func (x *Blobs) LastMerge(base, head string) (string, error) {
	out, err := x.g.Run(x.ctx, "rev-list", "--first-parent", "--merges", "-n", "1", "--end-of-options", base+".."+head)
	if err != nil {
		return "", err
	}
	return string(bytes.TrimSpace(out)), nil
}

// Shallow reports whether the repository is a shallow clone.
func (x *Blobs) Shallow() bool { return x.g.Shallow(x.ctx) }

// Close ends the batch process.
func (x *Blobs) Close() error { return x.b.Close() }

// readShallow reads the shallow file at path into a set.
func readShallow(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the shallow list: %w", err)
	}
	set := map[string]bool{}
	for _, id := range strings.Fields(string(data)) {
		set[id] = true
	}
	return set, nil
}

// Layout is where a memory root sits in its repository and the commit
// it is at, as audit needs them, found with one git call.
type Layout struct {
	Prefix  string // as Prefix returns it
	Objects string // the objects folder, for OpenObjects
	// Shallow holds the commits whose parents this clone lacks (the
	// repository's shallow file), nil for a complete clone.
	Shallow map[string]bool
	// Replaced is true when an object ID may not name the content it
	// hashes: the repository has replace refs (git replace) that git
	// honours, a grafts file, or keeps its refs in a reftable, where
	// memsys cannot look for replace refs without another git call.
	// Audit then reads every object through git and keeps no commit
	// cache.
	Replaced bool
	// Head is the commit HEAD names, "" in a repository without one.
	Head string
}

// replaced reports whether the repository whose common git directory is
// common may make git read other objects than an ID names (Layout's
// Replaced): a grafts file, replace refs under GIT_REPLACE_REF_BASE
// (default refs/replace/) unless GIT_NO_REPLACE_OBJECTS turns them off,
// loose or packed, or a reftable it cannot cheaply look into.
func replaced(common, grafts string) bool {
	if _, err := os.Stat(grafts); err == nil {
		return true
	}
	if os.Getenv("GIT_NO_REPLACE_OBJECTS") != "" {
		return false
	}
	if _, err := os.Stat(filepath.Join(common, "reftable")); err == nil {
		return true
	}
	base := os.Getenv("GIT_REPLACE_REF_BASE")
	if base == "" {
		base = "refs/replace/"
	}
	base = strings.TrimSuffix(base, "/") + "/"
	found := false
	filepath.WalkDir(filepath.Join(common, filepath.FromSlash(base)), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	if found {
		return true
	}
	packed, err := os.ReadFile(filepath.Join(common, "packed-refs"))
	return err == nil && bytes.Contains(packed, []byte(" "+base))
}

// layoutArgs ask git rev-parse for a Layout, one line each.
var layoutArgs = []string{"rev-parse", "--show-prefix", "--is-shallow-repository", "--path-format=absolute", "--git-path", "objects", "--git-path", "shallow",
	"--git-common-dir", "--git-path", "info/grafts"}

// Layout returns the Layout of g.Dir, HEAD included, with one git call
// (two more in a repository without a commit yet). Outside a git
// repository it fails as Open does.
func (g *Git) Layout(ctx context.Context) (Layout, error) {
	out, err := g.Run(ctx, append(layoutArgs, "HEAD^{commit}")...)
	withHead := err == nil
	if err != nil {
		// git takes a HEAD that names no commit yet for an unknown path,
		// and fails alike outside a repository: Head, which asks with
		// --verify, tells these apart.
		_, ok, herr := g.Head()
		switch {
		case herr != nil:
			return Layout{}, NotARepo(g.Dir, herr)
		case ok:
			return Layout{}, err // HEAD is a commit: the first call failed for another reason
		}
		if out, err = g.Run(ctx, layoutArgs...); err != nil {
			return Layout{}, err
		}
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	want := 6
	if withHead {
		want = 7
	}
	if len(lines) != want {
		return Layout{}, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	l := Layout{Prefix: strings.TrimSpace(lines[0]), Objects: lines[2], Replaced: replaced(lines[4], lines[5])}
	if withHead {
		l.Head = strings.TrimSpace(lines[6])
	}
	if strings.TrimSpace(lines[1]) == "true" {
		if l.Shallow, err = readShallow(lines[3]); err != nil {
			return Layout{}, err
		}
	}
	return l, nil
}
