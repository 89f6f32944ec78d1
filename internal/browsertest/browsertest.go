// Package browsertest opens a page in headless Chromium for a test: a
// self-contained HTML file (the reports of internal/htmlreport), which
// must request nothing but itself, or a page served by a test server (the
// browser tables of gamebot play), which must request nothing from
// another origin. Either must load with no console error and no
// exception. Tests import it; no command does.
package browsertest

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// Chromium finds a Chromium binary; .ci/run installs Debian's chromium,
// so the browser tests never skip in CI.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium binary on PATH (Debian: apt-get install chromium): the report's browser test cannot run")
	return ""
}

// Page is a page open in headless Chromium.
type Page struct {
	t   testing.TB
	Ctx context.Context // the browser tab, for chromedp actions
	url string
	// origin, when set (a served page), is the prefix every request must
	// have; a file page may request only itself.
	origin string

	mu                           sync.Mutex
	problems, warnings, requests []string
}

// Open loads the page at path (a file) and waits until the element with
// id ready is visible. The browser closes when the test ends.
func Open(t testing.TB, path, ready string) *Page {
	t.Helper()
	return open(t, "file://"+path, "", ready, Options{})
}

// OpenURL loads a served page (http://127.0.0.1:port/…) and waits until
// the element with id ready is visible; the page may request anything
// from its own origin and nothing from another.
func OpenURL(t testing.TB, pageURL, ready string) *Page {
	t.Helper()
	return OpenURLWith(t, pageURL, ready, Options{})
}

// Options open a page as a given person's browser would.
type Options struct {
	// Width and Height are the window's size in CSS pixels (0: the
	// headless default, 800×600); under 600 wide the browser is a phone's
	// (mobile layout, touch).
	Width, Height int
	// Lang is the browser's Accept-Language ("": none sent).
	Lang string
}

// OpenURLWith is OpenURL in a browser set as o says.
func OpenURLWith(t testing.TB, pageURL, ready string, o Options) *Page {
	t.Helper()
	u, err := url.Parse(pageURL)
	if err != nil || u.Host == "" {
		t.Fatalf("OpenURL(%q): not a served page", pageURL)
	}
	return open(t, pageURL, u.Scheme+"://"+u.Host+"/", ready, o)
}

func open(t testing.TB, pageURL, origin, ready string, o Options) *Page {
	t.Helper()
	exe := Chromium(t)
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
	// No time limit of its own: a loaded machine runs a page slowly, not
	// wrongly, and a browser killed mid-test by a deadline leaves chromedp
	// to start another on the same context. go test's -timeout catches a
	// page that hangs.
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(cancelBrowser)
	p := &Page{t: t, Ctx: bctx, url: pageURL, origin: origin}

	p.listen()
	if err := chromedp.Do(bctx, setup(o)...); err != nil {
		t.Fatalf("setting chromium up: %v", err)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(p.url), chromedp.WaitVisible(chromedp.ID(ready))); err != nil {
		t.Fatalf("loading %s: %v", pageURL, err)
	}
	return p
}

// listen collects what the browser reports: the requests, the blocked
// ones, the browser's own errors and the page's console.
func (p *Page) listen() {
	console := chromedp.Console(p.Ctx)
	if err := chromedp.Listen(p.Ctx, p.event); err != nil {
		p.t.Fatalf("starting chromium: %v", err)
	}
	go func() {
		for m, err := range console {
			if err != nil {
				return
			}
			switch {
			case m.Type == chromedp.ConsoleError || m.IsException():
				p.problem(m.String())
			case m.Type == chromedp.ConsoleWarning:
				// Reported, not a failure: a browser's own warnings vary by version.
				p.mu.Lock()
				p.warnings = append(p.warnings, m.String())
				p.mu.Unlock()
			}
		}
	}()
}

func (p *Page) problem(s string) {
	p.mu.Lock()
	p.problems = append(p.problems, s)
	p.mu.Unlock()
}

