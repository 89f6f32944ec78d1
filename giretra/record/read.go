package record

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/botarena/gamebot/giretra"
	"github.com/botarena/gamebot/internal/jsonl"
)

// Match is a record read back: the header, the deals, every call,
// violation and the end line. What Read returns is consistent: deals are
// numbered from 1, each trick's cards were in the hands of the seats that
// played them, in turn; consumers need not check again.
type Match struct {
	Path       string
	Header     Header
	Deals      []*Deal
	Calls      []Call
	Violations []ViolationLine
	End        *EndLine // nil when the record was cut short
}

// Deal is one deal of a record.
type Deal struct {
	DealLine
	Line     int
	Cut      *CutLine
	Bids     []BidLine
	Contract *ContractLine
	Tricks   []TrickLine
	Result   *ResultLine
}

// Call is a call line and its number.
type Call struct {
	CallLine
	Line int
}

// ReadFile reads the record at path.
func ReadFile(path string) (*Match, error) {
	m, err := jsonl.ReadFile(path, Read)
	if err == nil {
		m.Path = path
	}
	return m, err
}

// ReadDir reads every *.jsonl record in dir, in file-name order.
func ReadDir(dir string) ([]*Match, error) { return jsonl.ReadDir(dir, ReadFile) }

// FindMatch opens path, a record or a folder of them, and returns match
// number n of it (0: the first).
func FindMatch(path string, n int) (*Match, error) {
	return jsonl.Find(path, n, "match", ReadFile, ReadDir, func(m *Match) int { return m.Header.Match })
}

// Read reads and checks one match's record. Unknown line types are
// skipped (a later version may add some); anything inconsistent is an
// error naming its line.
func Read(r io.Reader) (*Match, error) {
	rd := &reader{m: &Match{}}
	if err := jsonl.Scan(r, rd.line); err != nil {
		return nil, err
	}
	return rd.m, nil
}

// reader is Read's state: the match so far, and the cards each seat has
// played this deal.
type reader struct {
	m      *Match
	played [4]giretra.Set
}

// line reads line n, of type typ.
func (rd *reader) line(n int, typ string, b []byte) error {
	m := rd.m
	if n == 1 {
		if typ != TypeMatch {
			return jsonl.LineError(n, "a record starts with a %q line, not %q", TypeMatch, typ)
		}
		if err := jsonl.Strict(b, &m.Header); err != nil {
			return jsonl.LineError(n, "%v", err)
		}
		if m.Header.Version < 1 || m.Header.Version > Version {
			return jsonl.LineError(n, "format version %d (this reader knows 1..%d)", m.Header.Version, Version)
		}
		return nil
	}
	if m.End != nil {
		return jsonl.LineError(n, "a line after the end line")
	}
	switch typ {
	case TypeMatch:
		return jsonl.LineError(n, "a second header")
	case TypeDeal:
		d := &Deal{Line: n}
		if err := jsonl.Strict(b, &d.DealLine); err != nil {
			return jsonl.LineError(n, "%v", err)
		}
		if d.Deal != len(m.Deals)+1 {
			return jsonl.LineError(n, "deal %d after %d deals", d.Deal, len(m.Deals))
		}
		m.Deals = append(m.Deals, d)
		rd.played = [4]giretra.Set{}
	case TypeCut, TypeBid, TypeContract, TypeTrick, TypeResult:
		return rd.dealLine(n, typ, b)
	case TypeCall:
		var l CallLine
		if err := jsonl.Strict(b, &l); err != nil {
			return jsonl.LineError(n, "%v", err)
		}
		if l.Deal < 0 || l.Deal > len(m.Deals) {
			return jsonl.LineError(n, "call in deal %d of %d", l.Deal, len(m.Deals))
		}
		if !slices.Contains(Kinds(), l.Kind) {
			return jsonl.LineError(n, "unknown call kind %q", l.Kind)
		}
		m.Calls = append(m.Calls, Call{CallLine: l, Line: n})
	case TypeViolation:
		var l ViolationLine
		if err := jsonl.Strict(b, &l); err != nil {
			return jsonl.LineError(n, "%v", err)
		}
		if l.Line < 0 || l.Line >= n {
			return jsonl.LineError(n, "violation points to line %d", l.Line)
		}
		m.Violations = append(m.Violations, l)
	case TypeEnd:
		var l EndLine
		if err := jsonl.Strict(b, &l); err != nil {
			return jsonl.LineError(n, "%v", err)
		}
		if l.Line < 0 || l.Line >= n {
			return jsonl.LineError(n, "end points to line %d", l.Line)
		}
		m.End = &l
	}
	return nil
}

