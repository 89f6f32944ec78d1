package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestIsTerminalNotForFilesAndBuffers(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) || IsTerminal(&bytes.Buffer{}) {
		t.Error("a file or a buffer is not a terminal")
	}
}
