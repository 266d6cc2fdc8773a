package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
)

// A Source holds a version of a memory's files other than the working
// tree: the git index (gitx.Index) for lint --staged.
type Source interface {
	// Paths lists the files it holds, relative to the memory root,
	// slash-separated.
	Paths() []string
	// Read returns the file rel; ok is false when the source does not
	// hold it. A file over max bytes is not read: data is nil and size
	// says how large it is.
	Read(rel string, max int64) (data []byte, size int64, ok bool, err error)
}

// A View reads a memory's files from a Source with the working tree's
// rules (the size limit, fs.ErrNotExist for a missing file, a folder
// exists when a file in it does), so that lint reads the staged memory
// through the same Input as the one on disk and no rule learns where
// the files came from. Each file is read once.
type View struct {
	// Label names the version in messages: "staged".
	Label string
	src   Source
	files map[string]bool
	dirs  map[string]bool

	mu   sync.Mutex
	read map[string]viewRead
}

type viewRead struct {
	data []byte
	err  error
}

// NewView is the View of src, named label in messages.
func NewView(label string, src Source) *View {
	v := &View{Label: label, src: src, files: map[string]bool{}, dirs: map[string]bool{}, read: map[string]viewRead{}}
	for _, p := range src.Paths() {
		v.files[p] = true
		for d := p; strings.Contains(d, "/"); {
			d = d[:strings.LastIndexByte(d, '/')]
			v.dirs[d] = true
		}
	}
	return v
}

// ReadFile returns rel as the View holds it, within MaxFileSize; a file
// it does not hold is an error satisfying errors.Is(err, fs.ErrNotExist).
func (v *View) ReadFile(rel string) ([]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if r, ok := v.read[rel]; ok {
		return r.data, r.err
	}
	data, err := v.readFile(rel)
	v.read[rel] = viewRead{data, err}
	return data, err
}

func (v *View) readFile(rel string) ([]byte, error) {
	if v.dirs[rel] {
		return nil, fmt.Errorf("%s (%s): is a directory, not a file", rel, v.Label)
	}
	data, size, ok, err := v.src.Read(rel, MaxFileSize)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, fmt.Errorf("%s: not %s%w", rel, v.Label, silent{fs.ErrNotExist})
	case size > MaxFileSize && isDerived(rel):
		return nil, derivedTooLarge(rel+" ("+v.Label+")", size)
	case size > MaxFileSize:
		return nil, front.Errorf("%s (%s): %d bytes, over the %d MiB limit: archive older events (%s)", rel, v.Label, size, MaxFileSize>>20, front.Archive.Word())
	}
	return data, nil
}

// Exists reports whether the View holds rel, a file or a folder with a
// file in it.
func (v *View) Exists(rel string) bool { return v.files[rel] || v.dirs[rel] }

// Tier is DetectTier of the View's files.
func (v *View) Tier() Tier { return v.TierOf("") }

// TierOf is TierAt of the View's files: configured first, then the
// View's AGENTS.md and files (parse.TierOf).
func (v *View) TierOf(configured string) Tier {
	return parse.TierOf(configured, v.Exists, func() []byte {
		agents, _ := v.ReadFile(parse.AgentsFile)
		return agents
	})
}

// ReadConfig is ReadConfig of the View's config.FileName: the
// configuration and the bytes it came from (nil when there is none).
func (v *View) ReadConfig() (config.Config, []byte, error) {
	src, err := v.ReadFile(config.FileName)
	if errors.Is(err, fs.ErrNotExist) {
		return config.Default(), nil, nil
	}
	if err != nil {
		return config.Config{}, nil, err
	}
	cfg, err := config.Parse(config.FileName+" ("+v.Label+")", src)
	return cfg, src, err
}

// StreamWith is the function StreamWith over the View's log and
// archive.
func (v *View) StreamWith(before func(*Memory), each func(*parse.Event), opts ...parse.Option) (*Memory, error) {
	m, err := v.Read()
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

// Read is the function Read over the View's log and archive: their
// bytes, not parsed. The lint cache checks the staged log against its
// checkpoint with them.
func (v *View) Read() (*Memory, error) {
	m := &Memory{Tier: v.Tier()}
	src, err := v.ReadFile(LogName)
	if err != nil {
		return nil, err
	}
	m.LogBytes = src
	for _, name := range ArchiveNames {
		if !v.Exists(name) {
			continue
		}
		if m.ArchiveBytes, err = v.ReadFile(name); err != nil {
			return nil, err
		}
		m.ArchivePath = name
		break
	}
	return m, nil
}
