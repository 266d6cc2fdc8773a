package memory

import (
	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
)

// LoadConfig reads root's .memsys.json (workspace.LoadConfig) and checks
// its rule settings against the registry (lint.CheckConfig). It is how
// every command reads the configuration, the MCP server's tools too:
// a file with an unknown rule ID used to stop lint while regen and
// status went on with the defaults, so one command judged the memory
// by rules another never read. A missing file is config.Default().
func LoadConfig(root string) (config.Config, error) {
	return checkedConfig(workspace.LoadConfig(root))
}

// checkedConfig is LoadConfig's check of a configuration read from
// elsewhere (the git index, for lint --staged and regen --check
// --staged), so that it is refused in the same words.
func checkedConfig(cfg config.Config, err error) (config.Config, error) {
	if err != nil {
		return config.Config{}, err
	}
	if err := lint.CheckConfig(cfg); err != nil {
		return config.Config{}, err
	}
	return cfg, nil
}

// RuleStates is lint --list-rules of the memory at root: every rule
// at the severity lint runs it at there, after root's .memsys.json and
// then overrides (--rule), each marked with what set it. A
// configuration that cannot be read or that names an unknown rule
// gives the rules at their defaults and the error: the error's advice
// is to look a rule up in this list, so the list must still print.
func RuleStates(root string, overrides []config.RuleSetting) ([]lint.RuleState, error) {
	cfg, err := LoadConfig(root)
	if err != nil {
		return defaultStates(), err
	}
	l, err := lint.New(cfg, overrides...)
	if err != nil {
		return defaultStates(), err
	}
	return l.States(), nil
}

func defaultStates() []lint.RuleState {
	l, _ := lint.New(config.Default())
	return l.States()
}
