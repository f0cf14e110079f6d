"""Go Town constants: card type codes, action ids, state and option slots.

These are encodings, not component data: the card counts and the hand constants live in
``data.py`` and reach the kernels as arrays. See docs/games/go_town.md.
"""

from sim.go_town.options import OPTIONS

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
END_NONE, END_TARGET, END_LIMIT, END_DEADLOCK = 0, 1, 2, 3
# deadlock: no player can ever change the state again (docs/games/go_town.md section 5)
END_REASONS = ("none", "target", "limit", "deadlock")

# memo: the seats' public observation log of their END_TURN positions (not rules state; the
# search bot's inference reads it; docs/games/go_town.md section 8.1), int64[MAXP, MEMO_W]
MEMO_HJ = 6  # records kept per seat (a ring)
MEMO_N = 0  # memo[p, MEMO_N]: END_TURN records written so far for p (next slot: MEMO_N % MEMO_HJ)
MEMO_TAKEN = 1  # memo[p, MEMO_TAKEN]: cards taken from p's hand by other seats' THIEF / MASTER
MEMO_REC = 2  # record j of p: memo[p, MEMO_REC + 3 j + w], w one of MR_*
MEMO_W = MEMO_REC + 3 * MEMO_HJ
MR_MASK, MR_BOARD, MR_OUT = 0, 1, 2
# MR_MASK flags above the card type bits 1..17
MF_DOG_OWN_TOP = 20  # a DOG is legal on the seat's own top floor
MF_BONE_TOP = 21  # a BONE is legal on a dog on some rival's top floor
MF_BONE_LOW = 22  # a BONE is legal on a dog on a lower floor of a rival whose top has no dog

# consts slots (component data)
C_OPEN, C_LIMIT, C_REFILL = 0, 1, 2
C_REMOVED = 3  # consts[3 + k]: copies of type k taken out of the shuffled deck (data ``removed``)

# option slots, derived from the option list by name (sim/go_town/options.py)
_SLOT = OPTIONS.slots()
O_TARGET = _SLOT["target_floors"]
O_WINCHECK = _SLOT["win_check"]
O_HANDMODE = _SLOT["hand_limit_mode"]
O_RESHUFFLE = _SLOT["reshuffle_timing"]
O_QM_BY_QM = _SLOT["qm_steal_by_qm"]
O_QM_BY_NUM = _SLOT["qm_steal_by_number"]
O_DOG_PLACE = _SLOT["dog_placement"]
O_DOG_UP = _SLOT["dog_moves_up"]
O_DONUT_SCOPE = _SLOT["donut_scope"]
O_SKIP_STACK = _SLOT["skip_stacking"]
O_SKIP_MEANS = _SLOT["skip_means"]
O_MILK_SELF = _SLOT["milk_on_self"]
O_DESTROY_SELF = _SLOT["destroy_self_allowed"]
O_BONE_OWN = _SLOT["bone_on_own"]
O_DOG_OTHERS = _SLOT["dog_on_others"]
O_DOGS_MAX = _SLOT["dogs_per_floor_max"]
O_BONE_TARGET = _SLOT["bone_target"]
O_DEAD_PLAYS = _SLOT["allow_dead_plays"]
O_MILK_DISCARD = _SLOT["milk_discard"]
O_MAXTURNS = _SLOT["max_turns"]
O_FIRST = _SLOT["first_player"]
N_OPTS = len(OPTIONS.options)
DECISIONS_PER_TURN_CAP = 64
