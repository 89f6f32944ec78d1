package wire

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/botarena/gamebot/battleship"
)

// The arena's side of the exchange: the messages botsarena sends, key for
// key and in its key order (board numbers as strings, "game" spelt
// "battleship" in init and "Battleship" in play-turn), and how it reads
// the answers (docs/battleship.md). The referee (battleship/referee)
// sends these; Decode above is the bot's reading of them.

// InitMessage is the arena's "init".
type InitMessage struct {
	GameID      int    `json:"game-id"`
	Game        string `json:"game"`
	Action      string `json:"action"`
	Players     int    `json:"players"`
	PlayerIndex int    `json:"player-index"`
	Board       Board  `json:"board"`
}

// Board is the "board" of both messages: the opponent's name, the board's
// size and the number of ships of each length 1..6.
type Board struct {
	Opponent string `json:"opponent"`
	Width    string `json:"width"`
	Height   string `json:"height"`
	Ship1    string `json:"ship1"`
	Ship2    string `json:"ship2"`
	Ship3    string `json:"ship3"`
	Ship4    string `json:"ship4"`
	Ship5    string `json:"ship5"`
	Ship6    string `json:"ship6"`
}

// TurnMessage is the arena's "play-turn".
type TurnMessage struct {
	Game        string    `json:"game"`
	GameID      int       `json:"game-id"`
	Action      string    `json:"action"`
	PlayerIndex int       `json:"player-index"`
	Board       TurnBoard `json:"board"`
}

// TurnBoard is play-turn's board: Board and both histories, never null.
type TurnBoard struct {
	Board
	YourStrikes []Strike `json:"your_strikes"`
	HisStrikes  []Strike `json:"his_strikes"`
}

// Strike is one history entry as the arena sends it: the shot exactly as
// its shooter wrote it, and the arena's answer.
type Strike = battleship.Shot

// NewInit is the init message of game gameID to seat, opponent named as
// the arena names it.
func NewInit(gameID, seat int, r battleship.Rules, opponent string) InitMessage {
	return InitMessage{GameID: gameID, Game: "battleship", Action: "init", Players: 2, PlayerIndex: seat, Board: BoardOf(r, opponent)}
}

// NewTurn is the play-turn message of game gameID to seat with the two
// histories (nil is sent as []).
func NewTurn(gameID, seat int, r battleship.Rules, opponent string, yours, his []Strike) TurnMessage {
	if yours == nil {
		yours = []Strike{}
	}
	if his == nil {
		his = []Strike{}
	}
	return TurnMessage{Game: "Battleship", GameID: gameID, Action: "play-turn", PlayerIndex: seat,
		Board: TurnBoard{Board: BoardOf(r, opponent), YourStrikes: yours, HisStrikes: his}}
}

// BoardOf is the board the arena sends for rules r.
func BoardOf(r battleship.Rules, opponent string) Board {
	s := strconv.Itoa
	f := r.Fleet
	return Board{Opponent: opponent, Width: s(r.W), Height: s(r.H),
		Ship1: s(f[1]), Ship2: s(f[2]), Ship3: s(f[3]), Ship4: s(f[4]), Ship5: s(f[5]), Ship6: s(f[6])}
}

// InvalidAnswer is an answer the arena punishes with a loss. Reason
// quotes the answer, for the bot's author; Plain says what is wrong
// without quoting anything the bot sent, for pages shown to people who
// did not write it (gamebot play). Why names Plain's text in PlainTexts,
// and Args fill it: a page writes it in its reader's language from the
// name (battleship/words), and the args are ours, never the bot's.
type InvalidAnswer struct {
	Reason, Plain string
	Why           string
	Args          []any
}

func (e *InvalidAnswer) Error() string { return e.Reason }

