"""Whether a move is legal now (RULES.md 3, 4, 6, 7): every check reads the state, none changes it.

Two kinds of refusal (``facilitator.rules.errors``):

* ``MalformedError`` (path ``move.<field>``): what RECORD.md 2 calls malformed but only the
  pack or the table can tell: an unknown card, active, activity id or player; a card of the
  wrong type for the move (an activity in ``play_event``, a non-reaction in ``react``); a
  card field missing or one the card does not take. These carry ``rule = "§7"`` and a
  ``code`` too, so a table of refusals can name them.
* ``IllegalMoveError(rule, code, template, **params)``: a well-formed move the rules forbid.

**Rule references** (``rule``; every message starts with it): ``P1``–``P9`` for the
conditions of ``play_activity`` (RULES.md 3.2); ``§<section>`` for a section of RULES.md
(``§1.1`` abilities, ``§1.2`` the card table, ``§3``–``§3.6``, ``§4``, ``§7`` the move table);
``§6.<n>`` for decision n of RULES.md 6 when the refusal rests on it. The template is English
with the numbers as ``params``; ``str(error)`` is ``"<rule>: <text>"``.

In ``partial`` mode (screens asking which candidates of one field are legal, ``Game.options``)
a card field that is not given yet is no error, and the checks that need it are skipped.
"""

from ..errors import IllegalMoveError, MalformedError
from .effects import Resolution
from .pack import ABILITY_FIELDS, EVENT_FIELDS, PARE_TARGETS, REACTION_FIELDS, USED_ABILITIES

TURN_MOVES = frozenset(("draw", "season", "play_event", "play_activity", "ability", "end_turn"))
TRIGGERS = frozenset(("play_event", "play_activity", "ability", "season", "choose"))
_EVENT_FIELD_NAMES = ("target", "hobby", "chore", "active", "activity", "participants")


def _illegal(rule, code, template, **params):
    return IllegalMoveError(rule, code, template, **params)


def _coded(code, error):
    """A ``MalformedError`` raised by the game carries RULES.md 7's reference and a code."""
    error.rule = "§7"
    error.code = code
    return error


# ----- references to the pack and the table -----------------------------------------------
def _card(st, key, field="card"):
    card = st.pack.cards_by_key.get(key)
    if card is None:
        raise _coded("unknown_card", MalformedError(f"move.{field}", "unknown card {card!r}: the pack has no such card",
                                                    card=key))
    return card


def _known_active(st, key, field):
    if key not in st.pack.actives_by_key:
        raise _coded("unknown_active", MalformedError(f"move.{field}",
                                                      "unknown active {active!r}: the pack has no such active",
                                                      active=key))


def _known_player(st, name, field):
    if name not in st.hands:
        raise _coded("unknown_player", MalformedError(f"move.{field}", "unknown player {player!r}; the players are "
                                                      "{allowed}", player=name, allowed=", ".join(st.order)))


def _target(st, key, field="target"):
    """RULES.md 3.2: a target is an active in the game that is not away."""
    _known_active(st, key, field)
    a = st.actives.get(key)
    if a is None:
        raise _illegal("§3.2", "target_not_in_game", "§3.2: {active} is not in the game (it is in the active deck)",
                       active=key)
    if a.away:
        raise _illegal("§3.2", "target_away", "§3.2: {active} is away until the season change", active=key)
    return a


def _held(st, activity_id, field="activity"):
    """An activity id held by an active that is not away."""
    a, act = st.find_activity(activity_id)
    if act is None:
        raise _coded("unknown_activity", MalformedError(f"move.{field}", "unknown activity {activity!r}: no active "
                                                        "holds it", activity=activity_id))
    if a.away:
        raise _illegal("§3.2", "activity_away", "§3.2: {activity} is held by {active}, who is away",
                       activity=activity_id, active=a.key)
    return a, act


def _fields(move, allowed, required, partial, what):
    """A card's own fields: ``required`` must be given (unless ``partial``), the others of
    ``allowed`` must not (a field the card does not take is malformed)."""
    for name in allowed:
        value = move.get(name)
        if name in required:
            if value is None and not partial:
                raise _coded("field_missing", MalformedError(f"move.{name}", "is missing: {what} needs {name!r}",
                                                             what=what, name=name))
        elif value is not None:
            raise _coded("field_extra", MalformedError(f"move.{name}", "{what} takes no {name!r}", what=what,
                                                       name=name))


