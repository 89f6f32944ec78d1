package cli

import (
	"bytes"
	"errors"
	"fmt"
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
	}
	for _, tc := range tests {
		var stderr bytes.Buffer
		if got := Code("cmd", tc.err, &stderr, tc.statuses...); got != tc.code || (stderr.Len() > 0) != tc.printed {
			t.Errorf("Code(%v) = %d, printed %q; want %d, printed %v", tc.err, got, stderr.String(), tc.code, tc.printed)
		}
	}
}
