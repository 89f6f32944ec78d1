package htmlreport

import (
	"bytes"
	"io"
	"os"
)

// Save builds a page and writes it to path, or to stdout when path is
// "-"; it returns the page's size. The page is built whole first, so a
// failed build leaves no half-written file.
func Save(path string, stdout io.Writer, build func(io.Writer) error) (int, error) {
	var buf bytes.Buffer
	if err := build(&buf); err != nil {
		return 0, err
	}
	if path == "-" {
		_, err := stdout.Write(buf.Bytes())
		return buf.Len(), err
	}
	return buf.Len(), os.WriteFile(path, buf.Bytes(), 0o644)
}
