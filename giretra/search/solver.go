package search

import (
	"math/bits"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/botarena/gamebot/giretra"
)

// Solver is a perfect-information (double-dummy) solver of the card play:
// alpha-beta over card bitsets on the card points one team takes, with
// move ordering, equivalent-card pruning and a transposition table at
// trick boundaries. A Solver is not safe for concurrent use; reuse one (its
// table is large) through Acquire/Release.
type Solver struct {
	mode    giretra.Mode
	maxTeam giretra.Team
	hands   [4]giretra.Set
	hash    uint64
	pts     [32]int8
	str     [32]int8
	trumps  giretra.Set
	// order[s] lists the cards of suit s weakest first in the mode.
	order [4][8]giretra.Card
	// stronger[c] is giretra.Stronger(c, mode); beaters[c] the cards that
	// beat c as a trick's winner: those, and the trumps when c is none.
	stronger, beaters [32]giretra.Set
	// ptsTab[s][b] is the points of the cards of suit s whose bits are b.
	ptsTab [4][256]int16
	// byStr[s][b] is the cards of suit s whose rank bits are b, as bits in
	// strength order (bit i: the card of strength i in the suit); byRank
	// is the inverse; strPts[s][i] the points of the card of strength i.
	byStr, byRank [4][256]uint8
	strPts        [4][8]int8
	built         bool // the tables above are the mode's
	hist          [32]int32

	tt   []ttEntry
	gen  uint16 // entries of other generations are empty
	mask uint64

	// Nodes counts the positions visited since the last Reset.
	Nodes int64
	// Limit stops the search once Nodes exceeds it (0: no limit); the
	// values of an interrupted search are meaningless and Stopped is set.
	Limit   int64
	Stopped bool
	// Deadline, when not zero, also stops the search (checked every 1024
	// nodes): the wall-clock safety net.
	Deadline time.Time
	// Policy, when set, fixes the card that the seats in PolicySeats (a
	// bit per position) play in the trick in progress where the search
	// starts: a player who does not see every hand answers our card as its
	// model predicts, not as a double-dummy player would. Later tricks are
	// searched as usual (the transposition table holds trick boundaries
	// only, so it never mixes the two). A card that is not legal, or
	// NoCard, leaves the seat's choice to the search.
	Policy      func(p giretra.Position, hand giretra.Set, t *giretra.Trick) giretra.Card
	PolicySeats uint8
	// Busy, when set, is checked every 1024 nodes (~100 µs); the search
	// yields the CPU when it reports every CPU searching (see WithBusy).
	Busy func() bool
	deep int // tricks completed since the search started
}

// ttEntry is 16 bytes, four to a cache line: the table's probes miss
// the caches; full-deal solves take 0.94 of the time they took with
// 24-byte entries (a 32-bit generation; median of 5 paired runs).
type ttEntry struct {
	key    uint64
	gen    uint16
	lo, hi int16
	best   giretra.Card // best first card of the trick, for ordering
}

const ttBits = 16

var zobrist [4][32]uint64
var leaderKey [4]uint64

func init() {
	r := rand.New(rand.NewPCG(0x9172, 0x2024))
	for p := range 4 {
		for c := range 32 {
			zobrist[p][c] = r.Uint64()
		}
		leaderKey[p] = r.Uint64()
	}
}

// NewSolver allocates a solver and its transposition table (1 MiB).
func NewSolver() *Solver {
	return &Solver{tt: make([]ttEntry, 1<<ttBits), mask: 1<<ttBits - 1}
}

// Reset prepares a search in mode m for the points of team maxTeam and
// empties the transposition table (so results and node counts depend on
// nothing but the positions searched since).
func (s *Solver) Reset(m giretra.Mode, maxTeam giretra.Team) {
	s.maxTeam = maxTeam
	if !s.tablesFor(m) {
		s.buildTables(m)
	}
	clear(s.hist[:])
	s.Policy, s.PolicySeats, s.Busy, s.deep = nil, 0, nil, 0
	s.gen++
	if s.gen == 0 {
		clear(s.tt)
		s.gen = 1
	}
	s.Nodes, s.Stopped = 0, false
}

