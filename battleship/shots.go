package battleship

// Result is the arena's answer to one shot.
type Result uint8

const (
	// Miss is the empty result "" (water, or a cell of a ship already sunk).
	Miss Result = iota
	// Hit is "hit": a ship cell, the ship still afloat.
	Hit
	// Sunk is "hit and sunk" (or "hit sunk and win"): the shot completed a
	// ship. It does not say which ship.
	Sunk
)

// ParseResult maps the arena's result text: anything starting with "hit" is
// a hit, anything also containing "sunk" sinks a ship.
func ParseResult(s string) Result { return parseResult(s) }

// ParseResultBytes is ParseResult on bytes (no allocation).
func ParseResultBytes(s []byte) Result { return parseResult(s) }

func parseResult[T string | []byte](s T) Result {
	if len(s) < 3 || s[0] != 'h' || s[1] != 'i' || s[2] != 't' {
		return Miss
	}
	for i := 3; i+4 <= len(s); i++ {
		if s[i] == 's' && s[i+1] == 'u' && s[i+2] == 'n' && s[i+3] == 'k' {
			return Sunk
		}
	}
	return Hit
}

// Strike is one entry of a shot history. OK is false for a target that is
// not a canonical in-bounds "x,y" (the arena records such shots but they
// never hit anything, and they say nothing about any cell).
type Strike struct {
	X, Y   int
	OK     bool
	Result Result
}

// ParseTarget reads a canonical "x,y" (decimal, no sign, no leading zero,
// nothing else) as the arena compares it with ship cells. ok is false for
// anything else.
func ParseTarget(s string) (x, y int, ok bool) { return parseTarget(s) }

// ParseTargetBytes is ParseTarget on bytes (no allocation).
func ParseTargetBytes(s []byte) (x, y int, ok bool) { return parseTarget(s) }

func parseTarget[T string | []byte](s T) (x, y int, ok bool) {
	x, rest, ok := canonInt(s)
	if !ok || len(rest) == 0 || rest[0] != ',' {
		return 0, 0, false
	}
	y, rest, ok = canonInt(rest[1:])
	if !ok || len(rest) != 0 {
		return 0, 0, false
	}
	return x, y, true
}

func canonInt[T string | []byte](s T) (int, T, bool) {
	i, n := 0, 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if i >= 6 { // far beyond any board
			return 0, s, false
		}
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i == 0 || (i > 1 && s[0] == '0') {
		return 0, s, false
	}
	return n, s[i:], true
}

// FormatTarget is the canonical "x,y".
func FormatTarget(x, y int) string {
	var b [16]byte
	n := len(b)
	put := func(v int) {
		if v == 0 {
			n--
			b[n] = '0'
		}
		for v > 0 {
			n--
			b[n] = byte('0' + v%10)
			v /= 10
		}
	}
	put(y)
	n--
	b[n] = ','
	put(x)
	return string(b[n:])
}

// Cell states of the observation grid.
const (
	cellUnknown uint8 = iota
	cellWater
	cellHit
	cellSunk
)

// observe folds a history into per-cell states. Repeats are deduplicated,
// a hit dominates any other result on the same cell (re-shooting a sunk
// ship answers ""), and the time of a hit is the first shot that hit it.
// Off-board or non-canonical strikes are ignored.
func observe(r Rules, shots []Strike, state []uint8, when []int32) {
	clear(state)
	for t, s := range shots {
		if !s.OK || s.X < 0 || s.Y < 0 || s.X >= r.W || s.Y >= r.H {
			continue
		}
		c := s.Y*r.W + s.X
		switch s.Result {
		case Miss:
			if state[c] == cellUnknown {
				state[c] = cellWater
			}
		case Hit:
			if state[c] == cellUnknown || state[c] == cellWater {
				state[c] = cellHit
				when[c] = int32(t)
			}
		case Sunk:
			if state[c] != cellSunk {
				state[c] = cellSunk
				when[c] = int32(t)
			}
		}
	}
}
