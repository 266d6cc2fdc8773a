// Package templates holds the default files `memsys init` deploys,
// embedded in the binary. The derived files (graph.md, context.md) are
// not templates: init renders them from the log, so they are exactly
// what regen would write and lint passes right after init.
package templates
