package referee

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/giretra/record"
	"github.com/botarena/gamebot/giretra/referee/refereetest"
	"github.com/botarena/gamebot/giretra/wire"
)

// The records of a 20-match run of a bot server holding one seat of its
// team (the partner the other): one per match, whole, with every call of
// the bot recorded as it received it.
func TestRecordHTTPBot(t *testing.T) {
	bot := refereetest.NewBot("calculating")
	rec := filepath.Join(t.TempDir(), "rec")
	c := validation(t, serve(t, bot), 20, 7)
	notify := players.EventSet([]string{"deal-started", "match-ended"})
	c.Concurrency, c.Seats, c.RecordDir, c.Notify, c.Partner = 2, "alternate", rec, &notify, "eva"
	rep, err := Validate(t.Context(), c)
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
		if m.Header.Players[team] != c.Bot || !m.Header.HTTP[team] || m.Header.HTTP[team.Other()] || m.Header.Players[team+2] != "eva" {
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
	checkRequestsRecorded(t, ms, bot)
}

// checkRequestsRecorded: every decision request the bot received is in
// the records, byte for byte.
func checkRequestsRecorded(t *testing.T, ms []*record.Match, bot *refereetest.Bot) {
	t.Helper()
	recorded := map[string]bool{}
	for _, m := range ms {
		for _, c := range m.Calls {
			if len(c.Request) > 0 {
				recorded[string(c.Request)] = true
			}
		}
	}
	bot.Lock()
	defer bot.Unlock()
	if len(bot.Bodies) == 0 {
		t.Fatal("the test bot kept no request body")
	}
	for _, b := range bot.Bodies {
		if !recorded[b] {
			t.Fatalf("request not in the records: %.200s", b)
		}
	}
}

// The seed dialect's requests (other shapes, the multiplier in card
// requests) are recorded as sent too.
func TestRecordSeedDialect(t *testing.T) {
	bot := refereetest.NewBot("eva")
	c := validation(t, serve(t, bot), 2, 6)
	notify := players.EventSet([]string{"deal-started"})
	c.Dialect, c.Notify, c.RecordDir = wire.Seed, &notify, t.TempDir()
	if _, err := Validate(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	ms, err := record.ReadDir(c.RecordDir)
	if err != nil {
		t.Fatal(err)
	}
	checkRequestsRecorded(t, ms, bot)
}

// A crash's end line points to the call that failed.
func TestRecordCrash(t *testing.T) {
	bot := refereetest.NewBot("random")
	bot.Fault = func(e string, s *refereetest.Session, n int) (int, string, bool) {
		if e == "choose-card" && s.ID == "s1" {
			return 200, `{"rank":"Seven","suit":"Clubs"}`, true
		}
		return 0, "", false
	}
	c := validation(t, serve(t, bot), 1, 3)
	c.RecordDir = t.TempDir()
	if rep, err := Validate(t.Context(), c); err != nil || !rep.Failed() {
		t.Fatalf("err %v, report %+v", err, rep)
	}
	ms, err := record.ReadDir(c.RecordDir)
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
}
