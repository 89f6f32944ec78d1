package table

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/botarena/gamebot/battleship/words"
	"github.com/botarena/gamebot/internal/browsertest"
	"github.com/botarena/gamebot/internal/i18n"
	"github.com/botarena/gamebot/internal/table/tabletest"
)

// callIn makes a request as a browser set to lang does (Accept-Language).
func (ts *testServer) callIn(t *testing.T, lang, method, path, body string) (int, []byte) {
	t.Helper()
	return ts.CallIn(t, lang, method, path, body)
}

// viewIn is the view of token's seat in lang.
func (ts *testServer) viewIn(t *testing.T, lang, token string) View {
	t.Helper()
	code, b := ts.callIn(t, lang, "GET", "/play/api/tables/"+token+"?after=-1", "")
	var vb struct{ View View }
	if code != 200 || json.Unmarshal(b, &vb) != nil {
		t.Fatalf("view in %s: %d %s", lang, code, b)
	}
	return vb.View
}

// TestCatalogues: the catalogues of the three languages hold the same
// keys with the same verbs (i18n.Check), and every key the table, its
// page, the report and its viewer name is in them: a missing one would
// show as its bare key.
func TestCatalogues(t *testing.T) {
	for _, bad := range i18n.Check() {
		t.Error(bad)
	}
	en := i18n.Catalogue(i18n.EN, words.Prefix)
	sources := map[string]*regexp.Regexp{
		// Go: the keys a reader's T, sayT or youOr is given.
		"*.go": regexp.MustCompile(`"((?:dir|err|fault|log|now|result|review|shot|status|why)\.[a-zA-Z.]+|title)"`),
		// The page's script: T("key"), under js.
		"page.js": regexp.MustCompile(`T\((?:[^"()]*\? )?"([a-zA-Z.]+)"(?: : "([a-zA-Z.]+)")?`),
		// The viewer's script: T("key"), under viewer.
		"../report/duel.js": regexp.MustCompile(`T\("([a-zA-Z.]+)"`),
		// Templates: {{t "battleship.key"}}.
		"page.html":             regexp.MustCompile(`t "battleship\.([a-zA-Z.]+)"`),
		"../report/*.html.tmpl": regexp.MustCompile(`t "battleship\.([a-zA-Z.]+)"`),
		"../report/report.go":   regexp.MustCompile(`T\("([a-zA-Z.]+)"`),
		"../words/words.go":     regexp.MustCompile(`T\("([a-zA-Z.]+)"`),
	}
	seen := 0
	for glob, re := range sources {
		files, _ := filepath.Glob(glob)
		if len(files) == 0 {
			t.Fatalf("no file %s", glob)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range re.FindAllStringSubmatch(string(src), -1) {
				for _, k := range m[1:] {
					if k == "" || strings.HasSuffix(k, ".") {
						continue // a key made at run time: shot. + the answer
					}
					switch glob {
					case "page.js":
						k = "js." + k
					case "../report/duel.js":
						k = "viewer." + k
					}
					seen++
					if _, ok := en[k]; !ok {
						t.Errorf("%s names %q, which no catalogue holds", f, k)
					}
				}
			}
		}
	}
	for _, r := range []string{"miss", "hit", "sunk"} {
		for _, k := range []string{"js.shot." + r, "viewer." + r} {
			if _, ok := en[k]; !ok {
				t.Errorf("no %q", k)
			}
		}
	}
	t.Logf("%d keys named, %d in the catalogue", seen, len(en))
}

