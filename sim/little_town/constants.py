"""Little Town encodings: action ids, phases, state slots, option slots, data column slots.

These are encodings, not component data: costs, VP, counts, the boards and the goal table live
in ``data.py`` and reach the kernels as arrays. See docs/games/little_town.md.
"""

from sim.little_town.options import OPTIONS

MAXP = 4
NB = 25  # building types
NCELL = 54
ROWS, COLS = 6, 9
NRES = 4
RES_NAMES = ("wood", "stone", "fish", "wheat")
WOOD, STONE, FISH, WHEAT = 0, 1, 2, 3
NCARD = 19  # goal cards 1..18, row 0 unused
MAXG = 4  # goal slots per seat
NDRAFT = 24

# terrain
T_G, T_F, T_M, T_L = 0, 1, 2, 3
TERRAIN_CHARS = "GFML"

# building roles (ids)
B_WHEAT = 0
B_PAWNSHOP = 17
B_CATHEDRAL = 21
B_RESIDENCE = 22
B_CASTLE = 23
B_WATCHTOWER = 24

# building kinds
K_P, K_X, K_R, K_E, K_N = 0, 1, 2, 3, 4
KIND_NAMES = ("P", "X", "R", "E", "N")

# building data columns
BD_COUNT = 0
BD_COST = 1  # 1..4
BD_COSTC = 5
BD_VP = 6
BD_KIND = 7
BD_IN = 8  # 8..11
BD_INC = 12
BD_OUT = 13  # 13..16
BD_OUTC = 17
BD_OUTVP = 18
BD_BIRD = 19
BD_N = 20

# goal kinds
(G_CONNECTED, G_MORE_BLD, G_FOOD_HELD, G_TERRAIN_TRIO, G_ACT_TWO_TYPES, G_FEED_ALL_WITH,
 G_OWN_SET, G_COINS_EQ, G_COINS_GE, G_SPEND_GATHERED, G_ACTS_IN_TURN, G_VP_ACTS_IN_TURN,
 G_GATHER_IN_TURN) = range(13)
GOAL_KIND_NAMES = (
    "connected", "more_buildings_than_workers", "food_held", "terrain_trio", "act_two_types",
    "feed_all_with", "own_set", "coins_eq", "coins_ge", "spend_gathered", "acts_in_turn",
    "vp_acts_in_turn", "gather_in_turn",
)
# goal data columns [19, 30]
GD_KIND, GD_PARAM, GD_VP, GD_BANG, GD_NEED = range(5)
GD_SET = 5  # 5..29: 0/1 per building
GD_N = 30

# consts slots
(C_SUPPLY, C_START_COINS, C_COIN_TOTAL, C_FEE, C_BUY, C_UNFED, C_COINS_PER_VP, C_CATH_VP,
 C_CASTLE_VP, C_WT_VP, C_MARKET_SIZE) = range(11)
C_PC = 11  # per-count table: consts[C_PC + 3*players + i], i = workers, houses, goals
N_CONSTS = 11 + 15
CONST_NAMES = ("supply_per_resource", "start_coins", "coin_total", "fee", "buy_price",
               "unfed_penalty", "coins_per_vp", "cathedral_vp", "castle_vp", "watchtower_vp",
               "market_size")

# action ids (docs section 5)
A_PLACE = 0
A_BUILD = 54
A_SITE = 79
A_ACT = 133
A_PAWN = 141
A_GATHER = 241
A_END = 242
A_FEED_FISH = 243
A_FEED_WHEAT = 244
A_BUY_FISH = 245
A_BUY_WHEAT = 246
A_STARVE = 247
A_PICK = 247  # 248..271 = 247 + b
NUM_ACTIONS = 272
MAX_DECISIONS = 1000

