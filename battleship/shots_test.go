package battleship

import "testing"

func TestParseTarget(t *testing.T) {
	tests := []struct {
		in   string
		x, y int
		ok   bool
	}{
		{"0,0", 0, 0, true}, {"9,5", 9, 5, true}, {"99,100", 99, 100, true},
		{"04,2", 0, 0, false}, {"4,02", 0, 0, false}, {"3,4\n", 0, 0, false}, {" 3,4", 0, 0, false},
		{"3,4,5", 0, 0, false}, {"-1,2", 0, 0, false}, {"3", 0, 0, false}, {"", 0, 0, false},
		{"a,b", 0, 0, false}, {"1234567,1", 0, 0, false}, {"3.0,4", 0, 0, false},
	}
	for _, tt := range tests {
		x, y, ok := ParseTarget(tt.in)
		if ok != tt.ok || (ok && (x != tt.x || y != tt.y)) {
			t.Errorf("ParseTarget(%q) = %d,%d,%v want %d,%d,%v", tt.in, x, y, ok, tt.x, tt.y, tt.ok)
		}
	}
	for _, c := range [][2]int{{0, 0}, {10, 3}, {99, 99}, {7, 100}} {
		s := FormatTarget(c[0], c[1])
		if x, y, ok := ParseTarget(s); !ok || x != c[0] || y != c[1] {
			t.Errorf("round trip %v -> %q -> %d,%d,%v", c, s, x, y, ok)
		}
	}
}

func TestParseResult(t *testing.T) {
	for in, want := range map[string]Result{
		"": Miss, "hit": Hit, "hit and sunk": Sunk, "hit sunk and win": Sunk, "miss": Miss, "HIT": Miss, "hi": Miss,
	} {
		if got := ParseResult(in); got != want {
			t.Errorf("ParseResult(%q) = %d, want %d", in, got, want)
		}
	}
}
