package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/botarena/gamebot/internal/browsertest"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/table"
	"github.com/botarena/gamebot/internal/table/tabletest"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/record"
	"github.com/botarena/gamebot/othello/words"
	"github.com/chromedp/chromedp/kb"
)

// TestCatalogues: the three languages' catalogues hold the same keys
// with the same verbs (i18n.Check); every key the table, its page and
// script, the review and its viewer name is in them, and every key in
// them is named somewhere: a missing one would show as its bare key, an
// unused one is a text nobody reads.
func TestCatalogues(t *testing.T) {
	for _, bad := range i18n.Check() {
		t.Error(bad)
	}
	en := i18n.Catalogue(i18n.EN, words.Prefix)
	key := `"([a-zA-Z0-9.]+)"`
	goKeys := regexp.MustCompile(`(?:T\(|key :?= |Key: |Key = |Key, e\.Args = )` + key)
	sources := []struct {
		glob, prefix string
		re           *regexp.Regexp
	}{
		{"*.go", "", goKeys},
		{"*.go", "setup.", regexp.MustCompile(`invalid\(w, ` + key)},
		{"../report/*.go", "", goKeys},
		{"../words/*.go", "", goKeys},
		{"page.js", "js.", regexp.MustCompile(`T\(` + key)},
		{"../report/viewer.js", "viewer.", regexp.MustCompile(`T\(` + key)},
		{"page.html.tmpl", "", regexp.MustCompile(`t "othello\.([a-zA-Z0-9.]+)"`)},
		{"../report/*.html.tmpl", "", regexp.MustCompile(`t "othello\.([a-zA-Z0-9.]+)"`)},
	}
	named := map[string]bool{}
	for _, src := range sources {
		files, _ := filepath.Glob(src.glob)
		if len(files) == 0 {
			t.Fatalf("no file %s", src.glob)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range src.re.FindAllStringSubmatch(string(b), -1) {
				k := src.prefix + m[1]
				if strings.HasSuffix(k, ".") {
					continue // a family named at run time: checked below
				}
				named[k] = true
				if _, ok := en[k]; !ok {
					t.Errorf("%s names %q, which no catalogue holds", f, k)
				}
			}
		}
	}
	// The families whose keys are made at run time: each member.
	families := map[string][]string{
		"reason.":        {"end", "timeout", "illegal", "failed", "resigned", "abandoned"},
		"start.":         {"initial", "xot", "random"},
		"review.start.":  {"initial", "xot", "random"},
		"review.person.": {"you", "friend"},
		"setup.field.":   {"opponent", "a", "b"},
	}
	for _, m := range othello.Modes() {
		families["mode."] = append(families["mode."], m.String())
		families["about."] = append(families["about."], m.String())
	}
	for fam, members := range families {
		for _, m := range members {
			k := fam + m
			named[k] = true
			if _, ok := en[k]; !ok {
				t.Errorf("no %q", k)
			}
		}
	}
	for k := range en {
		if !named[k] {
			t.Errorf("%q is in the catalogues, and nothing names it", k)
		}
	}
	t.Logf("%d keys named, %d in the catalogue", len(named), len(en))
}

// callIn makes a request as a browser set to lang does (Accept-Language).
func (c client) callIn(lang, method, path, body string) (int, []byte) {
	c.t.Helper()
	return c.srv.CallIn(c.t, lang, method, path, body)
}

// viewIn is the view of token's seat in lang, once past after.
func (c client) viewIn(lang, token string, after int) viewBody {
	c.t.Helper()
	code, b := c.callIn(lang, "GET", fmt.Sprintf("/play/api/tables/%s?after=%d", token, after), "")
	var v viewBody
	if code != 200 || json.Unmarshal(b, &v) != nil {
		c.t.Fatalf("view in %s: %d %s", lang, code, b)
	}
	return v
}

// yourMove waits until the leg asks token's seat for a move.
func (c client) yourMove(token string) viewBody {
	c.t.Helper()
	v := c.view(token, -1)
	for !v.View.Over && len(v.View.Legs[0].Legal) == 0 {
		v = c.view(token, v.Seq)
	}
	return v
}

