package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/botarena/gamebot/giretra"
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

// MaxLine bounds one line of a record (a request body is a few KB).
const MaxLine = 16 << 20

// ReadFile reads the record at path.
func ReadFile(path string) (*Match, error) {
	m, err := readFile(path, Read)
	if err == nil {
		m.Path = path
	}
	return m, err
}

// ReadDir reads every *.jsonl record in dir, in file-name order.
func ReadDir(dir string) ([]*Match, error) { return readDir(dir, ReadFile) }

// FindMatch opens path, a record or a folder of them, and returns match
// number n of it (0: the first).
func FindMatch(path string, n int) (*Match, error) {
	return find(path, n, "match", ReadFile, ReadDir, func(m *Match) int { return m.Header.Match })
}

// find is FindMatch and FindDuel: path is a file or a folder of records,
// n a record's number (0: the first), what names the numbered thing.
func find[T any](path string, n int, what string, readOne func(string) (T, error), readAll func(string) ([]T, error), num func(T) int) (T, error) {
	var zero T
	st, err := os.Stat(path)
	if err != nil {
		return zero, err
	}
	if !st.IsDir() {
		v, err := readOne(path)
		if err != nil {
			return zero, err
		}
		if n != 0 && num(v) != n {
			return zero, fmt.Errorf("%s holds %s %d, not %d", path, what, num(v), n)
		}
		return v, nil
	}
	all, err := readAll(path)
	if err != nil {
		return zero, err
	}
	if n == 0 {
		return all[0], nil
	}
	for _, v := range all {
		if num(v) == n {
			return v, nil
		}
	}
	return zero, fmt.Errorf("%s: no %s %d", path, what, n)
}

