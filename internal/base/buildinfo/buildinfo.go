// Package buildinfo names the memsys build: the module version Go
// recorded in the binary, so `memsys --version` needs no release step
// to stamp it.
package buildinfo

import "runtime/debug"

// Version returns the module version memsys was built from: a tag
// (v1.2.0), the pseudo-version `go install ...@latest` resolves for an
// untagged module (v0.0.0-20261123085000-abcdef123456), or "(devel)"
// for a build from a checkout, then the VCS revision when the build
// recorded one and the version does not already name it.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	return describe(bi)
}

func describe(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && v == "(devel)" {
		v += " " + rev + dirty
	}
	return v
}
