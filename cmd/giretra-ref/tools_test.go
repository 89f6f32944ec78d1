package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/referee"
)

// A Swiss tournament of the agents ranks them strongest first, and the
// same seed gives the same tournament.
func TestSwissRanksAgents(t *testing.T) {
	var outs [2]string
	for i := range outs {
		out, _, err := runRef(t, "swiss", "random", "eva", "calculating", "-r", "24", "-t", "151", "-s", "5", "-json")
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = out
	}
	var a, b referee.SwissReport
	_ = json.Unmarshal([]byte(outs[0]), &a)
	_ = json.Unmarshal([]byte(outs[1]), &b)
	a.Seconds, b.Seconds = 0, 0
	if ja, jb := mustJSON(a), mustJSON(b); ja != jb {
		t.Errorf("two runs with the same seed differ")
	}
	var rep referee.SwissReport
	if err := json.Unmarshal([]byte(outs[0]), &rep); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, p := range rep.Participants {
		order = append(order, p.Name)
	}
	if strings.Join(order, ",") != "eva,calculating,random" {
		t.Errorf("ranking %v", order)
	}
	if rep.Played != 24 || len(rep.Matches) != 24 {
		t.Errorf("%d rounds, %d matches", rep.Played, len(rep.Matches))
	}
	byes := 0
	for _, p := range rep.Participants {
		byes += p.Byes
		if p.MinElo > 1200 || p.MaxElo < 1200 || p.Elo < p.MinElo || p.Elo > p.MaxElo {
			t.Errorf("%s: Elo %v outside its range %v-%v", p.Name, p.Elo, p.MinElo, p.MaxElo)
		}
	}
	last := rep.Participants[2]
	if byes != 24 || last.Adjusted == nil || *last.Adjusted != 1000 {
		t.Errorf("byes %d, adjusted %v", byes, last.Adjusted)
	}
	text, _, err := runRef(t, "swiss", "random", "eva", "-r", "2", "-t", "151")
	if err != nil || !strings.Contains(text, "Elo range") || !strings.Contains(text, "Round   1:") {
		t.Errorf("%v\n%s", err, text)
	}
	// Fewer than two entrants: the engine's message, exit status 1.
	if out, _, err := runRef(t, "swiss", "eva"); !errors.Is(err, referee.ErrFailed) || !strings.Contains(out, "At least 2 agent factories") {
		t.Errorf("err %v, %s", err, out)
	}
}

// record → show → report on a 20-match run of a bot server, and the page
// in a real browser.
func TestRecordShowReport(t *testing.T) {
	bot := newTestBot("calculating")
	srv := httptest.NewServer(bot)
	defer srv.Close()
	dir := t.TempDir()
	rec := filepath.Join(dir, "rec")
	// The bot holds one seat of its team (-partner): half the HTTP calls,
	// and the records of a mixed team.
	rep, err := validateJSON(t, "-n", "20", "-seed", "7", "-concurrency", "2", "-seats", "alternate", "-record", rec,
		"-notify", "deal-started,match-ended", "-partner", "eva", srv.URL)
	if err != nil || rep.Completed != 20 {
		t.Fatalf("validate: %v, %+v", err, rep)
	}
	ms, err := record.ReadDir(rec)
	if err != nil || len(ms) != 20 {
		t.Fatalf("%d records: %v", len(ms), err)
	}
	deals, calls := 0, 0
	for i, m := range ms {
		if m.Header.Match != i+1 || m.End == nil || m.End.Winner == nil || len(m.Deals) != m.End.Deals {
			t.Fatalf("record %d: header %+v, end %+v", i, m.Header, m.End)
		}
		// The bot's seats are the subject's, their calls recorded with
		// the request exactly as the bot received it.
		team := giretra.Team(m.Header.SubjectTeam)
		if m.Header.Players[team] != srv.URL || !m.Header.HTTP[team] || m.Header.HTTP[team.Other()] || m.Header.Players[team+2] != "eva" {
			t.Errorf("record %d: players %v http %v", i, m.Header.Players, m.Header.HTTP)
		}
		deals += len(m.Deals)
		for _, c := range m.Calls {
			calls++
			if giretra.Position(c.Seat) != giretra.Position(team) || c.MS < 0 {
				t.Fatalf("call %+v", c)
			}
			if c.Kind != record.KindNotification && (len(c.Request) == 0 || len(c.Answer) == 0) {
				t.Fatalf("decision call without request or answer: %+v", c)
			}
		}
	}
	if rep.Deals != deals || calls == 0 {
		t.Errorf("%d deals recorded, %d played; %d calls", deals, rep.Deals, calls)
	}
	bot.mu.Lock()
	received := len(bot.bodies)
	bot.mu.Unlock()
	if received == 0 {
		t.Fatal("the test bot kept no request body")
	}
	checkRequestsRecorded(t, ms, bot)

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
	if _, _, err := runRef(t, "report", rec, "-o", page); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(page)
	for _, want := range []string{"Latency of the bot servers", "CardPlay", "ColourClubs", "Deal viewer", fmt.Sprintf("of %d finished matches", 20)} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}
	if m := regexp.MustCompile(`(?i)(src|href)=["']?(https?:)?//`).Find(html); m != nil {
		t.Errorf("report fetches from the network: %s", m)
	}
	browseReport(t, page, ms[0])
}

