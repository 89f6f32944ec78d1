// Package i18n holds the texts people read, one catalogue per language,
// and picks a person's language. The tables speak English, French and
// Malagasy: the three languages of the Giretra engine's own app, and of
// the platforms' documents.
//
// A catalogue is a JSON object of keys to texts, one file per language
// (en.json, fr.json, mg.json) in a package's embedded folder, registered
// at init under the package's prefix: "giretra.bid.pass" is giretra/
// table's "bid.pass". A text is a fmt format: its verbs take the
// arguments in order, or by index ("%[2]s … %[1]s") where a language
// puts them in another order. Every key is in every catalogue, with the
// same verbs (Check, run by the tests).
package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/text/language"
)

// Lang is a language the pages speak: "en", "fr" or "mg".
type Lang string

// The languages, the first the default.
const (
	EN Lang = "en"
	FR Lang = "fr"
	MG Lang = "mg"
)

// Langs are the languages, in the order the pages' switch lists them.
var Langs = []Lang{EN, FR, MG}

// Names are the languages' names, each in itself.
var Names = map[Lang]string{EN: "English", FR: "Français", MG: "Malagasy"}

var (
	mu       sync.RWMutex
	catalogs = map[Lang]map[string]string{}
	prefixes []string
)

// Register adds the catalogues in fsys (dir/en.json, dir/fr.json,
// dir/mg.json) under prefix. It panics on a missing or malformed file: a
// catalogue is part of the binary.
func Register(prefix string, fsys fs.FS, dir string) {
	mu.Lock()
	defer mu.Unlock()
	prefixes = append(prefixes, prefix)
	for _, l := range Langs {
		b, err := fs.ReadFile(fsys, path.Join(dir, string(l)+".json"))
		if err != nil {
			panic(fmt.Sprintf("i18n: %s: %v", prefix, err))
		}
		var m map[string]string
		if err := json.Unmarshal(b, &m); err != nil {
			panic(fmt.Sprintf("i18n: %s/%s.json: %v", prefix, l, err))
		}
		if catalogs[l] == nil {
			catalogs[l] = map[string]string{}
		}
		for k, v := range m {
			catalogs[l][prefix+"."+k] = v
		}
	}
}

// unregister removes prefix's catalogues (tests).
func unregister(prefix string) {
	mu.Lock()
	defer mu.Unlock()
	for _, c := range catalogs {
		for k := range c {
			if strings.HasPrefix(k, prefix+".") {
				delete(c, k)
			}
		}
	}
	prefixes = slices.DeleteFunc(prefixes, func(p string) bool { return p == prefix })
}

// Printer writes the texts of one language.
type Printer struct {
	lang Lang
}

// For is the printer of l (English for a language the pages do not
// speak).
func For(l Lang) *Printer {
	if !slices.Contains(Langs, l) {
		l = EN
	}
	return &Printer{lang: l}
}

// Lang is the printer's language; a nil printer's is English.
func (p *Printer) Lang() Lang {
	if p == nil {
		return EN
	}
	return p.lang
}

// T is the text of key with args. A key missing from the language's
// catalogue falls back to English, then to the key itself, so a page
// never shows nothing (Check keeps that from happening).
func (p *Printer) T(key string, args ...any) string {
	mu.RLock()
	s, ok := catalogs[p.Lang()][key]
	if !ok {
		s, ok = catalogs[EN][key]
	}
	mu.RUnlock()
	if !ok {
		return key
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// Has reports whether key is in the catalogues.
func Has(key string) bool {
	mu.RLock()
	defer mu.RUnlock()
	_, ok := catalogs[EN][key]
	return ok
}

// Catalogue is the texts of l whose keys begin with prefix + ".", by
// their keys less the prefix: what a page's script reads.
func Catalogue(l Lang, prefix string) map[string]string {
	mu.RLock()
	defer mu.RUnlock()
	out := map[string]string{}
	for k, v := range catalogs[For(l).lang] {
		if rest, ok := strings.CutPrefix(k, prefix+"."); ok {
			out[rest] = v
		}
	}
	return out
}

var verb = regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)

// verbs lists a text's verbs, indexed ones by index, so that two
// languages that order their arguments differently compare equal.
func verbs(s string) []string {
	var out []string
	n := 0
	for _, v := range verb.FindAllString(s, -1) {
		if strings.HasSuffix(v, "%") {
			continue
		}
		kind := v[len(v)-1:]
		if i := strings.Index(v, "["); i >= 0 {
			j := strings.Index(v, "]")
			out = append(out, v[i+1:j]+kind)
			continue
		}
		n++
		out = append(out, fmt.Sprint(n)+kind)
	}
	sort.Strings(out)
	return out
}

// Check lists what is wrong with the catalogues: a key one language has
// and another lacks, an empty text, or a text whose verbs differ from
// English's.
func Check() []string {
	mu.RLock()
	defer mu.RUnlock()
	var bad []string
	keys := map[string]bool{}
	for _, l := range Langs {
		for k := range catalogs[l] {
			keys[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		en, inEN := catalogs[EN][k]
		for _, l := range Langs {
			s, ok := catalogs[l][k]
			switch {
			case !ok:
				bad = append(bad, fmt.Sprintf("%s: %q is missing", l, k))
			case strings.TrimSpace(s) == "":
				bad = append(bad, fmt.Sprintf("%s: %q is empty", l, k))
			case inEN && !slices.Equal(verbs(s), verbs(en)):
				bad = append(bad, fmt.Sprintf("%s: %q has the verbs %v, English %v", l, k, verbs(s), verbs(en)))
			}
		}
	}
	return bad
}

// matcher finds the closest language the pages speak.
var matcher = language.NewMatcher([]language.Tag{language.English, language.French, language.Make("mg")})

// Pick is the language of a request: the page's own choice (the cookie
// its switch sets) when it names one, else the best match of the
// browser's Accept-Language, else English.
func Pick(choice, acceptLanguage string) Lang {
	if l := Lang(strings.ToLower(strings.TrimSpace(choice))); slices.Contains(Langs, l) {
		return l
	}
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return EN
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return EN
	}
	return Langs[i]
}
