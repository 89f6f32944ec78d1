package table

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/report"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/problem"
)

// The table's record: the match in giretra/record's format (giretra-ref
// show and report read it), written at the end and served in part during
// the match, and the review made from it.

// fileName is the record's file name in the records folder.
func (t *Table) fileName() string {
	id := t.env.ID
	if len(id) > 8 {
		id = id[:8]
	}
	return fmt.Sprintf("giretra-%s-%s.jsonl", t.created.UTC().Format("20060102-150405"), id)
}

// recordOp keeps one of the record writer's calls, replayed to write the
// record (whole at the end, or up to the last finished deal for a review
// during the match).
func (t *Table) recordOp(op func(*record.Writer)) {
	t.mu.Lock()
	t.ops = append(t.ops, op)
	t.mu.Unlock()
}

// snapshot copies what a record writer reads of an event: the engine
// changes the states it points to as the match goes on.
func snapshot(e *giretra.Event) *giretra.Event {
	c := *e
	if e.Match != nil {
		m := *e.Match
		m.Deals = slices.Clone(m.Deals)
		c.Match = &m
	}
	if e.Negotiation != nil {
		n := *e.Negotiation
		n.Actions = slices.Clone(n.Actions)
		c.Negotiation = &n
	}
	if e.Hand != nil {
		h := *e.Hand
		h.Completed = slices.Clone(h.Completed)
		c.Hand = &h
	}
	if e.Trick != nil {
		tr := *e.Trick
		c.Trick = &tr
	}
	if e.Result != nil {
		r := *e.Result
		c.Result = &r
	}
	return &c
}

// header is the record's first line. Until the match is over (end), a
// seed the server drew is withheld: it deals every hand.
func (t *Table) header(end bool) record.Header {
	h := record.Header{Command: "play", Match: max(1, t.opts.Match), Seed: t.opts.seed, Target: t.opts.target,
		FirstDealer: record.Seat(t.opts.first)}
	if !end && !t.seedShownLocked() {
		h.Seed, h.SeedWithheld = 0, true
	}
	for p := range 4 {
		h.Players[p] = t.specs[p].name
		h.HTTP[p] = t.specs[p].kind == kindURL || t.specs[p].kind == kindFolder
	}
	subject := 0
	if t.creator >= 0 {
		subject = int(t.creator)
	}
	h.Subject, h.SubjectTeam = h.Players[subject], record.Team(giretra.Position(subject).Team())
	return h
}

// seedShownLocked reports whether the seed may be shown to anyone: the
// person chose it, or no person plays, or the match is over (the caller
// holds the lock).
func (t *Table) seedShownLocked() bool { return t.opts.seedShown || t.bots || t.over }

// recordLocked writes the record of the first n ops: with its end line
// when end is set, else without (the match goes on).
func (t *Table) recordLocked(n int, end bool, matchErr error, interrupted bool) ([]byte, error) {
	var buf bytes.Buffer
	w := record.New(&buf, t.header(end), deckRNG(t.opts.seed))
	for _, op := range t.ops[:n] {
		op(w)
	}
	res := t.outcome
	if !end {
		res = giretra.MatchResult{Final: t.match, Winner: giretra.NoTeam}
	}
	if err := w.End(res, matchErr, -1, interrupted); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	if !end { // drop the end line
		b = b[:bytes.LastIndexByte(b[:len(b)-1], '\n')+1]
	}
	return b, nil
}

// Record is the match's record in giretra/record's format: the whole
// match once it is over, else its finished deals (a deal in play would
// show every hand).
func (t *Table) Record() (string, []byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.over {
		if t.final == nil {
			return "", nil, errors.New("the record could not be written")
		}
		return t.fileName(), t.final, nil
	}
	b, err := t.recordLocked(t.dealOps, false, nil, false)
	return t.fileName(), b, err
}

// Review is giretra/report's review of the match so far, in p's
// language: the finished deals, each contract in words, and the deal
// viewer with every hand.
func (t *Table) Review(p *i18n.Printer) ([]byte, error) {
	name, data, err := t.Record()
	if err != nil {
		return nil, err
	}
	m, err := record.Read(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("reading the record %s: %w", name, err)
	}
	m.Deals = slices.DeleteFunc(m.Deals, func(d *record.Deal) bool { return d.Result == nil })
	if len(m.Deals) == 0 {
		return nil, problem.New(problem.NotFound, "no deal has finished yet: the review shows the finished deals")
	}
	var buf bytes.Buffer
	if err := report.WriteMatch(&buf, m, p); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