def _no_card(st, player, need, rule):
    hand = st.hands[player]
    if hand >= need:
        return
    if rule == "§3.4":
        raise _illegal("§3.4", "no_card", "§3.4: no card in hand: {player} holds {hand}", player=player, hand=hand)
    if rule == "§1.1":
        raise _illegal("§1.1", "no_card", "§1.1: no card in hand: {player} holds {hand}; Jaakko swaps one",
                       player=player, hand=hand)
    if need == 2:
        raise _illegal("§1.2", "no_card", "§1.2: no card in hand: Tärkeä nakki is played with a chore "
                       "(2 cards); {player} holds {hand}", player=player, hand=hand)
    raise _illegal("§3.2", "no_card", "§3.2: no card in hand: {player} holds {hand}", player=player, hand=hand)


# ----- the entry point --------------------------------------------------------------------
def check(game, move, partial=False):
    """Raise if ``move`` is not legal now; return the plan ``Game.apply`` carries out (the
    prepared state of an ``adjust``, else None). Changes nothing."""
    st = game._s
    if st.finished:
        raise _illegal("§4", "game_finished", "§4: game finished: a finished game accepts no moves")
    kind = move.type
    if move.player is not None:
        _known_player(st, move.player, "player")
    if kind in TURN_MOVES:
        if st.pending:
            first = st.pending[0]
            raise _illegal("§3.6", "choice_pending",
                           "§3.6: choice pending: {player} answers {choice} first; until then only choose, react, "
                           "adjust and finish are accepted", player=first.player, choice=first.kind)
        current = st.order[st.current]
        if move.player != current:
            raise _illegal("§3", "not_your_turn", "§3: not your turn: it is {current}'s turn, not {player}'s",
                           current=current, player=move.player)
        if kind == "draw" and st.step != "draw":
            raise _illegal("§3.1", "wrong_step", "§3.1: wrong step: {player} has drawn this turn; the play step is on",
                           player=move.player, step=st.step)
        if kind in ("play_event", "play_activity", "ability") and st.step != "play":
            raise _illegal("§3.2", "wrong_step", "§3.2: wrong step: {player} draws first (the draw step is on)",
                           player=move.player, step=st.step)
        if kind == "end_turn" and st.step != "play":
            raise _illegal("§3.5", "wrong_step", "§3.5: wrong step: a turn ends in its play step; {player} draws first",
                           player=move.player, step=st.step)
    try:
        return _CHECKS[kind](game, st, move, partial)
    except IllegalMoveError as err:
        name_activities(game, err)
        raise


def activity_card(game, activity_id):
    """The card of an activity id (``a<k>``: placed by move k): held now, or as move k placed it
    (its card, a Tärkeä nakki's chore, an adjust's added card); None when no move placed it."""
    _holder, act = game._s.find_activity(activity_id)
    if act is not None:
        return act.card.key
    number = activity_id[1:] if isinstance(activity_id, str) and activity_id.startswith("a") else ""
    if not number.isdigit() or not 1 <= int(number) <= len(game.moves):
        return None
    move = game.moves[int(number) - 1]
    if move.type == "play_activity":
        return move.card
    if move.type == "play_event":
        return move.chore
    if move.type == "adjust":
        return next((c["add"] for c in move.changes if "add" in c), None)
    return None


def name_activities(game, err):
    """A refusal naming activities by id (``{activity}``, a list of them in ``{options}``) also
    carries their cards (``activity_card``, ``options_cards``): a screen names them by their
    cards, not by ids a host never sees."""
    params = err.params
    activity = params.get("activity")
    if isinstance(activity, str) and "activity_card" not in params:
        card = activity_card(game, activity)
        if card is not None:
            params["activity_card"] = card
    options = params.get("options")
    if isinstance(options, str) and options and "options_cards" not in params and "activity" in params:
        cards = [activity_card(game, part) for part in options.split(", ")]
        if all(cards):
            params["options_cards"] = ", ".join(cards)


def _check_draw(game, st, move, partial):
    return None


def _check_season(game, st, move, partial):
    """RULES.md 3.1: the season card comes as the draw, or right after this player's Jaakko
    or Kalle ability drew it (decision 47: the very next move)."""
    if st.step == "draw":
        return None
    prev = game.moves[-1] if game.moves else None
    if (prev is not None and prev.type == "ability" and prev.player == move.player
            and st.actives[prev.active].card.ability in ("jaakko", "kalle")):
        return None
    raise _illegal("§6.47", "season_not_now",
                   "§6.47: the season card comes as the draw or right after a Jaakko or Kalle ability; "
                   "the last move ({last}) is {kind}", last=len(game.moves), kind=prev.type if prev else "none")


def _check_end_turn(game, st, move, partial):
    return None


def _check_finish(game, st, move, partial):
    return None


