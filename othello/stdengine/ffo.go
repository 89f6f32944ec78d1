package stdengine

import "fmt"

// FFOPosition is a position of the FFO endgame test suite (public test
// data) with its published exact score and best moves.
type FFOPosition struct {
	Name     string // "FFO #40"
	Position        // the side to move's discs (P), the other's (O)
	Score    int    // the exact final disc difference for the side to move
	Best     []int  // the best moves (squares a1 = 0 … h8 = 63)
}

// FFO returns FFO #40–#49 (20 to 26 empties): the solver's benchmark, and
// the positions engines are commonly timed on against each other.
func FFO() []FFOPosition {
	suite := []struct {
		board string // a1…h8: X black, O white, - empty
		black bool   // black to move
		score int
		best  []int
	}{
		{"O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------", true, 38, []int{8}},        // a2
		{"-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O-", true, 0, []int{31}},        // h4
		{"--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO--", true, 6, []int{14}},        // g2
		{"--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX-", false, -12, []int{50, 22}}, // c7, g3
		{"--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX--", false, -14, []int{11, 57}}, // d2, b8
		{"---XXXX-X-XXXO--XXOXOO--XXXOXO--XXOXXO---OXXXOO-O-OOOO------OO--", true, 6, []int{9}},         // b2
		{"---XXX----OOOX----OOOXX--OOOOXXX--OOOOXX--OXOXXX--XXOO---XXXX-O-", true, -8, []int{17}},       // b3
		{"-OOOOO----OOOO---OOOOX--XXXXXX---OXOOX--OOOXOX----OOXX----XXXX--", false, 4, []int{14}},       // g2
		{"-----X--X-XXX---XXXXOO--XOXOOXX-XOOXXX--XOOXX-----OOOX---XXXXXX-", false, 28, []int{45}},      // f6
		{"--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O---", true, 16, []int{4}},        // e1
	}
	out := make([]FFOPosition, len(suite))
	for i, t := range suite {
		var x, o uint64
		for sq, c := range t.board {
			switch c {
			case 'X':
				x |= 1 << uint(sq)
			case 'O':
				o |= 1 << uint(sq)
			}
		}
		pos := Position{P: x, O: o}
		if !t.black {
			pos = Position{P: o, O: x, White: true}
		}
		out[i] = FFOPosition{Name: fmt.Sprintf("FFO #%d", 40+i), Position: pos, Score: t.score, Best: t.best}
	}
	return out
}
