package cli

import (
	"io"
	"os"
)

// IsTerminal reports whether w is a terminal: where a command may draw a
// progress bar that a file or a pipe should not receive.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