// checkRequestsRecorded: every decision request the bot received is in
// the records, byte for byte.
func checkRequestsRecorded(t *testing.T, ms []*record.Match, bot *testBot) {
	t.Helper()
	recorded := map[string]bool{}
	for _, m := range ms {
		for _, c := range m.Calls {
			if len(c.Request) > 0 {
				recorded[string(c.Request)] = true
			}
		}
	}
	bot.mu.Lock()
	defer bot.mu.Unlock()
	for _, b := range bot.bodies {
		if !recorded[b] {
			t.Fatalf("request not in the records: %.200s", b)
		}
	}
}

// Duplicate benchmark: pairs share decks and cuts, so the hands of the
// first deal of both matches of a pair are the same seat by seat.
func TestBenchmarkDuplicate(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runRef(t, "benchmark", "-n", "7", "-duplicate", "-seed", "3", "-json", "-record", dir, "eva", "calculating")
	if err != nil {
		t.Fatal(err)
	}
	var rep referee.BenchReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Played != 8 || rep.Seats != "alternate" || rep.Duplicate == nil || rep.Duplicate.Pairs != 4 {
		t.Fatalf("report %+v, duplicate %+v", rep, rep.Duplicate)
	}
	d := rep.Duplicate
	if d.WinDiff.Lo > d.WinDiff.Mean || d.WinDiff.Hi < d.WinDiff.Mean || math.Abs(d.WinDiff.Mean-(float64(rep.AWins-rep.BWins)/8)) > 1e-9 {
		t.Errorf("win difference %+v for %d-%d", d.WinDiff, rep.AWins, rep.BWins)
	}
	ms, err := record.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < len(ms); j += 2 {
		a, b := ms[j], ms[j+1]
		if a.Header.Deals != j/2+1 || b.Header.Deals != j/2+1 {
			t.Errorf("deal sequences %d, %d", a.Header.Deals, b.Header.Deals)
		}
		n := min(len(a.Deals), len(b.Deals))
		for k := range n {
			if fmt.Sprint(a.Deals[k].Cut.Hands) != fmt.Sprint(b.Deals[k].Cut.Hands) || a.Deals[k].Cut.Asked == nil {
				t.Fatalf("pair %d deal %d: different hands", j/2, k+1)
			}
		}
	}
	text, _, _ := runRef(t, "benchmark", "-n", "4", "-duplicate", "-seed", "3", "eva", "random")
	if !strings.Contains(text, "Duplicate  2 deal sequences") {
		t.Errorf("text report:\n%s", text)
	}
}

