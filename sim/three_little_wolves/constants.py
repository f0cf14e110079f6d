"""The Three Little Wolves constants: card ids, action ids, state and option slots.

These are encodings, not component data: the suit template, pig effects, token faces and
points live in ``data.py`` and reach the kernels as arrays. See
docs/games/three_little_wolves.md (cited as "doc §").
"""

from sim.three_little_wolves.options import OPTIONS

# cards (doc §1.1)
NBUILD = 56  # building cards 0..55: colour = id // 14, row = id % 14
NCARD = 59  # + pig cards 56, 57, 58
PIG0 = 56
SUIT = 14
R, Y, G, W = 0, 1, 2, 3
UNASSIGNED = 3  # house colour of an all-white house
COLOUR_LETTERS = "RYGW"
HOUSE_COLOUR_NAMES = ("R", "Y", "G", "-")
PIG_NAMES = ("PIG1", "PIG2", "PIG3")

# card table columns (cards int64[59, 4])
K_NUM, K_COL, K_ICON, K_MARK = 0, 1, 2, 3
PIG_COL = 4

# pig effects
E_NONE, E_LEFT, E_RIGHT, E_HOUSE = 0, 1, 2, 3
EFFECT_NAMES = ("NONE", "LEFT", "RIGHT", "HOUSE")

# consts slots (component data, int64[16])
C_EFFECT = 0  # 0..2: effect of PIG1..PIG3
C_TOKEN = 3  # 3..5: pig token faces in hand-out order
C_WOLF = 6  # 6..8: wolf faces
C_HOUSE_PTS, C_COLLAPSE_PTS, C_BONUS_PTS, C_PACKET = 9, 10, 11, 12
N_CONSTS = 16

MAXP = 4  # seats
MAXO = 4  # owners (2p: seats 0, 1 and the dummy 2)
DUMMY = 2  # owner index of the dummy in 2p
MAXH = 3  # houses per owner
MAXF = 14  # floor slots per house (numbers strictly ascending)
MAXB = 3  # basement slots
HAND_CAP = 8

# action ids (doc §6)
A_FLOOR = 0  # 0..223: 4c + k (k = 3: new house)
A_BASE = 224  # 224..391: 224 + 3c + h
A_WOLF = 392  # 392..447: 392 + c
A_PLACE = 448  # 448..483: 448 + 12v + 3o + h
A_DISC = 484  # 484..539
A_PASS = 540  # 540..595
A_PIGTIE = 596  # 596..598
A_DFLOOR = 599  # 599..601
A_DNEW = 602  # 602..604
A_DBASE = 605  # 605..607
A_DDISC = 608
A_COMMIT = 609  # 609..664
NUM_ACTIONS = 665
MAX_DECISIONS = 256

# meta slots (int64[24])
(
    M_NP, M_NOWN, M_STAGE, M_PHASE, M_CUR, M_TP, M_TURN, M_DEC, M_END, M_DECKN, M_NPIGS,
    M_MUST, M_DRAWER, M_PIGCARD, M_ESTEP, M_FLEFT, M_RSTEP, M_DCARD, M_UNDER, M_NTIE,
) = range(20)
N_META = 24

ST_NORMAL, ST_FINAL, ST_FINAL2P, ST_OVER = 0, 1, 2, 3
STAGES = ("normal", "final", "final2p", "over")
PH_PLAY, PH_WOLF, PH_PIGTIE, PH_PASS, PH_HOUSE, PH_DUMMY, PH_COMMIT, PH_OVER = range(8)
PHASES = ("play", "wolf", "pig_tie", "pass", "house", "dummy", "commit", "over")
END_NONE, END_SCORED, END_LIMIT = 0, 1, 2
END_REASONS = ("none", "scored", "limit")

# per-seat slots (seat int64[4, 12])
S_NH, S_HN, S_WU, S_PASS, S_COMMIT, S_BUILD, S_WOLFN, S_DISCN = 0, 1, 2, 5, 6, 7, 8, 9
# S_WU .. S_WU+2: wolf v used (1) or not (0)
N_SEATF = 12

# per-house slots (hs int64[4, 3, 12])
(
    H_COL, H_NF, H_NB, H_TOP, H_LB, H_HT, H_B3, H_PIG, H_NW, H_W0S, H_W0V, H_W1S, H_W1V,
) = range(13)
N_HF = 13

# token states (tokens int64[3])
T_LEFT, T_PLACED, T_LOST = 0, 1, 2

# continuation codes of the flow driver (doc §5)
(
    K_DONE, K_REVEAL, K_END_TURN, K_AFTER_TOKEN, K_PASS_NEXT, K_HOUSE_NEXT, K_START_ROUND,
    K_COMMIT_NEXT, K_RESOLVE_NEXT, K_END_ROUND, K_AFTER_USE, K_PLACE_TOKEN,
) = range(12)

# option slots, derived from the option list by name (sim/three_little_wolves/options.py)
_SLOT = OPTIONS.slots()
O_CARDSET = _SLOT["card_set"]
O_KIDS = _SLOT["variant_kids"]
O_KIDS_TOKENS = _SLOT["kids_pig_tokens"]
O_HAND = _SLOT["hand_size"]
O_WOLF_FREE = _SLOT["wolf_order_free"]
O_TWO_SLOT = _SLOT["wolf_two_slot_rule"]
O_B3_SAME = _SLOT["b3_same_player"]
O_COLBASE_U = _SLOT["coloured_basement_unassigned"]
O_PURE_DISC = _SLOT["pure_discard_allowed"]
O_PIG_DRAWER_FIRST = _SLOT["pig_tie_drawer_first"]
O_PIG_SAME_OWNER = _SLOT["pig_same_owner_tie"]
O_UNPLACED = _SLOT["unplaced_pig_token"]
O_DUMMY_PIGS = _SLOT["dummy_gets_pig_tokens"]
O_DUMMY_POLICY = _SLOT["dummy_policy"]
O_FINAL_WHITE_PASS = _SLOT["final2p_white_pass"]
O_HEIGHT = _SLOT["height_rule"]
O_LONE_COLLAPSES = _SLOT["lone_house_collapses"]
O_LONE_BONUS = _SLOT["lone_house_bonus"]
O_MARKS_COLLAPSED = _SLOT["marks_on_collapsed"]
O_TB_NET = _SLOT["tiebreak_wolf_net"]
N_OPTS = len(OPTIONS.options)

# score components (pts int64[4, 6]) and detail (det int64[4, 6])
P_HOUSES, P_COLLAPSES, P_BONUSES, P_PIGS, P_WOLVES, P_MARKS = range(6)
PTS_NAMES = ("houses", "collapses", "bonuses", "pigs", "wolves", "marks")
D_BUILT, D_COLLAPSED, D_SAVED_TIE, D_BONUS_TIE, D_WOLVES, D_WOLVES_STANDING = range(6)
DET_NAMES = ("houses_built", "houses_collapsed", "houses_saved_by_tie", "bonus_lost_to_tie",
             "wolves_placed", "wolves_standing")
