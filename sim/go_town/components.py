"""Go Town component data as tables (balance lab): card counts and hand constants (spec §2).

Every number is confirmed by the seed rulebook. Paths: ``cards.dog.count``,
``cards.question_mark.count``, ``cards.dog.removed``, ``constants.hand_limit``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.core.components import (
    ComponentSchema,
    ImpactLink,
    Interpretation,
    Tunable,
    interpretations_of,
)
from sim.core.errors import UserError
from sim.go_town.constants import CARD_NAMES, NT

_ROW = {"?": "question_mark"}
_BACK = {v: k for k, v in _ROW.items()}

# every [ASSUMED] point of spec §6 is a rule option (no component number is assumed)
def _interpretations():
    from sim.go_town.options import OPTIONS

    return interpretations_of(OPTIONS, (
        "win_check", "hand_limit_mode", "reshuffle_timing", "qm_steal_by_qm",
        "qm_steal_by_number", "dog_placement", "dog_moves_up", "donut_scope", "skip_stacking",
        "skip_means", "milk_on_self", "destroy_self_allowed", "bone_on_own", "dog_on_others",
        "bone_target", "allow_dead_plays", "milk_discard"), "ASSUMED") + (
        Interpretation("dogs_per_floor_max", "ASSUMED (§4.4, D12): dogs allowed on one floor; "
                       "no source mentions a second dog", (2,)),)


@dataclass(frozen=True)
class _CardLink(ImpactLink):
    """The results' column of a card type is named by the card's printed name (``played_?``),
    its data row by its slug (``question_mark``)."""

    def column(self, key: Any) -> str:
        return self.prefix + _BACK.get(str(key), str(key))


# ``boardsim suggest`` (issue 29): a card type is judged by the win-rate difference of the
# seats that played it against those that did not, and the number it may change is the type's
# count in the deck. Effect +1, measured (`boardsim suggest go-town -n 2000`, 3 players, the
# recommended mix): 4 -> 5 -> 6 DOGs moved the DOG players' difference from +18.8 to +23.0 to
# +26.5 points, 4 -> 3 -> 2 to +15.5 and +6.6 (more copies: more of the game played with it),
# so a type whose players win too often gets a copy fewer. ``removed`` (the effects study's
# nudge) and the hand constants are not suggested. 1..12: no type leaves the game; a step the
# engine cannot hold (over 36 building and ? cards) is refused in one line and skipped.
SCHEMA = ComponentSchema(
    keys={"cards": "card"},
    tunables=(Tunable("cards", "count", +1, 1, 12),),
    impact=(_CardLink("played_", "cards", None, "card type (played vs not)"),),
    docs={
        "cards": "copies of each card type in the deck (spec §2; confirmed by the seed); "
                 "removed: of these, copies taken out of the deck right after the shuffle "
                 "(the effects study's paired nudge, docs/effects.md: every other card keeps "
                 "its place in the draw order)",
        "constants": "opening hand, hand limit, refill target (spec §3; confirmed by the seed)",
    },
    ranges=(),
    interpretations=_interpretations(),
)


def document(game) -> dict[str, Any]:
    """{"cards": [{"card", "count"}], "constants": {...}} of ``game``'s arrays."""
    return {
        "cards": [{"card": _ROW.get(CARD_NAMES[k], CARD_NAMES[k]),
                   "count": int(game.counts[k] + game.removed[k]),
                   "removed": int(game.removed[k])}
                  for k in range(1, NT)],
        "constants": {"opening_hand": int(game.consts[0]), "hand_limit": int(game.consts[1]),
                      "refill_to": int(game.consts[2])},
    }


def build(doc: dict[str, Any]):
    from sim.go_town.game import GoTown

    counts = {_BACK.get(r["card"], r["card"]): int(r["count"]) for r in doc["cards"]}
    removed = {_BACK.get(r["card"], r["card"]): int(r.get("removed", 0)) for r in doc["cards"]}
    c = doc["constants"]
    if c["opening_hand"] < 1 or c["hand_limit"] < c["opening_hand"] or c["refill_to"] > c[
            "hand_limit"]:
        raise UserError("go-town data: need 1 <= opening_hand <= hand_limit and "
                        "refill_to <= hand_limit")
    return GoTown(counts, c, removed)