# Pawnshop pairs
PAIRS = ((0, 0), (0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (3, 3))

# neighbour slot offsets
OFFSETS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
ORTHO_SLOTS = (1, 3, 4, 6)

# phases
PH_DRAFT, PH_TURN, PH_ACT, PH_SITE, PH_RES, PH_FEED, PH_OVER = range(7)
PHASES = ("draft", "turn", "act", "site", "residence", "feed", "over")
EOR_NONE, EOR_SPECIALS, EOR_RES, EOR_FEED = 0, 1, 2, 3
EOR_STAGES = ("none", "specials", "residence", "feed")
END_NONE, END_END, END_LIMIT = 0, 1, 2
END_REASONS = ("none", "end", "limit")

# meta slots (scalars; the placement and the supply live here too)
(M_NP, M_PHASE, M_CUR, M_ROUND, M_START, M_FIRST, M_TURN, M_TURNS_TOTAL, M_DEC, M_END,
 M_PENDING, M_EOR_STAGE, M_EOR_IDX, M_FEED_LEFT, M_FEED_FISH, M_FEED_WHEAT, M_BANK, M_BANK_MIN,
 M_GDECK_N, M_GDISC_N, M_DDECK_N, M_DRAFT_ROUND, M_WORKERS, M_HOUSES, M_NGOALS, M_NLEGAL) = range(26)
# placement slots (in meta)
P_SEAT, P_CELL, P_GATH, P_ACTS, P_VPACTS, P_GN = range(26, 32)
P_GT = 32  # 32..35 gathered per type
P_USED = 36  # 36..43 used per neighbour slot
M_SUPPLY = 44  # 44..47
N_META = 48

# geo columns [54, 15]: terrain in play, neighbours, terrain cubes around, both boards
GE_TERR = 0
GE_NBR = 1  # 1..8
GE_TCNT = 9  # 9..12
GE_BOARD = 13  # 13 side A, 14 side B
GE_N = 15

# cells rows [3, 54]
CE_BLD, CE_OWN, CE_WRK = 0, 1, 2

# seat columns [4, 37]
(SE_COINS, SE_SCORE, SE_HOUSES, SE_WUSED, SE_ONSITE, SE_LAST_START, SE_PICKS,
 SE_GDIRTY) = range(8)
SE_CUBES = 8  # 8..11
SE_GOALS = 12  # 12..15 card per slot (0 empty)
SE_GDONE = 16  # 16..19 round claimed (0 not)
SE_STATS = 20  # 20..36
SE_N = 37

# per seat and building planes [4, 6, 25]
SB_BUILT, SB_BROUND, SB_ACT_OWN, SB_ACT_OTH, SB_PICK, SB_DHAND = range(6)
SB_N = 6

# piles [3, 24]: goal deck, goal discard, draft tile pile (bottom first)
PL_GDECK, PL_GDISC, PL_DDECK = 0, 1, 2

# market rows [3, 25]: market, market at the start, a cell holding each building (-1 none)
MK_MARKET, MK_START, MK_LOC = 0, 1, 2

# per-seat stats slots
STAT_NAMES = ("placements", "builds", "activations", "gathered", "cubes_bought", "food_bought",
              "fees_paid", "fees_earned", "unfed", "vp_build", "vp_act", "vp_goal",
              "vp_cathedral", "vp_castle", "vp_watchtower", "vp_coins", "vp_unfed")
(ST_PLACEMENTS, ST_BUILDS, ST_ACTIVATIONS, ST_GATHERED, ST_CUBES_BOUGHT, ST_FOOD_BOUGHT,
 ST_FEES_PAID, ST_FEES_EARNED, ST_UNFED, ST_VP_BUILD, ST_VP_ACT, ST_VP_GOAL, ST_VP_CATH,
 ST_VP_CASTLE, ST_VP_WT, ST_VP_COINS, ST_VP_UNFED) = range(17)
N_STATS = 17

# option slots, derived from the option list by name (sim/little_town/options.py)
_SLOT = OPTIONS.slots()
O_MARKET = _SLOT["market"]
O_SIDE = _SLOT["board_side"]
O_FIRST = _SLOT["first_player"]
O_ROUNDS = _SLOT["rounds"]
O_TIP = _SLOT["three_player_tip"]
O_GOAL7 = _SLOT["goal7"]
O_BANGCHECK = _SLOT["bang_check"]
O_BANGREDRAW = _SLOT["bang_redraw"]
O_OPTGATHER = _SLOT["optional_gather"]
O_BANK = _SLOT["coin_bank"]
O_CATH_OWN = _SLOT["cathedral_counts_own"]
O_RES_GATHER = _SLOT["residence_gathers_terrain"]
O_RES_FEES = _SLOT["residence_pays_fees"]
O_CASTLE = _SLOT["castle_counts"]
O_WT_BLOCK = _SLOT["watchtower_workers_block"]
O_PAWN_DIFFER = _SLOT["pawnshop_must_differ"]
O_G5_PAWN = _SLOT["goal5_counts_pawnshop"]
O_GIB = _SLOT["gather_includes_buildings"]
N_OPTS = len(OPTIONS.options)
MV_RANDOM, MV_BEGINNER, MV_DRAFT, MV_ONE_OF_TWO = 0, 1, 2, 3