# ----- RULES.md 3.2: play_activity ---------------------------------------------------------
def _check_play_activity(game, st, move, partial):
    card = _card(st, move.card)
    _fields(move, ("partner",), ("partner",) if card.is_dating else (), partial, card.key)
    _no_card(st, move.player, 1, "§3.2")
    if not card.is_activity:
        raise _illegal("P1", "p1_not_activity", "P1: {card} is an event, not a hobby or chore; play it with play_event",
                       card=card.key)
    held = st.copies_held(card.key)
    if held >= card.count:
        raise _illegal("P1", "p1_copies", "P1: all {count} copies of {card} are in play", card=card.key,
                       count=card.count, held=held)
    if move.target is None and partial:
        return None
    a = check_target_p2_p8(st, move.target, move.player)
    if card.is_dating:
        if a.owner == move.player:  # P9's condition on X alone: no partner makes it legal
            raise _p9_own(move.target, move.player)
        if move.partner is not None:
            _check_p9(st, move.target, move.partner, move.player)
    return None


def check_target_p2_p8(st, key, player):
    """P2–P8 for an activity played onto ``key`` by ``player``."""
    _known_active(st, key, "target")
    a = st.actives.get(key)
    if a is None:
        raise _illegal("P2", "p2_not_in_game", "P2: {target} is not in the game", target=key)
    if a.away:
        raise _illegal("P2", "p2_away", "P2: {target} is away until the season change", target=key)
    relief = st.stress_relief()
    anxiety = st.anxiety(a, relief)
    if anxiety >= a.card.bo:
        raise _illegal("P3", "p3_burned_out", "P3: {target} is burned out (anxiety {anxiety}, burn-out limit {bo})",
                       target=key, anxiety=anxiety, bo=a.card.bo)
    used = st.n(a)
    if used >= a.card.va:
        raise _illegal("P4", "p4_no_free_time", "P4: {target} has no free time ({used} of {va} used)",
                       target=key, used=used, va=a.card.va)
    tm = st.tyo_maalla(a)
    if tm is not None:
        raise _illegal("P5", "p5_tyo_maalla", "P5: {target} holds {card} ({activity}); nothing may be played onto it",
                       target=key, card=tm.card.key, activity=tm.id)
    if key in st.played_turn and key not in st.boosted:
        raise _illegal("P6", "p6_once_per_turn", "P6: {target} already received an activity this turn ({activity})",
                       target=key, activity=st.played_turn[key])
    owner = a.owner
    last = st.last_onto.get(key)
    if owner != player and last is not None:
        since = st.turn_end.get(owner, 0)
        if last[0] > since:
            raise _illegal("P7", "p7_since_owner_turn",
                           "P7: {target} already received an activity since {owner}'s last turn ended ({activity})",
                           target=key, owner=owner, activity=last[1], move=last[0], since=since)
    if a.card.ability == "kalle" and key in st.abilities:
        if key in st.kalle_season:
            raise _illegal("P8", "p8_season_card",
                           "P8: {target}'s ability drew the season card this turn; he receives no activity this turn",
                           target=key)
        if last is not None and last[0] > st.abilities[key]:
            raise _illegal("P8", "p8_since_ability",
                           "P8: {target} used his ability this turn (move {ability_move}) and has received "
                           "{activity} since; he may receive only the card drawn", target=key,
                           ability_move=st.abilities[key], activity=last[1])
    return a


def _check_p9(st, x, y, player):
    """P9: Seurustelu needs a partner Y ≠ X, in the game, not away, not burned out, U ≥ 1;
    neither X nor Y belongs to the player."""
    if y == x:
        raise _illegal("P9", "p9_same", "P9: the partner must be another active than {target}", target=x)
    _known_active(st, y, "partner")
    b = st.actives.get(y)
    if b is None:
        raise _illegal("P9", "p9_not_in_game", "P9: partner {partner} is not in the game", partner=y)
    if b.away:
        raise _illegal("P9", "p9_away", "P9: partner {partner} is away until the season change", partner=y)
    anxiety = st.anxiety(b)
    if anxiety >= b.card.bo:
        raise _illegal("P9", "p9_burned_out", "P9: partner {partner} is burned out (anxiety {anxiety}, burn-out "
                       "limit {bo})", partner=y, anxiety=anxiety, bo=b.card.bo)
    used = st.n(b)
    if used >= b.card.va:
        raise _illegal("P9", "p9_no_free_time", "P9: partner {partner} has no free time ({used} of {va} used)",
                       partner=y, used=used, va=b.card.va)
    for key in (x, y):
        if st.actives[key].owner == player:
            raise _p9_own(key, player)


def _p9_own(key, player):
    return _illegal("P9", "p9_own", "P9: {active} belongs to {player}; Seurustelu is played onto two actives of "
                    "other players", active=key, player=player)


