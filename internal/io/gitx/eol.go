package gitx

import (
	"bytes"
	"context"
	"strings"
)

// WritesCRLF reports whether git would check the text file path
// (relative to g.Dir) out with CRLF line endings, as it decides for a
// file it does not track yet. A file written LF where git writes CRLF
// makes git add warn "LF will be replaced by CRLF", and refuse under
// core.safecrlf=true. Git's order, which TestWritesCRLF checks against
// what git checkout writes:
//   - a file whose text attribute is unset (-text, binary) is written
//     as stored: LF;
//   - else an eol attribute decides;
//   - else core.autocrlf=true gives CRLF and core.autocrlf=input LF;
//   - else a file marked text or text=auto takes core.eol.
//
// The legacy crlf attribute is not read. Outside a repository, or when
// git cannot tell, it is false: LF.
func (g *Git) WritesCRLF(ctx context.Context, path string) bool {
	out, err := g.Run(ctx, "check-attr", "-z", "eol", "text", "--", path)
	if err != nil {
		return false
	}
	// -z output is path NUL attribute NUL value NUL, per attribute;
	// a path may hold any byte but NUL.
	var eol, text string
	f := bytes.Split(out, []byte{0})
	for i := 0; i+2 < len(f); i += 3 {
		switch string(f[i+1]) {
		case "eol":
			eol = string(f[i+2])
		case "text":
			text = string(f[i+2])
		}
	}
	switch {
	case text == "unset":
		return false
	case eol == "crlf":
		return true
	case eol == "lf":
		return false
	}
	autocrlf, coreEOL := g.eolConfig(ctx)
	switch autocrlf {
	case "true":
		return true
	case "input":
		return false
	}
	return (text == "set" || text == "auto") && coreEOL == "crlf"
}

// eolConfig returns core.autocrlf ("true", "input" or "false") and
// core.eol as git reads them: the last setting wins, and a boolean may
// be spelled yes, on, 1 or be a bare key.
func (g *Git) eolConfig(ctx context.Context) (autocrlf, eol string) {
	autocrlf = "false"
	// One process for both; git exits 1 when neither is set.
	out, _ := g.Run(ctx, "config", "-z", "--get-regexp", `^core\.(autocrlf|eol)$`)
	for _, kv := range bytes.Split(out, []byte{0}) {
		// -z gives key LF value, or the key alone for a bare key.
		k, v, hasValue := strings.Cut(string(kv), "\n")
		v = strings.ToLower(v)
		switch k {
		case "core.autocrlf":
			switch {
			case !hasValue, v == "true", v == "yes", v == "on", v == "1":
				autocrlf = "true"
			case v == "input":
				autocrlf = "input"
			default:
				autocrlf = "false"
			}
		case "core.eol":
			eol = v
		}
	}
	return autocrlf, eol
}