// -partner: the bot holds one seat of its team, the partner the other.
func TestPartner(t *testing.T) {
	bot := newTestBot("eva")
	srv := httptest.NewServer(bot)
	defer srv.Close()
	rep, err := validateJSON(t, "-n", "2", "-seed", "4", "-seats", "alternate", "-partner", "calculating", srv.URL)
	if err != nil || !rep.Pass || rep.Partner != "calculating" {
		t.Fatalf("err %v, %+v", err, rep)
	}
	seats := map[giretra.Position]int{}
	for _, id := range bot.order {
		seats[bot.sessions[id].seat]++
	}
	if seats[giretra.Bottom] != 1 || seats[giretra.Left] != 1 || len(bot.order) != 2 {
		t.Errorf("sessions by seat %v: want one Bottom (Team1) and one Left (Team2)", seats)
	}
	out, _, err := runRef(t, "benchmark", "-n", "2", "-seed", "4", "-partner", "random", "-json", "eva", "eva")
	var br referee.BenchReport
	_ = json.Unmarshal([]byte(out), &br)
	if err != nil || br.Partner != "random" || br.Played != 2 {
		t.Errorf("benchmark with a partner: %v %+v", err, br)
	}
}

// compare tells eva from random quickly, in both directions, and finds
// two equal players the same; its exit status gates.
func TestCompare(t *testing.T) {
	tests := []struct {
		args    []string
		verdict string
		failed  bool
	}{
		{[]string{"-baseline", "random", "-candidate", "eva"}, referee.VerdictBetter, false},
		{[]string{"-baseline", "eva", "-candidate", "random"}, referee.VerdictWorse, true},
		{[]string{"-baseline", "eva", "-candidate", "eva", "random"}, referee.VerdictSame, false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, _, err := runRef(t, append([]string{"compare", "-json", "-seed", "2", "-target", "151", "-n", "60"}, tt.args...)...)
			var rep referee.CompareReport
			if jerr := json.Unmarshal([]byte(out), &rep); jerr != nil {
				t.Fatalf("%v: %s", jerr, out)
			}
			if errors.Is(err, referee.ErrFailed) != tt.failed || (err != nil && !errors.Is(err, referee.ErrFailed)) {
				t.Errorf("err %v", err)
			}
			if tt.verdict != "" && rep.Verdict != tt.verdict {
				t.Errorf("verdict %s (%+v)", rep.Verdict, rep.Paired)
			}
			if rep.Paired.Pairs < 16 || rep.Paired.Pairs >= 60 && rep.Verdict != referee.VerdictInconclusive {
				t.Errorf("%d deal sequences for %s", rep.Paired.Pairs, rep.Verdict)
			}
			if want := rep.Paired.Pairs * 2 * max(1, len(rep.Opponents)) * (1 + min(1, len(rep.Opponents))); rep.Matches != want {
				t.Errorf("%d matches for %d sequences, want %d", rep.Matches, rep.Paired.Pairs, want)
			}
		})
	}
	// The same seed, the same verdict after the same sequences, at any concurrency.
	var outs [2]referee.CompareReport
	for i, c := range []string{"1", "2"} {
		out, _, _ := runRef(t, "compare", "-json", "-seed", "9", "-target", "151", "-concurrency", c, "-baseline", "calculating", "-candidate", "eva")
		_ = json.Unmarshal([]byte(out), &outs[i])
		outs[i].Seconds = 0
	}
	if mustJSON(outs[0]) != mustJSON(outs[1]) {
		t.Errorf("concurrency changed the result:\n%+v\n%+v", outs[0], outs[1])
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// The seed dialect's requests (other shapes, the multiplier in card
// requests) are recorded as sent too.
func TestRecordSeedDialect(t *testing.T) {
	bot := newTestBot("eva")
	srv := httptest.NewServer(bot)
	defer srv.Close()
	rec := t.TempDir()
	if _, err := validateJSON(t, "-n", "2", "-seed", "6", "-dialect", "seed", "-notify", "deal-started", "-record", rec, srv.URL); err != nil {
		t.Fatal(err)
	}
	ms, err := record.ReadDir(rec)
	if err != nil {
		t.Fatal(err)
	}
	checkRequestsRecorded(t, ms, bot)
}

// A crash's end line points to the call that failed; show prints it.
func TestRecordCrash(t *testing.T) {
	bot := newTestBot("random")
	bot.fault = func(e string, s *botSession, n int) (int, string, bool) {
		if e == "choose-card" && s.id == "s1" {
			return 200, `{"rank":"Seven","suit":"Clubs"}`, true
		}
		return 0, "", false
	}
	srv := httptest.NewServer(bot)
	defer srv.Close()
	rec := t.TempDir()
	if _, err := validateJSON(t, "-n", "1", "-seed", "3", "-record", rec, srv.URL); !errors.Is(err, referee.ErrFailed) {
		t.Fatalf("err %v", err)
	}
	ms, err := record.ReadDir(rec)
	if err != nil {
		t.Fatal(err)
	}
	e := ms[0].End
	if e == nil || e.Error == "" || e.Line == 0 || e.ErrorSeat == nil {
		t.Fatalf("end %+v", e)
	}
	var failed *record.Call
	for i := range ms[0].Calls {
		if ms[0].Calls[i].Line == e.Line {
			failed = &ms[0].Calls[i]
		}
	}
	if failed == nil || failed.Endpoint != "choose-card" || !strings.Contains(failed.Error, "not among") || len(failed.Request) == 0 {
		t.Fatalf("the end points to %+v", failed)
	}
	out, _, err := runRef(t, "show", rec)
	if err != nil || !strings.Contains(out, "STOPPED:") || !strings.Contains(out, fmt.Sprintf("line %d: ", e.Line)) || !strings.Contains(out, "request: {") {
		t.Errorf("show: %v\n%s", err, out)
	}
}

// The same seed writes the same records (agents only: calls carry latencies).
func TestRecordsReproducible(t *testing.T) {
	var files [2][]byte
	for i := range files {
		dir := t.TempDir()
		if _, _, err := runRef(t, "benchmark", "-n", "4", "-seed", "12", "-t", "151", "-concurrency", "2", "-duplicate", "-record", dir, "eva", "noisy-eva"); err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= 4; n++ {
			b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("match-%04d.jsonl", n)))
			if err != nil {
				t.Fatal(err)
			}
			files[i] = append(files[i], b...)
		}
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("two runs with the same seed wrote different records")
	}
}

// TestLosses: two campaigns' records on the same seed compared deal by
// deal; a folder compared with itself loses nothing.
func TestLosses(t *testing.T) {
	rec := func(me string) string {
		c := referee.Campaign{Me: me, Opp: "eva", N: 4, Target: 151, Sweep: 25, Duplicate: true, Concurrency: 2, Seed: 11, RecordDir: t.TempDir()}
		if r := c.Play(t.Context(), io.Discard, io.Discard); r.Played != 4 {
			t.Fatalf("%s: %d matches played", me, r.Played)
		}
		return c.RecordDir
	}
	rnd, calc := rec("random"), rec("calculating")
	out, _, err := runRef(t, "losses", rnd, calc, "-top", "3")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"4 matches, ", "paired subject − reference over 2 units", "class ", "\nbid ", "\nall "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, _, err = runRef(t, "losses", calc, calc)
	if err != nil || !strings.Contains(out, "match wins +0.0% [+0.0, +0.0]") {
		t.Errorf("a folder against itself: %v\n%s", err, out)
	}
	if _, _, err := runRef(t, "losses", calc); err == nil {
		t.Error("one folder: no error")
	}
}