// TestLanguagesByHTTP: the server writes its texts in the reader's
// language: the log, refusals, the result, a bot's fault, the lobby's
// line and the review; a watcher's texts name the person, and a watcher
// still decides nothing.
func TestLanguagesByHTTP(t *testing.T) {
	ts := newTestServer(t, Config{}, "")
	c := ts.CreateTable(t, "battleship", `{"width": 5, "height": 4, "ship1": 1, "ship2": 0, "ship3": 1, "ship4": 0, "ship5": 0, "pace_ms": 0, "seed": 3, "name": "Ana"}`)
	id, watch := c.Token, tabletest.Token(c.Watch)
	seq, _ := ts.until(t, id, func(v View) bool { return strings.Contains(logText(v), "has placed its fleet") })
	for lang, want := range map[string][]string{
		"fr-FR,fr;q=0.9": {"Grille 5x4", "Placez votre flotte.", "gamebot a placé sa flotte."},
		"mg":             {"Takelaka 5x4", "Apetraho ny sambonao.", "Efa nametraka ny sambony i gamebot."},
	} {
		if got := logText(ts.viewIn(t, lang, id)); !containsAll(got, want) {
			t.Errorf("%s: the log reads %s", lang, got)
		}
	}
	if got := logText(ts.viewIn(t, "fr", watch)); !strings.Contains(got, "Ana place sa flotte.") || strings.Contains(got, "Placez") {
		t.Errorf("a watcher's log in French: %s", got)
	}
	refused := func(lang, token string, seq int, action string, status int, has string) {
		t.Helper()
		code, b := ts.callIn(t, lang, "POST", "/play/api/tables/"+token+"/actions", fmt.Sprintf(`{"seq": %d, "action": %s}`, seq, action))
		if code != status || !strings.Contains(string(b), has) {
			t.Errorf("%s %s: %d %s, want %d with %q", lang, action, code, b, status, has)
		}
	}
	refused("fr", id, seq, `{"type": "place", "x": 4, "y": 0, "len": 3}`, 422, "Un navire de 3 en 4,0 à l'horizontale sort de la grille 5x4.")
	refused("mg", id, seq, `{"type": "place", "x": 4, "y": 0, "len": 3}`, 422, "mihoatra ny takelaka 5x4")
	refused("fr", id, seq, `{"type": "start"}`, 422, "il reste à placer des navires de longueur 3, 1")
	refused("mg", id, seq, `{"type": "shoot", "x": 0, "y": 0}`, 422, "mametraka ny sambonao ianao")
	refused("fr", id, seq-1, `{"type": "clear"}`, 409, "action périmée")
	refused("fr", watch, seq, `{"type": "random"}`, 403, "Un spectateur ne décide rien")
	refused("mg", watch, seq, `{"type": "random"}`, 403, "Tsy manapa-kevitra ny mpijery")
	if code, b := ts.callIn(t, "fr", "GET", "/play/tables/"+id+"/review", ""); code != http.StatusConflict || !strings.Contains(string(b), "fin de la partie") {
		t.Errorf("the review of a game in play, in French: %d %s", code, b)
	}
	at, err := ts.Hub.Table(id)
	if err != nil {
		t.Fatal(err)
	}
	if s := at.Table.Summary(i18n.For(i18n.FR)); s.Status != "vous placez votre flotte" || s.Title != "Ana contre gamebot, 5x4" {
		t.Errorf("the lobby's line in French: %+v", s)
	}

	ts.mustAct(t, id, seq, `{"type": "random"}`)
	ts.mustAct(t, id, seq+1, `{"type": "start"}`)
	v := ts.playOut(t, id)
	fr, mg, frWatch := ts.viewIn(t, "fr", id), ts.viewIn(t, "mg", id), ts.viewIn(t, "fr", watch)
	youWin, winner := "Vous gagnez.", "Ana gagne."
	mgWin := "Mandresy ianao."
	if !v.Result.Won {
		youWin, winner, mgWin = "Vous perdez.", "gamebot gagne.", "Resy ianao."
	}
	shots := fmt.Sprintf("Vous avez tiré %d fois, gamebot %d.", v.Result.Shots[0], v.Result.Shots[1])
	if !containsAll(fr.Result.Why, []string{youWin, shots}) || !strings.Contains(logText(fr), "Vous tirez en") {
		t.Errorf("the end in French: %q; %s", fr.Result.Why, logText(fr))
	}
	if !strings.Contains(mg.Result.Why, mgWin) || !strings.Contains(logText(mg), "Mitifitra ny") || !strings.Contains(logText(mg), "ianao:") {
		t.Errorf("the end in Malagasy: %q; %s", mg.Result.Why, logText(mg))
	}
	if !strings.Contains(frWatch.Result.Why, winner) || strings.Contains(frWatch.Result.Why, "Vous") || !strings.Contains(logText(frWatch), "Ana tire en") {
		t.Errorf("the end for a watcher in French: %q; %s", frWatch.Result.Why, logText(frWatch))
	}
	if s := at.Table.Summary(i18n.For(i18n.MG)); !strings.HasPrefix(s.Status, "tapitra: ") {
		t.Errorf("the lobby's line in Malagasy: %+v", s)
	}

	// The review of one game, in each language: its result, each side's
	// shots and the viewer; nothing of a report over many games.
	for lang, want := range map[string][]string{
		"en": {`<html lang="en">`, "Battleship: Ana vs gamebot", "Duel viewer", winner[:strings.Index(winner, " ")] + " wins.", "shots fired", `"subject":-1`},
		"fr": {`<html lang="fr">`, "Bataille navale : Ana contre gamebot", "Visionneuse de duels", winner, "tirs", `"step0":"étape 0/%d : flottes placées"`},
		"mg": {`<html lang="mg">`, "Ady an-dranomasina: Ana — gamebot", "Mpijery ady", "tifitra natao", `"miss":"diso"`},
	} {
		code, page := ts.callIn(t, lang, "GET", "/play/tables/"+id+"/review", "")
		if code != 200 {
			t.Fatalf("%s: review %d %.200s", lang, code, page)
		}
		for _, w := range want {
			if !bytes.Contains(page, []byte(w)) {
				t.Errorf("%s: the review lacks %q", lang, w)
			}
		}
		for _, not := range []string{"Wilson", "interval", "Latency", "histogram", "Vous", "You "} {
			if bytes.Contains(page, []byte(not)) {
				t.Errorf("%s: the review of one game holds %q", lang, not)
			}
		}
	}
}

