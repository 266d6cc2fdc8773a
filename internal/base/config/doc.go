// Package config parses the optional .memsys.json file of a memory root
// (workspace.LoadConfig reads it from disk; this package is pure):
// rule severities and the thresholds of the seed (archive at 50 events,
// keep 20; context window of 48 hours or 20 events; a word budget).
//
// The file is strict. An unknown key, a wrong type or an impossible value
// is an error that names the file, the line and what to write instead,
// because a misspelt key that is silently ignored is a setting the user
// believes in and does not have.
package config
