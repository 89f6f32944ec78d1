package table_test

import (
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/browsertest"
	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/internal/table/tabletest"
)

// TestLobbyPage: the lobby lists the browser's own tables in aligned
// columns, refreshes itself as tables come and change, and offers a
// review only where one exists.
func TestLobbyPage(t *testing.T) {
	var made []*tabletest.Counter
	_, srv := serve(t, table.HubConfig{}, nil, tabletest.CounterGame(&made))
	p := browsertest.OpenURLWith(t, srv.URL+"/play", "games", browsertest.Options{Width: 1366, Height: 768})
	if !p.Shown("#no-tables") || p.Shown("#tables") {
		t.Fatal("an empty lobby does not say so")
	}
	// Two tables set up from this browser (its cookie names it).
	create := `fetch("/play/api/counter/tables", {method: "POST", headers: {"Content-Type": "application/json"}, body: "{\"start\": 1}"}).then(r => r.status)`
	for range 2 {
		if code := browsertest.Await[float64](p, create); code != 201 {
			t.Fatalf("creating a table from the page: %v", code)
		}
	}
	made[0].Finish()
	// The list refreshes itself when the page is shown again (and every
	// few seconds).
	browsertest.Eval[bool](p, `document.dispatchEvent(new Event("visibilitychange")), true`)
	p.WaitUntil(`document.querySelectorAll("#tables-body tr").length === 2`)
	if p.Shown("#no-tables") || !p.Shown("#tables") {
		t.Fatal("the lobby with tables still says it has none")
	}
	reviews := browsertest.Eval[float64](p, `document.querySelectorAll('#tables-body a[href$="/review"]').length`)
	if reviews != 1 {
		t.Fatalf("%v review links, want 1 (the finished table's)", reviews)
	}
	// Columns: every row has a cell for each heading.
	if n := browsertest.Eval[float64](p, `[...document.querySelectorAll("#tables-body tr")].filter(r => r.cells.length !== document.querySelectorAll("#tables thead th").length).length`); n != 0 {
		t.Fatalf("%v rows out of the columns", n)
	}
	if txt := p.TextOf("#tables-body"); !strings.Contains(txt, "counter") {
		t.Fatalf("the rows: %q", txt)
	}
	p.Check()
}
