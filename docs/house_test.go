package docs

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// games are the houses: everything about a game lives under its folder.
var games = []string{"giretra", "battleship", "othello"}

// engines are the packages that decide and read the games' messages:
// they link no HTTP, router or metrics (the listeners and clients do),
// so a command-line engine or a test carries none of it.
var engines = []string{
	"giretra", "giretra/wire", "giretra/bot", "giretra/search", "giretra/agents", "giretra/middeal",
	"battleship", "battleship/wire", "battleship/agents",
	"othello", "othello/wire", "othello/bitboard", "othello/stdengine", "othello/variants", "othello/openings", "othello/jsonline", "othello/nboard",
}

// serving are the packages an engine may not link.
var serving = []string{"net/http", "github.com/go-chi/chi/v5", "github.com/prometheus/client_golang/prometheus"}

// TestHouseRules reads the module's import graph (go list -deps) and
// keeps its floors apart: an engine links no HTTP, chi or prometheus;
// internal/ and meta/ reach no game; no game reaches another; the std
// engine and the generic searcher of Othello reach neither the other.
func TestHouseRules(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list over the module")
	}
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", module+"/"+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	all, err := exec.Command("go", "list", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	under := func(pkg, house string) bool {
		return pkg == module+"/"+house || strings.HasPrefix(pkg, module+"/"+house+"/")
	}
	for _, p := range strings.Fields(string(all)) {
		rel := strings.TrimPrefix(p, module+"/")
		d := deps(rel)
		home := ""
		for _, g := range games {
			if under(p, g) {
				home = g
			}
		}
		for _, g := range games {
			reaches := slices.ContainsFunc(d, func(x string) bool { return under(x, g) })
			switch {
			case !reaches || g == home:
			case strings.HasPrefix(rel, "internal/") || rel == "meta" || strings.HasPrefix(rel, "meta/"):
				t.Errorf("%s reaches the game %s: internal/ and meta/ are game-agnostic", rel, g)
			case home != "":
				t.Errorf("%s reaches %s: a game's house holds everything about its game and reaches no other", rel, g)
			}
		}
		if slices.Contains(engines, rel) || strings.HasSuffix(rel, "/wire") {
			for _, s := range serving {
				if slices.ContainsFunc(d, func(x string) bool { return x == s || strings.HasPrefix(x, s+"/") }) {
					t.Errorf("the engine package %s links %s", rel, s)
				}
			}
		}
	}
	for _, pair := range [][2]string{{"othello/stdengine", "othello/variants"}, {"othello/variants", "othello/stdengine"}} {
		if slices.ContainsFunc(deps(pair[0]), func(x string) bool { return under(x, pair[1]) }) {
			t.Errorf("%s reaches %s: othello.Engine chooses between them, neither knows the other", pair[0], pair[1])
		}
	}
	for _, e := range engines {
		if !strings.Contains(string(all), module+"/"+e+"\n") {
			t.Errorf("the engine package %s is not in the module: keep the list true", e)
		}
	}
}
