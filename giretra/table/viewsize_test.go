package table

import (
	"sort"
	"strings"
	"testing"
)

// TestViewSize: a view is sent after every card, so it carries what
// changed: a finished deal's detail (every hand, the tricks, our bot's
// values) goes once, when it changes, and the log only its latest lines.
// Run with -v for the figures of a whole match.
func TestViewSize(t *testing.T) {
	ts := newTestServer(t)
	id := ts.create(t, `{"seats": ["Eva", "you", "Kialasoa", "bot"], "target": 151, "seed": 11, "pace": 0}`)
	ts.play(t, id, simple, nil)
	var sizes []int
	for _, s := range ts.viewsOf(id) {
		sizes = append(sizes, len(s))
	}
	sort.Ints(sizes)
	p50, p90, top := sizes[len(sizes)/2], sizes[len(sizes)*9/10], sizes[len(sizes)-1]
	t.Logf("%d views: p50 %d B, p90 %d B, max %d B", len(sizes), p50, p90, top)
	if p90 > 4<<10 {
		t.Errorf("nine views in ten weigh up to %d bytes: a view carries a part that did not change", p90)
	}
	if !strings.Contains(string(ts.viewsOf(id)[len(sizes)-1]), `"detailN"`) {
		t.Error("a view does not say which deal it details")
	}
}