# ----- RULES.md 1.2: play_event ------------------------------------------------------------
def _check_play_event(game, st, move, partial):
    card = _card(st, move.card)
    if not card.is_event:
        raise _coded("wrong_card_type", MalformedError("move.card", "{card} is a {type}, not an event; it is "
                                                       "played with play_activity", card=card.key,
                                                       type=card.type))
    if card.reaction:
        raise _illegal("§3.4", "event_reaction", "§3.4: {card} is a reaction: it is played only with react",
                       card=card.key)
    if card.is_season_card:
        raise _illegal("§4", "event_season_card", "§4: {card} is the season card: it is never played; drawing it "
                       "is a season move", card=card.key)
    effect = card.effect
    _fields(move, _EVENT_FIELD_NAMES, EVENT_FIELDS.get(effect, ()), partial, card.key)
    _no_card(st, move.player, 2 if effect == "tarkea_nakki" else 1, "§3.2")
    if effect is not None:
        _EVENT_CHECKS[effect](st, move, card, partial)
    return None


def _event_target(st, move, card, partial):
    if move.target is not None:
        _target(st, move.target)


def _event_maallepako(st, move, card, partial):
    if move.target is None:
        return
    a = _target(st, move.target)
    if a.owner != move.player:
        raise _illegal("§1.2", "maallepako_not_own", "§1.2: {target} belongs to {owner}; Maallepako sends only an "
                       "own active away", target=move.target, owner=a.owner)


def _event_tyokiireita(st, move, card, partial):
    if move.target is None:
        return
    a = _target(st, move.target)
    if not any(act.card.work and not act.paused for act in a.acts):
        raise _illegal("§1.2", "tyokiireita_no_work", "§1.2: {target} holds no unpaused work chore",
                       target=move.target)


def _event_tarkea_nakki(st, move, card, partial):
    if move.target is not None:
        a = _target(st, move.target)
        tm = st.tyo_maalla(a)
        if tm is not None:
            raise _illegal("§6.28", "tarkea_nakki_tyo_maalla", "§6.28: {target} holds {card} ({activity}); Tärkeä "
                           "nakki cannot target it", target=move.target, card=tm.card.key, activity=tm.id)
        hobbies = [act.id for act in a.acts if act.card.is_hobby and not act.paused]
        if not hobbies:
            raise _illegal("§1.2", "tarkea_nakki_no_hobby", "§1.2: {target} holds no unpaused hobby for Tärkeä nakki "
                           "to replace", target=move.target)
        if move.hobby is not None:
            holder, act = st.find_activity(move.hobby)
            if act is None:
                raise _coded("unknown_activity", MalformedError("move.hobby", "unknown activity {activity!r}: no "
                                                                "active holds it", activity=move.hobby))
            if move.hobby not in hobbies:
                raise _illegal("§1.2", "tarkea_nakki_not_hobby", "§1.2: {activity} is not an unpaused hobby of "
                               "{target}; its unpaused hobbies are {options}", activity=move.hobby,
                               target=move.target, options=", ".join(hobbies))
    if move.chore is not None:
        chore = _card(st, move.chore, "chore")
        if not chore.is_chore:
            raise _coded("wrong_card_type", MalformedError("move.chore", "{card} is a {type}, not a chore",
                                                           card=chore.key, type=chore.type))
        held = st.copies_held(chore.key)
        if held >= chore.count:
            raise _illegal("P1", "p1_copies", "P1: all {count} copies of {card} are in play", card=chore.key,
                           count=chore.count, held=held)


def _event_uusi_aktiivi(st, move, card, partial):
    if move.active is not None:
        _known_active(st, move.active, "active")
    if len(st.actives) >= len(st.pack.actives):  # the card is refused before an active is named
        raise _illegal("§1.2", "uusi_aktiivi_deck_empty", "§1.2: the active deck is empty: all {count} actives are "
                       "in the game", count=len(st.pack.actives))
    if move.active is None:
        return
    a = st.actives.get(move.active)
    if a is not None:
        raise _illegal("§1.2", "uusi_aktiivi_in_game", "§1.2: {active} is already in the game ({owner}'s); the "
                       "new active comes from the active deck", active=move.active, owner=a.owner)


def _event_loppu(st, move, card, partial):
    if move.activity is not None:
        _held(st, move.activity)


def _event_tauko(st, move, card, partial):
    if move.activity is None:
        return
    a, act = _held(st, move.activity)
    if act.paused:
        raise _illegal("§6.20", "tauko_paused", "§6.20: {activity} of {active} is already paused",
                       activity=act.id, active=a.key)