// tablesFor reports whether the mode's tables are built: a search resets
// the solver for every sampled deal, always in the same mode, and
// rebuilding them each time cost 5 % of the bot's CPU.
func (s *Solver) tablesFor(m giretra.Mode) bool { return s.built && s.mode == m }

// buildTables fills the mode-dependent tables (points, strengths, orders).
func (s *Solver) buildTables(m giretra.Mode) {
	s.mode, s.built = m, true
	s.trumps = 0
	if m.IsColour() {
		s.trumps = giretra.SuitMask(m.Trump())
	}
	for c := range giretra.Card(32) {
		s.pts[c] = int8(giretra.Points(c, m))
		s.str[c] = int8(giretra.Strength(c, m))
	}
	for su := range giretra.Suit(4) {
		for r := range giretra.Rank(8) {
			c := giretra.NewCard(r, su)
			s.order[su][giretra.Strength(c, m)&7] = c
			s.stronger[c] = giretra.Stronger(c, m)
			s.beaters[c] = s.stronger[c]
			if !s.trumps.Has(c) {
				s.beaters[c] |= s.trumps
			}
		}
		for i, c := range s.order[su] {
			s.strPts[su][i] = s.pts[c]
		}
		for b := range 256 {
			var st, rk uint8
			for i, c := range s.order[su] {
				if b&(1<<c.Rank()) != 0 {
					st |= 1 << i
				}
				if b&(1<<i) != 0 {
					rk |= 1 << c.Rank()
				}
			}
			s.byStr[su][b], s.byRank[su][b] = st, rk
		}
		for b := range 256 {
			n := 0
			for r := range 8 {
				if b&(1<<r) != 0 {
					n += giretra.Points(giretra.NewCard(giretra.Rank(r), su), m)
				}
			}
			s.ptsTab[su][b] = int16(n)
		}
	}
}

func (s *Solver) setHands(h *[4]giretra.Set) {
	s.hands = *h
	s.hash = 0
	for p := range 4 {
		for x := uint32(h[p]); x != 0; x &= x - 1 {
			s.hash ^= zobrist[p][bits.TrailingZeros32(x)]
		}
	}
}

func (s *Solver) setPoints(x giretra.Set) int {
	return int(s.ptsTab[0][uint8(x)]) + int(s.ptsTab[1][uint8(x>>8)]) + int(s.ptsTab[2][uint8(x>>16)]) + int(s.ptsTab[3][uint8(x>>24)])
}

// strick is a trick in progress inside the solver.
type strick struct {
	cards  [4]giretra.Card
	leader giretra.Position
	n      uint8
	win    uint8 // index of the winning card (n > 0)
}

func toStrick(t *giretra.Trick, m giretra.Mode) strick {
	st := strick{leader: t.Leader, n: t.N, cards: t.Cards}
	if t.N > 0 {
		st.win = uint8(t.WinnerIndex(m))
	}
	return st
}

func (t *strick) next() giretra.Position { return (t.leader + giretra.Position(t.n)) & 3 }

// beats reports whether c beats w (the current winner).
func (s *Solver) beats(c, w giretra.Card) bool { return s.beaters[w].Has(c) }

// legal is giretra.LegalPlays on the solver's trick.
func (s *Solver) legal(h giretra.Set, t *strick) giretra.Set {
	if t.n == 0 {
		return h
	}
	led := t.cards[0].Suit()
	follow := h & giretra.SuitMask(led)
	wc := t.cards[t.win]
	if follow != 0 {
		if s.mode == giretra.AllTrumps || s.trumps.Has(t.cards[0]) {
			if higher := follow & s.stronger[wc]; higher != 0 {
				return higher
			}
		}
		return follow
	}
	tr := h & s.trumps
	if tr == 0 {
		return h
	}
	wcTrump := s.trumps.Has(wc)
	if !wcTrump && (t.leader+giretra.Position(t.win))&3 == (t.next()+2)&3 {
		return h
	}
	if wcTrump {
		if higher := tr & s.stronger[wc]; higher != 0 {
			return higher
		}
	}
	return tr
}

