package main

import (
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/botarena/gamebot/battleship"
	"github.com/botarena/gamebot/server"
	"github.com/prometheus/client_golang/prometheus"
)

// startSelf serves the engine on a loopback port through the production
// server (its battleship endpoint), so a run against "self" exercises the
// real edge; it returns the endpoint's URL and how to stop the server.
func startSelf() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	h := server.New(slog.New(slog.DiscardHandler), server.Config{}, prometheus.NewRegistry(), server.Deps{Battleship: battleship.NewBot(battleship.Options{})})
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(slog.DiscardHandler, slog.LevelError)}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/battleship", func() { _ = srv.Close() }, nil
}
