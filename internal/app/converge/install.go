package converge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// The driver as registered in .git/config.
const (
	DriverName    = "memsys"
	DriverCommand = "memsys merge-driver %O %A %B %P %L"
	driverLabel   = "memsys: event log by record, derived files regenerated"
	attrFile      = ".gitattributes"
	attrBegin     = "# memsys:merge-driver:begin (memsys merge-driver uninstall removes this block)"
	attrEnd       = "# memsys:merge-driver:end"
	// driverRecursive is the driver git uses to merge the merge bases
	// of a criss-cross merge into its virtual ancestor. git's binary
	// driver gives their own common ancestor's version of each file,
	// so the log and the derived files of the virtual ancestor stay a
	// pair; with memsys's driver there the derived files were rendered
	// from HEAD's log, which git then took for the incoming side's
	// unchanged files, and a clean merge left them stale.
	driverRecursive = "binary"
)

// attrLines are the paths that take the driver, anchored at the memory
// root's .gitattributes.
func attrLines() []string {
	lines := []string{"/" + parse.LogFile + " merge=" + DriverName}
	for _, n := range parse.ArchiveFiles {
		lines = append(lines, "/"+n+" merge="+DriverName)
	}
	return append(lines,
		"/"+parse.GraphFile+" merge="+DriverName,
		"/"+parse.ContextFile+" merge="+DriverName)
}

// attrBlock is memsys's block with nl line ends: it takes the line
// ending of the .gitattributes it goes into, so a CRLF file stays CRLF.
func attrBlock(nl string) string {
	return attrBegin + nl + strings.Join(attrLines(), nl) + nl + attrEnd + nl
}

// Install registers the driver in .git/config and adds memsys's block
// to the .gitattributes of root, after any lines already there. It
// returns what it changed; nothing when both are in place.
func Install(ctx context.Context, root string) ([]string, error) {
	g, err := gitx.Open(ctx, root)
	if err != nil {
		return nil, err
	}
	return install(ctx, g, root)
}

func install(ctx context.Context, g Git, root string) ([]string, error) {
	// The block's paths start at root: written where no log is (the
	// repository root of a monorepo whose memory is in a subfolder) it
	// names files that are not there, and the memory's merges never
	// reach the driver; nothing says so until a merge conflicts.
	if err := workspace.Stat(root, parse.LogFile); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("no %s in %s: the attributes name the memory's files from its root: run it in the folder that holds %s (or pass -C DIR), after memsys init",
			parse.LogFile, root, parse.LogFile)
	}
	var did []string
	name, _, err := g.Config(ctx, "merge."+DriverName+".name")
	if err != nil {
		return nil, err
	}
	drv, _, err := g.Config(ctx, "merge."+DriverName+".driver")
	if err != nil {
		return nil, err
	}
	rec, _, err := g.Config(ctx, "merge."+DriverName+".recursive")
	if err != nil {
		return nil, err
	}
	if name != driverLabel || drv != DriverCommand || rec != driverRecursive {
		for _, kv := range [][2]string{{"name", driverLabel}, {"driver", DriverCommand}, {"recursive", driverRecursive}} {
			if err := g.SetConfig(ctx, "merge."+DriverName+"."+kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
		did = append(did, "registered merge driver "+DriverName+" in .git/config: "+DriverCommand)
	}
	cur, err := readOptional(root, attrFile)
	if err != nil {
		return nil, err
	}
	nl := memory.Newline(cur)
	block := []byte(attrBlock(nl))
	unended := block[:len(block)-len(nl)] // the block as written after a line without its end
	if !bytes.Contains(cur, block) && !bytes.HasSuffix(cur, append([]byte(nl), unended...)) {
		cur, _ = removeBlock(cur) // an older block of ours is replaced
		out := append(cur, block...)
		if len(cur) > 0 && cur[len(cur)-1] != '\n' {
			// The last line has no line end, and the block must start
			// a line: the line end install adds to it is taken from
			// the block's end, so that the file keeps its byte count
			// and uninstall, finding the block last and unended, takes
			// it back (removeBlock).
			out = append(append(cur, nl...), unended...)
		}
		if err := workspace.WriteFile(root, attrFile, out); err != nil {
			return nil, err
		}
		did = append(did, "added "+strings.Join(attrPaths(), ", ")+" merge="+DriverName+" to "+attrFile)
	}
	return did, nil
}

func attrPaths() []string {
	var p []string
	for _, l := range attrLines() {
		p = append(p, strings.Fields(l)[0])
	}
	return p
}

// Uninstall removes exactly what Install added: the driver's section
// of .git/config (only when it still runs memsys) and memsys's block of
// .gitattributes; the file itself goes when nothing else is left in it.
func Uninstall(ctx context.Context, root string) ([]string, error) {
	g, err := gitx.Open(ctx, root)
	if err != nil {
		return nil, err
	}
	return uninstall(ctx, g, root)
}

func uninstall(ctx context.Context, g Git, root string) ([]string, error) {
	var did []string
	drv, ok, err := g.Config(ctx, "merge."+DriverName+".driver")
	if err != nil {
		return nil, err
	}
	if ok && drv == DriverCommand {
		if err := g.UnsetSection(ctx, "merge."+DriverName); err != nil {
			return nil, err
		}
		did = append(did, "removed merge driver "+DriverName+" from .git/config")
	}
	cur, err := readOptional(root, attrFile)
	if err != nil {
		return nil, err
	}
	if rest, found := removeBlock(cur); found {
		if len(bytes.TrimSpace(rest)) == 0 {
			var p string
			if p, err = workspace.Resolve(root, attrFile); err == nil {
				err = workspace.Remove(p)
			}
		} else {
			err = workspace.WriteFile(root, attrFile, rest)
		}
		if err != nil {
			return nil, err
		}
		did = append(did, "removed memsys's lines from "+attrFile)
	}
	return did, nil
}

// removeBlock cuts memsys's block (its markers and what lies between)
// from data. A block last in data whose end marker has no line end was
// installed after a last line that had none (install): the line end
// install added to that line is cut too, so the rest is byte for byte
// what it was.
func removeBlock(data []byte) ([]byte, bool) {
	var out []byte
	in, found := false, false
	for l := range bytes.Lines(data) {
		t := string(bytes.TrimRight(l, "\r\n"))
		switch {
		case !in && t == attrBegin:
			in, found = true, true
		case in && t == attrEnd:
			in = false
			if len(t) == len(l) && len(out) > 0 { // last, unended
				out = bytes.TrimSuffix(out, []byte("\n"))
				out = bytes.TrimSuffix(out, []byte("\r"))
			}
		case !in:
			out = append(out, l...)
		}
	}
	return out, found
}

func readOptional(root, rel string) ([]byte, error) {
	b, err := workspace.ReadFile(root, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}
