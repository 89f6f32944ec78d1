package train

import (
	"math"
	"testing"

	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/referee"
)

// Calibrate replays every recorded deal with a contract: the fast bot
// against Eva, whose records name the classes of both sides, and the
// counts add up to the deals.
func TestCalibrate(t *testing.T) {
	c := referee.Campaign{Me: "bot:fast", Opp: "eva", N: 4, Target: 151, Sweep: 25, Duplicate: true, Concurrency: 2, Seed: 31, RecordDir: t.TempDir()}
	if _, err := c.Play(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	ms, err := record.ReadDir(c.RecordDir)
	if err != nil || len(ms) != 4 {
		t.Fatalf("%d records, %v", len(ms), err)
	}
	deals := 0
	for _, m := range ms {
		for _, d := range m.Deals {
			if d.Contract != nil && d.Result != nil {
				deals++
			}
		}
	}
	rows := Calibrate(ms, CalibOptions{})
	n, us, them := 0, false, false
	for _, r := range rows {
		n += r.N
		us = us || r.Class[:2] == "us"
		them = them || r.Class[:4] == "them"
		if r.CI95 < 0 || r.N < 1 {
			t.Errorf("row %+v", r)
		}
	}
	if n != deals || !us || !them {
		t.Fatalf("rows %+v cover %d deals of %d", rows, n, deals)
	}

	// The fast bot plays our heuristic: replayed with Eva on the other
	// team, every deal is the deal that was played.
	for _, r := range Calibrate(ms, CalibOptions{EvaOpponents: true}) {
		if math.Abs(r.Mean) > 1e-9 {
			t.Errorf("replayed as played, %s is off by %+.3f", r.Class, r.Mean)
		}
	}
}
