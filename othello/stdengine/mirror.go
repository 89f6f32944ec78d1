package stdengine

// MirrorIndex maps each index of a stage's pattern tables to the index of
// the same configuration seen in a mirror: a kind whose squares a
// reflection of the board maps onto themselves (a row, a diagonal, the
// edge with its X squares, the 3×3 corner) reads a position and its
// mirror image through two entries that must hold one value. Fitting
// them as one weight doubles the data behind it, as Edax packs its
// tables. Kinds with no such reflection (the 2×5 corner) map to
// themselves, as does the disc-count table.
func (l *Layout) MirrorIndex() []int32 {
	out := make([]int32, l.tables)
	for i := range out {
		out[i] = int32(i)
	}
	for _, k := range l.kinds {
		perm := selfReflection(l.inst[k.first])
		pow := make([]int, len(perm))
		p := 1
		for j := range pow {
			pow[j] = p
			p *= 3
		}
		for i := range pow3(k.squares) {
			m, x := 0, i
			for j := range perm {
				m += x % 3 * pow[perm[j]]
				x /= 3
			}
			out[k.offset+i] = int32(k.offset + m)
		}
	}
	return out
}

// selfReflection finds a reflection of the board that maps the squares
// onto themselves and returns where it sends each (perm[j] is the
// position in sq of the image of sq[j]); the identity when there is none.
func selfReflection(sq []int8) []int {
	// The board's four reflections as symmetry numbers: left–right,
	// top–bottom, the a1–h8 diagonal, the a8–h1 diagonal.
	reflections := []int{1, 2, 4, 7}
	pos := map[int]int{}
	for j, s := range sq {
		pos[int(s)] = j
	}
	for _, t := range reflections {
		perm := make([]int, len(sq))
		ok, moved := true, false
		for j, s := range sq {
			k, in := pos[int(symmetry(s, t))]
			if !in {
				ok = false
				break
			}
			perm[j] = k
			moved = moved || k != j
		}
		if ok && moved {
			return perm
		}
	}
	perm := make([]int, len(sq))
	for j := range perm {
		perm[j] = j
	}
	return perm
}
