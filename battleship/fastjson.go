package battleship

// parseStrikesFast reads the arena's history array — a JSON array of
// objects whose "target" and "result" values are strings without escapes —
// in one pass without allocating per entry. ok is false for anything else
// (the caller then uses encoding/json, which accepts every valid form).
func parseStrikesFast(b []byte) (out []Strike, ok bool) {
	i := skipWS(b, 0)
	if i < len(b) && b[i] == 'n' { // null
		return nil, len(b) >= i+4 && string(b[i:i+4]) == "null" && skipWS(b, i+4) == len(b)
	}
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return []Strike{}, skipWS(b, i+1) == len(b)
	}
	out = make([]Strike, 0, len(b)/36+1)
	for {
		if i >= len(b) || b[i] != '{' {
			return nil, false
		}
		i = skipWS(b, i+1)
		var target, result []byte
		if i < len(b) && b[i] == '}' {
			i++
		} else {
			for {
				var key, val []byte
				if key, i, ok = readPlainString(b, i); !ok {
					return nil, false
				}
				i = skipWS(b, i)
				if i >= len(b) || b[i] != ':' {
					return nil, false
				}
				i = skipWS(b, i+1)
				if val, i, ok = readPlainString(b, i); !ok {
					return nil, false
				}
				switch string(key) {
				case "target":
					target = val
				case "result":
					result = val
				}
				i = skipWS(b, i)
				if i < len(b) && b[i] == ',' {
					i = skipWS(b, i+1)
					continue
				}
				if i < len(b) && b[i] == '}' {
					i++
					break
				}
				return nil, false
			}
		}
		x, y, okT := parseTarget(target)
		out = append(out, Strike{X: x, Y: y, OK: okT, Result: parseResult(result)})
		if !okT {
			out[len(out)-1].X, out[len(out)-1].Y = 0, 0
		}
		i = skipWS(b, i)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
			continue
		}
		if i < len(b) && b[i] == ']' {
			return out, skipWS(b, i+1) == len(b)
		}
		return nil, false
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// readPlainString reads a JSON string with no escapes and no control
// characters; the result aliases b.
func readPlainString(b []byte, i int) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, i, false
	}
	j := i + 1
	for j < len(b) && b[j] != '"' {
		if b[j] == '\\' || b[j] < 0x20 {
			return nil, i, false
		}
		j++
	}
	if j >= len(b) {
		return nil, i, false
	}
	return b[i+1 : j], j + 1, true
}
