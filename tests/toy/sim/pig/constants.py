"""Pig's constants: the meta slots, phases, actions and option slots."""

from sim.pig.options import OPTIONS

MAXP = 4
NUM_ACTIONS = 2
A_ROLL, A_HOLD = 0, 1
M_NP, M_CUR, M_PHASE, M_TT, M_TURN, M_DEC, M_END, M_WINNER, M_FIRST = range(9)
N_META = 9
PH_PLAY, PH_OVER = 0, 1
END_REASONS = ("none", "target", "limit")
END_TARGET, END_LIMIT = 1, 2
_SLOT = OPTIONS.slots()
O_TARGET = _SLOT["target"]
O_MAX_TURNS = _SLOT["max_turns"]
N_OPTS = len(OPTIONS.options)