// TestFaultInLanguages: a bot server's bad answer loses it the game, said
// in the reader's language, quoting nothing it sent.
func TestFaultInLanguages(t *testing.T) {
	bot := newFakeBot(t)
	ts := newTestServer(t, Config{}, "")
	id, _ := startAgainst(t, ts, bot.URL+"/bot?fleet=b&bad=2", "you")
	ts.playOut(t, id)
	for lang, want := range map[string]string{
		"fr": "a mal répondu (sa réponse n'est pas de celles que l'arène accepte : le tir est mal formé ou hors de la grille 6x4) : sur l'arène, cela perd la partie. Vous gagnez.",
		"mg": "(tsy ekena eo amin'ny kianja ny valiny: diso endrika na ivelan'ny takelaka 6x4 ny tifitra): eo amin'ny kianja dia resy amin'izany ny lalao. Mandresy ianao.",
	} {
		if got := ts.viewIn(t, lang, id).Result.Why; !strings.Contains(got, want) {
			t.Errorf("%s: %q", lang, got)
		}
	}
}

func containsAll(s string, subs []string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// TestPageLanguages: a French browser gets the table in French and a
// Malagasy one in Malagasy — the setup, the headline, the legend, the
// keys help, a refusal, the boards' names, the log, the result, the map
// behind the bot's shots and the review — with <html lang> following;
// the page's switch changes the language and the choice is remembered.
func TestPageLanguages(t *testing.T) {
	ts := newTestServer(t, Config{}, "")
	p := browsertest.OpenURLWith(t, ts.URL+"/play/battleship", "setup", browsertest.Options{Lang: "fr-FR,fr;q=0.9"})
	if lang := p.Attr("html", "lang"); lang != "fr" || p.TextOf("#setup-h") != "Nouvelle table" || p.TextOf("header h1") != "Bataille navale" || p.TextOf("#create") != "Dresser la table" {
		t.Fatalf("a French browser gets %q: %q, %q", lang, p.TextOf("header h1"), p.TextOf("#setup-h"))
	}
	for id, v := range map[string]string{"o-width": "5", "o-height": "4", "o-ship1": "1", "o-ship2": "0", "o-ship3": "1",
		"o-ship4": "0", "o-ship5": "0", "o-pace": "0", "o-seed": "5", "o-name": "Ana"} {
		must(t, p.Select(id, v))
	}
	p.ClickOn("#create")
	p.Wait(`body[data-phase="place"]`)
	id := tabletest.Token(p.Location())
	if h := p.TextOf("#headline"); h != "Placez votre flotte : il reste 2 navires sur 2. Vous tirerez le premier." {
		t.Errorf("the headline in French: %q", h)
	}
	if l := p.TextOf("#legend"); !containsAll(l, []string{"votre navire", "à l'eau", "touché", "coulé", "un tir se tape x,y"}) || p.TextOf("#dir") != "à l'horizontale" {
		t.Errorf("the legend in French: %q, direction %q", l, p.TextOf("#dir"))
	}
	p.ClickOn("#help-btn")
	p.Wait("#help")
	if h := p.TextOf("#help"); !strings.Contains(h, "Touches") || !strings.Contains(h, "tapez un tir sous la forme x,y") {
		t.Errorf("the keys help in French: %q", h)
	}
	// The ship of 3 across from the last column runs off the board, in a
	// second tab: the browser logs the refusal's 422 as an error, which
	// Check would count against the first.
	o := browsertest.OpenURLWith(t, ts.URL+"/play/battleship?t="+url.QueryEscape(id), "table", browsertest.Options{Lang: "fr"})
	o.Wait(`body[data-phase="place"]`)
	o.ClickOn(`#mine [data-x="4"][data-y="0"]`)
	o.WaitUntil(`document.querySelector("#status").textContent !== ""`)
	if msg := o.TextOf("#status"); !strings.Contains(msg, "Un navire de 3 en 4,0 à l'horizontale sort de la grille 5x4.") {
		t.Errorf("a refused placement in French: %q", msg)
	}
	p.ClickOn("#random")
	p.ClickOn("#start")
	p.Wait(`body[data-phase="play"][data-turn="you"]`)
	if h, w := p.TextOf("#headline"), p.TextOf("#theirs-h"); h != "À vous : tirez dans les eaux de gamebot." || w != "Les eaux de gamebot" {
		t.Errorf("playing in French: %q, %q", h, w)
	}
	if l := p.TextOf("#log"); !strings.Contains(l, "Les deux flottes sont placées : vous tirez le premier.") || !strings.Contains(l, "Grille 5x4") {
		t.Errorf("the log in French: %q", l)
	}
	ts.playOut(t, id)
	p.Wait(`body[data-phase="over"]`)
	p.Wait(`body[data-explained="0"]`)
	res := p.TextOf("#result")
	won := strings.Contains(res, "Vous gagnez.")
	if !won && !strings.Contains(res, "Vous perdez.") || !strings.Contains(res, "Vous avez tiré") {
		t.Errorf("the result in French: %q", res)
	}
	if why := p.TextOf("#map-why"); !strings.Contains(why, "%") || !strings.Contains(why, "Il a tiré") && !strings.Contains(why, "En chasse") && !strings.Contains(why, "Aucune flotte") {
		t.Errorf("the map's reason in French: %q", why)
	}
	if r := p.TextOf("#over-review"); r != "Revoir la partie" {
		t.Errorf("the review button in French: %q", r)
	}
	p.Check()

	// The same table in a Malagasy browser, then switched to French.
	q := browsertest.OpenURLWith(t, ts.URL+"/play/battleship?t="+url.QueryEscape(id), "table", browsertest.Options{Lang: "mg"})
	q.Wait(`body[data-phase="over"]`)
	verdict := map[bool]string{true: "Mandresy ianao.", false: "Resy ianao."}[won]
	if lang := q.Attr("html", "lang"); lang != "mg" || q.TextOf("header h1") != "Ady an-dranomasina" || !strings.Contains(q.TextOf("#result"), verdict) {
		t.Errorf("a Malagasy browser gets %q: %q, %q", lang, q.TextOf("header h1"), q.TextOf("#result"))
	}
	if m, l := q.TextOf("#mine-h"), q.TextOf("#legend"); m != "Ny sambonao" || !containsAll(l, []string{"diso", "voa", "rendrika"}) {
		t.Errorf("the boards in Malagasy: %q; legend %q", m, l)
	}
	if l := q.TextOf("#log"); !strings.Contains(l, "Mitifitra ny") {
		t.Errorf("the log in Malagasy: %q", l)
	}
	browsertest.Eval[bool](q, `(() => { const s = document.getElementById("lang"); s.value = "fr"; s.dispatchEvent(new Event("change")); return true; })()`)
	q.Wait(`html[lang="fr"] body[data-phase="over"]`)
	if r := q.TextOf("#result"); !strings.Contains(r, "Vous") {
		t.Errorf("after the switch to French: %q", r)
	}
	q.Reload("#table")
	q.Wait(`body[data-phase="over"]`)
	if lang := q.Attr("html", "lang"); lang != "fr" || q.TextOf("#mine-h") != "Votre flotte" {
		t.Errorf("the choice was not remembered: %q, %q", lang, q.TextOf("#mine-h"))
	}
	q.Check()

	// The review, stepped through in Malagasy.
	r := browsertest.OpenURLWith(t, ts.URL+"/play/tables/"+url.PathEscape(id)+"/review", "next", browsertest.Options{Lang: "mg"})
	if lang := r.Attr("html", "lang"); lang != "mg" || !strings.Contains(r.Text("step-label"), "dingana 0/") || r.Shown("#game-pick") {
		t.Errorf("the review in Malagasy: %q, %q", lang, r.Text("step-label"))
	}
	r.Click("next")
	if got := r.Text("step-label"); !strings.Contains(got, "tifitra 1/") || !strings.Contains(got, "mitifitra ny") {
		t.Errorf("the Malagasy viewer's step: %q", got)
	}
	if got := r.Text("who-0"); !strings.Contains(got, "sambo tifirin'i gamebot") {
		t.Errorf("the Malagasy viewer's board: %q", got)
	}
	r.Check()
}