// dealLine reads line n, of a type that belongs to the current deal.
func (rd *reader) dealLine(n int, typ string, b []byte) error {
	var cur *Deal
	if len(rd.m.Deals) > 0 {
		cur = rd.m.Deals[len(rd.m.Deals)-1]
	}
	decode := func(v any, deal *int) error {
		if err := jsonl.Strict(b, v); err != nil {
			return jsonl.LineError(n, "%v", err)
		}
		if cur == nil || *deal != cur.Deal {
			return jsonl.LineError(n, "%s line for deal %d outside it", typ, *deal)
		}
		return nil
	}
	switch typ {
	case TypeCut:
		var l CutLine
		if err := decode(&l, &l.Deal); err != nil {
			return err
		}
		return cut(n, cur, &l)
	case TypeBid:
		var l BidLine
		if err := decode(&l, &l.Deal); err != nil {
			return err
		}
		if cur.Contract != nil {
			return jsonl.LineError(n, "a bid after the contract")
		}
		if (l.Action == ActionType(giretra.Accept)) != (l.Mode == nil) {
			return jsonl.LineError(n, "an Accept has no mode, other actions have one")
		}
		cur.Bids = append(cur.Bids, l)
	case TypeContract:
		var l ContractLine
		if err := decode(&l, &l.Deal); err != nil {
			return err
		}
		if cur.Contract != nil {
			return jsonl.LineError(n, "a second contract in deal %d", l.Deal)
		}
		cur.Contract = &l
	case TypeTrick:
		var l TrickLine
		if err := decode(&l, &l.Deal); err != nil {
			return err
		}
		return rd.trick(n, cur, &l)
	case TypeResult:
		var l ResultLine
		if err := decode(&l, &l.Deal); err != nil {
			return err
		}
		if cur.Result != nil {
			return jsonl.LineError(n, "a second result in deal %d", l.Deal)
		}
		cur.Result = &l
	}
	return nil
}

// cut checks line n, the cut of deal cur, and keeps it.
func cut(n int, cur *Deal, l *CutLine) error {
	if cur.Cut != nil || len(cur.Bids) > 0 {
		return jsonl.LineError(n, "a second cut in deal %d", l.Deal)
	}
	if l.Position < 6 || l.Position > 26 {
		return jsonl.LineError(n, "cut position %d outside 6..26", l.Position)
	}
	var all giretra.Set
	for p := range 4 {
		h := Hand(l.Hands[p])
		if len(l.Hands[p]) != 8 || h.Count() != 8 || all&h != 0 {
			return jsonl.LineError(n, "the hands are not 32 distinct cards")
		}
		all |= h
	}
	cur.Cut = l
	return nil
}

// trick checks line n, a trick of deal cur, against the hands dealt and
// the cards played, and keeps it.
func (rd *reader) trick(n int, cur *Deal, l *TrickLine) error {
	if cur.Cut == nil || cur.Contract == nil {
		return jsonl.LineError(n, "a trick before the cut and the contract")
	}
	if l.Trick != len(cur.Tricks)+1 || l.Trick > 8 || len(l.Cards) != 4 {
		return jsonl.LineError(n, "trick %d of %d cards after %d tricks", l.Trick, len(l.Cards), len(cur.Tricks))
	}
	for i, c := range l.Cards {
		p := (giretra.Position(l.Leader) + giretra.Position(i)) & 3
		if !Hand(cur.Cut.Hands[p]).Has(c) || rd.played[p].Has(c) {
			return jsonl.LineError(n, "%v played %s, not in its hand", p, c.Short())
		}
		rd.played[p] |= c.Bit()
	}
	cur.Tricks = append(cur.Tricks, *l)
	return nil
}

// Winner is the subject's result in a finished match: 1 won, 0 lost, -1
// not finished (an error or an interrupt).
func (m *Match) Winner() int {
	if m.End == nil || m.End.Winner == nil {
		return -1
	}
	if *m.End.Winner == m.Header.SubjectTeam {
		return 1
	}
	return 0
}

// Has reports whether name plays in the match.
func (m *Match) Has(name string) bool { return slices.Contains(m.Header.Players[:], name) }

// TeamOf is the team name plays in (-1 if it does not play).
func (m *Match) TeamOf(name string) int {
	for p, n := range m.Header.Players {
		if n == name {
			return p & 1
		}
	}
	return -1
}

// Describe is a one-line summary such as "match 3: gamebot 151 – random 42".
func (m *Match) Describe() string {
	h := &m.Header
	var b strings.Builder
	fmt.Fprintf(&b, "match %d: %s vs %s", h.Match, h.TeamName(giretra.Team1), h.TeamName(giretra.Team2))
	if m.End != nil {
		fmt.Fprintf(&b, ", %d–%d", m.End.Score[0], m.End.Score[1])
		switch {
		case m.End.Winner != nil:
			fmt.Fprintf(&b, ", %s won", h.TeamName(giretra.Team(*m.End.Winner)))
		case m.End.Error != "":
			fmt.Fprintf(&b, ", stopped: %s", m.End.Error)
		}
	}
	return b.String()
}
