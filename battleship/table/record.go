package table

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/botarena/gamebot/battleship/record"
	"github.com/botarena/gamebot/battleship/report"
	"github.com/botarena/gamebot/battleship/words"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
)

// recordBytes is the game's record in the referee's duel format
// (battleship/record: battleref show and report read it); an unfinished
// game ends with stopped as its error (the caller holds the lock).
func (g *game) recordBytes(stopped string) []byte {
	r := g.s.r
	h := record.DuelHeader{Command: "play", Game: 1, Seed: g.s.seed, Width: r.W, Height: r.H,
		Subject: g.s.name, SubjectSeat: g.s.you}
	copy(h.Fleet[:], r.Fleet[1:])
	h.Players[g.s.you], h.Players[g.bot()] = g.s.name, g.opp.label()
	h.HTTP[g.bot()] = g.opp.remote()
	var buf bytes.Buffer
	w := record.NewDuel(&buf, h)
	for seat, ships := range g.fleets {
		if ships != nil {
			w.Fleet(seat, ships, g.initMS[seat])
		}
	}
	for _, f := range g.fired {
		w.Shot(f.seat, f.target, f.result, f.ms)
	}
	if g.phase == phaseOver {
		_ = w.End(g.winner, g.invalid, nil, false) // a buffer: no error to report
	} else {
		_ = w.End(-1, "", errors.New(stopped), false)
	}
	return buf.Bytes()
}

// recordName is the record's file name.
func (g *game) recordName() string {
	id := g.env.ID
	if len(id) > 8 {
		id = id[:8]
	}
	return fmt.Sprintf("battleship-%s-%s.jsonl", g.created.Format("20060102-150405"), id)
}

// save writes rec to the game's records folder, where battleref show
// and report read it ("": no folder, nothing kept).
func (g *game) save(rec []byte) {
	if g.env.Records == "" {
		return
	}
	err := os.WriteFile(filepath.Join(g.env.Records, g.recordName()), rec, 0o644)
	g.mu.Lock()
	defer g.mu.Unlock()
	g.saved, g.saveErr = true, err
	if err != nil {
		g.sayT("log.noRecord", err)
	}
}

// errNotOver refuses the record and the review of a game in play: both
// show the bot's fleet.
func errNotOver(r reader) error {
	return problem.New(problem.Stale, "%s", r.T("err.notOver"))
}

// Record is the finished game's record.
func (g *game) Record() (string, []byte, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.phase != phaseOver {
		return "", nil, errNotOver(player(nil))
	}
	return g.recordName(), g.recordBytes(""), nil
}

// Review is the review of the finished game in p's language, read back
// from its record: its result, each side's shots, and the duel viewer
// that steps through it shot by shot. It is a page anyone with a link to
// the table may read, so it names the person rather than saying "you".
func (g *game) Review(p *i18n.Printer) ([]byte, error) {
	r := reader{Words: words.Words{P: p}, watching: true}
	lang := p.Lang()
	g.mu.Lock()
	if g.phase != phaseOver {
		g.mu.Unlock()
		return nil, errNotOver(r)
	}
	if page, ok := g.review[lang]; ok {
		defer g.mu.Unlock()
		return page, nil
	}
	rec := g.recordBytes("")
	opt := report.DuelOptions{Title: r.T("review.title", g.s.name, g.opp.label()), Result: g.outcome(r)}
	g.mu.Unlock()
	d, err := record.ReadDuel(bytes.NewReader(rec))
	if err != nil {
		return nil, fmt.Errorf("the game's record does not read back: %w", err)
	}
	var page bytes.Buffer
	if err := report.WriteDuel(&page, d, p, opt); err != nil {
		return nil, err
	}
	g.mu.Lock()
	if g.review == nil {
		g.review = map[i18n.Lang][]byte{}
	}
	g.review[lang] = page.Bytes()
	g.mu.Unlock()
	return page.Bytes(), nil
}
