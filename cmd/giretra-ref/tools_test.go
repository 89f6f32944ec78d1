package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/referee"
	"github.com/botarena/gamebot/giretra/referee/refereetest"
)

// validate -record → show → report on a run of a bot server, and the page
// in a real browser.
func TestRecordShowReport(t *testing.T) {
	bot := refereetest.NewBot("calculating")
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec")
	if _, stderr, err := runRef(t, "validate", "-n", "4", "-seed", "7", "-seats", "alternate", "-record", rec, "-partner", "eva", serveBot(t, bot)); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	ms, err := record.ReadDir(rec)
	if err != nil || len(ms) != 4 {
		t.Fatalf("%d records: %v", len(ms), err)
	}
	// show
	out, _, err := runRef(t, "show", rec, "-match", "3", "-deal", "2")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"match 3:", "Deal 2:", "hands as dealt", "bidding:", "contract:", "trick 8:", "result:", "HTTP calls"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	if _, _, err := runRef(t, "show", filepath.Join(rec, "match-0003.jsonl"), "-deal", "99"); err == nil {
		t.Error("show -deal 99 should fail")
	}
	// report
	page := filepath.Join(dir, "report.html")
	_, stderr, err := runRef(t, "report", rec, "-o", page)
	if err != nil || !strings.HasPrefix(stderr, "giretra-ref: wrote "+page+" (4 matches, ") {
		t.Fatalf("%v: %s", err, stderr)
	}
	html, _ := os.ReadFile(page)
	for _, want := range []string{"Latency of the bot servers", "CardPlay", "Deal viewer", fmt.Sprintf("of %d finished matches", 4)} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`(?i)(src|href)=["']?(https?:)?//`).Find(html); m != nil {
		t.Errorf("report fetches from the network: %s", m)
	}
	browseReport(t, page, ms[0])
}

// show prints where a crashed match stopped and the request that failed.
func TestShowCrash(t *testing.T) {
	bot := refereetest.NewBot("random")
	bot.Fault = func(e string, s *refereetest.Session, n int) (int, string, bool) {
		if e == "choose-card" && s.ID == "s1" {
			return 200, `{"rank":"Seven","suit":"Clubs"}`, true
		}
		return 0, "", false
	}
	rec := t.TempDir()
	if _, _, err := runRef(t, "validate", "-n", "1", "-seed", "3", "-record", rec, serveBot(t, bot)); !errors.Is(err, errFailed) {
		t.Fatalf("err %v", err)
	}
	ms, err := record.ReadDir(rec)
	if err != nil || ms[0].End == nil {
		t.Fatal(err)
	}
	out, _, err := runRef(t, "show", rec)
	if err != nil || !strings.Contains(out, "STOPPED:") || !strings.Contains(out, fmt.Sprintf("line %d: ", ms[0].End.Line)) || !strings.Contains(out, "request: {") {
		t.Errorf("show: %v\n%s", err, out)
	}
}

// losses prints the table of two campaigns' records; a folder against
// itself loses nothing.
func TestLosses(t *testing.T) {
	rec := func(me string) string {
		c := referee.Campaign{Me: me, Opp: "eva", N: 4, Target: 151, Sweep: 25, Duplicate: true, Concurrency: 2, Seed: 11, RecordDir: t.TempDir()}
		if r, err := c.Play(t.Context(), nil); err != nil || r.Played != 4 {
			t.Fatalf("%s: %v", me, err)
		}
		return c.RecordDir
	}
	rnd, calc := rec("random"), rec("calculating")
	out, _, err := runRef(t, "losses", rnd, calc, "-top", "3")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"4 matches, ", "paired subject − reference over 2 units", "class       worse   flips", "\nbid ", "\nall ", "(deals, match points lost):\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, _, err = runRef(t, "losses", calc, calc)
	if err != nil || !strings.Contains(out, "match wins +0.0% [+0.0, +0.0]") {
		t.Errorf("a folder against itself: %v\n%s", err, out)
	}
}
