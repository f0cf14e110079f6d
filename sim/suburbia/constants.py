"""Suburbia constants: tile kind codes, class bits, effect codes, action ids, state slots.

These are encodings, not component data: prices, counts, effects, goals and red lines live in
``data.py`` and reach the kernels as arrays. See docs/games/suburbia.md.
"""

from sim.suburbia.options import OPTIONS

# ---- tile classes (bit masks; docs §1.2) ---------------------------------------------------
R, C, I, V, LAKEB = 1, 2, 4, 8, 16  # noqa: E741
AIRPORT, RESTAURANT, OFFICE, SCHOOL, SKYSCRAPER, DEALERSHIP = 32, 64, 128, 256, 512, 1024
RCIV = R | C | I | V
CLASS_NAMES = {
    "R": R, "C": C, "I": I, "V": V, "Lake": LAKEB, "airport": AIRPORT, "restaurant": RESTAURANT,
    "office": OFFICE, "school": SCHOOL, "skyscraper": SKYSCRAPER, "dealership": DEALERSHIP,
}

# ---- stats and scopes of effect records (docs §1.3) ----------------------------------------
S_INC, S_REP, S_POP, S_MONEY = 0, 1, 2, 3
STAT_NAMES = ("Inc", "Rep", "Pop", "$")
SC_ADJ, SC_OWN, SC_EVERY, SC_OTHERS, SC_AFTER, SC_REDLINE, SC_LAKE_ADJ, SC_LAKEBONUS = range(8)
SCOPE_NAMES = ("adj", "own", "every", "others", "after", "redline", "lake_adj", "lakebonus")

# ---- tile kinds ------------------------------------------------------------------------------
K_EMPTY = 0
K_SUBURBS, K_PARK, K_FACTORY = 1, 2, 3
K_LAKE = 51
K_OMR = 52
NK = 53
FIRST_A, LAST_A = 4, 18
FIRST_B, LAST_B = 19, 35
FIRST_C, LAST_C = 36, 50
STACK_BASIC, STACK_A, STACK_B, STACK_C, STACK_NONE = 0, 1, 2, 3, 4

# columns of the tile data table ``tiles[NK, NTCOL]``
T_CLS, T_PRICE, T_STACK, T_COUNT, T_IMM = 0, 1, 2, 3, 4  # T_IMM..T_IMM+3: Inc, Rep, Pop, $
T_NREC = 8
T_REC = 9  # record r: columns T_REC + 4r + (0 stat, 1 amount, 2 scope, 3 mask)
MAXREC = 3
NTCOL = T_REC + 4 * MAXREC

# ---- goals -----------------------------------------------------------------------------------
NG = 20
G_MEASURE, G_DIR, G_MASK, G_BONUS = 0, 1, 2, 3
NGCOL = 4
GM_COUNT, GM_GROUP, GM_MONEY, GM_INCOME, GM_REP, GM_INVEST = range(6)
MEASURE_NAMES = ("count", "group", "money", "income", "reputation", "investments")

# ---- geometry (docs §2) ----------------------------------------------------------------------
GRID_R = 22           # x in [-22, 22]
GRID_W = 2 * GRID_R + 1
GRID_H = 49           # y in [0, 48]
NCELLS = (GRID_W * GRID_H + 1) // 2   # 1103
# neighbour directions in doubled coordinates: N, NE, SE, S, SW, NW
DIRS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
GEO_X, GEO_Y = 6, 7   # geo[cell, 0..5] neighbours (-1 = outside), geo[cell, 6] x, [7] y
NGEO = 8


def cell_id(x: int, y: int) -> int:
    """Cell id of (x, y) (x + y even, |x| <= 22, 0 <= y <= 48); -1 outside the grid."""
    if abs(x) > GRID_R or y < 0 or y >= GRID_H or (x + y) % 2:
        return -1
    return (y * GRID_W + x + GRID_R) // 2


def cell_xy(cid: int) -> tuple[int, int]:
    v = 2 * cid
    y = v // GRID_W
    return v - GRID_W * y - GRID_R, y


# ---- limits ----------------------------------------------------------------------------------
MAXP = 4
MAXT = 24            # tiles per borough (3 start tiles + at most 21 placements)
NSLOTS = 7
MAXPILE = 96
MAXLINES = 64
N_INVEST_MAX = 3