// PlainTexts are the English texts of the reasons an answer is invalid,
// by name: a catalogue of battleship/words holds them in every language.
var PlainTexts = map[string]string{
	"notObject":       "the answer is not a JSON object",
	"noKey":           "the answer has no %q",
	"boatsNotStrings": "boats is not a list of strings",
	"boatEnd":         "a boat's end is not a cell written as the arena writes them",
	"diagonal":        "a boat is diagonal",
	"notFleet":        "the boats are not the fleet asked (a boat missing, too many, overlapping or off the board)",
	"playNotString":   "play is not a string",
	"badShot":         "the shot is malformed or off the %dx%d board",
}

// Invalid is an invalid answer whose plain reason is PlainTexts[why]
// with args; format and fargs write Reason.
func Invalid(why string, args []any, format string, fargs ...any) *InvalidAnswer {
	return &InvalidAnswer{Reason: fmt.Sprintf(format, fargs...), Plain: fmt.Sprintf(PlainTexts[why], args...), Why: why, Args: args}
}

// AnswerField reads an answer as the arena does, json_decode($output,
// TRUE) then isset($arr[key]): the answer must be a JSON object with key
// set and not null.
func AnswerField(body []byte, key string) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		return nil, Invalid("notObject", nil, "answer is not a JSON object: %.80q", body)
	}
	v, ok := obj[key]
	if !ok || string(v) == "null" {
		return nil, Invalid("noKey", []any{key}, "answer has no %q: %.80q", key, body)
	}
	return v, nil
}

// ArenaBoats reads an init answer's "boats" as the arena does and returns
// the placed ships: a list (or an object) of "x1,y1-x2,y2" strings, ends
// in either order, extra ",…" and "-…" parts ignored, each end a
// canonical cell; the fleet must be the one asked, without overlaps.
func ArenaBoats(r battleship.Rules, raw json.RawMessage) ([]battleship.Ship, error) {
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var obj map[string]string
		if err2 := json.Unmarshal(raw, &obj); err2 != nil {
			return nil, Invalid("boatsNotStrings", nil, "boats is not a list of strings: %.80s", raw)
		}
		for _, v := range obj {
			list = append(list, v)
		}
	}
	var ships []battleship.Ship
	for _, b := range list {
		start, end, _ := strings.Cut(b, "-")
		end, _, _ = strings.Cut(end, "-")
		x1, y1, ok1 := phpCell(start)
		x2, y2, ok2 := phpCell(end)
		if !ok1 || !ok2 {
			return nil, Invalid("boatEnd", nil, "boat %q: end point is not a canonical cell", b)
		}
		if x1 != x2 && y1 != y2 {
			return nil, Invalid("diagonal", nil, "boat %q is diagonal", b)
		}
		s := battleship.Ship{X: min(x1, x2), Y: min(y1, y2)}
		if x1 == x2 {
			s.L, s.Vertical = abs(y1-y2)+1, true
		} else {
			s.L = abs(x1-x2) + 1
		}
		if s.L == 1 {
			s.Vertical = false
		}
		ships = append(ships, s)
	}
	if err := battleship.CheckPlacement(r, ships); err != nil {
		return nil, Invalid("notFleet", nil, "boats %v: %v", list, err)
	}
	return ships, nil
}

// ArenaPlay reads a play-turn answer's "play" as the arena does: a JSON
// string, a valid shot on r's board; it returns the target as the arena
// compares it with ship cells.
func ArenaPlay(r battleship.Rules, raw json.RawMessage) (string, error) {
	var play string
	if json.Unmarshal(raw, &play) != nil {
		return "", Invalid("playNotString", nil, "play is not a string: %.40s", raw)
	}
	target, ok := battleship.ValidShot(r, play)
	if !ok {
		return "", Invalid("badShot", []any{r.W, r.H}, "shot %q is malformed or off the %dx%d board", play, r.W, r.H)
	}
	return target, nil
}

// phpCell reads "x,y" (extra ",..." parts ignored) with canonical integers,
// the only keys PHP's isset($map[$y][$x]) finds.
func phpCell(s string) (int, int, bool) {
	parts := strings.SplitN(s, ",", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	return battleship.ParseTarget(parts[0] + "," + parts[1])
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
