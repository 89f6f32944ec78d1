package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/internal/cli"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var env = cli.Env

// The server answers /health as soon as it listens, passes its own
// healthcheck subcommand, and shuts down cleanly (no goroutine left).
func TestRunServesAndShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	memFile := filepath.Join(t.TempDir(), "ships.mem")
	go func() {
		done <- serve(ctx, nil, env(map[string]string{"PORT": "0", "BATTLESHIP_MEMORY": memFile}), io.Discard, io.Discard, ready)
	}()
	addr := <-ready
	resp, err := http.Get("http://" + addr + "/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("health %d", resp.StatusCode)
	}
	port := addr[strings.LastIndexByte(addr, ':')+1:]
	if err := run(ctx, []string{"healthcheck"}, env(map[string]string{"PORT": port}), nil, io.Discard, io.Discard); err != nil {
		t.Fatalf("healthcheck: %v", err)
	}
	http.DefaultClient.CloseIdleConnections()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("server did not shut down")
	}
	// The battleship memory is written at shutdown (empty here, but a
	// file the next start reads).
	if _, err := os.Stat(memFile); err != nil {
		t.Errorf("battleship memory: %v", err)
	}
}

// With LAUNCHER_PID set, the server exits once that process is gone.
func TestLauncherWatchdog(t *testing.T) {
	cmd := exec.Command("sleep", "1")
	if err := cmd.Start(); err != nil {
		t.Skip("cannot start a child process:", err)
	}
	pid := cmd.Process.Pid
	go func() { _ = cmd.Wait() }()
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), nil, env(map[string]string{"PORT": "0", "LAUNCHER_PID": strconv.Itoa(pid)}), nil, io.Discard, io.Discard)
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("server outlived its launcher")
	}
}

func TestConfigErrors(t *testing.T) {
	for _, kv := range []map[string]string{
		{"PORT": "http"}, {"PORT": "70000"}, {"LOG_LEVEL": "loud"}, {"MAX_SESSIONS": "0"},
		{"SESSION_TTL": "forever"}, {"LAUNCHER_PID": "x"}, {"GIRETRA_BUDGET_MS": "-5"},
		{"GIRETRA_LOAD_BUDGET_MS": "0"}, {"GIRETRA_LOAD_BUDGET_MS": "fast"},
	} {
		if err := run(context.Background(), nil, env(kv), nil, io.Discard, io.Discard); err == nil {
			t.Errorf("%v: no error", kv)
		}
	}
	if err := run(context.Background(), []string{"frobnicate"}, env(nil), nil, io.Discard, io.Discard); err == nil {
		t.Error("unknown argument accepted")
	}
}