// Solve returns the card points team maxTeam takes from the position to
// the end of the deal under perfect play by both teams: hands are the
// cards still held, t the trick in progress (its cards not in hands).
// Points of the current trick's cards count for its eventual winner.
func (s *Solver) Solve(hands *[4]giretra.Set, t giretra.Trick) int {
	s.setHands(hands)
	return s.ab(toStrick(&t, s.mode), -1, 1000)
}

// SolveWindow is Solve with an alpha-beta window: the result v is exact if
// alpha < v < beta, else a bound (v <= alpha: at most v; v >= beta: at
// least v).
func (s *Solver) SolveWindow(hands *[4]giretra.Set, t giretra.Trick, alpha, beta int) int {
	s.setHands(hands)
	return s.ab(toStrick(&t, s.mode), alpha, beta)
}

// Values computes, for every card c of moves (cards of the seat to play in
// t), the points team maxTeam takes from here to the end if c is played,
// under perfect play afterwards. It returns false if the node limit
// stopped the search.
func (s *Solver) Values(hands *[4]giretra.Set, t giretra.Trick, moves giretra.Set, out *[32]int) bool {
	return s.ValuesWindow(hands, t, moves, -1, 1000, out)
}

// ValuesWindow is Values with an alpha-beta window per move: a value v with
// alpha < v < beta is exact, v <= alpha an upper bound, v >= beta a lower
// bound. Narrow windows are much cheaper.
func (s *Solver) ValuesWindow(hands *[4]giretra.Set, t giretra.Trick, moves giretra.Set, alpha, beta int, out *[32]int) bool {
	s.setHands(hands)
	st := toStrick(&t, s.mode)
	p := st.next()
	first := true
	g := 0
	for x := uint32(moves); x != 0; x &= x - 1 {
		c := giretra.Card(bits.TrailingZeros32(x))
		if first || beta-alpha <= probeWindow {
			out[c] = s.play(st, p, c, alpha, beta)
		} else {
			out[c] = s.probe(st, p, c, alpha, beta, g)
		}
		if s.Stopped {
			return false
		}
		first, g = false, out[c]
	}
	return true
}

// probeWindow is the widest window ValuesWindow searches in one pass;
// wider, the moves after the first are valued by zero-window probes
// (probe). Only undoubled AllTrumps has such windows (ContractUtility),
// and there, on sampled deals of the bot's kind, the probes took 0.94 of
// the nodes at seven cards a hand, where the search is short of nodes,
// and 1.01–1.04 at six. In the two dozen points of a Colour's or
// NoTrumps' window they took 0.95–1.04: no gain worth a second path.
const probeWindow = 100

// probe is c's value in (alpha, beta), or a bound outside it, as
// play(st, p, c, alpha, beta) would give it, found by zero-window
// searches from the guess g (MTD(f)): sibling moves' values are close,
// and every probe after the first finds trick boundaries in the table.
// Guessing from the previous deal's values instead took 1.3 times the
// nodes: the deals differ too much.
func (s *Solver) probe(st strick, p giretra.Position, c giretra.Card, alpha, beta, g int) int {
	lower, upper := -1, 1000 // the value v: lower <= v <= upper once known
	for {
		b := min(max(g, lower+1), upper)
		r := s.play(st, p, c, b-1, b)
		if s.Stopped {
			return 0
		}
		if r >= b {
			lower = r
		} else {
			upper = r
		}
		switch {
		case lower >= upper:
			return lower
		case upper <= alpha:
			return upper
		case lower >= beta:
			return lower
		}
		g = r
	}
}

// Reaches reports whether maxTeam can take at least v more points if the
// seat to play in t plays c (a zero-window search).
func (s *Solver) Reaches(hands *[4]giretra.Set, t giretra.Trick, c giretra.Card, v int) bool {
	s.setHands(hands)
	st := toStrick(&t, s.mode)
	return s.play(st, st.next(), c, v-1, v) >= v
}

