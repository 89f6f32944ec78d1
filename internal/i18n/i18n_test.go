package i18n

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestPick(t *testing.T) {
	for _, tc := range []struct {
		choice, accept string
		want           Lang
	}{
		{"", "", EN},
		{"", "fr-FR,fr;q=0.9,en;q=0.8", FR},
		{"", "fr-CA", FR},
		{"", "mg-MG,fr;q=0.5", MG},
		{"", "de-DE,de;q=0.9", EN},
		{"", "de-DE,fr;q=0.5", FR},
		{"mg", "fr-FR", MG},
		{"xx", "fr-FR", FR},
		{"", "en;q=0.1,fr;q=0.9", FR},
		{"", "garbage;;;q=", EN},
	} {
		if got := Pick(tc.choice, tc.accept); got != tc.want {
			t.Errorf("Pick(%q, %q) = %s, want %s", tc.choice, tc.accept, got, tc.want)
		}
	}
}

func TestVerbs(t *testing.T) {
	if a, b := verbs("%[1]s won %[2]d–%[3]d"), verbs("Nandresy %[1]s, %[2]d–%[3]d"); !slices.Equal(a, b) {
		t.Errorf("%v %v", a, b)
	}
	if a, b := verbs("%s of %s"), verbs("%[2]s %[1]s"); !slices.Equal(a, b) {
		t.Errorf("reordered: %v %v", a, b)
	}
	if a, b := verbs("%d%%"), verbs("%s"); slices.Equal(a, b) {
		t.Errorf("%v %v should differ", a, b)
	}
}

// TestCheckFindsGaps: a key missing in one language, an empty text and
// verbs that differ are each reported.
func TestCheckFindsGaps(t *testing.T) {
	fsys := fstest.MapFS{
		"c/en.json": {Data: []byte(`{"a": "A %d", "b": "B", "c": "C"}`)},
		"c/fr.json": {Data: []byte(`{"a": "A %s", "b": ""}`)},
		"c/mg.json": {Data: []byte(`{"a": "A %d", "b": "B", "c": "C", "d": "D"}`)},
	}
	Register("checktest", fsys, "c")
	var bad []string
	for _, b := range Check() {
		if strings.Contains(b, "checktest.") {
			bad = append(bad, b)
		}
	}
	want := []string{`fr: "checktest.a" has the verbs`, `fr: "checktest.b" is empty`, `fr: "checktest.c" is missing`, `en: "checktest.d" is missing`, `fr: "checktest.d" is missing`}
	for _, w := range want {
		if !slices.ContainsFunc(bad, func(b string) bool { return strings.HasPrefix(b, w) }) {
			t.Errorf("Check missed %s: %v", w, bad)
		}
	}
	if got := For(FR).T("checktest.c"); got != "C" {
		t.Errorf("a missing French text falls back to English: %q", got)
	}
	if got := For(MG).T("checktest.nope"); got != "checktest.nope" {
		t.Errorf("an unknown key: %q", got)
	}
	// The test's catalogue must not leak into the others' checks.
	unregister("checktest")
}