func logOf(v View) string {
	var b strings.Builder
	for _, l := range v.Log {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

// TestLanguagesByHTTP: the table writes its texts in the reader's
// language: the game's line, the headline, the log, the players' names,
// the refusals of a setup and of an action, a watcher's names, the
// lobby's line, the result and the review.
func TestLanguagesByHTTP(t *testing.T) {
	_, c := newHub(t, "")
	for _, tc := range []struct{ lang, body, want string }{
		{"fr-FR,fr;q=0.9", `{"mode":"chess"}`, `Mode : game_mode \"chess\" inconnu`},
		{"fr", `{"mode":"std","opponent":"deep-blue"}`, `Adversaire \"deep-blue\" : choisissez parmi first, slow, gamebot-1, person.`},
		{"fr", `{"mode":"grand","start":"xot"}`, "les ouvertures XOT sont des ouvertures std (mode grand"},
		{"mg", `{"mode":"std","clock":"blitz"}`, `Famantaranandro \"blitz\": misafidiana none`},
		{"mg", `{"mode":"std","table":"watch","b":"nobody"}`, `Motera B \"nobody\": misafidiana iray amin'ireto: first, slow, gamebot-1.`},
		{"mg", `{"mode":"std","pace":-5}`, "Fiatoana -5: misafidiana 0 ka hatramin'ny 5000 ms."},
	} {
		if code, b := c.callIn(tc.lang, "POST", "/play/api/othello/tables", tc.body); code != 400 || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s %s: %d %s, want 400 with %q", tc.lang, tc.body, code, b, tc.want)
		}
	}

	// A leg against level 1, the person white, set up by a French browser.
	code, b := c.callIn("fr", "POST", "/play/api/othello/tables", `{"mode":"std","colour":"white","opponent":"gamebot-1","pace":0,"seed":5}`)
	var cr table.Created
	if code != 201 || json.Unmarshal(b, &cr) != nil {
		t.Fatalf("creating: %d %s", code, b)
	}
	id, watch := cr.Token, tabletest.Token(cr.Watch)
	v := c.yourMove(id)
	fr, mg := c.viewIn("fr", id, -1).View, c.viewIn("mg", id, -1).View
	const level1fr, level1mg = "gamebot, niveau 1 (profondeur 1)", "gamebot, ambaratonga 1 (halalina 1)"
	for _, check := range []struct{ what, got, want string }{
		{"fr game", fr.Game, "std — Othello 8×8, depuis la position initiale, sans pendule"},
		{"fr headline", fr.Headline, "À vous de jouer."},
		{"fr log", logOf(fr), "Othello, depuis la position initiale : " + level1fr + " (noir) contre vous (blanc), sans pendule."},
		{"fr log", logOf(fr), "Noir (" + level1fr + ") joue "},
		{"fr title", fr.Legs[0].Title, level1fr + " – vous"},
		{"mg game", mg.Game, "std — Othello 8×8, fanombohana: ny toerana fanombohana, tsy misy famantaranandro"},
		{"mg headline", mg.Headline, "Anjaranao."},
		{"mg log", logOf(mg), "Mainty (" + level1mg + "): "},
		{"mg players", mg.Legs[0].Players[1].Name, "ianao"},
	} {
		if !strings.Contains(check.got, check.want) {
			t.Errorf("%s: %q, want %q in it", check.what, check.got, check.want)
		}
	}
	if w := c.viewIn("fr", watch, -1).View; w.Legs[0].Players[1].Name != "une personne" || w.Headline != "En attente de Blanc (une personne)…" {
		t.Errorf("a watcher in French: %q, %q", w.Legs[0].Players[1].Name, w.Headline)
	}
	refused := func(lang, token string, seq int, action string, status int, want string) {
		t.Helper()
		code, b := c.callIn(lang, "POST", "/play/api/tables/"+token+"/actions", fmt.Sprintf(`{"seq":%d,"action":%s}`, seq, action))
		if code != status || !strings.Contains(string(b), want) {
			t.Errorf("%s %s: %d %s, want %d with %q", lang, action, code, b, status, want)
		}
	}
	refused("fr", id, v.Seq-1, `{"move":"d3"}`, 409, "action périmée : décidée sur la version")
	refused("fr", id, v.Seq, `{"move":"a1"}`, 422, `\"a1\" n'est pas un de vos coups`)
	refused("mg", id, v.Seq, `{"move":"a1"}`, 422, `tsy anisan'ny fametrahana azonao atao \"a1\"`)
	refused("mg", id, v.Seq, `{"control":"pause"}`, 422, "ny lalao jerena ihany no manana baiko")
	refused("fr", watch, v.Seq, `{"move":"d3"}`, 403, "un spectateur ne décide rien")
	at, err := c.srv.Hub.Table(id)
	if err != nil {
		t.Fatal(err)
	}
	if s := at.Table.Summary(i18n.For(i18n.FR)); s.Title != "Othello : "+level1fr+" – vous" || !strings.HasPrefix(s.Status, "coup ") {
		t.Errorf("the lobby's line in French: %+v", s)
	}

	for !v.View.Over {
		code, b := c.do("POST", "/play/api/tables/"+id+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"move":%q}}`, v.Seq, v.View.Legs[0].Legal[0]))
		if code != 200 {
			t.Fatalf("move: %d %s", code, b)
		}
		v = c.yourMove(id)
	}
	fr, mg = c.viewIn("fr", id, -1).View, c.viewIn("mg", id, -1).View
	if !strings.Contains(fr.Result, "gagne") && !strings.Contains(fr.Result, "partie nulle") || fr.Headline != "Terminé." {
		t.Errorf("the end in French: %q, %q", fr.Result, fr.Headline)
	}
	if !strings.Contains(mg.Result, "no nandresy") && !strings.Contains(mg.Result, "sahala") || mg.Headline != "Tapitra." {
		t.Errorf("the end in Malagasy: %q, %q", mg.Result, mg.Headline)
	}
	if s := at.Table.Summary(i18n.For(i18n.MG)); !strings.HasPrefix(s.Status, "tapitra: ") {
		t.Errorf("the lobby's line in Malagasy: %+v", s)
	}

	// The review in each language: the page, the names, the leg's line
	// and the viewer's words; the record stays as the referee reads it.
	for lang, want := range map[string][]string{
		"en": {`<html lang="en">`, "Othello: gamebot, level 1 (depth 1) – you", "Leg viewer", "std, initial start: gamebot, level 1 (depth 1) (black) – you (white)", `"passBlack":"Black passes: no legal move."`},
		"fr": {`<html lang="fr">`, "Othello : " + level1fr + " – vous", "Visionneuse de manches", "départ initial : " + level1fr + " (noir) – vous (blanc)", "Résultats", `"step":"coup %[1]d sur %[2]d : %[3]s %[4]s"`},
		"mg": {`<html lang="mg">`, "Othello: " + level1mg + " – ianao", "Mpijery tapany", "Vokatra", `"pass":"mandalo"`},
	} {
		code, page := c.callIn(lang, "GET", "/play/tables/"+id+"/review", "")
		if code != 200 {
			t.Fatalf("%s: review %d %.200s", lang, code, page)
		}
		for _, w := range want {
			if !bytes.Contains(page, []byte(w)) {
				t.Errorf("%s: the review lacks %q", lang, w)
			}
		}
	}
	_, rec := c.callIn("fr", "GET", "/play/tables/"+id+"/record", "")
	legs, err := record.Read(bytes.NewReader(rec))
	if err != nil || legs[0].Players[0].Name != "gamebot, level 1 (depth 1)" || legs[0].Players[1].Name != "you" {
		t.Errorf("the record read in French: %v %s", err, rec)
	}

	// A friend's seat is named in its creator's language.
	code, b = c.callIn("mg", "POST", "/play/api/othello/tables", `{"mode":"anti","colour":"white","opponent":"person"}`)
	if code != 201 || json.Unmarshal(b, &cr) != nil || len(cr.Seats) != 1 || cr.Seats[0].Name != "Mainty" {
		t.Errorf("a friend's seat set up in Malagasy: %d %s", code, b)
	}

	// A watched match: its controls, legs and pauses in the reader's words.
	code, b = c.callIn("mg", "POST", "/play/api/othello/tables", `{"mode":"reversi","table":"watch","a":"first","b":"first","pace":5000}`)
	if code != 201 || json.Unmarshal(b, &cr) != nil {
		t.Fatalf("a watched match: %d %s", code, b)
	}
	w := c.viewIn("mg", cr.Token, -1)
	refused("mg", tabletest.Token(cr.Watch), w.Seq, `{"control":"pause"}`, 403, "an'izay nandamina ny lalao ihany")
	if code, b := c.callIn("fr", "POST", "/play/api/tables/"+cr.Token+"/actions", fmt.Sprintf(`{"seq":%d,"action":{"control":"pause"}}`, w.Seq)); code != 200 {
		t.Fatalf("pause: %d %s", code, b)
	}
	fr = c.viewIn("fr", cr.Token, -1).View
	mg = c.viewIn("mg", cr.Token, -1).View
	if fr.Headline != "En pause." || !strings.Contains(logOf(fr), "En pause") || fr.Legs[1].Title != "Manche 2 : first-move (B) – first-move (A)" ||
		!strings.HasPrefix(fr.Game, "reversi — Reversi classique : le centre d'abord") {
		t.Errorf("a paused match in French: %q, %q, %q, %q", fr.Headline, logOf(fr), fr.Legs[1].Title, fr.Game)
	}
	if mg.Headline != "Miato." || !strings.Contains(logOf(mg), "Miato") || !strings.HasPrefix(mg.Legs[0].Title, "Tapany 1: ") {
		t.Errorf("a paused match in Malagasy: %q, %q, %q", mg.Headline, logOf(mg), mg.Legs[0].Title)
	}
}

// TestTimeoutInLanguages: a person whose clock runs out reads it in
// their language, in the log and the result.
func TestTimeoutInLanguages(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g, _ := Game(testConfig())
		tb, _, err := g.New(t.Context(), []byte(`{"mode":"std","clock":"flipsight","opponent":"first","pace":0}`), table.Env{ID: "TESTTABLE", Notify: func() {}})
		if err != nil {
			t.Fatal(err)
		}
		defer tb.Close()
		time.Sleep(FlipSightClock + time.Second)
		synctest.Wait()
		for lang, want := range map[i18n.Lang][2]string{
			i18n.FR: {"Noir (vous) a dépassé son temps", "(temps dépassé)"},
			i18n.MG: {"Mainty (ianao) dia lany fotoana", "(lany fotoana)"},
		} {
			_, v := tb.View(table.Viewer{Seat: table.Seat(othello.Black), P: i18n.For(lang)})
			if view := v.(View); !strings.Contains(logOf(view), want[0]) || !strings.Contains(view.Result, want[1]) || view.Game != words.For(lang).T("game", "std", words.For(lang).About(othello.Std), words.For(lang).Start("initial"), words.For(lang).Clock(FlipSightClock)) {
				t.Errorf("%s: %q; %q; %q", lang, logOf(view), view.Result, view.Game)
			}
		}
	})
}

// TestPageLanguages: a French browser gets the table in French and a
// Malagasy one in Malagasy — the setup and its engines, the keys help,
// the game's line, the headline, the log, a refusal, the result and the
// review — with <html lang> following; the page's switch changes the
// language and the choice is remembered.
func TestPageLanguages(t *testing.T) {
	_, c := newHub(t, "")
	p := browsertest.OpenURLWith(t, c.srv.URL+"/play/othello", "setup-form", browsertest.Options{Width: 1366, Height: 768, Lang: "fr-FR,fr;q=0.9"})
	if lang := p.Attr("html", "lang"); lang != "fr" || p.TextOf("#setup-h") != "Nouvelle table" || p.TextOf("#start-button") != "Commencer" {
		t.Fatalf("a French browser gets %q: %q, %q", lang, p.TextOf("#setup-h"), p.TextOf("#start-button"))
	}
	option := func(sel string) string {
		return browsertest.Eval[string](p, `document.querySelector(`+strconv.Quote(sel)+`).textContent`)
	}
	if o := option(`#opponent option[value="gamebot-1"]`); o != "gamebot, niveau 1 (profondeur 1)" {
		t.Errorf("the engine in French: %q", o)
	}
	if o := option(`#mode option[value="anti"]`); o != "anti — anti-Othello : le moins de pions gagne" {
		t.Errorf("the mode in French: %q", o)
	}
	p.Press("?")
	p.Wait("#help:not([hidden])")
	if h := p.TextOf("#help"); !strings.Contains(h, "Touches") || !strings.Contains(h, "taper un coup (d3), puis Entrée") {
		t.Errorf("the keys help in French: %q", h)
	}
	p.Press("?")
	for id, v := range map[string]string{"mode": "std", "colour": "black", "opponent": "gamebot-1", "pace": "0"} {
		if err := p.Select(id, v); err != nil {
			t.Fatal(err)
		}
	}
	p.ClickOn("#start-button")
	p.Wait(`body[data-turn="you"]`)
	id := tabletest.Token(p.Location())
	if g, h := p.TextOf("#game"), p.TextOf("#headline"); g != "std — Othello 8×8, depuis la position initiale, sans pendule" || h != "À vous de jouer." {
		t.Errorf("the table in French: %q, %q", g, h)
	}
	if l := p.TextOf("#log"); !strings.Contains(l, "Othello, depuis la position initiale : vous (noir) contre gamebot, niveau 1 (profondeur 1) (blanc), sans pendule.") {
		t.Errorf("the log in French: %q", l)
	}
	if a := p.Attr(".board button.sq.legal", "aria-label"); !strings.HasSuffix(a, " : vide, votre coup") {
		t.Errorf("a square's name in French: %q", a)
	}
	// A square the view does not offer: the page says so in French.
	p.ClickOn("#sq-0-a1")
	p.WaitUntil(`document.querySelector("#status").textContent !== ""`)
	if msg := p.TextOf("#status"); msg != "a1 n'est pas un de vos coups maintenant." {
		t.Errorf("a square not offered, in French: %q", msg)
	}
	// A typed move the rules refuse: the server's 422 in French, in a
	// second tab (the browser logs the 422, which Check would count).
	o := browsertest.OpenURLWith(t, c.srv.URL+"/play/othello?t="+url.QueryEscape(id), "board-0", browsertest.Options{Lang: "fr"})
	o.Wait(`body[data-turn="you"]`)
	o.Type("#move-input", "a1"+kb.Enter)
	o.WaitUntil(`document.querySelector("#status").textContent.includes("a1")`)
	if msg := o.TextOf("#status"); !strings.Contains(msg, `"a1" n'est pas un de vos coups`) {
		t.Errorf("a refused move in French: %q", msg)
	}
	playLeg(t, c, p, id, "std")
	res := p.TextOf("#result")
	if !strings.Contains(res, "gagne") && !strings.Contains(res, "partie nulle") || p.TextOf("#again-btn") != "Rejouer, couleurs inversées" || !p.InViewport("#result") {
		t.Errorf("the end in French: %q", res)
	}
	p.Check()

	// The same table in a Malagasy browser, then switched to French.
	q := browsertest.OpenURLWith(t, c.srv.URL+"/play/othello?t="+url.QueryEscape(id), "board-0", browsertest.Options{Width: 390, Height: 844, Lang: "mg"})
	q.Wait(`body[data-over="1"]`)
	if lang := q.Attr("html", "lang"); lang != "mg" || q.TextOf("#headline") != "Tapitra." || q.TextOf("#review-link") != "Averina jerena: ny lisitry ny fametrahana, ny isa sy ny halalin'ny motera" {
		t.Errorf("a Malagasy browser gets %q: %q, %q", lang, q.TextOf("#headline"), q.TextOf("#review-link"))
	}
	if r := q.TextOf("#result"); !strings.Contains(r, "no nandresy") && !strings.Contains(r, "sahala") {
		t.Errorf("the result in Malagasy: %q", r)
	}
	if l := q.TextOf("#log"); !strings.Contains(l, "Fotsy (gamebot, ambaratonga 1 (halalina 1)): ") {
		t.Errorf("the log in Malagasy: %q", l)
	}
	browsertest.Eval[bool](q, `(() => { const s = document.getElementById("lang"); s.value = "fr"; s.dispatchEvent(new Event("change")); return true; })()`)
	q.Wait(`html[lang="fr"] body[data-over="1"]`)
	if h := q.TextOf("#headline"); h != "Terminé." {
		t.Errorf("after the switch to French: %q", h)
	}
	q.Reload("#board-0")
	q.Wait(`body[data-over="1"]`)
	if lang := q.Attr("html", "lang"); lang != "fr" || q.TextOf("header h1") != "Othello" || q.TextOf("#help-btn") != "Touches (?)" {
		t.Errorf("the choice was not remembered: %q, %q", lang, q.TextOf("#help-btn"))
	}
	q.Check()

	// The review, stepped through in Malagasy.
	r := browsertest.OpenURLWith(t, c.srv.URL+"/play/tables/"+url.PathEscape(id)+"/review", "board", browsertest.Options{Lang: "mg"})
	if lang := r.Attr("html", "lang"); lang != "mg" || r.TextOf("#viewer h2") != "Mpijery tapany" || !strings.Contains(r.Text("step-label"), "fametrahana ") {
		t.Errorf("the review in Malagasy: %q, %q, %q", lang, r.TextOf("#viewer h2"), r.Text("step-label"))
	}
	r.Press(kb.Home)
	if got := r.Text("step-label"); got != "fanombohana" {
		t.Errorf("the Malagasy viewer at the start: %q", got)
	}
	r.Press(kb.ArrowRight)
	if got := r.Text("step-label"); !strings.HasPrefix(got, "fametrahana 1 amin'ny ") || !strings.Contains(got, ": mainty ") {
		t.Errorf("the Malagasy viewer's first move: %q", got)
	}
	if got := r.Text("counts"); got != "mainty 4 – fotsy 1" {
		t.Errorf("the Malagasy viewer's counts: %q", got)
	}
	r.Check()
}

