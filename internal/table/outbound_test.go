package table

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/botarena/gamebot/internal/problem"
)

func TestBotHostsCheck(t *testing.T) {
	loop := BotHosts{Loopback: true}
	named := BotHosts{Names: []string{"bots.example.invalid", "arena.example.invalid:8080"}}
	for _, tc := range []struct {
		b    BotHosts
		url  string
		kind problem.Kind // Internal: accepted
	}{
		{loop, "http://127.0.0.1:5063", problem.Internal},
		{loop, "http://localhost:5063/battleship", problem.Internal},
		{loop, "https://[::1]:5063", problem.Internal},
		{loop, "http://127.0.0.9", problem.Internal},
		{loop, "http://bots.example.invalid:5063", problem.Forbidden},
		{loop, "http://user:secret@127.0.0.1:5063", problem.Malformed},
		{loop, "ftp://127.0.0.1", problem.Malformed},
		{loop, "127.0.0.1:5063", problem.Malformed},
		{loop, "http://", problem.Malformed},
		{loop, "http://localhost.example.invalid", problem.Forbidden},
		{named, "http://127.0.0.1:5063", problem.Forbidden},
		{named, "http://bots.example.invalid:9000/x", problem.Internal},
		{named, "http://arena.example.invalid:8080", problem.Internal},
		{named, "http://arena.example.invalid:8081", problem.Forbidden},
		{BotHosts{}, "http://127.0.0.1:5063", problem.Forbidden},
	} {
		_, err := tc.b.Check(tc.url)
		if got := problem.KindOf(err); err == nil && tc.kind != problem.Internal || err != nil && got != tc.kind {
			t.Errorf("%+v %q: %v (kind %v), want kind %v", tc.b, tc.url, err, got, tc.kind)
		}
	}
}

// TestLoopbackDial: a URL allowed as a loopback one connects to loopback
// addresses only, whatever its name resolves to; the check runs before
// any packet is sent, so the refused address is never contacted.
func TestLoopbackDial(t *testing.T) {
	for addr, ok := range map[string]bool{"127.0.0.1:80": true, "[::1]:80": true, "10.0.0.1:80": false, "192.168.1.1:80": false, "8.8.8.8:53": false} {
		if err := loopbackOnly("tcp", addr, nil); (err == nil) != ok {
			t.Errorf("%s: %v", addr, err)
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	b := BotHosts{Loopback: true}
	u, err := b.Check(strings.Replace(srv.URL, "127.0.0.1", "localhost", 1))
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: &http.Transport{DialContext: b.Dial(u)}}
	resp, err := hc.Get(u.String())
	if err != nil {
		t.Fatalf("a loopback bot through its dialer: %v", err)
	}
	resp.Body.Close()
}

func TestParseBotHosts(t *testing.T) {
	for _, tc := range []struct {
		list   string
		onLoop bool
		want   BotHosts
		bad    bool
	}{
		{"", true, BotHosts{Loopback: true}, false},
		{"", false, BotHosts{}, false},
		{"none", true, BotHosts{}, false},
		{"loopback", false, BotHosts{Loopback: true}, false},
		{"loopback, bots.example.invalid:8080,arena.example.invalid", false, BotHosts{Loopback: true, Names: []string{"bots.example.invalid:8080", "arena.example.invalid"}}, false},
		{"http://x.invalid/", true, BotHosts{}, true},
		{"u@x.invalid", true, BotHosts{}, true},
	} {
		got, err := ParseBotHosts(tc.list, tc.onLoop)
		if (err != nil) != tc.bad || !tc.bad && (got.Loopback != tc.want.Loopback || strings.Join(got.Names, " ") != strings.Join(tc.want.Names, " ")) {
			t.Errorf("%q (loopback %v): %+v %v", tc.list, tc.onLoop, got, err)
		}
	}
}
