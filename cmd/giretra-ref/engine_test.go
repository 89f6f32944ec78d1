package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/gamebot/giretra/players"
	"github.com/botarena/gamebot/internal/cli"
)

// engineCheckout makes a Giretra checkout in a temporary folder (a .git
// folder and external-bots/), its bots launching this test binary as a
// bot server (TestMain), and moves the test into it. agent is what the
// bots play.
func engineCheckout(t *testing.T, agent string, bots ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
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
		m := map[string]any{
			"name":          name,
			"notifications": []string{"deal-started", "negotiation-completed", "match-ended"},
			"launch": map[string]any{
				"fileName":             exe,
				"startupTimeout":       20,
				"environmentVariables": map[string]string{"GIRETRA_REF_TESTBOT": "1", "TESTBOT_AGENT": agent},
			},
		}
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

// The command lines of the Giretra project's documentation and of
// giretra-manage's own examples run as written, with giretra-ref in
// place of giretra-manage, against bots in a temporary external-bots/.
// Each line gets only shortening flags appended (-n, or -r and -t), which
// Go's flag package lets override what the line says.
func TestEngineCommandLines(t *testing.T) {
	if testing.Short() {
		t.Skip("launches bot processes")
	}
	lines := []struct {
		line, source string
	}{
		// giretra-manage's help examples (Program.cs) and README.
		{"benchmark", "Program.cs"},
		{"benchmark MyBot CalculatingPlayer -n 500", "Program.cs, README"},
		{"swiss", "Program.cs, website"},
		{"swiss BotA BotB BotC --seed 42", "Program.cs, README"},
		{"validate MyBot", "Program.cs"},
		{"validate MyBot -d -v --timeout 200", "Program.cs, README"},
		// The engine's CI (.github/workflows/validate-bots.yml).
		{"validate my-bot -n 50 --seed 17", "validate-bots.yml"},
		// Properties/launchSettings.json.
		{"benchmark -n 1000", "launchSettings"},
		{"benchmark -n 100 -s 42", "launchSettings"},
		{"benchmark -n 500 --elo1 1300 --elo2 1100 -k 16", "launchSettings"},
		{"benchmark random-node-bot Eva", "launchSettings"},
		{"swiss -r 10", "launchSettings"},
		{"swiss -r 50 -s 42", "launchSettings"},
		{"swiss DeterministicPlayer CalculatingPlayer -r 100", "launchSettings"},
		{"swiss -r 200 -k 16 --elo 1000", "launchSettings"},
		{"swiss Eva random-node-bot random-python-bot", "launchSettings (less Baomijijy, a bot outside the repository)"},
		// SWISS-EVALUATION.md.
		{"swiss -r 200 -k 40 --k-min 4 --k-half-life 30", "SWISS-EVALUATION.md"},
		// giretra.com: build-your-bot and publish-your-bot.
		{"validate my-bot", "website"},
		{"benchmark my-bot Kialasoa", "website"},
		{"benchmark my-bot Razavavy", "website"},
		{"benchmark my-bot Eva", "website"},
		{"validate my-bot -n 500 -o Razavavy -d -v", "website"},
		{"benchmark my-bot Razavavy -n 500", "website"},
		{"swiss my-bot Kialasoa Razavavy Eva", "website"},
		{"validate my-bot --timeout 200", "website"},
		// Spectre's boolean flags take a value.
		{"validate My\\ Bot --shuffle false", "giretra-manage's flag syntax, by DisplayName"},
	}
	// The bots the lines name; "swiss" alone plays every discovered bot,
	// so those lines run in a checkout holding only my-bot (each launch
	// costs a process start).
	full := engineCheckout(t, "eva", "MyBot", "BotA", "BotB", "BotC", "my-bot=My Bot", "random-node-bot=Random Node Bot", "random-python-bot")
	small := filepath.Join(t.TempDir(), "small")
	for _, d := range []string{".git", "external-bots"} {
		if err := os.MkdirAll(filepath.Join(small, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(filepath.Join(full, "external-bots", "my-bot"), filepath.Join(small, "external-bots", "my-bot")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(small, "external-bots", "my-bot"), filepath.Join(full, "external-bots", "my-bot")); err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		t.Run(l.line, func(t *testing.T) {
			args := players.SplitArgs(strings.ReplaceAll(l.line, `\ `, "\x00"))
			for i := range args {
				args[i] = strings.ReplaceAll(args[i], "\x00", " ")
			}
			dir := full
			switch args[0] {
			case "swiss":
				args = append(args, "-r", "1", "-t", "151")
				if len(args) == 5 || strings.HasPrefix(args[1], "-") {
					dir = small
				}
			case "benchmark":
				args = append(args, "-n", "2", "-t", "151")
			default:
				args = append(args, "-n", "2")
			}
			t.Chdir(dir)
			var out, errb bytes.Buffer
			err := run(t.Context(), args, cli.Env(nil), nil, &out, &errb)
			if err != nil {
				t.Fatalf("%s (%s): %v\nstdout:\n%s\nstderr:\n%s", l.line, l.source, err, out.String(), errb.String())
			}
			if strings.Contains(errb.String(), "Warning") {
				t.Errorf("warnings: %s", errb.String())
			}
		})
	}
}

func TestSpectreBools(t *testing.T) {
	fs, _ := newFlagSet("validate", &options{}, &bytes.Buffer{})
	got := spectreBools(fs, []string{"bot", "--shuffle", "false", "-d", "-v", "TRUE", "-n", "false", "--json", "x"})
	want := []string{"bot", "--shuffle=false", "-d", "-v=true", "-n", "false", "--json", "x"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %q, want %q", got, want)
	}
}
