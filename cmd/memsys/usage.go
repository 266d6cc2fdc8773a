package main

import (
	"strings"
)

// flagMessage rewrites the flag parser's messages in the words memsys
// uses everywhere else: the flag as the user types it (--keep, -n), and
// what is wrong with the value instead of Go's strconv error
// ("strconv.ParseInt: parsing \"x\": invalid syntax"). Messages it does
// not know pass through unchanged.
func flagMessage(msg string) string {
	const invalid, undefined = "invalid value ", "flag provided but not defined: -"
	switch {
	case strings.HasPrefix(msg, invalid):
		// invalid value "x" for flag -keep: strconv.ParseInt: parsing "x": invalid syntax
		value, rest, ok := strings.Cut(strings.TrimPrefix(msg, invalid), " for flag -")
		if !ok {
			return msg
		}
		name, why, _ := strings.Cut(rest, ": ")
		switch {
		case strings.HasSuffix(why, "value out of range"):
			return dashed(name) + " " + value + " is out of range"
		case strings.HasPrefix(why, "strconv.ParseInt") || strings.HasPrefix(why, "strconv.ParseUint"):
			return dashed(name) + " " + value + " is not a whole number"
		case strings.HasPrefix(why, "strconv.ParseFloat"):
			return dashed(name) + " " + value + " is not a number"
		case strings.HasPrefix(why, "strconv.ParseBool"), why == "parse error":
			// urfave/cli's bool flags say only "parse error" (flag_bool.go).
			return dashed(name) + " " + value + " is not true or false"
		}
		return dashed(name) + " " + value + ": " + why
	case strings.HasPrefix(msg, undefined):
		return "unknown flag " + dashed(strings.TrimPrefix(msg, undefined))
	case strings.HasPrefix(msg, "Required flag \"") && strings.HasSuffix(msg, "\" not set"):
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "Required flag \""), "\" not set")
		return dashed(name) + " is required"
	}
	return msg
}

// dashed writes a flag name as the help text shows it: one dash for a
// one-letter name (-n, -C), two for the others (--keep).
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