def _event_bile(st, move, card, partial):
    if move.target is not None:
        _target(st, move.target)
    seen = set()
    for i, key in enumerate(move.participants or ()):
        if key == move.target:
            raise _illegal("§1.2", "bile_organizer_participant", "§1.2: the organizer {target} cannot be among the "
                           "participants", target=key)
        if key in seen:
            raise _illegal("§1.2", "bile_participant_twice", "§1.2: {active} is listed twice among the participants",
                           active=key)
        seen.add(key)
        _target(st, key, f"participants[{i}]")


_EVENT_CHECKS = {
    "energiapuuska": _event_target,
    "hahmo_kuolee": _event_target,
    "uusi_tyyli": _event_target,
    "maallepako": _event_maallepako,
    "tyokiireita": _event_tyokiireita,
    "tarkea_nakki": _event_tarkea_nakki,
    "uusi_aktiivi": _event_uusi_aktiivi,
    "loppu": _event_loppu,
    "tauko": _event_tauko,
    "bile": _event_bile,
}


# ----- RULES.md 1.1: abilities ---------------------------------------------------------------
def _check_ability(game, st, move, partial):
    _known_active(st, move.active, "active")
    a = st.actives.get(move.active)
    if a is None or a.owner != move.player:
        raise _illegal("§1.1", "ability_not_own", "§1.1: {active} is not {player}'s active (it is {owner}'s)",
                       active=move.active, player=move.player,
                       owner=a.owner if a is not None else "the active deck")
    ability = a.card.ability
    _fields(move, ("targets", "from"), ABILITY_FIELDS.get(ability, ()), partial, f"{move.active}'s ability")
    if ability not in USED_ABILITIES:
        raise _illegal("§1.1", "ability_none", "§1.1: {active} has no ability to use: {ability} applies by itself",
                       active=move.active, ability=ability or "none")
    if move.active in st.abilities:
        raise _illegal("§1.1", "ability_twice", "§1.1: {active} has already used its ability this turn (move {move})",
                       active=move.active, move=st.abilities[move.active])
    if a.away:
        raise _illegal("§1.1", "ability_away", "§1.1: {active} is away and cannot use its ability", active=move.active)
    anxiety = st.anxiety(a)
    if anxiety >= a.card.bo:
        raise _illegal("§1.1", "ability_burned_out", "§1.1: {active} is burned out (anxiety {anxiety}, burn-out limit "
                       "{bo}) and cannot use its ability", active=move.active, anxiety=anxiety, bo=a.card.bo)
    if ability == "pare" and move.targets is not None:
        distinct = len(set(move.targets))
        short = partial and len(move.targets) < PARE_TARGETS  # a screen still adding targets
        if distinct != len(move.targets) or (len(move.targets) != PARE_TARGETS and not short):
            raise _illegal("§6.32", "pare_targets", "§6.32: Pare's joke needs exactly 3 distinct actives, got {given} "
                           "({distinct} distinct)", given=len(move.targets), distinct=distinct)
        for i, key in enumerate(move.targets):
            _target(st, key, f"targets[{i}]")
    elif ability == "jaakko":
        _no_card(st, move.player, 1, "§1.1")
    elif ability == "niksu" and move.from_ is not None:
        if move.from_ == move.active:
            raise _illegal("§1.1", "niksu_self", "§1.1: Niksu comforts another active, not himself")
        b = _target(st, move.from_, "from")
        if b.t < 1:
            raise _illegal("§1.1", "niksu_no_anxiety", "§1.1: {source} has no temporary anxiety to take (T 0)",
                           source=move.from_)
    elif ability == "kalle" and move.active in st.played_turn:
        raise _illegal("§1.1", "kalle_received", "§1.1: {active} has received an activity this turn ({activity}); "
                       "his ability needs none", active=move.active, activity=st.played_turn[move.active])
    return None


