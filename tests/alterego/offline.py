"""Reading Alter Ego's offline answers (``rules/alterego/answers.py``) as the tablet's page reads
them (``static/outbox.js``): a position's plays, in full or relative to another position's,
merged into ``{form id: {path: lead}}``, a path being the chosen values in the form's field order;
and checking them against the engine asked directly."""

from facilitator.rules.alterego import Move
from facilitator.rules.alterego.answers import _allowed, _refusal, _rows


def leaf(node):
    return isinstance(node, (str, list))


def flat(node, depth):
    """A tree of answers as ``{path: lead}``."""
    if depth == 0:
        return {(): node}
    return {(value,) + path: lead for value, sub in node.items() for path, lead in flat(sub, depth - 1).items()}


def _retarget(node, then, drop, path=()):
    if leaf(node):
        if list(path) in drop:
            return None
        return [then, node[1]] if isinstance(node, list) else then
    out = {}
    for value, sub in node.items():
        kept = _retarget(sub, then, drop, path + (value,))
        if kept is not None:
            out[value] = kept
    return out or None


def _merge(a, b):
    if a is None or leaf(a) or leaf(b):
        return b
    out = dict(a)
    for key, value in b.items():
        out[key] = _merge(a.get(key), value)
    return out


def plays_at(answers, key):
    """``({form id: {path: lead}}, answered form ids, {form id: refusal})`` of a play position, as
    the page merges them; None where the position has no answers for its plays."""
    forms = {f["id"]: f for f in answers["forms"]}
    plays = answers["positions"][key]["plays"]
    if plays is None:
        return None
    if "leads" in plays:
        return ({f: flat(tree, len(forms[f]["choose"])) for f, tree in plays["leads"].items()}, set(forms),
                dict(plays["why"]))
    base = answers["positions"][plays["of"]]["plays"]
    leads = {}
    for f in plays["forms"]:
        drop, mine = plays["drop"].get(f), None
        if drop != "*" and f in base["leads"]:
            mine = _retarget(base["leads"][f], plays["then"], drop or [])
        if f in plays["add"]:
            mine = _merge(mine, plays["add"][f])
        if mine is not None:
            leads[f] = flat(mine, len(forms[f]["choose"]))
    why = dict(base["why"])
    for f, err in plays["why"].items():
        if err is None:
            why.pop(f, None)
        else:
            why[f] = err
    return leads, set(plays["forms"]), why


def reactions_at(answers, key):
    """``{form id: {(player[, value]): lead}}`` of a position's reactions (empty: none)."""
    reactions = answers["positions"][key].get("reactions")
    if not reactions:
        return {}
    forms = {f["id"]: f for f in answers["reactions"]}
    return {f: flat(tree, 2 if forms[f]["field"] else 1) for f, tree in reactions["leads"].items()}


def legal_plays(game, form):
    """What the engine says of a form at ``game`` asked directly: the legal paths (a member form:
    ``{path: [allowed members]}``)."""
    legal = [r for r in _rows(game, form, game.current) if _refusal(game, r.move, r.partial) is None]
    if form["members"]:
        return _allowed(form, legal)
    return {r.path for r in legal}


def play_move(game, form, path, members=None):
    """The move a form makes with the options of ``path`` (and ``members``)."""
    row = next(r for r in _rows(game, form, game.current) if r.path == tuple(path) and r.member is None)
    if form["members"]:
        from dataclasses import replace
        return replace(row.move, **{form["members"]: tuple(members or ())})
    return row.move


def legal_reactions(game, reactions):
    """``{form id: {(player[, value])}}``: the reactions legal at ``game``, asked directly of every
    player holding a card."""
    out = {}
    trigger = game.trigger
    if trigger is None:
        return out
    for form in reactions:
        for player in [p for p in game.order if game.state.hands[p] >= 1]:
            for value in form["candidates"] if form["field"] else [None]:
                fields = {form["field"]: value} if form["field"] else {}
                if _refusal(game, Move("react", player=player, card=form["card"], to=trigger[0], **fields)) is None:
                    out.setdefault(form["id"], set()).add((player, value) if form["field"] else (player,))
    return out


def waits(game):
    """What ``game`` waits for, as a position says it."""
    if game.finished:
        return {"expects": "finish"}
    nxt = game.next()
    return {"expects": nxt["expects"], "player": nxt["player"]}


def said(position):
    """What a position says the game waits for (None: the answers do not know)."""
    if position["expects"] is None:
        return None
    if position["expects"] == "finish":
        return {"expects": "finish"}
    return {"expects": position["expects"], "player": position["player"]}
