"""Go Town constants: card type codes, action ids, state and option slots.

These are encodings, not component data: the card counts and the hand constants live in
``data.py`` and reach the kernels as arrays. See docs/games/go_town.md.
"""

NT = 18  # type codes 1..17; index 0 unused
QM, DOG, BONE, DRILL, WRECK, MILK, DONUT, THIEF, MASTER = 9, 10, 11, 12, 13, 14, 15, 16, 17
CARD_NAMES = (
    "", "1", "2", "3", "4", "5", "6", "7", "8", "?",
    "DOG", "BONE", "DRILL", "WRECK", "MILK", "DONUT", "THIEF", "MASTER",
)
SPECIAL_TYPES = tuple(range(DOG, MASTER + 1))
MAXP = 4
MAXF = 18  # floor slots per building

# action ids (docs/games/go_town.md section 6)
A_END = 0
A_BUILD = 1  # 1..4: lo + (9 - lo)
A_BUILDQ = 4  # 5..12: ? + n, id = 4 + n
A_STEAL = 13  # 13..28: 13 + v*4 + slot*2 + by_qm
A_DOG = 29  # 29..100: 29 + t*18 + f
A_BONE = 101  # 101..172
A_DRILL = 173
A_WRECK = 177
A_MILK = 181
A_THIEF = 185
A_DONUT = 189
A_MASTER = 190
A_DISCARD = 190  # 191..207: 190 + type
NUM_ACTIONS = 208

# meta slots
M_NP, M_CUR, M_PHASE, M_TURN, M_DEC, M_WINNER, M_END, M_DECKN = range(8)
N_META = 8
PH_PLAY, PH_DISCARD, PH_OVER = 0, 1, 2
PHASES = ("play", "discard", "over")
END_NONE, END_TARGET, END_LIMIT = 0, 1, 2
END_REASONS = ("none", "target", "limit")

# consts slots (component data)
C_OPEN, C_LIMIT, C_REFILL = 0, 1, 2

# option slots: order of OPTIONS in game.py
(
    O_TARGET, O_WINCHECK, O_HANDMODE, O_RESHUFFLE, O_QM_BY_QM, O_QM_BY_NUM, O_DOG_PLACE,
    O_DOG_UP, O_DONUT_SCOPE, O_SKIP_STACK, O_SKIP_MEANS, O_MILK_SELF, O_DESTROY_SELF,
    O_BONE_OWN, O_DOG_OTHERS, O_DOGS_MAX, O_BONE_TARGET, O_DEAD_PLAYS, O_MILK_DISCARD,
    O_MAXTURNS, O_FIRST,
) = range(21)
N_OPTS = 21
DECISIONS_PER_TURN_CAP = 64