# ----- RULES.md 3.4: reactions ---------------------------------------------------------------
def _check_react(game, st, move, partial):
    card = _card(st, move.card)
    if not card.reaction:
        raise _coded("wrong_card_type", MalformedError("move.card", "{card} is no reaction; react plays only "
                                                       "reactions", card=card.key))
    effect = card.effect
    _fields(move, ("target", "faction"), REACTION_FIELDS.get(effect, ()), partial, card.key)
    _no_card(st, move.player, 1, "§3.4")
    trigger = game._trigger
    if trigger is None:
        last = None
        for m in reversed(game.moves):
            if m.type != "react":
                last = m
                break
        raise _illegal("§3.4", "react_no_trigger", "§3.4: nothing to react to: the last move before the reactions "
                       "is {kind}, no trigger", kind=last.type if last else "none")
    number, trig, _ = trigger
    if move.to != number:
        raise _illegal("§3.4", "react_wrong_to", "§3.4: react to move {to}, but the trigger is move {trigger} ({kind})",
                       to=move.to, trigger=number, kind=trig.type)
    game._trigger_state()  # the state before the trigger and its trace, rebuilt if not kept
    trace = game._trace
    if effect == "taktinen_teko":
        if move.target is None:
            return None
        _known_active(st, move.target, "target")
        if not any(e["code"] == "gain" and e["active"] == move.target and not e["cancelled"] for e in trace):
            raise _illegal("§3.4", "taktinen_teko_no_gain", "§3.4: Taktinen teko: {target} has no gain in move "
                           "{trigger} left to cancel", target=move.target, trigger=number)
    elif effect == "ei_rahaa":
        bile = trig.type == "play_event" and st.pack.cards_by_key[trig.card].effect == "bile"
        if not bile:
            raise _illegal("§6.14", "ei_rahaa_not_bile", "§6.14: Ei rahaa answers a Bile only; move {trigger} is "
                           "{kind} {card}", trigger=number, kind=trig.type, card=trig.card or trig.active or "")
        if move.target is None:
            return None
        _known_active(st, move.target, "target")
        if move.target != trig.target and move.target not in trig.participants:
            raise _illegal("§3.4", "ei_rahaa_not_party", "§3.4: Ei rahaa: {target} is neither the organizer nor a "
                           "participant of the Bile of move {trigger}", target=move.target, trigger=number)
        for r in game._reactions:
            if r.target == move.target and st.pack.cards_by_key[r.card].effect == "ei_rahaa":
                raise _illegal("§6.41", "ei_rahaa_named", "§6.41: Ei rahaa: {target} is already named by an Ei rahaa "
                               "on move {trigger}", target=move.target, trigger=number)
        a = st.actives[move.target]
        for act in st.in_force(a):
            if act.card.no_money_immune:
                raise _illegal("§3.4", "ei_rahaa_immune", "§3.4: Ei rahaa: {target} holds {card} ({activity}), "
                               "immune to Ei rahaa", target=move.target, card=act.card.key, activity=act.id)
    elif effect == "ei_kiinnostusta":
        cancels = card.params["cancels"]
        placed = [e for e in trace if e["code"] == "placed" and e["card"] in cancels]
        if not any(st.find_activity(e["id"])[1] is not None for e in placed):
            raise _illegal("§3.4", "ei_kiinnostusta_nothing", "§3.4: Ei kiinnostusta: move {trigger} placed no "
                           "{cards} that is still held", trigger=number, cards=" or ".join(cancels))
    elif effect == "mun_kaverit":
        _check_mun_kaverit(game, st, move, number, trig, trace, partial)
    return None


def _check_mun_kaverit(game, st, move, number, trig, trace, partial):
    if not any(e["code"] == "moved" for e in trace):
        raise _illegal("§3.4", "mun_kaverit_no_move", "§3.4: Mun kaverit: move {trigger} moved no active between "
                       "factions", trigger=number)
    if move.faction is None:
        return
    _known_player(st, move.faction, "faction")
    before = game._trigger_state()
    if trig.type == "play_activity":
        x, y = trig.target, trig.partner
        fx, fy = before.actives[x].owner, before.actives[y].owner
        if move.faction not in (fx, fy):
            raise _illegal("§6.16", "mun_kaverit_not_couple", "§6.16: Mun kaverit: {faction} is neither {holder}'s "
                           "faction ({holder_faction}) nor {partner}'s ({partner_faction}) before the play",
                           faction=move.faction, holder=x, partner=y, holder_faction=fx, partner_faction=fy)
        now = st.actives[x].owner
    else:
        mover = trig.active
        was = before.actives[mover].owner
        if move.faction == was:
            raise _illegal("§3.4", "mun_kaverit_own_faction", "§3.4: Mun kaverit: {faction} is {active}'s faction "
                           "before the choice; the break-up sends it to another", faction=move.faction, active=mover)
        now = st.actives[mover].owner
    if move.faction == now:
        raise _illegal("§3.4", "mun_kaverit_same", "§3.4: Mun kaverit: move {trigger} already sends them to {faction}",
                       trigger=number, faction=move.faction)


