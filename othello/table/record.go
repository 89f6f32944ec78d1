package table

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/report"
)

// legsLocked copies the records. Called with t.mu held.
func (t *Table) legsLocked() []record.Leg {
	out := make([]record.Leg, len(t.legs))
	for i, l := range t.legs {
		out[i] = l.rec
		out[i].Moves = slices.Clone(l.rec.Moves)
	}
	return out
}

// Record implements table.Recorder: the legs so far, one a line.
func (t *Table) Record() (string, []byte, error) {
	t.mu.Lock()
	legs := t.legsLocked()
	t.mu.Unlock()
	var b bytes.Buffer
	for i := range legs {
		if err := record.Append(&b, &legs[i]); err != nil {
			return "", nil, err
		}
	}
	return t.fileName(), b.Bytes(), nil
}

func (t *Table) fileName() string {
	id := t.id
	if len(id) > 8 {
		id = id[:8]
	}
	return fmt.Sprintf("othello-%s-%s.jsonl", t.created.UTC().Format("20060102-150405"), strings.ToLower(id))
}

// Review implements table.Reviewer: the viewer of the legs so far.
func (t *Table) Review() ([]byte, error) {
	t.mu.Lock()
	legs := t.legsLocked()
	t.mu.Unlock()
	var b bytes.Buffer
	if err := report.Write(&b, legs, report.Options{Tool: "gamebot play"}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeRecord writes the legs to the records folder once, when the last
// leg ends. Called with t.mu held.
func (t *Table) writeRecord() {
	if t.written || t.env.Records == "" {
		return
	}
	t.written = true
	var b bytes.Buffer
	for _, l := range t.legs {
		rec := l.rec
		record.Append(&b, &rec)
	}
	if err := os.WriteFile(filepath.Join(t.env.Records, t.fileName()), b.Bytes(), 0o644); err != nil {
		t.sayLocked(func(table.Seat) string { return fmt.Sprintf("The record could not be written: %v", err) })
	}
}
