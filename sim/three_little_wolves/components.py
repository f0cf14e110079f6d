"""The Three Little Wolves component data as tables (balance lab): the three suit templates
(spec §2.1; the rule option ``card_set`` picks one) and the component constants (spec §2).

Tables:

* ``cards_v0``, ``cards_v1``, ``cards_v2``: the 14 rows of a suit template (each colour R, Y,
  G, W has the same 14 cards). A row is named by its card number; the second card with the
  same number is ``<number>_2`` (the game's ``R5*``): ``cards_v1.5_2.icon``,
  ``cards_v1.7.mark``. Fields ``number`` (1..99), ``icon`` (floor icon 0..9), ``mark`` (top
  mark -9..9, signed). The row names follow the instance's numbers, so a row whose number is
  overridden prints under its new name.
* ``components``: pig effects (``LEFT``/``RIGHT``/``HOUSE``/``NONE`` per pig card), pig token
  faces in hand-out order, wolf faces, house/collapse/bonus points and the bottom packet size:
  ``components.house_points``, ``components.wolf_values.wolf2``.

No tunables and no impact links: a building card belongs to no player (whoever holds it may
build it, bet a wolf with it or discard it) and the results have no per-card column; the
per-seat groups ``houses_*`` and ``act_*`` measure outcomes and actions, not components.
"""

from __future__ import annotations

from typing import Any

from sim.core.components import ComponentSchema, Interpretation, PlausibleRange, interpretations_of
from sim.core.errors import UserError
from sim.three_little_wolves.constants import K_ICON, K_MARK, K_NUM

_SETS = ("cards_v0", "cards_v1", "cards_v2")
_CARD_DOC = ("suit template {} (spec §2.1): card number, floor icon, top mark of the 14 cards "
             "of each colour; RECONSTRUCTION (no source lists the real cards); confirmed by "
             "the seed rulebook: 14 cards a colour, 1/2/3 as basements, top marks 7:-2 11:+3 "
             "12:+2; {}")

# the reconstructed card list (spec §2.1, §5): the floor icons of the two duplicates, and the
# whole list's alternatives as the option card_set (docs/robustness.md)
RANGES = tuple(
    PlausibleRange(f"cards_v1.{row}.icon", 1, 3, "RECONSTRUCTION (spec §2.1, §5): which cards "
                   "carry a floor icon and its value are unconfirmed; the spec's own "
                   "sensitivity sets use icons 0 (cards_v0), 2 and 3 (cards_v2)")
    for row in ("5_2", "9_2"))


def _interpretations():
    from sim.three_little_wolves.options import OPTIONS

    return (Interpretation("card_set", "RECONSTRUCTION (spec §2.1): no source lists the real "
                           "cards; v0 no floor icons, v1 the spec's table, v2 icon 3 on the "
                           "duplicate 9"),) + interpretations_of(OPTIONS, (
        "wolf_order_free", "wolf_two_slot_rule", "b3_same_player",
        "coloured_basement_unassigned", "pure_discard_allowed", "pig_tie_drawer_first",
        "pig_same_owner_tie", "unplaced_pig_token", "dummy_gets_pig_tokens", "dummy_policy",
        "final2p_white_pass", "height_rule", "lone_house_collapses", "lone_house_bonus",
        "marks_on_collapsed", "tiebreak_wolf_net"), "DECISION")


SCHEMA = ComponentSchema(
    keys={s: "card" for s in _SETS},
    vectors={
        "components.pig_effects": ("pig1", "pig2", "pig3"),
        "components.pig_tokens": ("first", "second", "third"),
        "components.wolf_values": ("wolf1", "wolf2", "wolf3"),
    },
    signed=tuple(f"{s}.mark" for s in _SETS) + ("components.collapse_points",),
    # ranges the kernels rely on: card numbers 1..99, icons 0..9, marks -9..9 (doc §2.1);
    # a pig token face of 0 would read as "no token"; the bottom packet is dealt from the 56
    # building cards after the hands (4 seats x 8 at most)
    limits={**{f"{s}.number": (1, 99) for s in _SETS}, **{f"{s}.icon": (0, 9) for s in _SETS},
            **{f"{s}.mark": (-9, 9) for s in _SETS}, "components.pig_tokens": (1, 99),
            "components.wolf_values": (1, 99), "components.bottom_packet": (0, 20)},
    tunables=(),
    impact=(),
    docs={
        "cards_v0": _CARD_DOC.format("v0", "v1 without floor icons (sensitivity set)"),
        "cards_v1": _CARD_DOC.format("v1", "the spec's table, the default card_set"),
        "cards_v2": _CARD_DOC.format("v2", "v1 with icon 3 on the duplicate 9 (sensitivity set)"),
        "components": "pig effects (one of each: a DECISION), pig tokens 2/3/4, wolves 3/4/5, "
                      "house 4, collapse -1, bonus 3, bottom packet 5 (spec §2; confirmed by the "
                      "seed rulebook)",
    },
    ranges=RANGES,
    interpretations=_interpretations(),
)


def _row_names(numbers) -> list[str]:
    seen: dict[int, int] = {}
    out = []
    for n in numbers:
        seen[n] = seen.get(n, 0) + 1
        out.append(str(n) if seen[n] == 1 else f"{n}_{seen[n]}")
    return out


def document(game) -> dict[str, Any]:
    """{"cards_v0": [...], "cards_v1": [...], "cards_v2": [...], "components": {...}} of
    ``game``'s card arrays and constants array."""
    from sim.three_little_wolves import data

    labels = _row_names(n for n, _i, _m in data.CARD_SETS[data.DEFAULT_CARD_SET])
    doc: dict[str, Any] = {}
    for name in _SETS:
        a = game.cards[name]
        doc[name] = [{"card": key, "number": int(a[r, K_NUM]), "icon": int(a[r, K_ICON]),
                      "mark": int(a[r, K_MARK])}
                     for r, key in enumerate(labels)]
    doc["components"] = data.components_dict(game.consts)
    return doc


def build(doc: dict[str, Any]):
    from sim.three_little_wolves.constants import EFFECT_NAMES
    from sim.three_little_wolves.game import ThreeLittleWolves

    comp = dict(doc["components"])
    effects = [str(e).upper() for e in comp["pig_effects"]]
    bad = [e for e in effects if e not in EFFECT_NAMES]
    if bad:
        raise UserError(f"three-little-wolves data: unknown pig effect {bad[0]!r}; allowed: "
                        f"{', '.join(EFFECT_NAMES)}")
    comp["pig_effects"] = effects
    sets = {name: [(r["number"], r["icon"], r["mark"]) for r in doc[name]] for name in _SETS}
    return ThreeLittleWolves(sets, comp)
