package wire

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

func addSeeds(f *testing.F, names ...string) {
	for _, n := range names {
		b, err := os.ReadFile("testdata/" + n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// FuzzDecodeBid: no input panics, and a decoded request always offers at
// least one option with its raw bytes.
func FuzzDecodeBid(f *testing.F) {
	addSeeds(f, "engine_bid.json", "seed_bid.json")
	f.Add([]byte(`{"hand":[],"validActions":[{"type":"Double","targetMode":"x"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var req InBidRequest
		if json.Unmarshal(b, &req) != nil {
			return
		}
		bid, err := DecodeBid(&req, giretra.Left)
		if err != nil {
			return
		}
		if len(bid.View.Valid) == 0 || len(bid.Raw) != len(bid.View.Valid) {
			t.Fatalf("decoded bid with %d options, %d raw", len(bid.View.Valid), len(bid.Raw))
		}
		_, _ = bid.Neg.State()
	})
}

// FuzzDecodePlay: no input panics; a decoded request has raw bytes for
// every offered card.
func FuzzDecodePlay(f *testing.F) {
	addSeeds(f, "seed_card.json")
	f.Add([]byte(`{"hand":[],"handState":{"gameMode":"AllTrumps","completedTricks":[{"leader":"Top","playedCards":[{"player":"Top","card":{"rank":"Ace","suit":"Clubs"}}]}]},"validPlays":[{"rank":"Ace","suit":"Hearts"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var req InCardRequest
		if json.Unmarshal(b, &req) != nil {
			return
		}
		play, err := DecodePlay(&req, giretra.Right)
		if err != nil {
			return
		}
		if play.View.Valid == 0 {
			t.Fatal("decoded play with no option")
		}
		for c := range play.View.Valid.All() {
			if play.Raw[c] == nil {
				t.Fatalf("no raw bytes for %v", c)
			}
		}
		if play.State.TricksWon[0]+play.State.TricksWon[1] != len(play.State.Completed) {
			t.Fatalf("tricks won %v for %d tricks", play.State.TricksWon, len(play.State.Completed))
		}
	})
}

// FuzzDecodeNotification: no input panics, for every event kind.
func FuzzDecodeNotification(f *testing.F) {
	f.Add(uint8(1), []byte(`{"negotiationState":{"dealer":"Bottom","actions":[{"type":"Announcement","player":"Left","mode":"NoTrumps"}]},"matchState":{"currentDealer":"Bottom"}}`))
	f.Add(uint8(2), []byte(`{"player":"Top","card":{"rank":"Ace","suit":"Hearts"},"handState":{"gameMode":"NoTrumps"},"matchState":{}}`))
	f.Fuzz(func(t *testing.T, kind uint8, b []byte) {
		var req InNotification
		if json.Unmarshal(b, &req) != nil {
			return
		}
		n, err := DecodeNotification(giretra.EventKind(kind%6), &req)
		if err == nil && n.Event.Negotiation != nil {
			_, _ = n.Event.Negotiation.State()
		}
	})
}

// FuzzAnswers: the referee's strict answer decoders never panic.
func FuzzAnswers(f *testing.F) {
	f.Add([]byte(`{"position":16,"fromTop":true}`))
	f.Add([]byte(`{"type":"Double","targetMode":"ColourHearts"}`))
	f.Add([]byte(`{"rank":"Ace","suit":"Hearts"}`))
	valid := []giretra.Action{{Type: giretra.Accept, Mode: giretra.NoMode}, {Type: giretra.Double, Mode: giretra.ColourHearts}}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = CutAnswerOf(b)
		_, _ = CardAnswerOf(b)
		_, _ = SessionAnswer(b)
		for _, d := range []Dialect{Engine, Seed} {
			if a, err := ActionAnswerOf(b, valid, d); err == nil && !a.SameChoice(valid[0]) && !a.SameChoice(valid[1]) {
				t.Fatalf("matched %v outside the offered options", a)
			}
		}
	})
}
