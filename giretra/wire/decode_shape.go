package wire

// Shape checks: the type of every field a request may carry, whether or
// not the bot uses it, so that every request is held to the same shape.

func shapeStrings(v value, p *path, names ...string) error {
	for _, name := range names {
		fp := p.field(name)
		if _, err := str(v.Field(name), &fp); err != nil {
			return err
		}
	}
	return nil
}

func shapeInts(v value, p *path, names ...string) error {
	for _, name := range names {
		fp := p.field(name)
		if _, err := integer(v.Field(name), &fp); err != nil {
			return err
		}
	}
	return nil
}

func shapeCard(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	return shapeStrings(v, p, "rank", "suit")
}

func shapeCards(v value, p *path) error {
	if _, err := array(v, p); err != nil {
		return err
	}
	i := 0
	for e := v.First(); e.Kind() != absent; e = e.Next() {
		ep := p.elem(i)
		if err := shapeCard(e, &ep); err != nil {
			return err
		}
		i++
	}
	return nil
}

func shapeMatch(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	if err := shapeInts(v, p, "targetScore", "team1MatchPoints", "team2MatchPoints"); err != nil {
		return err
	}
	if err := shapeStrings(v, p, "currentDealer", "dealer"); err != nil {
		return err
	}
	ip := p.field("isComplete")
	if _, err := boolean(v.Field("isComplete"), &ip); err != nil {
		return err
	}
	sp := p.field("score")
	if ok, err := object(v.Field("score"), &sp); err != nil {
		return err
	} else if ok {
		if err := shapeInts(v.Field("score"), &sp, "team1", "team2"); err != nil {
			return err
		}
	}
	dp := p.field("completedDeals")
	deals := v.Field("completedDeals")
	if _, err := array(deals, &dp); err != nil {
		return err
	}
	i := 0
	for e := deals.First(); e.Kind() != absent; e = e.Next() {
		ep := dp.elem(i)
		if ok, err := object(e, &ep); err != nil {
			return err
		} else if ok {
			if err := shapeStrings(e, &ep, "gameMode", "multiplier", "announcerTeam"); err != nil {
				return err
			}
		}
		i++
	}
	return nil
}

func shapeTrick(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	if err := shapeStrings(v, p, "leader"); err != nil {
		return err
	}
	for _, list := range [...]string{"playedCards", "cards"} {
		lp := p.field(list)
		cards := v.Field(list)
		if _, err := array(cards, &lp); err != nil {
			return err
		}
		i := 0
		for e := cards.First(); e.Kind() != absent; e = e.Next() {
			ep := lp.elem(i)
			if ok, err := object(e, &ep); err != nil {
				return err
			} else if ok {
				if err := shapeStrings(e, &ep, "player"); err != nil {
					return err
				}
				cp := ep.field("card")
				if err := shapeCard(e.Field("card"), &cp); err != nil {
					return err
				}
			}
			i++
		}
	}
	return nil
}

func shapeHand(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	if err := shapeStrings(v, p, "gameMode", "multiplier"); err != nil {
		return err
	}
	cp := p.field("currentTrick")
	if err := shapeTrick(v.Field("currentTrick"), &cp); err != nil {
		return err
	}
	dp := p.field("completedTricks")
	done := v.Field("completedTricks")
	if _, err := array(done, &dp); err != nil {
		return err
	}
	i := 0
	for e := done.First(); e.Kind() != absent; e = e.Next() {
		ep := dp.elem(i)
		if err := shapeTrick(e, &ep); err != nil {
			return err
		}
		i++
	}
	return nil
}

func shapeAction(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	if err := shapeStrings(v, p, "type", "player", "mode", "targetMode", "gameMode"); err != nil {
		return err
	}
	ap := p.field("action")
	return shapeAction(v.Field("action"), &ap)
}

func shapeNegotiation(v value, p *path) error {
	if ok, err := object(v, p); !ok {
		return err
	}
	if err := shapeStrings(v, p, "dealer"); err != nil {
		return err
	}
	ap := p.field("actions")
	actions := v.Field("actions")
	if _, err := array(actions, &ap); err != nil {
		return err
	}
	i := 0
	for e := actions.First(); e.Kind() != absent; e = e.Next() {
		ep := ap.elem(i)
		if err := shapeAction(e, &ep); err != nil {
			return err
		}
		i++
	}
	return nil
}

// required reports a required field that is absent or null.
func required(root value, names ...string) error {
	for _, name := range names {
		if root.Field(name).Missing() {
			return malformed("invalid request: %s: is required", name)
		}
	}
	return nil
}
