package giretra

import (
	"strings"
	"testing"
)

// TestCardText: every card's code reads back as the card, and what is not
// a code is an error naming it.
func TestCardText(t *testing.T) {
	for c := range Card(32) {
		b, err := c.MarshalText()
		if err != nil || string(b) != c.Short() {
			t.Fatalf("%v: %q, %v", c, b, err)
		}
		var back Card
		if err := back.UnmarshalText(b); err != nil || back != c {
			t.Errorf("%q read back as %v, %v", b, back, err)
		}
	}
	if _, err := NoCard.MarshalText(); err == nil {
		t.Error("NoCard has a text form")
	}
	for _, bad := range []string{"", "J", "JHX", "1H", "JX", "jh", "10H"} {
		var c Card
		if err := c.UnmarshalText([]byte(bad)); err == nil || !strings.Contains(err.Error(), "bad card") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if got := MustParseCards("JH 9H AS"); got != NewCard(Jack, Hearts).Bit()|NewCard(Nine, Hearts).Bit()|NewCard(Ace, Spades).Bit() {
		t.Errorf("MustParseCards = %v", got)
	}
}

func TestModeFamily(t *testing.T) {
	for m := range Mode(6) {
		want := FamilyColour
		switch m {
		case NoTrumps:
			want = FamilyNoTrumps
		case AllTrumps:
			want = FamilyAllTrumps
		}
		if got := m.Family(); got != want || m.IsColour() != (got == FamilyColour) {
			t.Errorf("%v: family %d (%s), want %d", m, got, FamilyNames[got], want)
		}
	}
}
