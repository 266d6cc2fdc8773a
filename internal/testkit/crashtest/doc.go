// Package crashtest proves memsys's promises about files by running the
// real binary: SIGKILL at random moments during regen, append and
// archive leaves every file either its complete old or complete new
// version; 32 concurrent appends racing regen and lint lose nothing and
// duplicate nothing; a normal run leaves no temporary files; hostile
// repositories (symlinks out of the root, oversized inputs) are refused.
//
// The package holds only tests. The binary is built once per test
// process into a temporary folder.
package crashtest
