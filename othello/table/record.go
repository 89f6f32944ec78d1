package table

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/report"
	"github.com/botarena/gamebot/othello/words"
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

// Review implements table.Reviewer: the viewer of the legs so far, in
// p's language. Anyone with a link to the table may read it: its persons
// are named as the record names them ("you", the creator, and
// "friend"), its engines by their titles in p's language.
func (t *Table) Review(p *i18n.Printer) ([]byte, error) {
	w := words.Words{P: p}
	t.mu.Lock()
	legs := t.legsLocked()
	for i, l := range t.legs {
		for c, s := range l.seats {
			switch {
			case s.seat != 0:
				legs[i].Players[c].Name = w.T("review.person." + s.name)
			case s.spec != nil:
				legs[i].Players[c].Name = s.spec.TitleIn(w) + s.tag
			}
		}
	}
	t.mu.Unlock()
	var b bytes.Buffer
	if err := report.Write(&b, legs, report.Options{Tool: "gamebot play", P: p}); err != nil {
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
		t.sayLocked(func(r reader) string { return r.T("log.noRecord", err) })
	}
}
