package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/gamebot/internal/cli"
	"github.com/botarena/gamebot/othello"
	"github.com/botarena/gamebot/othello/flipsight"
	"github.com/botarena/gamebot/othello/flipsight/fakeserver"
)

// withEnv returns an environment holding only token as FS_BOT_TOKEN, and
// makes run use client (when not nil) for the rest of the test.
func withEnv(t *testing.T, token string, client *http.Client) func(string) string {
	t.Helper()
	oldClient := newHTTPClient
	if client != nil {
		newHTTPClient = func() *http.Client { return client }
	}
	t.Cleanup(func() { newHTTPClient = oldClient })
	return cli.Env(map[string]string{"FS_BOT_TOKEN": token})
}

func TestTokenOnlyFromEnvironment(t *testing.T) {
	for _, tok := range []string{"", "abc", "fsbm_ bad"} {
		env := withEnv(t, tok, nil)
		var out, errb bytes.Buffer
		err := run(context.Background(), nil, env, nil, &out, &errb)
		if !errors.Is(err, errToken) || !strings.Contains(errb.String(), "FS_BOT_TOKEN is missing or invalid") {
			t.Errorf("token %q: err %v, stderr %q", tok, err, errb.String())
		}
	}
	// There is no token flag.
	env := withEnv(t, "", nil)
	if err := run(context.Background(), []string{"--token", "fsbm_x"}, env, nil, &bytes.Buffer{}, &bytes.Buffer{}); err == nil || errors.Is(err, errToken) {
		t.Errorf("--token accepted or ignored: %v", err)
	}
}

func TestFlagChecks(t *testing.T) {
	env := withEnv(t, "fsbm_ok", nil)
	for _, args := range [][]string{
		{"--api", "http://othelloclub.com/x"},
		{"--stream-url", "https://elsewhere.example/stream"},
		{"--max-think-seconds", "301"},
		{"--engine-name", "/usr/bin/edax"},
		{"--tt-bits", "40"},
		{"extra"},
	} {
		if err := run(context.Background(), args, env, nil, &bytes.Buffer{}, &bytes.Buffer{}); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

func fakeURLs(ts *httptest.Server) []string {
	return []string{"--api", ts.URL + "/api", "--stream-url", ts.URL + "/stream"}
}

// TestOnceMatch plays a short bot match against the fake server through
// run with the platform's own cadence.
func TestOnceMatch(t *testing.T) {
	fake := fakeserver.New(21)
	ts := httptest.NewTLSServer(fake)
	defer ts.Close()
	env := withEnv(t, "fsbm_test", ts.Client())
	id := fake.Challenge(othello.Std, 6)
	var out, errb bytes.Buffer
	// Without the stream, so that the documentation's 1 s poll floor applies.
	args := append(fakeURLs(ts), "--once-match", strconv.FormatInt(id, 10), "--tt-bits", "12", "--engine-name", "test engine", "--practice", "--no-stream")
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	if err := run(ctx, args, env, nil, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	m, _ := fake.Match(id)
	if m.Status != "finished" {
		t.Fatalf("status %s\n%s", m.Status, errb.String())
	}
	envs := fake.Envs()
	if len(envs) == 0 || envs[0].Engine != "test engine" || !envs[0].Practice || envs[0].CPU == "" || envs[0].OS == "" {
		t.Errorf("environment %+v", envs)
	}
	if strings.Contains(errb.String(), "fsbm_test") {
		t.Error("token written to the log")
	}
	p := fake.Polls()
	for i := 1; i < len(p); i++ {
		if p[i].Sub(p[i-1]) < 990*time.Millisecond {
			t.Errorf("two polls %v apart", p[i].Sub(p[i-1]))
		}
	}
}

func TestRejectedTokenAndMaxRuntime(t *testing.T) {
	fake := fakeserver.New(22)
	ts := httptest.NewTLSServer(fake)
	defer ts.Close()
	env := withEnv(t, "fsbm_wrong", ts.Client())
	var errb bytes.Buffer
	err := run(context.Background(), fakeURLs(ts), env, nil, &bytes.Buffer{}, &errb)
	if !errors.Is(err, flipsight.ErrCredential) || !strings.Contains(errb.String(), "Bot credential rejected") {
		t.Fatalf("err %v\n%s", err, errb.String())
	}
	env = withEnv(t, "fsbm_test", ts.Client())
	err = run(context.Background(), append(fakeURLs(ts), "--max-runtime", "0.3", "--no-stream"), env, nil, &bytes.Buffer{}, &bytes.Buffer{})
	if !errors.Is(err, flipsight.ErrMaxRuntime) {
		t.Fatalf("err %v, want ErrMaxRuntime", err)
	}
}
