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

func newGeometry(size int, r Rules) *geometry {
	g := &geometry{size: size, blocked: make([]bool, size*size), sqv: make([]int, size*size)}
	for _, b := range r.Blocked {
		g.blocked[b] = true
	}
	off := func(c, r int) bool {
		return c < 0 || r < 0 || c >= size || r >= size || g.blocked[r*size+c]
	}
	lines := [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}
	for sq := range size * size {
		if g.blocked[sq] {
			continue
		}
		c, r := sq%size, sq/size
		anchor, edge := true, false
		for _, d := range lines {
			a, b := off(c+d[0], r+d[1]), off(c-d[0], r-d[1])
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
	for _, a := range g.anchors {
		var dg, or []int
		c, r := a%size, a/size
		for dc := -1; dc <= 1; dc++ {
			for dr := -1; dr <= 1; dr++ {
				if (dc == 0 && dr == 0) || off(c+dc, r+dr) {
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
	for _, a := range g.anchors {
		g.sqv[a] = 100
	}
	for d, v := range lines {
		seen := make([]bool, size*size)
		for sq := range size * size {
			if g.blocked[sq] || seen[sq] {
				continue
			}
			c, r := sq%size, sq/size
			if off(c+v[0], r+v[1]) || off(c-v[0], r-v[1]) {
				g.edge[d] = append(g.edge[d], sq)
			}
			// Walk back to the start of the segment, then forward.
			for !off(c-v[0], r-v[1]) {
				c, r = c-v[0], r-v[1]
			}
			var ln []int
			for ; !off(c, r); c, r = c+v[0], r+v[1] {
				ln = append(ln, r*size+c)
				seen[r*size+c] = true
			}
			g.lines[d] = append(g.lines[d], ln)
		}
	}
	if r.Misere {
		for i := range g.sqv {
			g.sqv[i] = -g.sqv[i]
		}
	}
	return g
}