# ---- actions (docs §5) -----------------------------------------------------------------------
A_BUY = 0        # 0..6  buy market slot s
A_BASIC = 7      # 7..9  basic tile b (0 Suburbs, 1 Community Park, 2 Heavy Factory)
A_LAKE = 10      # 10..16 market slot s becomes a Lake
A_INVEST = 17    # 17..40 investment marker on own tile index t
A_DISCARD = 41   # 41..47 discard market slot s
A_KEEP = 48      # 48..49 keep private goal offer j
A_PASS = 50      # only when nothing else is legal
A_PLACE = 51     # 51..1153 place the pending tile on cell id
NUM_ACTIONS = A_PLACE + NCELLS
BASIC_KINDS = (K_SUBURBS, K_PARK, K_FACTORY)

# ---- phases, end reasons ---------------------------------------------------------------------
PH_GOAL, PH_ACTION, PH_PLACE, PH_DISCARD, PH_EXTRA, PH_OVER = range(6)
PHASES = ("goal", "action", "place", "discard", "extra_discard", "over")
END_NONE, END_END, END_LIMIT = 0, 1, 2
END_REASONS = ("none", "end", "limit")
SRC_NONE, SRC_BUY, SRC_BASIC, SRC_LAKE = 0, 1, 2, 3
SOURCES = (None, "buy", "basic", "lake")

# ---- meta slots ------------------------------------------------------------------------------
(M_NP, M_CUR, M_PHASE, M_ROUND, M_TURN, M_DEC, M_LAST, M_END, M_PILEN, M_PKIND, M_PSRC,
 M_PFROM, M_NPUB) = range(13)
N_META = 13

# ---- player scalar slots pl[p, *] -------------------------------------------------------------
(P_MONEY, P_INC, P_REP, P_POP, P_HIGH, P_RLUP, P_RLDOWN, P_GOALPOP, P_MONEYPOP, P_NT,
 P_NINV, P_GOALBITS) = range(12)
# recorded for the results only (never read by the rules, not in the state dict; issue 16):
# population lost to unpaid income (§5.2 step 2) and $ of debt forgiven at population 0
# (income left unpaid once the population is 0, and negative-Reputation steps below 0 unpaid)
P_UNPAID, P_FORGIVEN = 12, 13
NPL = 14

# ---- tile slots tk[p, t, *] ------------------------------------------------------------------
K_KIND, K_CELL, K_TURN, K_INV, K_RL, K_FROM = range(6)
NTK = 6

# ---- consts slots (component data, docs §1.6) ------------------------------------------------
(C_STACK1, C_STACK2, C_STACK3, C_STACK4, C_BLOCK1, C_BLOCK2, C_BLOCK3, C_BLOCK4, C_EXTRA_C,
 C_PUB1, C_PUB2, C_PUB3, C_PUB4, C_SUR0, C_SUR1, C_SUR2, C_SUR3, C_SUR4, C_SUR5, C_SUR6,
 C_MONEY, C_INC, C_REP, C_POP, C_INVEST, C_SUPPLY, C_OFFER, C_NLINES) = range(28)
N_CONSTS = 28

# option slots, derived from the option list by name (sim/suburbia/options.py)
_SLOT = OPTIONS.slots()
O_RL_OFFSET = _SLOT["red_line_offset"]
O_RL_DOWN = _SLOT["red_line_down"]
O_REACTIONS = _SLOT["tile_reactions"]
O_HOA_PRICE = _SLOT["hoa_price"]
O_OFFICE = _SLOT["office_building_target"]
O_PARKING = _SLOT["parking_lot_immediate"]
O_BCOUNTS = _SLOT["b_stack_counts"]
O_AFTER = _SLOT["after_scope"]
O_WATERFRONT = _SLOT["waterfront"]
O_SELF = _SLOT["counts_itself"]
O_PRIV_TIES = _SLOT["private_goal_ties"]
O_REPLAY = _SLOT["invest_replay"]
O_CLAMP = _SLOT["clamp_timing"]
O_RL_TILES_DOWN = _SLOT["redline_tiles_down"]
O_WIDTH = _SLOT["borough_width"]
O_TIE = _SLOT["tie_break"]
O_REP_DEBT = _SLOT["rep_debt"]
O_POP_MAX = _SLOT["pop_max"]
O_INV_LAKE = _SLOT["invest_on_lake"]
O_POSTAL = _SLOT["postal_service_immediate"]
O_RECYCLING = _SLOT["recycling_plant_rep"]
O_SOLO_PEN = _SLOT["solo_redline_penalty"]
O_OMR_REPL = _SLOT["omr_replacement"]
N_OPTS = len(OPTIONS.options)
