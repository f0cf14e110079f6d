"""The Three Little Wolves component data (spec §2, §2.1) as replaceable tables.

The suit template (14 rows of ``(number, floor_icon, top_mark)``, the same for all four
colours) is a RECONSTRUCTION: no source lists the real cards. ``CARD_SETS`` holds the spec's
three sensitivity sets, chosen with the rule option ``card_set``. Everything reaches the
kernels as arrays (``cards_array``, ``consts_array``).
"""

import numpy as np

from sim.three_little_wolves import constants as K

_V1 = [
    (1, 0, 0), (2, 0, 0), (3, 0, 0), (4, 0, 0), (5, 0, 0), (5, 2, 0), (6, 0, 0), (7, 0, -2),
    (8, 0, 0), (9, 0, 0), (9, 2, 0), (10, 0, 0), (11, 0, 3), (12, 0, 2),
]
CARD_SETS: dict[str, list[tuple[int, int, int]]] = {
    "cards_v0": [(n, 0, m) for n, _i, m in _V1],
    "cards_v1": list(_V1),
    "cards_v2": [(n, (3 if k == 10 else i), m) for k, (n, i, m) in enumerate(_V1)],
}
DEFAULT_CARD_SET = "cards_v1"

COMPONENTS = {
    "pig_effects": ["LEFT", "RIGHT", "HOUSE"],  # one of each: spec §2 [DECISION]
    "pig_tokens": [2, 3, 4],  # [SEED]
    "wolf_values": [3, 4, 5],  # [SEED]
    "house_points": 4,  # [SEED]
    "collapse_points": -1,  # [SEED] collapsed house, flipped pig token, flipped wolf
    "bonus_points": 3,  # [SEED]
    "bottom_packet": 5,  # [SEED]
}

DATA_STATUS = (
    "partly confirmed: 56 building cards (R/Y/G/W x 14), 3 pig cards with left/right/house "
    "effects, pig tokens 2/3/4, wolves 3/4/5, bonus 3, house 4, collapse -1, top marks "
    "7:-2 11:+3 12:+2 and 1/2/3 as basements are from the seed rulebook; the card numbers, "
    "duplicates and floor icons are a RECONSTRUCTION (card_set cards_v0/v1/v2, spec §2.1); "
    "one pig card per effect is a decision"
)


def check_suit(suit) -> list[tuple[int, int, int]]:
    """Validate a suit template: 14 rows (number 1..99, icon 0..9, mark -9..9).

    Raises ValueError naming the problem.
    """
    rows = [tuple(int(x) for x in r) for r in suit]
    if len(rows) != K.SUIT or any(len(r) != 3 for r in rows):
        raise ValueError(f"suit template: need {K.SUIT} rows of (number, icon, mark)")
    for n, i, m in rows:
        if not (1 <= n <= 99 and 0 <= i <= 9 and -9 <= m <= 9):
            raise ValueError("suit template: number 1..99, icon 0..9, mark -9..9")
    return rows


def card_names(suit) -> list[str]:
    """Names of the 59 cards (doc §1.1): colour letter + number + one '*' per earlier row with
    the same number; then PIG1..PIG3."""
    names = []
    for col in range(4):
        seen: dict[int, int] = {}
        for n, _i, _m in suit:
            k = seen.get(n, 0)
            seen[n] = k + 1
            names.append(f"{K.COLOUR_LETTERS[col]}{n}{'*' * k}")
    return names + list(K.PIG_NAMES)


def cards_array(suit) -> np.ndarray:
    """``int64[59, 4]``: number, colour (4 for pigs), floor icon, top mark of each card id."""
    rows = check_suit(suit)
    a = np.zeros((K.NCARD, 4), np.int64)
    for c in range(K.NBUILD):
        n, i, m = rows[c % K.SUIT]
        a[c, K.K_NUM] = n
        a[c, K.K_COL] = c // K.SUIT
        a[c, K.K_ICON] = i
        a[c, K.K_MARK] = m
    a[K.NBUILD:, K.K_COL] = K.PIG_COL
    return a


def consts_array(comp: dict | None = None) -> np.ndarray:
    """``int64[16]``: pig effects, pig tokens, wolf values, points, bottom packet size."""
    c = dict(COMPONENTS)
    c.update(comp or {})
    a = np.zeros(K.N_CONSTS, np.int64)
    for i in range(3):
        a[K.C_EFFECT + i] = K.EFFECT_NAMES.index(c["pig_effects"][i])
        a[K.C_TOKEN + i] = int(c["pig_tokens"][i])
        a[K.C_WOLF + i] = int(c["wolf_values"][i])
    a[K.C_HOUSE_PTS] = int(c["house_points"])
    a[K.C_COLLAPSE_PTS] = int(c["collapse_points"])
    a[K.C_BONUS_PTS] = int(c["bonus_points"])
    a[K.C_PACKET] = int(c["bottom_packet"])
    return a


def components_dict(consts: np.ndarray) -> dict:
    """Inverse of ``consts_array`` (the dict form's ``data`` without ``suit``)."""
    return {
        "pig_effects": [K.EFFECT_NAMES[int(consts[K.C_EFFECT + i])] for i in range(3)],
        "pig_tokens": [int(consts[K.C_TOKEN + i]) for i in range(3)],
        "wolf_values": [int(consts[K.C_WOLF + i]) for i in range(3)],
        "house_points": int(consts[K.C_HOUSE_PTS]),
        "collapse_points": int(consts[K.C_COLLAPSE_PTS]),
        "bonus_points": int(consts[K.C_BONUS_PTS]),
        "bottom_packet": int(consts[K.C_PACKET]),
    }
