package bot

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"github.com/botarena/gamebot/giretra"
)

// FuzzChooseCard feeds the bot arbitrary, often inconsistent, card
// requests (cards both in hand and played, impossible counts, a contract
// it never saw): it must answer one of the offered cards, never panic.
func FuzzChooseCard(f *testing.F) {
	f.Add([]byte("\x00\x05\xff\x00\x00\x00\x0f\x00\x00\x00\x01\x02\x03\x04\x05\x06\x07\x08"))
	f.Add([]byte("\x03\x04\x12\x34\x56\x78\x10\x20\x30\x40\x1f\x1e\x1d\x1c\x00\x01\x02\x09\x0a\x0b\x0c"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 10 {
			return
		}
		seat := giretra.Position(data[0] & 3)
		mode := giretra.Mode(data[1] % 6)
		hand := giretra.Set(binary.LittleEndian.Uint32(data[2:6]))
		valid := giretra.Set(binary.LittleEndian.Uint32(data[6:10])) & hand
		if valid == 0 {
			return
		}
		rest := data[10:]
		hs := &giretra.HandState{Mode: mode}
		leader := seat
		for len(rest) >= 5 && len(hs.Completed) < 8 {
			tr := giretra.NewTrick(giretra.Position(rest[0] & 3))
			for i := 1; i < 5; i++ {
				tr.Add(giretra.Card(rest[i] % 32))
			}
			hs.Completed = append(hs.Completed, tr)
			rest = rest[5:]
			leader = giretra.Position(rest0(rest) & 3)
		}
		hs.Current = giretra.NewTrick(leader)
		for i := 0; i < len(rest) && i < 3; i++ {
			hs.Current.Add(giretra.Card(rest[i] % 32))
		}
		ms := giretra.NewMatchState(151, giretra.Position(data[0]>>2&3))
		ms.Points = [2]int{int(data[1]), int(data[0])}
		v := &giretra.PlayView{Seat: seat, Hand: hand, State: hs, Match: &ms, Valid: valid}
		for _, cfg := range []Config{{Fast: true}, {Effort: 0.05}} {
			c, err := New(cfg).ChooseCard(t.Context(), v)
			if err != nil || c > 31 || !valid.Has(c) {
				t.Fatalf("%+v: card %v not among %v (err %v)%s", cfg, c, valid, err, stackOf(err))
			}
		}
	})
}

func rest0(b []byte) byte {
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// FuzzChooseAction replays an arbitrary legal negotiation prefix and asks
// the bot, whose hand is arbitrary, to bid: the answer is always offered.
func FuzzChooseAction(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5}, uint32(0x0F0F), uint8(1))
	f.Add([]byte{5, 0, 0, 0}, uint32(0xFF), uint8(0))
	f.Fuzz(func(t *testing.T, picks []byte, hand uint32, dealer uint8) {
		neg := giretra.Negotiation{Dealer: giretra.Position(dealer & 3)}
		b := giretra.NewBidding(neg.Dealer)
		for _, x := range picks {
			va := b.ValidActions(neg.Actions)
			if len(va) == 0 {
				return
			}
			a := va[int(x)%len(va)]
			if err := b.Apply(len(neg.Actions), a); err != nil {
				t.Fatal(err)
			}
			neg.Actions = append(neg.Actions, a)
		}
		va := b.ValidActions(neg.Actions)
		if len(va) == 0 {
			return
		}
		ms := giretra.NewMatchState(151, neg.Dealer)
		v := &giretra.BidView{Seat: b.CurrentPlayer, Hand: giretra.Set(hand), Negotiation: &neg, Match: &ms, Valid: va}
		for _, cfg := range []Config{{Fast: true}, {Effort: 0.1}, {Effort: 0.1, FinishBids: true, SimulateAll: true, LearnedBids: true}} {
			a, err := New(cfg).ChooseAction(t.Context(), v)
			if err != nil || !slices.Contains(va, a) {
				t.Fatalf("action %v not among %v (err %v)%s", a, va, err, stackOf(err))
			}
		}
	})
}

// stackOf is the stack of a recovered panic (a *giretra.PanicError), for
// the failure message.
func stackOf(err error) string {
	var pe *giretra.PanicError
	if errors.As(err, &pe) {
		return "\n" + string(pe.Stack())
	}
	return ""
}
