package main

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/botarena/gamebot/internal/record"
)

// chromium finds a Chromium binary; .ci/run installs Debian's chromium,
// so the browser test never skips in CI.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium binary on PATH (Debian: apt-get install chromium): the report's browser test cannot run")
	return ""
}

// browseReport opens the report page in headless Chromium: it must load
// with no console error, exception or network request, and the deal
// viewer must step through the bidding and the first trick of the first
// recorded deal.
func browseReport(t *testing.T, page string, first *record.Match) {
	t.Helper()
	exe := chromium(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()

	var mu sync.Mutex
	var problems, warnings, requests []string
	console := chromedp.Console(bctx)
	if err := chromedp.Listen(bctx, func(ev any) {
		if r, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requests = append(requests, r.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	go func() {
		for m, err := range console {
			if err != nil {
				return
			}
			switch {
			case m.Type == chromedp.ConsoleError || m.IsException():
				mu.Lock()
				problems = append(problems, m.String())
				mu.Unlock()
			case m.Type == chromedp.ConsoleWarning:
				// Reported, not a failure: a browser's own warnings vary by version.
				mu.Lock()
				warnings = append(warnings, m.String())
				mu.Unlock()
			}
		}
	}()
	url := "file://" + page
	if err := chromedp.Do(bctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.ID("next"))); err != nil {
		t.Fatalf("loading the report: %v", err)
	}
	text := func(id string) string {
		s, err := chromedp.Run(bctx, chromedp.Text(chromedp.ID(id)))
		if err != nil {
			t.Fatalf("reading #%s: %v", id, err)
		}
		return s
	}
	count := func(seat int) string {
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](fmt.Sprintf(`document.getElementById("hand-%d").children.length + ""`, seat)))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	d := first.Deals[0]
	if got := text("step-label"); !strings.Contains(got, "the first five cards dealt") || count(0) != "5" {
		t.Errorf("at step 0: %q, %s cards at Bottom", got, count(0))
	}
	// Through the bidding, the last three cards, and the first trick.
	for range len(d.Bids) + 1 + 4 {
		if err := chromedp.Do(bctx, chromedp.Click(chromedp.ID("next"))); err != nil {
			t.Fatal(err)
		}
	}
	tr := d.Tricks[0]
	winner := [4]string{"Bottom", "Left", "Top", "Right"}[tr.Winner]
	if got, want := text("trick-info"), fmt.Sprintf("Trick 1: %s takes %d", winner, tr.Points); got != want {
		t.Errorf("after the first trick: %q, want %q", got, want)
	}
	if got := text("contract"); !strings.Contains(got, "Contract: ") {
		t.Errorf("contract %q", got)
	}
	for seat := range 4 {
		if count(seat) != "7" {
			t.Errorf("seat %d holds %s cards after one trick", seat, count(seat))
		}
	}
	bids, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll("#bids li").length`))
	if err != nil || bids != len(d.Bids) {
		t.Errorf("%d bids shown, want %d (%v)", bids, len(d.Bids), err)
	}
	// And back one step.
	if err := chromedp.Do(bctx, chromedp.Click(chromedp.ID("prev"))); err != nil {
		t.Fatal(err)
	}
	if got := text("trick-info"); !strings.Contains(got, "to play") {
		t.Errorf("one step back: %q", got)
	}
	time.Sleep(200 * time.Millisecond) // let late console messages arrive
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("console: %q", problems)
	}
	for _, w := range warnings {
		t.Logf("console %s", w)
	}
	if !slices.Contains(requests, url) {
		t.Errorf("the network listener saw no request for the page itself (%q)", requests)
	}
	for _, r := range requests {
		if r != url {
			t.Errorf("the page requested %s", r)
		}
	}
}
