package table

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeBotEnv makes the test binary, launched as a bot of external-bots/,
// serve fakeBot on $PORT.
const fakeBotEnv = "GIRETRA_TABLE_FAKE_BOT"

func TestMain(m *testing.M) {
	if os.Getenv(fakeBotEnv) == "1" {
		serveFakeBot()
		return
	}
	os.Exit(m.Run())
}

// serveFakeBot serves until its launcher goes away (or kills it).
func serveFakeBot() {
	ln, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("PORT"))
	if err != nil {
		os.Exit(2)
	}
	parent := os.Getppid()
	go func() {
		for range time.Tick(500 * time.Millisecond) {
			if os.Getppid() != parent {
				os.Exit(0)
			}
		}
	}()
	_ = (&http.Server{Handler: &fakeBot{}, ReadHeaderTimeout: 5 * time.Second}).Serve(ln)
}

// TestExternalBot: a bot of external-bots/, named in the setup, is
// launched as the engine launches it (this test binary, serving fakeBot)
// and plays its seat; the table stops it when it closes.
func TestExternalBot(t *testing.T) {
	bots := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	meta, _ := json.Marshal(map[string]any{"agentName": "fakebot", "launch": map[string]any{
		"fileName": exe, "arguments": "-test.run=^$", "environmentVariables": map[string]string{fakeBotEnv: "1"}}})
	if err := os.MkdirAll(filepath.Join(bots, "fake"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bots, "fake", "bot.meta.json"), meta, 0o644); err != nil {
		t.Fatal(err)
	}
	ts := newTestServerWith(t, Config{BotsDir: bots})
	id := ts.create(t, `{"seats": ["you", "fakebot", "Eva", "Kialasoa"], "target": 40, "seed": 2, "pace": 0}`)
	last := ts.play(t, id, simple, nil)
	if last.View.Failure != "" || last.View.Seats[1].Name != "fakebot" || last.View.Seats[1].Kind != kindFolder {
		t.Fatalf("the match with an external bot: %q, %+v", last.View.Failure, last.View.Seats[1])
	}
	m := ts.readRecords(t)[0]
	if !m.Header.HTTP[1] || len(m.Calls) == 0 {
		t.Fatalf("the external bot's calls are not recorded: %v, %d calls", m.Header.HTTP, len(m.Calls))
	}
	for _, c := range m.Calls {
		if c.Error != "" {
			t.Fatalf("a failed call: %+v", c)
		}
	}
	if code, body := ts.call(t, "POST", "/play/api/giretra/tables", `{"seats": ["you", "nobot", "Eva", "Eva"]}`); code != 400 || !strings.Contains(string(body), "fakebot") {
		t.Fatalf("an unknown bot: %d %s", code, body)
	}
	var c Choices
	if err := json.Unmarshal(mustGet(t, ts, "/play/api/giretra/choices"), &c); err != nil || len(c.Bots) != 1 || c.Bots[0].Name != "fakebot" || len(c.Agents) != 4 {
		t.Fatalf("the choices: %+v %v", c, err)
	}
}

// TestNoProgramFromAPage: a seat named after a folder that holds a
// bot.meta.json is launched only when the folder is one of the listed
// bots; a folder of the working directory, a relative or an absolute
// path are refused, and nothing is run (its init and launch would leave
// marker files).
func TestNoProgramFromAPage(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	markers := filepath.Join(work, "markers")
	if err := os.MkdirAll(filepath.Join(work, "evil"), 0o755); err != nil {
		t.Fatal(err)
	}
	touch := func(name string) map[string]any {
		return map[string]any{"fileName": "/bin/sh", "arguments": "-c 'mkdir -p " + markers + " && touch " + filepath.Join(markers, name) + "'"}
	}
	meta, _ := json.Marshal(map[string]any{"agentName": "evil", "init": touch("init"), "launch": touch("launch")})
	if err := os.WriteFile(filepath.Join(work, "evil", "bot.meta.json"), meta, 0o644); err != nil {
		t.Fatal(err)
	}
	listed := t.TempDir() // the command line's folder: holds no bot
	for _, cfg := range []Config{{}, {BotsDir: listed}, {BotsDir: work + "/nothing-here"}} {
		ts := newTestServerWith(t, cfg)
		for _, seat := range []string{"evil", "./evil", "../" + filepath.Base(work) + "/evil", filepath.Join(work, "evil"), "EVIL", "evil/"} {
			code, body := ts.call(t, "POST", "/play/api/giretra/tables", `{"seats": ["you", "`+seat+`", "Eva", "Eva"]}`)
			if code != 400 {
				t.Errorf("BotsDir %q, seat %q: %d %s", cfg.BotsDir, seat, code, body)
			}
		}
	}
	if _, err := os.Stat(markers); err == nil {
		t.Fatal("a page made the server run a program")
	}
}