// readFile reads the record at path with read, errors naming the file.
func readFile[T any](path string, read func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := os.Open(path)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// readDir reads every *.jsonl file in dir with read, in file-name order.
func readDir[T any](dir string, read func(string) (T, error)) ([]T, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var out []T
	for _, n := range names {
		v, err := read(n)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no record (*.jsonl)", dir)
	}
	return out, nil
}

// lineError is a problem at a line.
func lineError(n int, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", n, fmt.Sprintf(format, args...))
}

// Read reads and checks one match's record. Unknown line types are
// skipped (a later version may add some); anything inconsistent is an
// error naming its line.
func Read(r io.Reader) (*Match, error) {
	m := &Match{}
	var played [4]giretra.Set // cards each seat has played this deal
	err := scan(r, func(n int, probe lineType, b []byte) error {
		if n == 1 {
			if probe.Type != TypeMatch {
				return lineError(n, "a record starts with a %q line, not %q", TypeMatch, probe.Type)
			}
			if err := strict(b, &m.Header); err != nil {
				return lineError(n, "%v", err)
			}
			if m.Header.Version < 1 || m.Header.Version > Version {
				return lineError(n, "format version %d (this reader knows 1..%d)", m.Header.Version, Version)
			}
			return nil
		}
		if m.End != nil {
			return lineError(n, "a line after the end line")
		}
		var cur *Deal
		if len(m.Deals) > 0 {
			cur = m.Deals[len(m.Deals)-1]
		}
		// inDeal decodes a line that belongs to the current deal.
		inDeal := func(v any, deal *int) error {
			if err := strict(b, v); err != nil {
				return lineError(n, "%v", err)
			}
			if cur == nil || *deal != cur.Deal {
				return lineError(n, "%s line for deal %d outside it", probe.Type, *deal)
			}
			return nil
		}
		switch probe.Type {
		case TypeMatch:
			return lineError(n, "a second header")
		case TypeDeal:
			d := &Deal{Line: n}
			if err := strict(b, &d.DealLine); err != nil {
				return lineError(n, "%v", err)
			}
			if d.Deal != len(m.Deals)+1 {
				return lineError(n, "deal %d after %d deals", d.Deal, len(m.Deals))
			}
			m.Deals = append(m.Deals, d)
			played = [4]giretra.Set{}
		case TypeCut:
			var l CutLine
			if err := inDeal(&l, &l.Deal); err != nil {
				return err
			}
			if cur.Cut != nil || len(cur.Bids) > 0 {
				return lineError(n, "a second cut in deal %d", l.Deal)
			}
			if l.Position < 6 || l.Position > 26 {
				return lineError(n, "cut position %d outside 6..26", l.Position)
			}
			var all giretra.Set
			for p := range 4 {
				h := Hand(l.Hands[p])
				if len(l.Hands[p]) != 8 || h.Count() != 8 || all&h != 0 {
					return lineError(n, "the hands are not 32 distinct cards")
				}
				all |= h
			}
			cur.Cut = &l
		case TypeBid:
			var l BidLine
			if err := inDeal(&l, &l.Deal); err != nil {
				return err
			}
			if cur.Contract != nil {
				return lineError(n, "a bid after the contract")
			}
			if (l.Action == ActionType(giretra.Accept)) != (l.Mode == nil) {
				return lineError(n, "an Accept has no mode, other actions have one")
			}
			cur.Bids = append(cur.Bids, l)
		case TypeContract:
			var l ContractLine
			if err := inDeal(&l, &l.Deal); err != nil {
				return err
			}
			if cur.Contract != nil {
				return lineError(n, "a second contract in deal %d", l.Deal)
			}
			cur.Contract = &l
		case TypeTrick:
			var l TrickLine
			if err := inDeal(&l, &l.Deal); err != nil {
				return err
			}
			if cur.Cut == nil || cur.Contract == nil {
				return lineError(n, "a trick before the cut and the contract")
			}
			if l.Trick != len(cur.Tricks)+1 || l.Trick > 8 || len(l.Cards) != 4 {
				return lineError(n, "trick %d of %d cards after %d tricks", l.Trick, len(l.Cards), len(cur.Tricks))
			}
			for i, c := range l.Cards {
				p := (giretra.Position(l.Leader) + giretra.Position(i)) & 3
				if !Hand(cur.Cut.Hands[p]).Has(giretra.Card(c)) || played[p].Has(giretra.Card(c)) {
					return lineError(n, "%v played %s, not in its hand", p, giretra.Card(c).Short())
				}
				played[p] |= giretra.Card(c).Bit()
			}
			cur.Tricks = append(cur.Tricks, l)
		case TypeResult:
			var l ResultLine
			if err := inDeal(&l, &l.Deal); err != nil {
				return err
			}
			if cur.Result != nil {
				return lineError(n, "a second result in deal %d", l.Deal)
			}
			cur.Result = &l
		case TypeCall:
			var l CallLine
			if err := strict(b, &l); err != nil {
				return lineError(n, "%v", err)
			}
			if l.Deal < 0 || l.Deal > len(m.Deals) {
				return lineError(n, "call in deal %d of %d", l.Deal, len(m.Deals))
			}
			if !slices.Contains(Kinds(), l.Kind) {
				return lineError(n, "unknown call kind %q", l.Kind)
			}
			m.Calls = append(m.Calls, Call{CallLine: l, Line: n})
		case TypeViolation:
			var l ViolationLine
			if err := strict(b, &l); err != nil {
				return lineError(n, "%v", err)
			}
			if l.Line < 0 || l.Line >= n {
				return lineError(n, "violation points to line %d", l.Line)
			}
			m.Violations = append(m.Violations, l)
		case TypeEnd:
			var l EndLine
			if err := strict(b, &l); err != nil {
				return lineError(n, "%v", err)
			}
			if l.Line < 0 || l.Line >= n {
				return lineError(n, "end points to line %d", l.Line)
			}
			m.End = &l
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// lineType is the "type" every line has.
type lineType struct {
	Type string `json:"type"`
}

// scan calls line with each non-blank line of a record, its number (from
// 1) and its type, and stops at the first error. A line longer than
// MaxLine, or not a JSON object, is an error; so is an empty record.
func scan(r io.Reader, line func(n int, probe lineType, b []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	n := 0
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var probe lineType
		if err := json.Unmarshal(b, &probe); err != nil {
			return lineError(n, "not a JSON object: %v", err)
		}
		if err := line(n, probe, b); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return lineError(n+1, "%v", err)
	}
	if n == 0 {
		return fmt.Errorf("empty record")
	}
	return nil
}

// strict decodes one line, refusing fields the line type does not have.
func strict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("data after the object")
	}
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
