package companion

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// writeProgram writes a file named name into dir with mode perm.
func writeProgram(t *testing.T, dir, name string, perm os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho companion\n"), perm); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFind(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("execute bits")
	}
	bin := t.TempDir()
	want := writeProgram(t, bin, "memsys-companion-test", 0o755)
	writeProgram(t, bin, "memsys-companion-noexec", 0o644)
	t.Setenv("PATH", bin)
	for _, tc := range []struct {
		name, want string
		missing    bool
	}{
		{name: "memsys-companion-test", want: want},
		{name: "memsys-companion-noexec", missing: true},
		{name: "memsys-companion-absent", missing: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Find(tc.name)
			if tc.missing {
				if !errors.Is(err, ErrNotFound) {
					t.Fatalf("Find(%q) = %q, %v; want ErrNotFound", tc.name, got, err)
				}
				if !strings.HasPrefix(err.Error(), tc.name+" is neither in ") || !strings.Contains(err.Error(), " nor on PATH") {
					t.Fatalf("error %q does not name the program and where it was looked for", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Find(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
			}
		})
	}
}

// TestFindBesideExecutableFirst: a program beside the running
// executable wins over one of the same name on PATH.
func TestFindBesideExecutableFirst(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("execute bits")
	}
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	beside := filepath.Join(filepath.Dir(self), "memsys-companion-beside")
	if err := os.WriteFile(beside, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Skipf("cannot write beside the test binary: %v", err)
	}
	t.Cleanup(func() { os.Remove(beside) })
	bin := t.TempDir()
	writeProgram(t, bin, "memsys-companion-beside", 0o755)
	t.Setenv("PATH", bin)
	if got, err := Find("memsys-companion-beside"); err != nil || got != beside {
		t.Fatalf("Find = %q, %v; want %q", got, err, beside)
	}
}

// TestExec runs this test binary as a child that calls Exec, and checks
// the child's output and exit code are the exec'd program's.
func TestExec(t *testing.T) {
	if target := os.Getenv("COMPANION_EXEC"); target != "" {
		code, err := Exec(target, []string{"-c", "echo from-companion \"$0\" \"$1\"; exit 3", "one"})
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
		}
		os.Exit(code)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	for _, tc := range []struct {
		name, target, stdout, stderr string
		code                         int
	}{
		{name: "runs", target: sh, stdout: "from-companion one \n", code: 3},
		{name: "missing", target: filepath.Join(t.TempDir(), "absent"), stderr: "start ", code: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestExec$")
			cmd.Env = append(os.Environ(), "COMPANION_EXEC="+tc.target)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Fatalf("exit %v, want code %d; stderr %s", err, tc.code, stderr.String())
			}
			if stdout.String() != tc.stdout {
				t.Errorf("stdout %q, want %q", stdout.String(), tc.stdout)
			}
			if !strings.HasPrefix(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q, want prefix %q", stderr.String(), tc.stderr)
			}
		})
	}
}
