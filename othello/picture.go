package othello

// Picture is the board as one character a square, row by row from a1:
// '.' empty, 'x' black, 'o' white, '#' blocked — what the browser table
// and the leg viewer draw, so that neither page knows the mode's shape.
func (s *State) Picture() string {
	b := make([]byte, len(s.Cells))
	for sq, c := range s.Cells {
		switch c {
		case Black:
			b[sq] = 'x'
		case White:
			b[sq] = 'o'
		default:
			b[sq] = '.'
		}
	}
	for _, sq := range s.Mode.Blocked() {
		b[sq] = '#'
	}
	return string(b)
}
