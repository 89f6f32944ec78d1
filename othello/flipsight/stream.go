package flipsight

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"
)

type received struct {
	ev Event
	at time.Time
}

// streamLoop keeps the event stream connected and hands its match events
// to Run. After a drop it reconnects with a delay growing from BackoffMin
// to BackoffMax; a connection that was up (hello received) starts the
// delay again from BackoffMin.
func (a *Agent) streamLoop(ctx context.Context) {
	backoff := time.Duration(0)
	for ctx.Err() == nil {
		healthy, err := a.stream(ctx)
		a.streamUp.Store(false)
		a.poke() // the poll cadence falls back to the no-stream one
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, ErrCredential) {
			a.setFatal(ErrCredential)
			return
		}
		if healthy {
			backoff = 0
		}
		backoff = nextBackoff(backoff, a.o.BackoffMin, a.o.BackoffMax)
		a.o.Logger.Warn("event stream down", "err", err, "reconnect_in", backoff)
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return
		}
	}
}

// errStreamEnded is a clean end of the stream by the server.
var errStreamEnded = errors.New("event stream ended")

// stream reads one connection of the event stream until it ends; healthy
// reports that the server said hello.
func (a *Agent) stream(ctx context.Context) (healthy bool, err error) {
	c := a.o.Client
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Stream, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := c.streamClient().Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		return false, ErrCredential
	}
	if resp.StatusCode != http.StatusOK {
		return false, &APIError{Status: resp.StatusCode, Msg: "event stream refused"}
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), maxReply)
	for sc.Scan() {
		var ev Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			if !bytes.Contains(sc.Bytes(), []byte(`"match"`)) {
				continue // not an event line, or one we cannot read
			}
			// A match event we cannot read: the poll it asks for has the state.
			ev = Event{Type: "match"}
		}
		switch ev.Type {
		case "hello":
			healthy = true
			a.streamUp.Store(true)
		case "match":
			healthy = true
			a.streamUp.Store(true)
			select {
			case a.events <- received{ev, time.Now()}:
			case <-ctx.Done():
				return healthy, ctx.Err()
			}
		}
	}
	if err := sc.Err(); err != nil {
		return healthy, err
	}
	return healthy, errStreamEnded
}

// streamClient is the HTTP client without an overall timeout (the stream
// is long-lived).
func (c *Client) streamClient() *http.Client {
	h := *c.HTTP
	h.Timeout = 0
	return &h
}
