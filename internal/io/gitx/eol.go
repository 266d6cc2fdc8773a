package gitx

import (
	"context"
	"strings"
)

// WritesCRLF reports whether git would check the text file path
// (relative to g.Dir) out with CRLF line endings, as it decides for a
// file it does not track yet: a .gitattributes eol=crlf; else, unless
// the file is not text (-text, binary) or eol=lf, core.autocrlf=true;
// else, for a file marked text or text=auto, core.eol=crlf. A file
// written LF where git writes CRLF makes git add warn "LF will be
// replaced by CRLF", and refuse under core.safecrlf=true. Outside a
// repository, or when git cannot tell, it is false: LF.
func (g *Git) WritesCRLF(ctx context.Context, path string) bool {
	out, err := g.Run(ctx, "check-attr", "eol", "text", "--", path)
	if err != nil {
		return false
	}
	attr := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		// "path: attribute: value"; the path may hold ": ", the rest not.
		i := strings.LastIndex(l, ": ")
		if i < 0 {
			continue
		}
		j := strings.LastIndex(l[:i], ": ")
		if j < 0 {
			continue
		}
		attr[l[j+2:i]] = l[i+2:]
	}
	switch {
	case attr["eol"] == "crlf":
		return true
	case attr["eol"] == "lf", attr["text"] == "unset":
		return false
	}
	if v, _ := g.Line(ctx, "config", "--get", "core.autocrlf"); strings.EqualFold(v, "true") {
		return true
	}
	if attr["text"] != "set" && attr["text"] != "auto" {
		return false
	}
	v, _ := g.Line(ctx, "config", "--get", "core.eol")
	return strings.EqualFold(v, "crlf")
}
