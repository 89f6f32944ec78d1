package fakeserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// broadcastLocked sends a match event to every stream: the full match for
// bot pairs, only id, kind and room_id for human games (as documented).
func (s *Server) broadcastLocked(fm *fmatch) {
	var ev map[string]any
	if fm.human {
		ev = map[string]any{"type": "match", "match": map[string]any{"id": fm.id, "kind": "human", "room_id": fm.room}}
	} else {
		ev = map[string]any{"type": "match", "match": s.renderLocked(fm)}
	}
	ev["server_now_ms"] = json.Number(strconv.FormatInt(int64(nowMs()), 10))
	b, _ := json.Marshal(ev)
	b = append(b, '\n')
	for ch := range s.subs {
		select {
		case ch <- b:
		default: // slow reader: drop (the agent also polls)
		}
	}
}

func (s *Server) serveStream(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		s.fail(w, http.StatusUnauthorized, "invalid bot credential")
		return
	}
	s.mu.Lock()
	if len(s.faults.StreamStatus) > 0 {
		st := s.faults.StreamStatus[0]
		s.faults.StreamStatus = s.faults.StreamStatus[1:]
		s.mu.Unlock()
		s.fail(w, st, "too many streams")
		return
	}
	if s.streams >= s.MaxConns {
		s.mu.Unlock()
		s.fail(w, http.StatusTooManyRequests, "too many streams")
		return
	}
	drop := false
	if s.faults.StreamDrop > 0 {
		s.faults.StreamDrop--
		drop = true
	}
	s.streams++
	s.streamTimes = append(s.streamTimes, time.Now())
	ch := make(chan []byte, 256)
	s.subs[ch] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.streams--
		delete(s.subs, ch)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	write := func(b []byte) bool {
		if _, err := w.Write(b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	// hello, as the documentation's first event line, with our bot id.
	var hello map[string]any
	dec := json.NewDecoder(bytes.NewReader(Doc("bot-stream.ndjson")))
	dec.UseNumber()
	_ = dec.Decode(&hello)
	hello["bot_id"], hello["server_now_ms"] = s.id(s.BotID), json.Number(strconv.FormatInt(int64(nowMs()), 10))
	hb, _ := json.Marshal(hello)
	if !write(append(hb, '\n')) || drop {
		return
	}
	ping := time.NewTicker(s.Ping)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case b := <-ch:
			if !write(b) {
				return
			}
		case <-ping.C:
			p, _ := json.Marshal(map[string]any{"type": "ping", "server_now_ms": int64(nowMs())})
			if !write(append(p, '\n')) {
				return
			}
		}
	}
}
