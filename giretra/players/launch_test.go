package players

import (
	"slices"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`run  "a b" c\"d ""`, []string{"run", "a b", `c"d`, ""}},
		{"", nil},
		{"build -trimpath -o bin/gamebot ./cmd/gamebot", []string{"build", "-trimpath", "-o", "bin/gamebot", "./cmd/gamebot"}},
	}
	for _, tt := range tests {
		if got := SplitArgs(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SplitArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