# ----- RULES.md 3.6: choices -------------------------------------------------------------------
def _check_choose(game, st, move, partial):
    if not st.pending:
        raise _illegal("§3.6", "no_choice", "§3.6: no choice is pending")
    first = st.pending[0]
    if move.player != first.player:
        raise _illegal("§3.6", "choose_wrong_player", "§3.6: the first pending choice ({choice}) is {player}'s to "
                       "answer, not {given}'s", choice=first.kind, player=first.player, given=move.player)
    if move.choice != first.kind:
        raise _illegal("§3.6", "choose_wrong_choice", "§3.6: the first pending choice is {choice}, not {given}",
                       choice=first.kind, given=move.choice)
    options = st.choice_options(first)
    if first.kind == "discard_hobby":
        if move.active != first.active:
            _known_active(st, move.active, "active")
            raise _illegal("§3.6", "choose_wrong_active", "§3.6: the pending discard_hobby is {active}'s, not "
                           "{given}'s", active=first.active, given=move.active)
        if move.activity is None:
            return None
        if st.find_activity(move.activity)[1] is None:
            raise _coded("unknown_activity", MalformedError("move.activity", "unknown activity {activity!r}: no "
                                                            "active holds it", activity=move.activity))
        if move.activity not in options:
            raise _illegal("§3.6", "choose_not_option", "§3.6: {activity} is not a hobby of {active}; the options "
                           "are {options}", activity=move.activity, active=first.active,
                           options=", ".join(options) or "none")
        return None
    _known_active(st, move.active, "active")
    if move.active not in options:
        raise _illegal("§3.6", "choose_not_partner", "§3.6: {given} is not one of the couple that may move "
                       "({options})", given=move.active, options=", ".join(options) or "none")
    if move.faction is None:
        return None
    _known_player(st, move.faction, "faction")
    owner = st.actives[move.active].owner
    if move.faction == owner:
        raise _illegal("§3.6", "choose_own_faction", "§3.6: {active} already belongs to {faction}; the break-up "
                       "moves it to another faction", active=move.active, faction=owner)
    return None


# ----- RULES.md 7: adjust -------------------------------------------------------------------
def _check_adjust(game, st, move, partial):
    """Validate the changes in order on a copy of the state, applying each; the copy is the
    plan (``Game.apply`` swaps it in), so a refused adjust changes nothing."""
    if move.reason is None or not move.reason.strip():
        raise _illegal("§6.45", "adjust_reason", "§6.45: an adjust needs a reason (a text with a non-space "
                       "character); it is printed in the protocol")
    work = st.copy()
    res = Resolution(work, len(game.moves) + 1)
    for i, change in enumerate(move.changes):
        _check_change(work, i, change)
        res.adjust_change(i, change)
    return work, res.events


def _change_active(st, i, key, field="active"):
    if key not in st.pack.actives_by_key:
        raise _coded("unknown_active", MalformedError(f"move.changes[{i}].{field}", "unknown active {active!r}: the "
                                                      "pack has no such active", active=key))
    a = st.actives.get(key)
    if a is None:
        raise _illegal("§6.46", "adjust_not_in_game", "§6.46: change {index}: {active} is not in the game",
                       index=i, active=key)
    return a


def _change_activity(st, i, activity_id, field):
    a, act = st.find_activity(activity_id)
    if act is None:
        raise _coded("unknown_activity", MalformedError(f"move.changes[{i}].{field}", "unknown activity {activity!r}: "
                                                        "no active holds it", activity=activity_id))
    return a, act


def _check_change(st, i, change):
    if "anxiety" in change:
        a = _change_active(st, i, change["active"])
        if a.t + change["anxiety"] < 0:
            raise _illegal("§7", "adjust_anxiety_negative", "§7: change {index}: {active}'s temporary anxiety would "
                           "be {value} (T {anxiety}, change {delta})", index=i, active=a.key,
                           value=a.t + change["anxiety"], anxiety=a.t, delta=change["anxiety"])
    elif "hand" in change:
        p = change["player"]
        if p not in st.hands:
            raise _coded("unknown_player", MalformedError(f"move.changes[{i}].player", "unknown player {player!r}; "
                                                          "the players are {allowed}", player=p,
                                                          allowed=", ".join(st.order)))
        if st.hands[p] + change["hand"] < 0:
            raise _illegal("§7", "adjust_hand_negative", "§7: change {index}: {player}'s hand would be {value} "
                           "(hand {hand}, change {delta})", index=i, player=p, value=st.hands[p] + change["hand"],
                           hand=st.hands[p], delta=change["hand"])
    elif "owner" in change:
        _change_active(st, i, change["active"])
        if change["owner"] not in st.hands:
            raise _coded("unknown_player", MalformedError(f"move.changes[{i}].owner", "unknown player {player!r}; "
                                                          "the players are {allowed}", player=change["owner"],
                                                          allowed=", ".join(st.order)))
    elif "away" in change:
        _change_active(st, i, change["active"])
    elif "add" in change:
        a = _change_active(st, i, change["active"])
        card = st.pack.cards_by_key.get(change["add"])
        if card is None:
            raise _coded("unknown_card", MalformedError(f"move.changes[{i}].add", "unknown card {card!r}: the pack "
                                                        "has no such card", card=change["add"]))
        if not card.is_activity:
            raise _coded("wrong_card_type", MalformedError(f"move.changes[{i}].add", "{card} is an event; only "
                                                           "hobbies and chores are added", card=card.key))
        partner = change.get("partner")
        if card.is_dating and partner is None:
            raise _coded("field_missing", MalformedError(f"move.changes[{i}].partner", "is missing: {card} needs "
                                                         "a partner", card=card.key))
        if not card.is_dating and partner is not None:
            raise _coded("field_extra", MalformedError(f"move.changes[{i}].partner", "{card} takes no partner",
                                                       card=card.key))
        if partner is not None:
            if partner == a.key:
                raise _illegal("§6.46", "adjust_partner_self", "§6.46: change {index}: {active} cannot date itself",
                               index=i, active=a.key)
            _change_active(st, i, partner, "partner")
        used = st.n(a)
        if used >= a.card.va:
            raise _illegal("§7", "adjust_add_free_time", "§7: change {index}: {active} has no free time for {card} "
                           "({used} of {va} used)", index=i, active=a.key, card=card.key, used=used, va=a.card.va)
    elif "remove" in change:
        _change_activity(st, i, change["remove"], "remove")
    else:
        a, act = _change_activity(st, i, change["activity"], "activity")
        if act.paused and not change["paused"]:
            used = st.n(a)
            if used >= a.card.va:
                raise _illegal("§7", "adjust_unpause_free_time", "§7: change {index}: {active} has no free time to "
                               "take {activity} back ({used} of {va} used)", index=i, active=a.key,
                               activity=act.id, used=used, va=a.card.va)


