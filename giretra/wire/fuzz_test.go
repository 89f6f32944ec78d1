package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/jsonscan"
	"github.com/botarena/gamebot/internal/problem"
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

// sameKind fails the test unless both decoders failed with the same kind
// or both succeeded; it reports whether both succeeded.
//
// Inputs that repeat a field name (ignoring case) in one object are left
// out: encoding/json checks the types of every copy, the fast decoder
// reads the last one only, as both then use it.
func sameKind(t *testing.T, b []byte, err, ref error) bool {
	t.Helper()
	if repeatsKeys(b) {
		t.Skip("a repeated field name")
	}
	if (err == nil) != (ref == nil) || problem.KindOf(err) != problem.KindOf(ref) {
		t.Fatalf("%q: decoder %v (%v), reference %v (%v)", b, err, problem.KindOf(err), ref, problem.KindOf(ref))
	}
	if err != nil && problem.KindOf(err) == problem.Internal {
		t.Fatalf("%q: error without a kind: %v", b, err)
	}
	return err == nil
}

// FuzzDecodeBid is an oracle test: the fast decoder and the reference
// (encoding/json) agree on every input, in error kind or in the decoded
// request; a decoded request offers at least one option with its bytes.
func FuzzDecodeBid(f *testing.F) {
	addSeeds(f, "engine_bid.json", "seed_bid.json")
	f.Add([]byte(`{"hand":[],"validActions":[{"type":"Double","targetMode":"x"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		bid, err := DecodeBid(b, giretra.Left)
		ref, rerr := refDecodeBid(b, giretra.Left)
		if !sameKind(t, b, err, rerr) {
			return
		}
		if len(bid.View.Valid) == 0 || len(bid.Raw) != len(bid.View.Valid) {
			t.Fatalf("decoded bid with %d options, %d raw", len(bid.View.Valid), len(bid.Raw))
		}
		if !reflect.DeepEqual(bid.View.Valid, ref.View.Valid) || bid.View.Hand != ref.View.Hand ||
			!same(bid.Neg, ref.Neg) || !same(bid.Match, ref.Match) {
			t.Fatalf("%q: decoded %+v, reference %+v", b, bid, ref)
		}
		for i := range bid.Raw {
			if !bytes.Equal(compact(bid.Raw[i]), compact(ref.Raw[i])) {
				t.Fatalf("raw option %d: %s vs %s", i, bid.Raw[i], ref.Raw[i])
			}
		}
		_, _ = bid.Neg.State()
	})
}

// repeatsKeys reports an object with two keys equal ignoring case.
func repeatsKeys(b []byte) bool {
	var d jsonscan.Doc
	if d.Parse(b) != nil {
		return false
	}
	var walk func(v jsonscan.Value) bool
	walk = func(v jsonscan.Value) bool {
		found := false
		var keys [][]byte
		_ = v.Members(func(k []byte, val jsonscan.Value) error {
			for _, o := range keys {
				found = found || bytes.EqualFold(o, k)
			}
			keys = append(keys, k)
			found = found || walk(val)
			return nil
		})
		_ = v.Elems(func(_ int, e jsonscan.Value) error { found = found || walk(e); return nil })
		return found
	}
	return walk(d.Root())
}

// same compares two models (values without pointers) printed, so that a
// nil and an empty list are the same.
func same(a, b any) bool { return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b) }

func compact(b []byte) []byte {
	var buf bytes.Buffer
	_ = json.Compact(&buf, b)
	return buf.Bytes()
}

// FuzzDecodePlay is an oracle test like FuzzDecodeBid; a decoded request
// has raw bytes for every offered card.
func FuzzDecodePlay(f *testing.F) {
	addSeeds(f, "seed_card.json")
	f.Add([]byte(`{"hand":[],"handState":{"gameMode":"AllTrumps","completedTricks":[{"leader":"Top","playedCards":[{"player":"Top","card":{"rank":"Ace","suit":"Clubs"}}]}]},"validPlays":[{"rank":"Ace","suit":"Hearts"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		play, err := DecodePlay(b, giretra.Right)
		ref, rerr := refDecodePlay(b, giretra.Right)
		if !sameKind(t, b, err, rerr) {
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
		if play.View.Hand != ref.View.Hand || play.View.Valid != ref.View.Valid || !same(play.State, ref.State) ||
			!same(play.Match, ref.Match) || play.Multiplier != ref.Multiplier {
			t.Fatalf("%q: decoded %+v, reference %+v", b, play, ref)
		}
	})
}

// FuzzDecodeNotification is an oracle test for every event kind.
func FuzzDecodeNotification(f *testing.F) {
	f.Add(uint8(1), []byte(`{"negotiationState":{"dealer":"Bottom","actions":[{"type":"Announcement","player":"Left","mode":"NoTrumps"}]},"matchState":{"currentDealer":"Bottom"}}`))
	f.Add(uint8(2), []byte(`{"player":"Top","card":{"rank":"Ace","suit":"Hearts"},"handState":{"gameMode":"NoTrumps"},"matchState":{}}`))
	f.Fuzz(func(t *testing.T, kind uint8, b []byte) {
		k := giretra.EventKind(kind % 6)
		n, err := DecodeNotification(k, b)
		ref, rerr := refDecodeNotification(k, b)
		if !sameKind(t, b, err, rerr) {
			return
		}
		if !same(n.Match, ref.Match) || !same(n.Neg, ref.Neg) || !same(n.Hand, ref.Hand) ||
			n.Event.Card != ref.Event.Card || n.Event.Player != ref.Event.Player ||
			(n.Event.Negotiation == nil) != (ref.Event.Negotiation == nil) || (n.Event.Hand == nil) != (ref.Event.Hand == nil) {
			t.Fatalf("%q: decoded %+v, reference %+v", b, n, ref)
		}
		if n.Event.Negotiation != nil {
			_, _ = n.Event.Negotiation.State()
		}
	})
}

// FuzzDecodeCut is an oracle test for choose-cut.
func FuzzDecodeCut(f *testing.F) {
	addSeeds(f, "seed_cut.json")
	f.Add([]byte(`{"deckSize":32,"matchState":{"targetScore":151,"currentDealer":"Left","completedDeals":[{"gameMode":"x"}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, err := DecodeCut(b)
		ref, rerr := refDecodeCut(b)
		if sameKind(t, b, err, rerr) && !same(ms, ref) {
			t.Fatalf("%q: decoded %+v, reference %+v", b, ms, ref)
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
