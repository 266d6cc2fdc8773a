package main

import (
	"bytes"
	"context"
	"io"
	"slices"
	"testing"

	"github.com/urfave/cli/v3"
)

func TestInvoked(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"memsys", "lint"}, "lint"},
		{[]string{"memsys", "lint", "--staged"}, "lint"},
		{[]string{"memsys", "-C", "dir", "log", "-n", "5"}, "log"},
		{[]string{"memsys", "-C", "log", "status"}, "status"}, // a folder named log
		{[]string{"memsys", "--C=log", "status"}, "status"},
		{[]string{"memsys", "--cpuprofile", "show", "show", "evt-1"}, "show"},
		{[]string{"memsys", "--no-cache", "regen", "--check"}, "regen"},
		{[]string{"memsys", "--", "graph"}, "graph"},
		{[]string{"memsys", "merge-driver", "install"}, "merge-driver"},
		{[]string{"memsys"}, ""},
		{[]string{"memsys", "--help"}, ""},
		{[]string{"memsys", "help", "lint"}, ""},
		{[]string{"memsys", "lgo"}, ""},
		{[]string{"memsys", "completion", "bash"}, ""},
		{[]string{"memsys", "lint", "--generate-shell-completion"}, ""},
		{[]string{"memsys", "-C"}, ""},
	} {
		if got := invoked(tc.args); got != tc.want {
			t.Errorf("invoked(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestCommandsTable keeps the table newAppFor picks from in step with
// the commands it builds.
func TestCommandsTable(t *testing.T) {
	var names []string
	for _, c := range commands {
		if got := c.build().Name; got != c.name {
			t.Errorf("commands: %q builds the command %q", c.name, got)
		}
		if slices.Contains(names, c.name) {
			t.Errorf("commands: %q twice", c.name)
		}
		names = append(names, c.name)
	}
}

// TestLazyTreeSameOutput runs args through the tree newAppFor builds for
// them and through the whole tree: help, usage errors and the version
// must read the same either way.
func TestLazyTreeSameOutput(t *testing.T) {
	cases := [][]string{{"memsys", "--version"}, {"memsys", "version"}, {"memsys", "--help"}, {"memsys", "nosuch"},
		{"memsys", "-h", "lint"}, {"memsys", "--help", "log"}, {"memsys", "-v", "lint"}, {"memsys", "--version", "status"},
		{"memsys", "-C", "log", "--help"}, {"memsys", "help", "show"}}
	for _, c := range commands {
		cases = append(cases, []string{"memsys", c.name, "--help"}, []string{"memsys", c.name, "--nosuchflag"})
	}
	for _, args := range cases {
		var lazyOut, lazyErr, allOut, allErr bytes.Buffer
		lazy := newAppFor(&lazyOut, &lazyErr, args)
		all := newAppFor(&allOut, &allErr, nil)
		lerr := lazy.Run(context.Background(), args)
		aerr := all.Run(context.Background(), args)
		if lazyOut.String() != allOut.String() || lazyErr.String() != allErr.String() || errString(lerr) != errString(aerr) {
			t.Errorf("%q: the command alone gives\n%s%s%v\nthe whole tree\n%s%s%v", args, &lazyOut, &lazyErr, lerr, &allOut, &allErr, aerr)
		}
		if len(args) > 2 && lazyOut.Len()+lazyErr.Len() == 0 && lerr == nil {
			t.Errorf("%q: no output and no error", args)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestValueFlags: invoked skips the value of exactly the global flags
// that take one; a new one missing from valueFlags would make its value
// read as the command.
func TestValueFlags(t *testing.T) {
	var want []string
	for _, f := range newApp(io.Discard, io.Discard).Flags {
		if _, isBool := f.(*cli.BoolFlag); isBool {
			continue
		}
		want = append(want, f.Names()...)
	}
	slices.Sort(want)
	got := slices.Sorted(slices.Values(valueFlags))
	if !slices.Equal(got, want) {
		t.Errorf("valueFlags = %q, the root's flags that take a value are %q", got, want)
	}
}
