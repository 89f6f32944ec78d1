package fakeserver

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/botarena/gamebot/othello"
)

func (s *Server) id(v int64) any {
	if s.Quirks.StringIDs {
		return strconv.FormatInt(v, 10)
	}
	return json.Number(strconv.FormatInt(v, 10))
}

func (s *Server) ms(v float64) any {
	if s.Quirks.FloatClocks {
		return json.Number(strconv.FormatFloat(v, 'f', -1, 64))
	}
	return json.Number(strconv.FormatInt(int64(v), 10))
}

func ints(v []int) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = json.Number(strconv.Itoa(x))
	}
	return out
}

func orNull(v float64, set bool) any {
	if !set {
		return nil
	}
	return json.Number(strconv.FormatInt(int64(v), 10))
}

// renderLocked is the match object of the documentation's agent_poll
// example, filled in with fm.
func (s *Server) renderLocked(fm *fmatch) map[string]any {
	m := tpl("agent_poll.json")["matches"].([]any)[0].(map[string]any)
	st := m["state"].(map[string]any)
	legTpl := st["legs"].([]any)[0].(map[string]any)
	m["id"], m["bot_a"], m["bot_b"] = s.id(fm.id), s.id(fm.botA), s.id(fm.botB)
	m["game_mode"], m["status"] = fm.mode.String(), fm.status
	m["time_limit_sec"] = json.Number(strconv.FormatInt(s.ClockMs/1000, 10))
	m["expires_ms"] = json.Number(strconv.FormatInt(int64(fm.expires), 10))
	if fm.human {
		m["kind"], m["room_id"] = "human", json.Number(strconv.FormatInt(fm.room, 10))
		m["round_no"], m["room_created_at"] = json.Number(strconv.FormatInt(fm.round, 10)), fm.roomCreated
		m["ranked"] = false
	}
	st["game_mode"], st["time_limit_sec"] = fm.mode.String(), m["time_limit_sec"]
	st["status"] = map[string]string{"pending": "active", "running": "active", "finished": "finished"}[fm.status]
	if st["status"] == "" {
		st["status"] = "aborted"
	}
	st["revision"] = s.id(fm.revision)
	st["started_ms"] = orNull(fm.started, fm.started > 0)
	st["last_now_ms"] = json.Number(strconv.FormatInt(int64(nowMs()), 10))
	st["finished_ms"] = orNull(fm.finished, fm.finished > 0)
	st["board_size"] = json.Number(strconv.Itoa(fm.mode.Size()))
	blocked := fm.mode.Blocked()
	if blocked == nil {
		blocked = []int{}
	}
	st["blocked_squares"] = ints(blocked)
	st["finish_reason"] = nil
	st["winner"] = nil
	totals := s.totalsLocked(fm)
	st["totals"] = ints(totals[:])
	if fm.status == "finished" {
		st["finish_reason"] = fm.reason
		a, b := totals[0], totals[1]
		if fm.mode == othello.Anti {
			a, b = b, a
		}
		switch {
		case a > b:
			st["winner"] = json.Number("0")
		case b > a:
			st["winner"] = json.Number("1")
		}
	}
	var legs []any
	for _, l := range fm.legs {
		legs = append(legs, s.renderLegLocked(fm, l, legTpl))
	}
	st["legs"] = legs
	if fm.status == "pending" {
		st["started_ms"] = nil
	}
	return m
}

// renderLegLocked is the documentation's leg object filled in with l, a
// leg of fm.
func (s *Server) renderLegLocked(fm *fmatch, l *fleg, legTpl map[string]any) map[string]any {
	lj := map[string]any{}
	for k, v := range legTpl {
		lj[k] = v
	}
	board := make([]int, len(l.g.Cells))
	for i, v := range l.g.Cells {
		board[i] = int(v)
	}
	lj["board"] = ints(board)
	lj["turn"] = json.Number(strconv.Itoa(l.g.Turn))
	lj["black_participant"] = json.Number(strconv.Itoa(l.black))
	lj["placed"] = map[string]any{"1": json.Number(strconv.Itoa(l.g.Placed[0])), "2": json.Number(strconv.Itoa(l.g.Placed[1]))}
	lj["clocks_ms"] = []any{s.ms(l.clocks[0]), s.ms(l.clocks[1])}
	lj["turn_started_ms"] = s.ms(l.turnStarted)
	lj["revision"] = s.id(l.revision)
	h := []any{}
	for _, e := range l.history {
		h = append(h, map[string]any{"color": e.color, "participant": e.participant, "move": e.move, "at_ms": int64(e.at)})
	}
	lj["history"] = h
	lj["status"] = l.status
	b, w := l.g.Discs()
	lj["discs"] = ints([]int{b, w})
	lj["finished_ms"] = orNull(l.finished, l.finished > 0)
	legal := []int{}
	if l.status == "active" && fm.status == "running" {
		if lm := l.g.LegalMoves(); lm != nil {
			legal = lm
		}
		if l.hiddenRev == l.revision && l.hidden != 0 {
			legal = slices.DeleteFunc(slices.Clone(legal), func(m int) bool { return m == l.hidden-1 })
		}
	}
	lj["legal_moves"] = ints(legal)
	delete(lj, "result_discs")
	if l.resultDiscs != nil {
		lj["result_discs"] = ints(l.resultDiscs)
	}
	return lj
}
