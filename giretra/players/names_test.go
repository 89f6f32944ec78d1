package players

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkout makes a Giretra checkout in a temporary folder (a .git folder
// and external-bots/ with a bot.meta.json per bot, "name" or
// "name=Display Name") and moves the test into it.
func checkout(t *testing.T, bots ...string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, b := range bots {
		name, display, _ := strings.Cut(b, "=")
		dir := filepath.Join(root, "external-bots", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		m := map[string]any{"name": name, "launch": map[string]any{"fileName": "./bot"}}
		if display != "" {
			m["displayName"] = display
		}
		js, _ := json.Marshal(m)
		if err := os.WriteFile(filepath.Join(dir, "bot.meta.json"), js, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(root)
	return root
}

// Names resolve as giretra-manage resolves them (AgentName, then
// DisplayName, ignoring case; external bots override built-ins), plus our
// lower-case names and the website's "Razavavy".
func TestNameResolution(t *testing.T) {
	root := checkout(t, "Eva=Imposter", "shown=Display Name")
	bad := filepath.Join(root, "external-bots", "broken")
	_ = os.MkdirAll(bad, 0o755)
	_ = os.WriteFile(filepath.Join(bad, "bot.meta.json"), []byte(`{"name":`), 0o644)
	nolaunch := filepath.Join(root, "external-bots", "nolaunch")
	_ = os.MkdirAll(nolaunch, 0o755)
	_ = os.WriteFile(filepath.Join(nolaunch, "bot.meta.json"), []byte(`{"name":"nolaunch"}`), 0o644)
	var warnings []string
	r := NewRegistry("", func(msg string) { warnings = append(warnings, msg) })
	tests := []struct {
		spec        string
		name, agent string
		dir         string // external bot folder name
	}{
		{spec: "random", name: "random", agent: "random"},
		{spec: "EVA", name: "eva", agent: "eva"}, // our lower-case names come first
		{spec: "noisy-eva", name: "noisy-eva", agent: "noisy-eva"},
		{spec: "RandomPlayer", name: "RandomPlayer", agent: "random"},
		{spec: "randomplayer", name: "RandomPlayer", agent: "random"},
		{spec: "Kialasoa", name: "RandomPlayer", agent: "random"},
		{spec: "CalculatingPlayer", name: "CalculatingPlayer", agent: "calculating"},
		{spec: "Razazavavy", name: "CalculatingPlayer", agent: "calculating"},
		{spec: "Razavavy", name: "CalculatingPlayer", agent: "calculating"},
		{spec: "DeterministicPlayer", name: "DeterministicPlayer", agent: "eva"},
		{spec: "BadPlayer", name: "BadPlayer", agent: "bad"},
		{spec: "sakabelou", name: "BadPlayer", agent: "bad"},
		{spec: "shown", dir: "shown"},
		{spec: "display name", dir: "shown"},
		{spec: "http://localhost:1", name: "http://localhost:1"},
	}
	for _, tt := range tests {
		bs, err := r.Resolve(tt.spec)
		if err != nil {
			t.Errorf("%s: %v", tt.spec, err)
			continue
		}
		if bs.Name != tt.name || bs.Agent != tt.agent || (tt.dir != "") != (bs.Dir != "") || tt.dir != "" && filepath.Base(bs.Dir) != tt.dir {
			t.Errorf("%s → %+v, want name %q agent %q dir %q", tt.spec, bs, tt.name, tt.agent, tt.dir)
		}
	}
	for _, w := range []string{"Skipping broken: malformed", "Skipping nolaunch: missing 'launch'"} {
		if !strings.Contains(strings.Join(warnings, "\n"), w) {
			t.Errorf("warnings %q lack %q", warnings, w)
		}
	}
	for _, spec := range []string{"Nobody", "./no/such/folder"} {
		_, err := r.Resolve(spec)
		var se *SpecError
		if !errors.As(err, &se) {
			t.Errorf("%s: %v, want a SpecError", spec, err)
		}
	}
	if _, err := r.Resolve("Nobody"); !strings.Contains(err.Error(), "Available: BadPlayer (Sakabelou), CalculatingPlayer (Razazavavy), DeterministicPlayer (Eva), Eva (Imposter)") {
		t.Errorf("unknown agent: %v", err)
	}
	var all []string
	for _, a := range r.All() {
		all = append(all, filepath.Base(a))
	}
	if strings.Join(all, ",") != "DeterministicPlayer,CalculatingPlayer,RandomPlayer,BadPlayer,Eva,shown" {
		t.Errorf("all agents %v", all)
	}
	// Another bots folder replaces the discovered one.
	other := NewRegistry(filepath.Join(root, "nowhere"), nil)
	if _, err := other.Resolve("shown"); err == nil {
		t.Error("the bots folder should replace the discovered one")
	}
}
