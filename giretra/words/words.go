// Package words is how Giretra's players name its cards, modes, bids,
// cuts and seats, in each language the pages speak (English, French and
// Malagasy: the Giretra engine's app's), with the catalogues of every
// Giretra text people read: the table's, its rules and the review's.
package words

import (
	"embed"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/i18n"
)

//go:embed i18n
var catalogues embed.FS

// Prefix is the catalogues' prefix: "giretra.bid.accept".
const Prefix = "giretra"

func init() { i18n.Register(Prefix, catalogues, "i18n") }

// Words writes Giretra's words in P's language.
type Words struct{ P *i18n.Printer }

// T is the text of a Giretra key ("bid.accept") with args.
func (w Words) T(key string, args ...any) string { return w.P.T(Prefix+"."+key, args...) }

// Mode names a mode: "Hearts", "Sans A".
func (w Words) Mode(m giretra.Mode) string {
	if m <= giretra.AllTrumps {
		return w.T("mode." + string(rune('0'+m)))
	}
	return w.T("mode.none")
}

// Contract names a contract with its multiplier: "Hearts doubled".
func (w Words) Contract(c giretra.Contract) string {
	switch c.Multiplier {
	case giretra.Doubled:
		return w.T("contract.doubled", w.Mode(c.Mode))
	case giretra.Redoubled:
		return w.T("contract.redoubled", w.Mode(c.Mode))
	}
	return w.Mode(c.Mode)
}

// Bid names a negotiation action: "Accept", "Double Hearts".
func (w Words) Bid(a giretra.Action) string {
	switch a.Type {
	case giretra.Accept:
		return w.T("bid.accept")
	case giretra.Announce:
		return w.Mode(a.Mode)
	case giretra.Double:
		return w.T("bid.double", w.Mode(a.Mode))
	}
	return w.T("bid.redouble", w.Mode(a.Mode))
}

// Cut names a cut: "16 cards from the top".
func (w Words) Cut(c giretra.Cut) string {
	if c.FromTop {
		return w.T("cut.top", c.Position)
	}
	return w.T("cut.bottom", c.Position)
}

// Card names a card in words: "Jack of Hearts".
func (w Words) Card(c giretra.Card) string {
	return w.T("card", w.T("rank."+c.Rank().String()), w.T("suit."+c.Suit().String()))
}

// Seat names a seat: "Bottom", "Sud", "Ambany".
func (w Words) Seat(p giretra.Position) string { return w.T("seat." + p.String()) }