func (p *Page) event(ev any) {
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		p.mu.Lock()
		p.requests = append(p.requests, e.Request.URL)
		p.mu.Unlock()
	case *network.EventLoadingFailed:
		// A request the page's security policy (or anything else)
		// blocked is the page asking for what it may not.
		if e.BlockedReason != "" {
			p.problem(fmt.Sprintf("a request was blocked (%s)", e.BlockedReason))
		}
	case *cdplog.EventEntryAdded:
		// The browser's own log: a content-security-policy violation
		// lands here, not in the page's console. A request answered with
		// an error status is logged too; the page reads those answers (a
		// refused action, a table gone) and says why itself.
		if e.Entry != nil && e.Entry.Level == cdplog.EntryLevelError && e.Entry.Source != cdplog.EntrySourceNetwork {
			p.problem(fmt.Sprintf("browser log (%s): %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL))
		}
	}
}

// setup is what sets the browser up as o says, its log listened to.
func setup(o Options) []chromedp.Action[chromedp.Void] {
	steps := []chromedp.Action[chromedp.Void]{chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{})
		return err
	})}
	if o.Lang != "" {
		steps = append(steps, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": o.Lang}})
			return err
		}))
	}
	if o.Width > 0 {
		steps = append(steps, viewport(o.Width, o.Height))
	}
	return steps
}

// viewport sizes the window; under 600 CSS pixels wide, as a phone.
func viewport(w, h int) chromedp.Action[chromedp.Void] {
	if w < 600 {
		return chromedp.EmulateViewport(int64(w), int64(h), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3))
	}
	return chromedp.EmulateViewport(int64(w), int64(h))
}

// Resize gives the window another size (see Options).
func (p *Page) Resize(w, h int) {
	p.t.Helper()
	if err := chromedp.Do(p.Ctx, viewport(w, h)); err != nil {
		p.t.Fatalf("resizing to %dx%d: %v", w, h, err)
	}
}

// InViewport reports whether the first element matching sel is shown
// (not hidden, with a box) and lies wholly inside the window as it is
// scrolled now: what a person sees without scrolling.
func (p *Page) InViewport(sel string) bool {
	p.t.Helper()
	return Eval[bool](p, `(() => { const e = document.querySelector(`+strconv.Quote(sel)+`); if (!e || e.closest("[hidden]")) return false;
		const r = e.getBoundingClientRect(); if (!r.width || !r.height) return false;
		return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; })()`)
}

// Shown reports whether the first element matching sel is displayed: not
// hidden itself or by an ancestor, and with a box.
func (p *Page) Shown(sel string) bool {
	p.t.Helper()
	return Eval[bool](p, `(() => { const e = document.querySelector(`+strconv.Quote(sel)+`); if (!e || e.closest("[hidden]")) return false;
		const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden"; })()`)
}

// Text is the text of the element with id.
func (p *Page) Text(id string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.Ctx, chromedp.Text(chromedp.ID(id)))
	if err != nil {
		p.t.Fatalf("reading #%s: %v", id, err)
	}
	return s
}

// Click clicks the element with id.
func (p *Page) Click(id string) {
	p.t.Helper()
	if err := chromedp.Do(p.Ctx, chromedp.Click(chromedp.ID(id))); err != nil {
		p.t.Fatalf("clicking #%s: %v", id, err)
	}
}

// Select picks the option of value in the <select> with id, as a user
// does: the value changes and the element fires "change".
func (p *Page) Select(id, value string) error {
	if err := chromedp.Do(p.Ctx, chromedp.SetValue(chromedp.ID(id), value)); err != nil {
		return err
	}
	_, err := chromedp.Run(p.Ctx, chromedp.Evaluate[bool](`document.getElementById(`+strconv.Quote(id)+`).dispatchEvent(new Event("change"))`))
	return err
}

// Key types key (kb.ArrowLeft, "a") into the page.
func (p *Page) Key(key string) error {
	return chromedp.Do(p.Ctx, chromedp.KeyEvent(key))
}

// Eval evaluates a JavaScript expression in the page.
func Eval[T any](p *Page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.Ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// Await evaluates a JavaScript expression whose value is a promise (a
// fetch the page makes) and returns what it resolves to.
func Await[T any](p *Page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.Ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("awaiting %s: %v", expr, err)
	}
	return v
}