// play plays c for p on t and searches the rest.
func (s *Solver) play(t strick, p giretra.Position, c giretra.Card, alpha, beta int) int {
	s.hands[p] &^= c.Bit()
	s.hash ^= zobrist[p][c]
	if t.n > 0 && s.beats(c, t.cards[t.win]) {
		t.win = t.n
	}
	t.cards[t.n] = c
	t.n++
	var v int
	if t.n == 4 {
		w := (t.leader + giretra.Position(t.win)) & 3
		tp := int(s.pts[t.cards[0]]) + int(s.pts[t.cards[1]]) + int(s.pts[t.cards[2]]) + int(s.pts[t.cards[3]])
		if s.hands[0]|s.hands[1]|s.hands[2]|s.hands[3] == 0 {
			tp += 10
		}
		s.deep++
		if w.Team() == s.maxTeam {
			v = tp + s.ab(strick{leader: w}, alpha-tp, beta-tp)
		} else {
			v = s.ab(strick{leader: w}, alpha, beta)
		}
		s.deep--
	} else {
		v = s.ab(t, alpha, beta)
	}
	s.hands[p] |= c.Bit()
	s.hash ^= zobrist[p][c]
	return v
}

// ab is fail-soft alpha-beta on the points maxTeam takes from t to the end.
func (s *Solver) ab(t strick, alpha, beta int) int {
	s.Nodes++
	if s.Limit > 0 && s.Nodes > s.Limit {
		s.Stopped = true
		return 0
	}
	if s.Nodes&1023 == 0 {
		if !s.Deadline.IsZero() && time.Now().After(s.Deadline) {
			s.Stopped = true
			return 0
		}
		if s.Busy != nil && s.Busy() {
			runtime.Gosched() // see yield.go
		}
	}
	rem := s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
	var entry *ttEntry
	var key uint64
	alpha0, beta0 := alpha, beta
	hint := giretra.NoCard
	if t.n == 0 {
		if rem == 0 {
			return 0
		}
		n := rem.Count()
		if n == 4 {
			return s.lastTrick(t.leader)
		}
		remPts := s.setPoints(rem) + 10
		if remPts <= alpha {
			return remPts
		}
		if beta <= 0 {
			return 0
		}
		key = s.hash ^ leaderKey[t.leader]
		entry = &s.tt[key&s.mask]
		if entry.key == key && entry.gen == s.gen {
			lo, hi := int(entry.lo), int(entry.hi)
			if lo >= beta {
				return lo
			}
			if hi <= alpha {
				return hi
			}
			if lo == hi {
				return lo
			}
			alpha, beta = max(alpha, lo), min(beta, hi)
			hint = entry.best
		}
		// Not where Policy fixes cards; hands of other sizes are
		// inconsistent, and the general search gives them its answer.
		if n == 8 && (s.deep > 0 || s.PolicySeats == 0) &&
			s.hands[0].Count() == 2 && s.hands[1].Count() == 2 && s.hands[2].Count() == 2 {
			best := s.lastTwo(t.leader, alpha, beta)
			s.store(entry, key, best, alpha0, beta0, giretra.NoCard)
			return best
		}
	}
	p := t.next()
	moves := s.legal(s.hands[p], &t)
	if s.deep == 0 && s.PolicySeats&(1<<p) != 0 && moves&(moves-1) != 0 {
		gt := giretra.Trick{Leader: t.leader, N: t.n, Cards: t.cards}
		for i := t.n; i < 4; i++ {
			gt.Cards[i] = giretra.NoCard
		}
		if c := s.Policy(p, s.hands[p], &gt); c < 32 && moves.Has(c) {
			moves = c.Bit()
		}
	}
	if moves&(moves-1) != 0 {
		var live giretra.Set = rem
		for i := range t.n {
			live |= t.cards[i].Bit()
		}
		moves = s.dropEquivalent(moves, live)
	}
	maxing := p.Team() == s.maxTeam

	var list [8]giretra.Card
	n := s.orderMoves(&t, p, moves, &list, hint)
	best := -1
	if !maxing {
		best = 1000
	}
	bestC := giretra.NoCard
	for i := range n {
		c := list[i]
		v := s.play(t, p, c, alpha, beta)
		if s.Stopped {
			return 0
		}
		if maxing {
			if v > best {
				best, bestC = v, c
				if v > alpha {
					alpha = v
					if alpha >= beta {
						s.hist[c] += int32(rem.Count())
						break
					}
				}
			}
		} else if v < best {
			best, bestC = v, c
			if v < beta {
				beta = v
				if alpha >= beta {
					s.hist[c] += int32(rem.Count())
					break
				}
			}
		}
	}
	if t.n == 0 {
		s.store(entry, key, best, alpha0, beta0, bestC)
	}
	return best
}

