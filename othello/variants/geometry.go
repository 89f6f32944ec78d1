package variants

// geometry describes the squares of a board shape that matter to the
// evaluation: anchors (squares that can never be flipped once taken: a disc
// there has, on every line, an edge or blocked square next to it), their
// diagonal and orthogonal neighbours, and a static square value used for
// move ordering.
type geometry struct {
	size    int
	blocked []bool
	anchors []int
	diag    [][]int
	orth    [][]int
	sqv     []int
	lines   [4][][]int // per direction (E, N, NE, NW): every line of playable squares
	edge    [4][]int   // squares with an edge or blocked neighbour on that direction
}

// directions are the four line directions: E, N, NE, NW.
var directions = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

func newGeometry(size int, r Rules) *geometry {
	g := &geometry{size: size, blocked: make([]bool, size*size), sqv: make([]int, size*size)}
	for _, b := range r.Blocked {
		g.blocked[b] = true
	}
	g.findAnchors()
	g.findNeighbours()
	for _, a := range g.anchors {
		g.sqv[a] = 100
	}
	g.findLines()
	if r.Misere {
		for i := range g.sqv {
			g.sqv[i] = -g.sqv[i]
		}
	}
	return g
}

// off reports whether (c, r) is off the board or blocked.
func (g *geometry) off(c, r int) bool {
	return c < 0 || r < 0 || c >= g.size || r >= g.size || g.blocked[r*g.size+c]
}

// findAnchors finds the anchors, and values the squares on an edge.
func (g *geometry) findAnchors() {
	size := g.size
	for sq := range size * size {
		if g.blocked[sq] {
			continue
		}
		c, r := sq%size, sq/size
		anchor, edge := true, false
		for _, d := range directions {
			a, b := g.off(c+d[0], r+d[1]), g.off(c-d[0], r-d[1])
			if !a && !b {
				anchor = false
			}
			edge = edge || a || b
		}
		if anchor {
			g.anchors = append(g.anchors, sq)
		}
		if edge {
			g.sqv[sq] = 10
		}
	}
}

// findNeighbours finds each anchor's diagonal and orthogonal neighbours,
// and values them below the edge.
func (g *geometry) findNeighbours() {
	size := g.size
	for _, a := range g.anchors {
		var dg, or []int
		c, r := a%size, a/size
		for dc := -1; dc <= 1; dc++ {
			for dr := -1; dr <= 1; dr++ {
				if (dc == 0 && dr == 0) || g.off(c+dc, r+dr) {
					continue
				}
				n := (r+dr)*size + c + dc
				if dc != 0 && dr != 0 {
					dg = append(dg, n)
					g.sqv[n] = min(g.sqv[n], -50)
				} else {
					or = append(or, n)
					g.sqv[n] = min(g.sqv[n], -20)
				}
			}
		}
		g.diag = append(g.diag, dg)
		g.orth = append(g.orth, or)
	}
}

// findLines finds, in each direction, every line of playable squares and
// the squares with an edge or blocked neighbour on it.
func (g *geometry) findLines() {
	size := g.size
	for d, v := range directions {
		seen := make([]bool, size*size)
		for sq := range size * size {
			if g.blocked[sq] || seen[sq] {
				continue
			}
			c, r := sq%size, sq/size
			if g.off(c+v[0], r+v[1]) || g.off(c-v[0], r-v[1]) {
				g.edge[d] = append(g.edge[d], sq)
			}
			// Walk back to the start of the segment, then forward.
			for !g.off(c-v[0], r-v[1]) {
				c, r = c-v[0], r-v[1]
			}
			var ln []int
			for ; !g.off(c, r); c, r = c+v[0], r+v[1] {
				ln = append(ln, r*size+c)
				seen[r*size+c] = true
			}
			g.lines[d] = append(g.lines[d], ln)
		}
	}
}
