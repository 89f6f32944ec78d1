package othello

import (
	"fmt"
	"strconv"
	"strings"
)

// SquareName formats square sq of a size×size board as a coordinate: column
// letter a–j then row 1–10 ("d3", "j10").
func SquareName(sq, size int) string {
	if size <= 0 || sq < 0 || sq >= size*size {
		return fmt.Sprintf("?%d", sq)
	}
	return string(rune('a'+sq%size)) + strconv.Itoa(sq/size+1)
}

// ParseSquare parses a coordinate such as "d3", "D3", "j10" or "J0" (row 10
// may be written 0 on 10×10 boards) into a square index. It does not accept
// passes; see ParseMove.
func ParseSquare(s string, size int) (int, error) {
	if size != 8 && size != 10 {
		return 0, fmt.Errorf("board size %d: want 8 or 10", size)
	}
	t := strings.ToLower(strings.TrimSpace(s))
	if len(t) < 2 || len(t) > 3 {
		return 0, fmt.Errorf("invalid coordinate %q", s)
	}
	col := int(t[0]) - 'a'
	if col < 0 || col >= size {
		return 0, fmt.Errorf("invalid coordinate %q: column outside a–%c", s, 'a'+size-1)
	}
	row, err := strconv.Atoi(t[1:])
	if err != nil || t[1] == '+' || t[1] == '-' || (len(t) == 3 && t[1] == '0') {
		return 0, fmt.Errorf("invalid coordinate %q", s)
	}
	if size == 10 && row == 0 && len(t) == 2 {
		row = 10
	}
	if row < 1 || row > size {
		return 0, fmt.Errorf("invalid coordinate %q: row outside 1–%d", s, size)
	}
	return (row-1)*size + col, nil
}

// ParseMove parses a move as FlipSight accepts it: a square index, a
// coordinate, or a pass ("pass", "PA", "PS", "--", -1). Pass is returned as -1.
func ParseMove(s string, size int) (int, error) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "pass", "pa", "ps", "--", "-1":
		return -1, nil
	}
	if n, err := strconv.Atoi(t); err == nil {
		if n < -1 || n >= size*size {
			return 0, fmt.Errorf("move %d outside the board", n)
		}
		return n, nil
	}
	return ParseSquare(t, size)
}
