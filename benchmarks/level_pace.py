"""How fast players level up with a pack's thresholds: the evidence behind the sample pack's ``levels``.

Sharing experience (RULES.md 3.2) needs level 3, so the thresholds decide when the table's
most social move opens up. The sample pack aims at level 3 around rounds 4-5: early enough
that most players can share, late enough that it is an achievement. This script plays N
random legal games (``facilitator.rules.lyceum.simulate.random_game``: plausible, not clever,
players) and prints, for each level of the pack, how many players reach it and in which
round, then the same for level 3 in detail, and the average final XP and level.

    python3 benchmarks/level_pace.py [--games 2000] [--players 4] [--seed 0]
"""

import argparse
import statistics
from collections import Counter

from facilitator.rules.lyceum.ruleset import sample_pack
from facilitator.rules.lyceum.simulate import random_game

SHARE_LEVEL = 3
AIM = (4, 5)  # the rounds in which the sample pack wants players to reach level 3


def first_rounds(game):
    """For each player, the round in which they first reached each level: ``{name: {level: round}}``."""
    reached = {name: {1: 1} for name in game.order}
    for result in game.history:
        for name, (_, level) in result.after.items():
            for k in range(2, level + 1):
                reached[name].setdefault(k, result.round)
    return reached


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="random games to play (default 2000)")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4), help="players per table")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    args = parser.parse_args(argv)

    pack = sample_pack()
    rounds_by_level = {k: [] for k in range(1, pack.max_level + 1)}
    final_xp, final_level, shares = [], Counter(), 0
    players = 0
    for i in range(args.games):
        _, game = random_game(pack, seed=args.seed + i, players=args.players)
        for name, reached in first_rounds(game).items():
            players += 1
            for level, round_no in reached.items():
                rounds_by_level[level].append(round_no)
            p = game.players[name]
            final_xp.append(p.xp)
            final_level[pack.level_for(p.xp)] += 1
            shares += p.shared

    print(f"Level pace: pack «{pack.title}» ({pack.id}), {args.games} random games of {args.players} players "
          f"= {players} players")
    print(f"Thresholds (XP at which each level begins): {list(pack.levels)}")
    print()
    print("level   XP    reached by   median round   mean round   reached in round 1-3 / 4-5 / 6-10")
    for level, rounds in rounds_by_level.items():
        threshold = pack.levels[level - 1]
        if not rounds:
            print(f"{level:>5} {threshold:>5}          0%              —            —")
            continue
        share = len(rounds) / players
        early = sum(1 for r in rounds if r <= 3) / players
        aim = sum(1 for r in rounds if AIM[0] <= r <= AIM[1]) / players
        late = sum(1 for r in rounds if r > AIM[1]) / players
        print(f"{level:>5} {threshold:>5}   {share:>9.0%}   {statistics.median(rounds):>12.1f}   "
              f"{statistics.mean(rounds):>10.2f}   {early:>6.0%} / {aim:>4.0%} / {late:>4.0%}")
    print()
    three = rounds_by_level.get(SHARE_LEVEL, [])
    if three:
        in_aim = sum(1 for r in three if AIM[0] <= r <= AIM[1]) / players
        print(f"Level {SHARE_LEVEL} (needed to share), aim: rounds {AIM[0]}-{AIM[1]}")
        print(f"  median round {statistics.median(three):.1f}, mean round {statistics.mean(three):.2f}")
        print(f"  reached in rounds {AIM[0]}-{AIM[1]}: {in_aim:.0%} of players; "
              f"never reached: {1 - len(three) / players:.0%}")
    print(f"  players who shared: {shares / players:.0%}")
    print()
    mean_level = sum(k * n for k, n in final_level.items()) / players
    print(f"Final XP: mean {statistics.mean(final_xp):.0f}, median {statistics.median(final_xp):.0f}; "
          f"final level: mean {mean_level:.2f}")
    print("Final levels: " + ", ".join(f"{k}: {final_level[k] / players:.0%}" for k in sorted(final_level)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
