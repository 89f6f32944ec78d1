package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPlayServesTheLobby: gamebot play listens on its own address,
// serves the lobby with the three games, writes no record before a game,
// and stops cleanly (no goroutine left: TestMain's leak check).
func TestPlayServesTheLobby(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	records := filepath.Join(t.TempDir(), "records")
	var out bytes.Buffer
	go func() {
		done <- serve(ctx, []string{"play", "-addr", "127.0.0.1:0", "-records", records}, env(nil), &out, io.Discard, ready)
	}()
	addr := <-ready
	resp, err := http.Get("http://" + addr + "/play")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`href="/play/giretra"`, `href="/play/battleship"`, `href="/play/othello"`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the lobby lacks %s", want)
		}
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
		t.Errorf("lobby CSP %q", csp)
	}
	if _, err := os.Stat(records); err != nil {
		t.Errorf("the records directory was not made: %v", err)
	}
	if !strings.Contains(out.String(), "open http://"+addr+"/play") {
		t.Errorf("the command did not say where to go: %q", out.String())
	}
	http.DefaultClient.CloseIdleConnections()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("play: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("play did not stop")
	}
}

func TestPlayFlags(t *testing.T) {
	for _, args := range [][]string{{"play", "-max-tables", "0"}, {"play", "-idle", "0s"}, {"play", "extra"}, {"play", "-nope"}, {"play", "-othello-engine", "x=uci:cmd"},
		{"play", "-addr", "0.0.0.0:0"}, {"play", "-addr", "[::]:0"}, {"play", "-addr", "nohost"},
		{"play", "-bot-hosts", "http://x.invalid/"}, {"play", "-giretra-bots", "/nonexistent/bots"}} {
		if err := serve(context.Background(), args, env(nil), io.Discard, io.Discard, nil); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
