"""A host who plays a whole game through the screens only, as a tablet's browser would: it reads
each page's forms and links and taps one of them (a seeded random choice among what the page
offers), so every form the screens draw is posted back at least once in a long game."""

import random
import re
from html import unescape

from .helpers import Page, get, submit

LINK = re.compile(r'<a class="button[^"]*"[^>]*href="([^"]+)"[^>]*data-(card|react|ability|target|hobby)="([^"]*)"')


def links(page, kind):
    return [unescape(href) for href, k, _v in LINK.findall(page.html) if k == kind]


def move_forms(page, kind=None):
    out = []
    for f in page.forms:
        m = re.search(r"/move/(\w+)$", f.action.split("?")[0])
        if m and f.method == "post" and (kind is None or m.group(1) == kind):
            out.append((m.group(1), f))
    return out


class Host:
    def __init__(self, client, table_id, seed=1, season_every=10, plays_per_turn=3, react_chance=0.4):
        self.client = client
        self.table_id = table_id
        self.rng = random.Random(seed)
        self.season_every = season_every
        self.plays_per_turn = plays_per_turn
        self.react_chance = react_chance
        self.counts = {}
        self.plays = 0
        self.turn_url = f"/ae/table/{table_id}"
        self.pages = 0

    def tap(self, form, **overrides):
        page = submit(self.client, form, **overrides)
        self.pages += 1
        kind = re.search(r"/move/(\w+)$", form.action).group(1)
        assert page.status == 303, (kind, form.fields, page.status, page.error)
        self.counts[kind] = self.counts.get(kind, 0) + 1
        return page

    def open(self, url):
        page = get(self.client, url)
        self.pages += 1
        assert page.status == 200, (url, page.status, page.error)
        return page

    def step(self):
        """One move; False once the final screen shows."""
        response = self.client.get(self.turn_url)
        if response.status_code == 302 and response.headers["Location"].endswith("/final"):
            return False
        page = Page(response)
        assert page.status == 200, (page.status, page.text[:500])
        rng = self.rng
        if links(page, "react") and rng.random() < self.react_chance:
            if self.react(rng.choice(links(page, "react"))):
                return True
        choices = move_forms(page, "choose")
        if choices:
            self.tap(rng.choice(choices)[1])
            return True
        draws = move_forms(page, "draw")
        seasons = move_forms(page, "season")
        if draws:
            if seasons and rng.random() < 1 / self.season_every:
                self.tap(seasons[0][1])
            else:
                self.tap(draws[0][1])
            self.plays = 0
            return True
        if seasons:  # right after a Jaakko or Kalle ability, sometimes
            if rng.random() < 0.3:
                self.tap(seasons[0][1])
                return True
        if self.plays < self.plays_per_turn:
            self.plays += 1
            options = [("card", url) for url in links(page, "card")]
            options += [("ability", url) for url in links(page, "ability")]
            options += [("form", f) for kind, f in move_forms(page, "ability")]
            if options:
                what, value = rng.choice(options)
                if what == "form":
                    self.tap(value)
                    return True
                if self.follow(value):
                    return True
        self.tap(move_forms(page, "end_turn")[0][1])
        return True

    def follow(self, url, depth=0):
        """A card or ability page: tap one of its legal options (following links to the next
        field); False when it offers none."""
        page = self.open(url)
        forms = [f for kind, f in move_forms(page) if kind not in ("adjust", "finish")]
        boxes = [f for f in forms if any(n.endswith("[]") for n in f.fields) or "participants" in f.action
                 or 'name="participants[]"' in page.html or 'name="targets[]"' in page.html]
        if 'name="targets[]"' in page.html:  # Pare: exactly 3 of the legal actives
            keys = re.findall(r'name="targets\[\]" value="([^"]+)"', page.html)
            if len(keys) < 3:
                return False
            form = forms[0]
            data = form.data()
            data["targets[]"] = self.rng.sample(keys, 3)
            return self.post(form, data)
        if 'name="participants[]"' in page.html:
            keys = re.findall(r'name="participants\[\]" value="([^"]+)"', page.html)
            form = forms[0]
            data = form.data()
            data["participants[]"] = self.rng.sample(keys, self.rng.randint(0, min(3, len(keys))))
            return self.post(form, data)
        del boxes
        if forms:
            self.tap(self.rng.choice(forms))
            return True
        nxt = links(page, "target") + links(page, "hobby")
        if nxt and depth < 3:
            return self.follow(self.rng.choice(nxt), depth + 1)
        return False

    def post(self, form, data):
        response = self.client.post(form.action, data=data)
        page = Page(response)
        self.pages += 1
        kind = re.search(r"/move/(\w+)$", form.action).group(1)
        assert page.status == 303, (kind, data, page.status, page.error)
        self.counts[kind] = self.counts.get(kind, 0) + 1
        return True

    def react(self, url):
        page = self.open(url)
        forms = [f for kind, f in move_forms(page, "react")]
        if not forms:
            return False
        self.tap(self.rng.choice(forms))
        return True

    def play(self, limit=2000):
        n = 0
        while self.step():
            n += 1
            assert n < limit, f"no end after {limit} moves: {self.counts}"
        return self.counts
