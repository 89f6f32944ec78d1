package server

import (
	"container/list"
	"crypto/rand"
	"sync"
	"time"

	"github.com/botarena/gamebot/giretra"
)

// session is one seat of one Giretra match: its own player, its own lock.
// Requests of a match arrive one at a time, but the lock keeps a confused
// or hostile client from racing a session against itself.
type session struct {
	mu     sync.Mutex
	id     string
	seat   giretra.Position
	player giretra.Player

	// Guarded by the store's mutex.
	elem    *list.Element
	expires time.Time
	ended   bool // match-ended seen: expires is a short grace, not extended
}

// sessionStore holds the sessions, bounded in count and in idle time. The
// engine never deletes game sessions, so the store reclaims them itself:
// shortly after match-ended, after an idle TTL, and the least recently
// used one when the cap is reached.
type sessionStore struct {
	mu        sync.Mutex
	byID      map[string]*session
	lru       *list.List // front = most recently used
	max       int
	idleTTL   time.Duration
	endedTTL  time.Duration
	now       func() time.Time
	newPlayer func() giretra.Player
	metrics   *Metrics
}

func newSessionStore(cfg Config, newPlayer func() giretra.Player, m *Metrics) *sessionStore {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &sessionStore{
		byID: make(map[string]*session), lru: list.New(),
		max: cfg.MaxSessions, idleTTL: cfg.SessionTTL, endedTTL: cfg.EndedSessionTTL,
		now: now, newPlayer: newPlayer, metrics: m,
	}
}

// create adds a session for seat and returns it.
func (s *sessionStore) create(seat giretra.Position) *session {
	se := &session{id: rand.Text(), seat: seat, player: s.newPlayer()}
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.byID) >= s.max {
		oldest := s.lru.Back()
		if oldest == nil {
			break
		}
		s.removeLocked(oldest.Value.(*session), "capacity")
	}
	se.expires = s.now().Add(s.idleTTL)
	se.elem = s.lru.PushFront(se)
	s.byID[se.id] = se
	s.metrics.sessionsCreated.Inc()
	s.metrics.sessionsActive.Set(float64(len(s.byID)))
	return se
}

// get returns the session and marks it used, or nil.
func (s *sessionStore) get(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	se := s.byID[id]
	if se == nil {
		return nil
	}
	if s.now().After(se.expires) {
		s.removeLocked(se, "idle")
		return nil
	}
	if !se.ended {
		se.expires = s.now().Add(s.idleTTL)
	}
	s.lru.MoveToFront(se.elem)
	return se
}

// delete removes a session; unknown ids are fine (DELETE is idempotent).
func (s *sessionStore) delete(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if se := s.byID[id]; se != nil {
		s.removeLocked(se, "deleted")
	}
}

// matchEnded shortens the session's life: the engine sends nothing after
// match-ended, but a grace period keeps a late duplicate from getting a 404.
func (s *sessionStore) matchEnded(se *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byID[se.id] == se {
		se.expires = s.now().Add(s.endedTTL)
		se.ended = true
	}
}

func (s *sessionStore) removeLocked(se *session, reason string) {
	delete(s.byID, se.id)
	s.lru.Remove(se.elem)
	s.metrics.sessionsReclaimed.WithLabelValues(reason).Inc()
	s.metrics.sessionsActive.Set(float64(len(s.byID)))
}

// sweep removes every expired session.
func (s *sessionStore) sweep() {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for e := s.lru.Back(); e != nil; {
		prev := e.Prev()
		se := e.Value.(*session)
		if now.After(se.expires) {
			reason := "idle"
			if se.ended {
				reason = "ended"
			}
			s.removeLocked(se, reason)
		}
		e = prev
	}
}

// len is the number of sessions held.
func (s *sessionStore) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.byID)
}
