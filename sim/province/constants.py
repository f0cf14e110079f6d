"""Province constants: structure/goal/worker encodings, action ids, state and option slots.

These are encodings, not component data: costs, VP, goal thresholds and the rule constants
live in ``data.py`` and reach the kernels as arrays. See docs/games/province.md.
"""

from sim.province.options import OPTIONS

# structures (roles fixed by id; numbers are data), docs §1.1
LENDER, BANK, CAMP, VILLAGE, MILL, SMITHY, UNION, HARBOR = range(8)
NS = 8
STRUCT_NAMES = ("Lender", "Bank", "Camp", "Village", "Mill", "Smithy", "Union", "Harbor")

# structure data columns
S_L, S_C, S_VP1, S_VP2, S_PRE = range(5)
NSCOL = 5

# goal condition codes, docs §6
(G_COINS_EOT, G_LABOR_GAINED, G_STRUCTS, G_MOVED, G_VP_FIRST, G_GRINDS, G_SAILORS,
 G_COPY, G_ARROWS) = range(9)
COND_NAMES = (
    "coins_at_end_of_turn", "labor_gained_this_turn", "structures_owned",
    "workers_moved_this_turn", "owns_vp_first_at_least", "grinds_this_turn",
    "own_sailors_on_cycle", "builds_copy", "arrows_completed",
)
MAXG = 9  # goal tokens in the data table (at most)

# work cycle spaces, docs §2
SP_COIN, SP_A, SP_B = 0, 1, 2
SPACE_NAMES = ("C", "A", "B")
# workers
W_YELLOW, W_ORANGE, W_SAILOR0 = 3, 4, 5
NW = 11

# action ids, docs §5
A_END = 0
A_MOVE = 0  # 1..255: the mask itself
A_BUILD = 256  # 256..263
A_GRIND = 264
A_UNION = 265
A_HIRE = 266
A_TAKE = 267
A_REPAY = 268
NUM_ACTIONS = 269

# meta slots
(M_CUR, M_FIRST, M_PHASE, M_TURN, M_DEC, M_LABOR, M_GAINED, M_MOVED, M_GRINDS, M_BUILT,
 M_HIRED_T, M_SHIPS, M_LHOLDER, M_LTURN, M_GN, M_GNEXT, M_TRIG, M_LAST, M_END, M_WIN,
 M_DRY) = range(21)
N_META = 21
# recorded only (results, issue 16; never read by the rules, not in the state dict): 1 + the
# seat whose turn set the end trigger M_TRIG (0 = not set); a spare slot below X_OPTS
M_TSEAT = 21
PH_WORK, PH_SPEND, PH_OVER = 0, 1, 2
PHASES = ("work", "spend", "over")
SHIP_NAMES = ("white", "mixed", "black")  # ships 0, 1, 2; -1 = "none"

END_NONE, END_SEVEN, END_ALLTYPES, END_GOALS, END_LIMIT = range(5)
END_REASONS = ("none", "seven_structures", "all_types", "goals", "limit")
WIN_NONE, WIN_DRAW = -1, 2  # M_WIN: -1 none, 0/1 that seat, 2 draw

# stats columns (per seat)
ST_MISSED, ST_TAKES, ST_STEALS = range(3)
NSTATS = 3

# consts slots (component data), docs §1.3
(C_GRIND_L, C_GRIND_C, C_UNION_C, C_UNION_L, C_SAILOR_COST, C_REPAY, C_PENALTY,
 C_MAX_SAILORS, C_SAILORS_PP, C_MILL, C_HARBOR_L, C_HARBOR_C, C_TOKENS, C_GOALS_TOTAL,
 C_GOALS_DRAWN) = range(15)
N_CONSTS = 15
CONST_NAMES = (
    "grind_labor", "grind_coins", "union_coins", "union_labor", "sailor_cost", "lender_repay",
    "lender_penalty", "max_sailors", "sailors_per_player", "mill_labor", "harbor_labor",
    "harbor_coins", "structure_tokens", "goals_total", "goals_drawn",
)

# option slots, derived from the option list by name (sim/province/options.py)
_SLOT = OPTIONS.slots()
O_COIN_TOTAL = _SLOT["coin_total"]
O_P1_COINS = _SLOT["p1_coins"]
O_P2_COINS = _SLOT["p2_coins"]
O_FIRST = _SLOT["first_player"]
O_ENTRY = _SLOT["entry_space"]
O_STEAL = _SLOT["lender_steal"]
O_BPREREQ = _SLOT["borrowed_prereq"]
O_BHU = _SLOT["borrow_harbor_union"]
O_HBEN = _SLOT["harbor_benefit"]
O_SMIXED = _SLOT["sailor_needs_mixed"]
O_INCB = _SLOT["income_on_build_turn"]
O_SMITHY = _SLOT["smithy_effect"]
O_ALLTYPES = _SLOT["all_types_trigger"]
O_FINAL = _SLOT["final_turn"]
O_WTIE = _SLOT["worker_tiebreak"]
O_MAXTURNS = _SLOT["max_turns"]
O_TWEAK = _SLOT["recon_tweak"]
N_OPTS = len(OPTIONS.options)
DECISIONS_PER_TURN_CAP = 128

# layout of the flat state array ``x`` (int64): offsets of each block (see kernels.ProvinceState)
X_META = 0            # N_META slots M_*
X_OPTS = 24           # N_OPTS option codes O_*
X_CONSTS = 44         # N_CONSTS rule constants C_*
X_SD = 60             # structure data [8, NSCOL]: X_SD + k*NSCOL + S_*
X_GD = X_SD + NS * NSCOL          # goal data [9, 2]: X_GD + g*2 + (0 condition, 1 threshold)
X_COINS = X_GD + MAXG * 2         # coins [2]
X_POS = X_COINS + 2               # worker positions [11]
X_HIRED = X_POS + NW              # sailors on the cycle [2]
X_OWN = X_HIRED + 2               # owned [2, 8]: X_OWN + p*NS + k
X_BT = X_OWN + 2 * NS             # built turn [2, 8]
X_FB = X_BT + 2 * NS              # first builder [8]
X_GS = X_FB + NS                  # goal stack [9]
X_GR = X_GS + MAXG                # goal results [9]
X_ST = X_GR + MAXG                # stats [2, NSTATS]: X_ST + p*NSTATS + ST_*
N_X = X_ST + 2 * NSTATS

# columns of ``misc`` (per game and seat)
MISC_NAMES = (
    "score", "structures", "vp_structures", "vp_goals", "sailors", "workers", "coins_end",
    "coins_missed", "lender_takes", "lender_steals", "lender_end", "coins_dry",
    "triggered_end",  # issue 16: 1 for the seat whose turn set the end trigger (docs §7)
)
