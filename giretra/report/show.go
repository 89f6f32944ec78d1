package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/giretra/record"
)

// Show: a recorded match replayed as text, deal by deal and card by card,
// for the terminal (giretra-ref show).

var suitSymbols = [4]string{"♣", "♦", "♥", "♠"}

// cardText is "J♥", "10♠".
func cardText(c giretra.Card) string {
	r := c.Rank()
	rank := string("789TJQKA"[r])
	if r == giretra.Ten {
		rank = "10"
	}
	return rank + suitSymbols[c.Suit()]
}

// handText groups a hand by suit, strongest first in mode m (NoMode:
// plain order).
func handText(cards []giretra.Card, m giretra.Mode) string {
	var parts []string
	for su := range giretra.Suit(4) {
		var in []giretra.Card
		for _, c := range cards {
			if c.Suit() == su {
				in = append(in, c)
			}
		}
		if len(in) == 0 {
			continue
		}
		slices.SortFunc(in, func(a, b giretra.Card) int {
			if m == giretra.NoMode {
				return cmp.Compare(b, a)
			}
			return cmp.Compare(giretra.Strength(b, m), giretra.Strength(a, m))
		})
		var ranks []string
		for _, c := range in {
			t := cardText(c)
			ranks = append(ranks, strings.TrimSuffix(t, suitSymbols[su]))
		}
		parts = append(parts, suitSymbols[su]+" "+strings.Join(ranks, " "))
	}
	return strings.Join(parts, "   ")
}

func seatName(h *record.Header, p giretra.Position) string {
	return fmt.Sprintf("%s (%s)", p, h.Players[p])
}

// Show writes the match's header, its deal numbered only (0: every deal)
// and its end; allCalls lists every HTTP exchange, not only the failed
// ones.
func Show(w io.Writer, m *record.Match, only int, allCalls bool) {
	h := &m.Header
	fmt.Fprintf(w, "%s\n", m.Describe())
	seed := fmt.Sprint(h.Seed)
	if h.SeedWithheld {
		seed = "withheld until the match is over"
	}
	fmt.Fprintf(w, "  %s, seed %s, target %d, Colour sweep %s; Team1 = Bottom+Top, Team2 = Left+Right\n",
		h.Command, seed, h.Target, SweepText(h.Sweep))
	for _, d := range m.Deals {
		if only != 0 && d.Deal != only {
			continue
		}
		showDeal(w, m, d, allCalls)
	}
	if e := m.End; e != nil && e.Error != "" {
		fmt.Fprintf(w, "\nSTOPPED: %s\n", e.Error)
		if e.Line > 0 {
			showCallAt(w, m, e.Line, true)
		}
	} else if e == nil {
		fmt.Fprintf(w, "\n(the record has no end line: the run was cut short)\n")
	}
}

