package table

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"regexp"

	"github.com/botarena/gamebot/internal/i18n"
)

//go:embed i18n
var catalogues embed.FS

func init() { i18n.Register("kit", catalogues, "i18n") }

// frame is the templates every page may use besides its own: the
// language switch and the header's controls.
const frame = `{{define "langs"}}<label class="lang">{{t "kit.lang.label"}} <select id="lang" data-lang="{{.Lang}}">` +
	`{{range .Langs}}<option value="{{.Code}}"{{if .On}} selected{{end}}>{{.Name}}</option>{{end}}</select></label>{{end}}` +
	`{{define "sound"}}<button type="button" id="sound-btn" aria-pressed="false">{{t "kit.js.sound"}}</button>{{end}}`

// pageData is what a page's template is executed with.
type pageData struct {
	Lang  i18n.Lang
	Langs []langChoice
	// Texts are the texts the page's script reads (Kit.t), as JSON, by
	// their whole keys: the kit's "kit.js.*" and the game's "GAME.js.*".
	Texts string
	Game  *Game
	Games []*Game
	Lines []Line
}

type langChoice struct {
	Code i18n.Lang
	Name string
	On   bool
}

// parsePage reads a page's template: html/template with the kit's frame
// and t, the text of a key in the page's language (the language is bound
// when the page is executed).
func parsePage(name, source string) (*template.Template, error) {
	funcs := template.FuncMap{
		"t":   func(key string, args ...any) string { return key },
		"tOr": func(key, fallback string) string { return fallback },
	}
	t, err := template.New(name).Funcs(funcs).Parse(frame)
	if err != nil {
		return nil, err
	}
	return t.Parse(source)
}

// render executes a page's template for lang; the texts under each of
// scripts (catalogue prefixes) go to the page's script.
func render(tmpl *template.Template, lang i18n.Lang, scripts []string, data pageData) ([]byte, error) {
	p := i18n.For(lang)
	t, err := tmpl.Clone()
	if err != nil {
		return nil, err
	}
	t.Funcs(template.FuncMap{
		"t": p.T,
		// tOr is t for a key a game may lack (a game whose texts are
		// English only): its fallback then.
		"tOr": func(key, fallback string) string {
			if i18n.Has(key) {
				return p.T(key)
			}
			return fallback
		},
	})
	data.Lang = lang
	for _, l := range i18n.Langs {
		data.Langs = append(data.Langs, langChoice{Code: l, Name: i18n.Names[l], On: l == lang})
	}
	texts := map[string]string{}
	for _, prefix := range scripts {
		for k, v := range i18n.Catalogue(lang, prefix) {
			texts[prefix+"."+k] = v
		}
	}
	b, err := json.Marshal(texts)
	if err != nil {
		return nil, err
	}
	data.Texts = string(b)
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("page %s (%s): %w", tmpl.Name(), lang, err)
	}
	return rootAttrs(buf.Bytes(), lang, data.Texts)
}

// htmlTag finds a page's root element and its lang attribute.
var (
	htmlTag = regexp.MustCompile(`(?i)<html(\s+lang="[^"]*")?`)
	doctype = regexp.MustCompile(`(?i)^\s*<!doctype html>`)
)

// rootAttrs gives the page's root element its language and its script's
// texts, whatever the page's own template wrote there: every page speaks
// the language the person chose, and its script reads Kit.t from there.
func rootAttrs(page []byte, lang i18n.Lang, texts string) ([]byte, error) {
	attrs := fmt.Sprintf(`<html lang="%s" data-texts="%s"`, lang, template.HTMLEscapeString(texts))
	loc := htmlTag.FindIndex(page)
	if loc == nil { // the tag may be left out: it goes after the doctype
		at := 0
		if d := doctype.FindIndex(page); d != nil {
			at = d[1]
		}
		out := append([]byte(nil), page[:at]...)
		out = append(out, attrs+">"...)
		return append(out, page[at:]...), nil
	}
	out := append([]byte(nil), page[:loc[0]]...)
	out = append(out, attrs...)
	return append(out, page[loc[1]:]...), nil
}

// renderPages renders a game's page in every language, once: a page is
// the same for every table of its game.
func renderPages(g *Game) (map[i18n.Lang][]byte, error) {
	tmpl, err := parsePage(g.Name, string(g.Page))
	if err != nil {
		return nil, fmt.Errorf("the %s page: %w", g.Name, err)
	}
	out := map[i18n.Lang][]byte{}
	for _, l := range i18n.Langs {
		b, err := render(tmpl, l, []string{"kit.js", g.Name + ".js"}, pageData{Game: g})
		if err != nil {
			return nil, err
		}
		out[l] = b
	}
	return out, nil
}

// Weight is what a browser loads for the game's table page: the page
// (in its heaviest language: its texts are in it), its assets and the
// shared kit, in bytes uncompressed.
func (g *Game) Weight() int {
	ps, err := renderPages(g)
	if err != nil {
		return 0
	}
	page := 0
	for _, b := range ps {
		page = max(page, len(b))
	}
	n := page + len(kitJS) + len(kitCSS)
	for _, a := range g.Assets {
		n += len(a)
	}
	return n
}