// TestEngineMenu: the setup's engine menus name our levels in the page's
// language, and write an engine's id and title from the command line as
// text, escaped by the hub's template like any value.
func TestEngineMenu(t *testing.T) {
	cfg := testConfig()
	cfg.Engines = append(cfg.Engines, EngineSpec{ID: `x"><b>`, Title: `<i>"}}{{t "x"}}`, Player: cfg.Engines[0].Player})
	nb, err := ParseEngine("ntest=nboard:/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Engines = append(cfg.Engines, nb)
	g, err := Game(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := tabletest.New(t, table.NewHub(table.HubConfig{}, g))
	for lang, want := range map[string][]string{
		"en": {`<option value="gamebot-1">gamebot, level 1 (depth 1)</option>`, `>ntest (NBoard engine, std only)</option>`},
		"fr": {`<option value="gamebot-1">gamebot, niveau 1 (profondeur 1)</option>`, `>ntest (moteur NBoard, std seulement)</option>`},
		"mg": {`<option value="gamebot-1">gamebot, ambaratonga 1 (halalina 1)</option>`, `>ntest (motera NBoard, std ihany)</option>`},
	} {
		code, page := client{t, srv}.callIn(lang, "GET", "/play/othello", "")
		if code != 200 {
			t.Fatalf("%s: %d", lang, code)
		}
		for _, w := range append(want, `<option value="x&#34;&gt;&lt;b&gt;">&lt;i&gt;&#34;}}{{t &#34;x&#34;}}</option>`) {
			if !bytes.Contains(page, []byte(w)) {
				t.Errorf("%s: the page lacks %s", lang, w)
			}
		}
		if n := bytes.Count(page, []byte(`value="gamebot-1"`)); n != 3 {
			t.Errorf("%s: level 1 is in %d menus, want 3 (opponent, A, B)", lang, n)
		}
	}
}
