"""Suburbia constants of the report: run roles and mix labels, thresholds, the tiles and
goals (names, slugs, stacks) and the tile groups the tips use."""

from __future__ import annotations

from sim.core.components import slug
from sim.suburbia import data

# ------------------------------------------------------------------------------ constants ----
MAIN = "main"


DENY = "tip:deny"


MIX_LABELS = {MAIN: "main pool (7 bots)", DENY: "greedy + denier",
              "mix:archetypes": "3 archetypes"}
"""The labels of the default plan's roles; a report labels its runs from their manifests
(``role_labels``), these are only the fallback for a role without runs."""


def role_labels(manifests: list[dict], roles: dict[int, str]) -> dict[str, str]:
    """Role -> label from the runs' manifests (issue 16: a random-only run was labelled
    "main pool (7 bots)"): the bots of the role's runs, e.g. "`greedy`, `random` (pool)";
    several mixes joined by "; ". Roles without runs keep ``MIX_LABELS``."""
    out: dict[str, set] = {}
    for i, m in enumerate(manifests):
        role = roles.get(i, MAIN)
        bots = ", ".join(f"`{b}`" for b in (m.get("strategies") or ["?"]))
        out.setdefault(role, set()).add(f"{bots} ({m.get('seating', '?')})")
    labels = dict(MIX_LABELS)
    labels.update({r: "; ".join(sorted(v)) for r, v in out.items()})
    return labels


EARLY_ROUNDS = 3       # "early" = a seat's first three turns (rounds 1-3)


RUSH_ROUNDS = 4        # population rush: a big-population tile in rounds 1-4


RUSH_POP = 5           # "big" = immediate Population >= 5


MIN_N = 30             # a mix's difference counts for the robust mark only with n >= 30 a side


MIN_RANK_N = 200       # strongest/weakest lists: tiles and goals with >= 200 scripted seat-games


TILES = [  # (kind, name, slug, stack) for the 50 placeable building kinds
    (k, t[0], slug(t[0]), t[1]) for k, t in enumerate(data.TILES, 1) if k <= 50
]


STACK_OF = {s: st for _, _, s, st in TILES}


NAME_OF = {s: n for _, n, s, _ in TILES}


GOALS = [(g, row[0], slug(row[0]), int(row[4])) for g, row in enumerate(data.GOALS)]


INCOME_SLUGS = [s for k, _, s, _ in TILES
                if data.TILES[k - 1][5].get("Inc", 0) > 0
                or any(r[0] == "Inc" and r[1] > 0 for r in data.TILES[k - 1][6])]


RUSH_SLUGS = [s for k, _, s, _ in TILES if data.TILES[k - 1][5].get("Pop", 0) >= RUSH_POP]
