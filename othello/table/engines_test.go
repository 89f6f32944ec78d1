package table

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/jsonline"
	"github.com/botarena/gamebot/othello/players"
	"github.com/botarena/gamebot/othello/record"
)

// engineEnv makes the test binary a JSON-line engine (our engine at
// depth 1) for the table's command engine test.
const engineEnv = "GAMEBOT_OTHELLO_TEST_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(engineEnv) == "1" {
		e := othello.NewEngine(othello.EngineOptions{MaxDepth: 1, TTBits: 12, Pool: 1})
		if err := jsonline.Serve(context.Background(), e, os.Stdin, os.Stdout, slog.New(slog.DiscardHandler)); err != nil {
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

func TestParseEngine(t *testing.T) {
	for _, bad := range []string{"", "x", "x=", "=jsonline:cmd", "x=jsonline:", "x=uci:cmd", "a b=jsonline:cmd"} {
		if _, err := ParseEngine(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	e, err := ParseEngine("ntest=nboard:/opt/ntest/ntest x")
	if err != nil || e.ID != "ntest" || e.Player.Kind != players.KindNBoard || e.Player.Dir != "/opt/ntest" {
		t.Fatalf("%+v %v", e, err)
	}
	if _, err := e.Player.Start(players.Leg{Mode: othello.Grand}); err == nil || !strings.Contains(err.Error(), "std only") {
		t.Fatalf("an NBoard engine at grand: %v", err)
	}
}

// TestCommandEngine: a person against a JSON-line engine command (this
// test binary serving our engine), a whole leg by the API; the command
// is asked as FlipSight's connector asks it, and the record names it.
func TestCommandEngine(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := ParseEngine(fmt.Sprintf("child=jsonline:%s=1 %s", engineEnv, exe))
	if err != nil {
		t.Fatal(err)
	}
	g, err := Game(Config{Engines: []EngineSpec{spec}})
	if err != nil {
		t.Fatal(err)
	}
	hub := table.NewHub(table.HubConfig{}, g)
	defer hub.Close()
	c, err := hub.Create("othello", []byte(`{"mode":"std","start":"random","colour":"white","opponent":"child","pace":0,"seed":5}`), table.Client{})
	if err != nil {
		t.Fatal(err)
	}
	id := c.Token
	at, _ := hub.Table(id)
	tb := at.Table
	seq := -1
	for {
		var v any
		seq, v, _, err = hub.Wait(t.Context(), id, seq, nil)
		if err != nil {
			t.Fatal(err)
		}
		view := v.(View)
		if view.Over {
			break
		}
		if legal := view.Legs[0].Legal; len(legal) > 0 {
			if err := tb.Act(table.Viewer{Seat: at.Seat}, seq, []byte(`{"move":"`+legal[0]+`"}`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, b, err := tb.(table.Recorder).Record()
	legs, rerr := record.Read(strings.NewReader(string(b)))
	if err != nil || rerr != nil || len(legs) != 1 || legs[0].Result.Reason != record.ReasonEnd || legs[0].Players[0].Kind != "command" {
		j, _ := json.Marshal(legs)
		t.Fatalf("record %s: %v %v", j, err, rerr)
	}
}
