package main

import (
	"context"

	"github.com/memsys/memsys/internal/diag"
)

// gitOptions selects the append-only comparison of `memsys lint`.
type gitOptions struct {
	Base   string // REV, or "auto" for the pull request base; "" for none
	Head   string // REV to compare instead of the working tree; "" for the working tree
	Staged bool   // compare the index against HEAD
}

// STUB written by the lead; owned by the git helper, who replaces it.
// gitChecks returns the append-only diagnostics for the memory at root
// (paths in diagnostics relative to root), or an error that must exit 2
// (base unreadable, bad REV).
func gitChecks(ctx context.Context, root string, opt gitOptions) (diag.Diagnostics, error) {
	if opt.Base == "" && !opt.Staged {
		return nil, nil
	}
	return nil, usageErr("lint: git checks are not implemented yet")
}
