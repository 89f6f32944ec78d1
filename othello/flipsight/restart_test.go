package flipsight_test

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/flipsight"
)

// The test binary doubles as a connector process for TestKilledMidMatch:
// with FS_TEST_CONNECTOR set it runs an agent on one match of the server
// at FS_TEST_API (trusting the PEM certificate in FS_TEST_CA) until the
// match is over.
func TestMain(m *testing.M) {
	if os.Getenv("FS_TEST_CONNECTOR") != "" {
		os.Exit(connectorChild())
	}
	os.Exit(m.Run())
}

func connectorChild() int {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(os.Getenv("FS_TEST_CA"))) {
		return 2
	}
	id, err := strconv.ParseInt(os.Getenv("FS_TEST_MATCH"), 10, 64)
	if err != nil {
		return 2
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig.RootCAs = pool
	api := os.Getenv("FS_TEST_API")
	o := flipsight.Options{
		Client:     &flipsight.Client{HTTP: &http.Client{Transport: tr}, API: api + "/api", Stream: api + "/stream", Token: "fsbm_test"},
		NewEngine:  inProcess(othello.NewEngine(othello.EngineOptions{TTBits: 14, FixedTime: 20 * time.Millisecond})),
		OnceMatch:  id,
		PollStream: 200 * time.Millisecond, PollMatch: 50 * time.Millisecond, PollIdle: 100 * time.Millisecond,
		MinGap: 20 * time.Millisecond, BackoffMin: 20 * time.Millisecond, BackoffMax: 600 * time.Millisecond,
	}
	if err := flipsight.NewAgent(o).Run(context.Background()); err != nil {
		return 1
	}
	return 0
}

// TestKilledMidMatch: a connector process killed (SIGKILL: no goodbye)
// in the middle of a match, then started again, picks the match up from
// agent_poll and plays both legs to their end.
func TestKilledMidMatch(t *testing.T) {
	h := newHarness(t, 77)
	ts := httptest.NewTLSServer(h.fake) // the connector is another process
	defer ts.Close()
	h.fake.ClockMs = 600_000 // only the restart is under test, not the clock
	id := h.fake.Challenge(othello.Std, 40)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw})
	start := func() *exec.Cmd {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), "FS_TEST_CONNECTOR=1", "FS_TEST_CA="+string(ca), "FS_TEST_API="+ts.URL, "FS_TEST_MATCH="+strconv.FormatInt(id, 10))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	ours := func() int {
		n := 0
		for _, mv := range h.fake.Moves() {
			if mv.Status == http.StatusOK {
				n++
			}
		}
		return n
	}
	first := start()
	for giveUp := time.Now().Add(5 * time.Minute); ours() < 6; time.Sleep(10 * time.Millisecond) {
		if m, _ := h.fake.Match(id); m.Status != "running" && m.Status != "pending" || time.Now().After(giveUp) {
			_ = first.Process.Kill()
			t.Fatalf("match %s with %d moves of ours before the kill", m.Status, ours())
		}
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	before := ours()
	if m, _ := h.fake.Match(id); m.Status != "running" {
		t.Fatalf("match %s when the connector was killed", m.Status)
	}
	second := start()
	done := make(chan error, 1)
	go func() { done <- second.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("restarted connector: %v", err)
		}
	case <-time.After(5 * time.Minute):
		_ = second.Process.Kill()
		t.Fatal("restarted connector still running after 5 minutes")
	}
	if ours() <= before {
		t.Fatalf("the restarted connector sent no move (%d before the kill)", before)
	}
	checkFinished(t, h, id)
}