// store records in e the value best of the position key, searched in the
// window (alpha0, beta0), and its best first card.
func (s *Solver) store(e *ttEntry, key uint64, best, alpha0, beta0 int, bestC giretra.Card) {
	if e.key != key || e.gen != s.gen {
		*e = ttEntry{key: key, gen: s.gen, lo: 0, hi: 1000}
	}
	switch {
	case best <= alpha0:
		e.hi = int16(min(int(e.hi), best))
	case best >= beta0:
		e.lo = int16(max(int(e.lo), best))
	default:
		e.lo, e.hi = int16(best), int16(best)
	}
	e.best = bestC
}

// lastTwo is ab at the start of the last two tricks, two cards a hand,
// as a plain enumeration of the first of them: at most 16 ways to play
// it, each followed by a forced last trick. Near half of the nodes of a
// deal searched from seven cards a hand lay in these two tricks, and
// there the move ordering and the equivalences cost more than they save
// (ab asks the table first and stores the result). Each way is a node.
func (s *Solver) lastTwo(leader giretra.Position, alpha, beta int) int {
	h := s.hands
	return s.two(&h, strick{leader: leader}, alpha, beta)
}

// two is fail-soft alpha-beta over the rest of the second-to-last trick t
// on the hands h, then the last trick.
func (s *Solver) two(h *[4]giretra.Set, t strick, alpha, beta int) int {
	p := t.next()
	maxing := p.Team() == s.maxTeam
	best := 1000
	if maxing {
		best = -1
	}
	for x := uint32(s.legal(h[p], &t)); x != 0; x &= x - 1 {
		c := giretra.Card(bits.TrailingZeros32(x))
		nt := t
		if nt.n > 0 && s.beats(c, nt.cards[nt.win]) {
			nt.win = nt.n
		}
		nt.cards[nt.n] = c
		nt.n++
		h[p] &^= c.Bit()
		var v int
		if nt.n < 4 {
			v = s.two(h, nt, alpha, beta)
		} else {
			s.Nodes++
			w := (nt.leader + giretra.Position(nt.win)) & 3
			v = s.lastTrickOf(h, w)
			if w.Team() == s.maxTeam {
				v += int(s.pts[nt.cards[0]]) + int(s.pts[nt.cards[1]]) + int(s.pts[nt.cards[2]]) + int(s.pts[nt.cards[3]])
			}
		}
		h[p] |= c.Bit()
		if maxing {
			best = max(best, v)
			alpha = max(alpha, v)
		} else {
			best = min(best, v)
			beta = min(beta, v)
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// lastTrick scores the final trick (one card per hand) for maxTeam.
func (s *Solver) lastTrick(leader giretra.Position) int {
	return s.lastTrickOf(&s.hands, leader)
}

// lastTrickOf scores the final trick of the hands h (one card each).
func (s *Solver) lastTrickOf(h *[4]giretra.Set, leader giretra.Position) int {
	t := strick{leader: leader}
	for range 4 {
		h := h[t.next()]
		if h == 0 {
			return 0 // inconsistent hands
		}
		c := h.First()
		if t.n > 0 && s.beats(c, t.cards[t.win]) {
			t.win = t.n
		}
		t.cards[t.n] = c
		t.n++
	}
	if ((leader + giretra.Position(t.win)) & 3).Team() != s.maxTeam {
		return 0
	}
	return int(s.pts[t.cards[0]]) + int(s.pts[t.cards[1]]) + int(s.pts[t.cards[2]]) + int(s.pts[t.cards[3]]) + 10
}

// dropEquivalent keeps one card of each run of cards that are adjacent in
// rank among the cards still in play (all, the current trick included) and
// worth the same points: playing one or another changes nothing.
func (s *Solver) dropEquivalent(moves, live giretra.Set) giretra.Set {
	out := moves
	for su := range 4 {
		m8 := uint8(moves >> (8 * su))
		if m8&(m8-1) == 0 {
			continue // fewer than two
		}
		// In strength order, a move goes when the live card just below it
		// is a move worth the same points.
		ms, ls := s.byStr[su][m8], s.byStr[su][uint8(live>>(8*su))]
		var drop uint8
		for x := ms; x != 0; x &= x - 1 {
			i := bits.TrailingZeros8(x)
			below := ls & (1<<i - 1)
			if below == 0 {
				continue
			}
			j := 7 - bits.LeadingZeros8(below)
			if ms&(1<<j) != 0 && s.strPts[su][j] == s.strPts[su][i] {
				drop |= 1 << i
			}
		}
		out &^= giretra.Set(s.byRank[su][drop]) << (8 * su)
	}
	return out
}

// orderMoves sorts moves, best guesses first, into list.
func (s *Solver) orderMoves(t *strick, p giretra.Position, moves giretra.Set, list *[8]giretra.Card, hint giretra.Card) int {
	var score [8]int32
	n := 0
	var wc giretra.Card
	partnerWins := false
	if t.n > 0 {
		wc = t.cards[t.win]
		partnerWins = (t.leader+giretra.Position(t.win))&3 == (p+2)&3
	}
	for x := uint32(moves); x != 0 && n < len(list); x &= x - 1 {
		c := giretra.Card(bits.TrailingZeros32(x))
		var sc int32
		switch {
		case c == hint:
			sc = 1 << 20
		case t.n == 0:
			// Lead: masters first (most points first), then low cards.
			others := (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) &^ s.hands[p]
			if s.stronger[c]&others == 0 {
				sc = 800 + int32(s.pts[c])
			} else {
				sc = 400 - int32(s.str[c])*4 - int32(s.pts[c])
			}
		default:
			beats := s.beats(c, wc)
			switch {
			case partnerWins && !beats:
				sc = 500 + int32(s.pts[c])*4 - int32(s.str[c])
			case partnerWins:
				sc = 50 - int32(s.pts[c])*4 - int32(s.str[c])
			case beats:
				sc = 1000 - int32(s.pts[c])*4 - int32(s.str[c])
			default:
				sc = 100 - int32(s.pts[c])*4 - int32(s.str[c])
			}
		}
		sc = sc*256 + min(s.hist[c], 255)
		i := n
		for i > 0 && score[i-1] < sc {
			score[i], list[i] = score[i-1], list[i-1]
			i--
		}
		score[i], list[i] = sc, c
		n++
	}
	return n
}

// classes maps every card of moves to the representative of its class of
// equivalent cards (see dropEquivalent) and returns the representatives.
func (s *Solver) classes(moves, live giretra.Set, rep *[32]giretra.Card) giretra.Set {
	reps := moves
	for c := range giretra.Card(32) {
		rep[c] = c
	}
	for su := range giretra.Suit(4) {
		if moves.OfSuit(su).Count() < 2 {
			continue
		}
		first := giretra.NoCard
		for _, c := range s.order[su] {
			if !live.Has(c) {
				continue
			}
			if !moves.Has(c) {
				first = giretra.NoCard
				continue
			}
			if first != giretra.NoCard && s.pts[c] == s.pts[first] {
				rep[c] = first
				reps &^= c.Bit()
				continue
			}
			first = c
		}
	}
	return reps
}
