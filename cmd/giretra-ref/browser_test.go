package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/internal/browsertest"
)

// browseReport opens the report page in headless Chromium: it must load
// with no console error, exception or network request, and the deal
// viewer must step through the bidding and the first trick of the first
// recorded deal.
func browseReport(t *testing.T, page string, first *record.Match) {
	t.Helper()
	p := browsertest.Open(t, page, "next")
	count := func(seat int) string {
		return browsertest.Eval[string](p, fmt.Sprintf(`document.getElementById("hand-%d").children.length + ""`, seat))
	}
	d := first.Deals[0]
	if got := p.Text("step-label"); !strings.Contains(got, "the first five cards dealt") || count(0) != "5" {
		t.Errorf("at step 0: %q, %s cards at Bottom", got, count(0))
	}
	// Through the bidding, the last three cards, and the first trick.
	for range len(d.Bids) + 1 + 4 {
		p.Click("next")
	}
	tr := d.Tricks[0]
	winner := [4]string{"Bottom", "Left", "Top", "Right"}[tr.Winner]
	if got, want := p.Text("trick-info"), fmt.Sprintf("Trick 1: %s takes %d", winner, tr.Points); got != want {
		t.Errorf("after the first trick: %q, want %q", got, want)
	}
	if got := p.Text("contract"); !strings.Contains(got, "Contract: ") {
		t.Errorf("contract %q", got)
	}
	for seat := range 4 {
		if count(seat) != "7" {
			t.Errorf("seat %d holds %s cards after one trick", seat, count(seat))
		}
	}
	if bids := browsertest.Eval[int](p, `document.querySelectorAll("#bids li").length`); bids != len(d.Bids) {
		t.Errorf("%d bids shown, want %d", bids, len(d.Bids))
	}
	// And back one step.
	p.Click("prev")
	if got := p.Text("trick-info"); !strings.Contains(got, "to play") {
		t.Errorf("one step back: %q", got)
	}
	p.Check()
}