# ----- a move being entered: the fields its card or ability takes, and why none fits ------------
#: list fields: how many legal members a move needs at least (Pare names 3, a Bile may be empty)
LIST_NEEDS = {"targets": PARE_TARGETS, "participants": 0}


def card_fields(pack, move):
    """The fields a move's card or ability takes beyond its type's own, in the order a host
    enters them (RECORD.md 2): ``("target", "partner")`` for Seurustelu, ``EVENT_FIELDS`` for
    an event, ``ABILITY_FIELDS`` and ``REACTION_FIELDS``; ``()`` when the card or active is not
    known yet (its own refusal says so)."""
    kind = move.get("type")
    if kind == "play_activity":
        card = pack.cards_by_key.get(move.get("card"))
        return ("target", "partner") if card is not None and card.is_dating else ("target",)
    if kind == "play_event":
        card = pack.cards_by_key.get(move.get("card"))
        return EVENT_FIELDS.get(card.effect, ()) if card is not None else ()
    if kind == "ability":
        active = pack.actives_by_key.get(move.get("active"))
        return ABILITY_FIELDS.get(active.ability, ()) if active is not None else ()
    if kind == "react":
        card = pack.cards_by_key.get(move.get("card"))
        return REACTION_FIELDS.get(card.effect, ()) if card is not None else ()
    return ()


def no_option(move, field, legal):
    """Why a move being entered cannot be completed: no candidate of ``field`` is legal with the
    fields given so far (``legal`` of them are, fewer than a list field needs). The refusals of
    the single candidates say why each one is not; this one says it of the card."""
    kind, card = move.get("type"), move.get("card")
    if field == "partner":
        return _illegal("P9", "p9_no_partner", "P9: no active can be the partner of {target} now",
                        target=move.get("target"))
    if field == "target" and kind == "react":
        return _illegal("§3.4", "react_no_target", "§3.4: {card}: no active it may name is left now", card=card)
    if field == "target":
        return _illegal("§3.2", "no_target", "§3.2: no active can be the target of {card} now", card=card)
    if field == "faction":
        return _illegal("§3.4", "react_no_faction", "§3.4: {card}: no faction can take the couple now", card=card)
    if field == "chore":
        return _illegal("P1", "no_chore", "P1: every copy of every chore is in play; {card} needs one", card=card)
    if field == "activity":
        return _illegal("§1.2", "no_activity", "§1.2: no activity {card} can name is held now", card=card)
    if field == "targets":
        return _illegal("§6.32", "pare_too_few", "§6.32: Pare's joke needs {need} actives; only {count} can be "
                        "named now", need=PARE_TARGETS, count=legal)
    if field == "from":
        return _illegal("§1.1", "niksu_nobody", "§1.1: {active} has nobody to comfort now: no other active in the "
                        "game has temporary anxiety", active=move.get("active"))
    return _illegal("§7", "no_option", "§7: no {field} can be chosen now", field=field)


_CHECKS = {
    "draw": _check_draw,
    "season": _check_season,
    "play_event": _check_play_event,
    "play_activity": _check_play_activity,
    "ability": _check_ability,
    "react": _check_react,
    "choose": _check_choose,
    "end_turn": _check_end_turn,
    "adjust": _check_adjust,
    "finish": _check_finish,
}
