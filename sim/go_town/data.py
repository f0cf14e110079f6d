"""Go Town component data (spec section 2): card counts and hand constants.

All of it is confirmed by the seed rulebook (shared/seeds/001_1720dd87112d21ef.txt): 32 building
cards 1..8 (4 each), 4 question marks, 18 special cards. Numbers reach the kernels as arrays.
"""

import numpy as np

from sim.go_town.constants import CARD_NAMES, NT

CARD_COUNTS = {
    "1": 4, "2": 4, "3": 4, "4": 4, "5": 4, "6": 4, "7": 4, "8": 4,
    "?": 4,
    "DOG": 4, "BONE": 2, "DRILL": 3, "WRECK": 1, "MILK": 3, "DONUT": 1, "THIEF": 3, "MASTER": 1,
}
CONSTANTS = {"opening_hand": 5, "hand_limit": 8, "refill_to": 3}
DATA_STATUS = "confirmed: every card count and hand constant is stated in the seed rulebook"


def counts_array(card_counts: dict[str, int] | None = None) -> np.ndarray:
    """``int64[18]`` card counts indexed by type code (index 0 unused)."""
    cc = dict(CARD_COUNTS)
    cc.update(card_counts or {})
    return np.array([0] + [int(cc[CARD_NAMES[k]]) for k in range(1, NT)], dtype=np.int64)


def consts_array(constants: dict[str, int] | None = None,
                 removed: dict[str, int] | None = None) -> np.ndarray:
    """``int64[3 + 18]``: opening_hand, hand_limit, refill_to, then per type code ``k`` the
    copies taken out of the shuffled deck (``removed``: the deck is shuffled with ``count``
    copies and these leave it right after the shuffle, so every other card keeps its place in
    the draw order; docs/effects.md, "Pairing by construction")."""
    c = dict(CONSTANTS)
    c.update(constants or {})
    rem = [0] * NT
    for name, v in (removed or {}).items():
        rem[CARD_NAMES.index(name)] = int(v)
    return np.array([c["opening_hand"], c["hand_limit"], c["refill_to"]] + rem,
                    dtype=np.int64)
