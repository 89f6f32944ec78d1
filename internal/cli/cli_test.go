package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestCode(t *testing.T) {
	failed, token := errors.New("failed"), errors.New("token")
	statuses := []Status{{Err: failed, Code: 1}, {Err: token, Code: 2}, {Code: 5}}
	tests := []struct {
		err      error
		statuses []Status
		code     int
		printed  bool
	}{
		{nil, statuses, 0, false},
		{fmt.Errorf("wrapped: %w", failed), statuses, 1, false},
		{token, statuses, 2, false},
		{errors.New("other"), statuses, 5, true},
		{errors.New("other"), nil, 1, true},
		{flag.ErrHelp, statuses, 0, false},
		{fmt.Errorf("flags: %w", flag.ErrHelp), nil, 0, false},
	}
	for _, tc := range tests {
		var stderr bytes.Buffer
		if got := Code("cmd", tc.err, &stderr, tc.statuses...); got != tc.code || (stderr.Len() > 0) != tc.printed {
			t.Errorf("Code(%v) = %d, printed %q; want %d, printed %v", tc.err, got, stderr.String(), tc.code, tc.printed)
		}
	}
}

func TestParseInterleaved(t *testing.T) {
	for _, tc := range []struct {
		args []string
		pos  string
		n    int
	}{
		{[]string{"a.jsonl", "-game", "3"}, "a.jsonl", 3},
		{[]string{"-game", "3", "a.jsonl", "b"}, "a.jsonl,b", 3},
		{[]string{"a", "-game", "2", "b"}, "a,b", 2},
		{nil, "", 0},
	} {
		fs := flag.NewFlagSet("show", flag.ContinueOnError)
		n := fs.Int("game", 0, "")
		pos, err := ParseInterleaved(fs, tc.args)
		if err != nil || strings.Join(pos, ",") != tc.pos || *n != tc.n {
			t.Errorf("%q: %q, -game %d, %v", tc.args, pos, *n, err)
		}
	}
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if _, err := ParseInterleaved(fs, []string{"a", "-nope"}); err == nil {
		t.Error("an unknown flag must be an error")
	}
}