// showCut prints a deal's cut and the hands it dealt, the three cards
// dealt after the bidding marked.
func showCut(w io.Writer, h *record.Header, c *record.CutLine, mode giretra.Mode) {
	from := "bottom"
	if c.FromTop {
		from = "top"
	}
	fmt.Fprintf(w, "  cut by %s at %d from the %s", seatName(h, giretra.Position(c.Seat)), c.Position, from)
	if c.Asked != nil {
		fmt.Fprintf(w, " (duplicate: the referee's cut; the player answered %d)", c.Asked.Position)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  hands as dealt (* dealt after the bidding):\n")
	for p := range giretra.Position(4) {
		late := make([]string, 0, 3)
		for _, c := range c.Hands[p][5:] {
			late = append(late, cardText(c))
		}
		fmt.Fprintf(w, "    %-22s %s   * %s\n", seatName(h, p), handText(c.Hands[p], mode), strings.Join(late, " "))
	}
}

func showDeal(w io.Writer, m *record.Match, d *record.Deal, allCalls bool) {
	h := &m.Header
	fmt.Fprintf(w, "\nDeal %d: dealer %s, score %d–%d, target %d\n", d.Deal, seatName(h, giretra.Position(d.Dealer)), d.Score[0], d.Score[1], d.Target)
	mode := giretra.NoMode
	if d.Contract != nil {
		mode = giretra.Mode(d.Contract.Mode)
	}
	if c := d.Cut; c != nil {
		showCut(w, h, c, mode)
	}
	if len(d.Bids) > 0 {
		var bids []string
		for _, b := range d.Bids {
			s := fmt.Sprintf("%s %s", giretra.Position(b.Seat), giretra.ActionType(b.Action))
			if b.Mode != nil {
				s += " " + giretra.Mode(*b.Mode).String()
			}
			bids = append(bids, s)
		}
		fmt.Fprintf(w, "  bidding: %s\n", strings.Join(bids, ", "))
	}
	if c := d.Contract; c != nil {
		fmt.Fprintf(w, "  contract: %s %s by %s (%s)\n", giretra.Mode(c.Mode), giretra.Multiplier(c.Multiplier),
			seatName(h, giretra.Position(c.Announcer)), giretra.Position(c.Announcer).Team())
	}
	var pts [2]int
	for _, t := range d.Tricks {
		var cards []string
		for i, c := range t.Cards {
			p := (giretra.Position(t.Leader) + giretra.Position(i)) & 3
			mark := ""
			if p == giretra.Position(t.Winner) {
				mark = "*"
			}
			cards = append(cards, fmt.Sprintf("%-6s %-4s", p, cardText(c)+mark))
		}
		pts[giretra.Position(t.Winner).Team()] += t.Points
		fmt.Fprintf(w, "  trick %d: %s → %s takes %d (Team1 %d, Team2 %d)\n", t.Trick, strings.Join(cards, " "),
			giretra.Position(t.Winner), t.Points, pts[0], pts[1])
	}
	if r := d.Result; r != nil {
		showResult(w, r)
	}
	for _, v := range m.Violations {
		if v.Deal == d.Deal {
			fmt.Fprintf(w, "  VIOLATION by %s, %s: %s", seatName(h, giretra.Position(v.Seat)), v.Kind, v.Detail)
			if v.Line > 0 {
				fmt.Fprintf(w, " (line %d)", v.Line)
			}
			fmt.Fprintln(w)
		}
	}
	var n int
	var slowest record.Call
	for _, c := range m.Calls {
		if c.Deal != d.Deal {
			continue
		}
		n++
		if c.MS > slowest.MS {
			slowest = c
		}
		if allCalls || c.Error != "" {
			showCallAt(w, m, c.Line, allCalls && c.Error == "")
		}
	}
	if n > 0 {
		fmt.Fprintf(w, "  %d HTTP calls; slowest %.3f ms: %s %s (line %d)\n", n, slowest.MS, giretra.Position(slowest.Seat), slowest.Endpoint, slowest.Line)
	}
}

// showResult prints a deal's result line.
func showResult(w io.Writer, r *record.ResultLine) {
	made := "failed"
	if r.Made() {
		made = "made"
	}
	fmt.Fprintf(w, "  result: card points %d–%d, contract %s by %s; match points %d–%d", r.CardPoints[0], r.CardPoints[1], made,
		giretra.Team(r.AnnouncerTeam), r.MatchPoints[0], r.MatchPoints[1])
	if r.Sweep != nil {
		fmt.Fprintf(w, ", sweep by %s", giretra.Team(*r.Sweep))
		if r.SweepBonus > 0 {
			fmt.Fprintf(w, " (+%d)", r.SweepBonus)
		}
		if r.InstantWin {
			fmt.Fprintf(w, " (wins the match)")
		}
	}
	fmt.Fprintf(w, "; score %d–%d\n", r.Score[0], r.Score[1])
}

// showCallAt prints the call at line (brief: endpoint, latency, answer).
func showCallAt(w io.Writer, m *record.Match, line int, brief bool) {
	for _, c := range m.Calls {
		if c.Line != line {
			continue
		}
		fmt.Fprintf(w, "  line %d: %s %s, %.3f ms", c.Line, seatName(&m.Header, giretra.Position(c.Seat)), c.Endpoint, c.MS)
		if len(c.Answer) > 0 {
			fmt.Fprintf(w, ", answer %s", c.Answer)
		}
		if c.Error != "" {
			fmt.Fprintf(w, ", error: %s", c.Error)
		}
		fmt.Fprintln(w)
		if !brief && len(c.Request) > 0 {
			fmt.Fprintf(w, "    request: %s\n", shorten(string(c.Request), 600))
		}
		return
	}
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d bytes; the whole request is on its line of the record)", len(s))
}

// SweepText is a Colour sweep's worth as the referee's reports state it:
// n match points × the multiplier, or the match when n is 0.
func SweepText(n int) string {
	if n == 0 {
		return "wins the match"
	}
	return fmt.Sprintf("= %d×multiplier", n)
}
