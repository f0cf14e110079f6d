"""Issue 28's Province table with the bots as they were when the issue was filed (d40a425):
the recommended mix then (greedy, denial, engine, lender, sniper; pool seating), i.e. today's
rows with the two guards added since (stall_turns, move_guard) set to 0 (the only Province bot
change since, `git diff d40a425 HEAD -- strategies/province sim/province/kernels.py`).
Usage: python -m tests.bot_audit.province_filing_mix N [guards] (BENCHMARKS.md, session 10,
issue 28's table)"""
import sys

import numpy as np

from analysis.lab.tiers import _with_budget
from sim.core.game import UNFINISHED
from sim.core.seating import seat_matrix
from sim.registry import get_game
from strategies.province.bots import PARAM_NAMES

n = int(sys.argv[1])
guards = len(sys.argv) > 2
recon = ["bank", "camp", "village", "mill", "smithy", "union", "harbor"]
g0 = get_game("province")
coins = {s: next(r["value"] for r in g0.plausible_ranges()
                 if r["path"] == f"structures.{s}.coins") for s in recon}
settings = {
    "baseline": {},
    "coins all +1": {f"structures.{s}.coins": coins[s] + 1 for s in recon},
    "camp coins +1": {"structures.camp.coins": coins["camp"] + 1},
    "mill coins +1": {"structures.mill.coins": coins["mill"] + 1},
    "coins all -1": {f"structures.{s}.coins": coins[s] - 1 for s in recon},
}
names = ["greedy", "denial", "engine", "lender", "sniper"]
for label, ov in settings.items():
    game = get_game("province", ov or None)
    codes, params = _with_budget(game, names, None)
    params = params.copy()
    if not guards:
        params[:, PARAM_NAMES.index("stall_turns")] = 0
        params[:, PARAM_NAMES.index("move_guard")] = 0
    bad = [game.end_reasons.index(r) for r in UNFINISHED if r in game.end_reasons]
    idx = seat_matrix("pool", 1, 0, n, 2, len(names))
    st = game._alloc(game.resolve_options({}))
    r = game._play_chunk(st, 0, n, np.uint64(1), 2, np.ascontiguousarray(idx, np.int64),
                         codes.copy(), params)
    fin = ~np.isin(r.end_reason, bad)
    fp = np.asarray(r.first_player)
    ws = np.asarray(r.win_share)[np.arange(n), fp][fin]
    p = ws.mean()
    h = 1.96 * ws.std(ddof=1) / np.sqrt(len(ws))
    turns = np.asarray(r.turns)[fin].mean() / 2
    print(f"{label:15s} first seat {100 * p:5.1f}% [{100 * (p - h):.1f}, {100 * (p + h):.1f}]"
          f"  finished {fin.sum()}/{n}  turns {turns:.1f}/player")