// Check fails the test on a console error or exception so far, or on a
// request for anything but the page itself (a file page) or its origin (a
// served page); it logs console warnings.
func (p *Page) Check() {
	p.t.Helper()
	time.Sleep(200 * time.Millisecond) // let late console messages arrive
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.problems) > 0 {
		p.t.Errorf("console: %q", p.problems)
	}
	for _, w := range p.warnings {
		p.t.Logf("console %s", w)
	}
	if !slices.Contains(p.requests, p.url) {
		p.t.Errorf("the network listener saw no request for the page itself (%q)", p.requests)
	}
	for _, r := range p.requests {
		if p.origin != "" && !strings.HasPrefix(r, p.origin) || p.origin == "" && r != p.url {
			p.t.Errorf("the page requested %s", r)
		}
	}
}

// Wait waits until an element matching the CSS selector is visible (a
// served page's test waits on what the page shows, never on time).
func (p *Page) Wait(sel string) {
	p.t.Helper()
	if err := chromedp.Do(p.Ctx, chromedp.WaitVisible(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("waiting for %s: %v", sel, err)
	}
}

// WaitUntil waits until the JavaScript expression is truthy in the page,
// evaluated at each change of the page's DOM (what the page shows, never
// time). Where the condition is about many elements (a count), it is
// judged by the page itself rather than by a selector over chromedp's copy
// of the DOM.
func (p *Page) WaitUntil(expr string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.Ctx, chromedp.Poll[bool](expr, chromedp.WithPollingMutation(), chromedp.WithPollingTimeout(0))); err != nil {
		p.t.Fatalf("waiting until %s: %v", expr, err)
	}
}

// Count is the number of elements matching the CSS selector now.
func (p *Page) Count(sel string) int {
	p.t.Helper()
	nodes, err := chromedp.Run(p.Ctx, chromedp.Nodes(chromedp.CSSAll(sel), chromedp.AtLeast(0)))
	if err != nil {
		p.t.Fatalf("looking for %s: %v", sel, err)
	}
	return len(nodes)
}

// ClickOn clicks the first element matching the CSS selector, once it is
// visible.
func (p *Page) ClickOn(sel string) {
	p.t.Helper()
	if err := chromedp.Do(p.Ctx, chromedp.WaitVisible(chromedp.CSS(sel)), chromedp.Click(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("clicking %s: %v", sel, err)
	}
}

// Focus gives the element matching the CSS selector the keyboard focus.
func (p *Page) Focus(sel string) {
	p.t.Helper()
	if err := chromedp.Do(p.Ctx, chromedp.Focus(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("focusing %s: %v", sel, err)
	}
}

// Type types text (keys included: kb.Enter) into the element matching
// the CSS selector, as a person does.
func (p *Page) Type(sel, text string) {
	p.t.Helper()
	if err := chromedp.Do(p.Ctx, chromedp.SendKeys(chromedp.CSS(sel), text)); err != nil {
		p.t.Fatalf("typing into %s: %v", sel, err)
	}
}

// Press types keys (kb.ArrowLeft, kb.Enter, "a") into whatever has the
// focus.
func (p *Page) Press(keys string) {
	p.t.Helper()
	if err := chromedp.Do(p.Ctx, chromedp.KeyEvent(keys)); err != nil {
		p.t.Fatalf("pressing %q: %v", keys, err)
	}
}

// Attr is an attribute of the first element matching the CSS selector
// ("" when it has none).
func (p *Page) Attr(sel, name string) string {
	p.t.Helper()
	r, err := chromedp.Run(p.Ctx, chromedp.AttributeValue(chromedp.CSS(sel), name))
	if err != nil {
		p.t.Fatalf("reading %s's %s: %v", sel, name, err)
	}
	return r.Value
}

// TextOf is the text of the first element matching the CSS selector.
func (p *Page) TextOf(sel string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.Ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		p.t.Fatalf("reading %s: %v", sel, err)
	}
	return v
}

// Reload reloads the page (a person's F5) and waits for sel.
func (p *Page) Reload(sel string) {
	p.t.Helper()
	if err := chromedp.Do(p.Ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("reloading: %v", err)
	}
}

// Location is the page's current URL.
func (p *Page) Location() string {
	p.t.Helper()
	u, err := chromedp.Run(p.Ctx, chromedp.Location())
	if err != nil {
		p.t.Fatalf("reading the location: %v", err)
	}
	return u
}
