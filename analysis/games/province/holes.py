"""Province rule holes the engine records (issue 16, item 4): who triggered the end and
whether they won, the opponent left without a reply turn.

Seat detail ``triggered_end`` (docs/games/province.md): 1 for the seat whose turn set the end
trigger (seven structures, every type built, the goal stack used up), 0 otherwise and in games
stopped at the limit. Under the seed's end rule (``final_turn = finish_turn``, spec §5.9) the
triggering player finishes the turn and the game ends: the opponent cannot act again.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import queries as q
from analysis.doc import Table, count, pct_ci
from analysis.games.province.data import END_TRIGGERS
from analysis.games.province.queries import run_option
from analysis.holes import missing
from analysis.stats import wilson_interval

__all__ = ["trigger_frame", "trigger_stats", "trigger_rule_holes", "fix_support"]

FIX = ("rule option `final_turn = opponent_last_turn` gives the opponent one last turn "
       "(spec §5.9, §9.2)")
FIX_ROLE = "variant:final_turn=opponent_last_turn"
"""The main job's paired run of the fix (``sim/province/game.py``, run ``last-turn``)."""


def fix_support(ctx, main: list[int]) -> tuple[str | None, str]:
    """(fix, note): ``FIX`` unless the report's own paired run of it (role ``FIX_ROLE``, game
    by game against the main games of the same seeds) shows the first player's share moving
    further towards the first seat (interval above 0): then no fix is offered, and the note
    says what the paired run shows. The note is "" without such a run."""
    from analysis.doc import diff_ci
    from analysis.games.province.queries import game_frame, paired_difference

    runs = [i for i, r in ctx.roles.items() if r == FIX_ROLE]
    if not runs or not main:
        return FIX, ""
    gf = game_frame(ctx.games, ctx.seats, main + runs)
    d = paired_difference(gf.filter(pl.col("run").is_in(main)),
                          gf.filter(pl.col("run").is_in(runs)))
    if not d["n"] or d["lo"] != d["lo"]:
        return FIX, ""
    shown = (f"the paired run of `final_turn = opponent_last_turn` moves the first player's "
             f"share by {diff_ci(d)} points ({count(d['n'])} paired games)")
    if d["lo"] > 0:
        return None, ("No fix offered: " + shown + ", further towards the first seat, so "
                      "this run does not support the option as a fix.")
    return FIX, shown[0].upper() + shown[1:] + "."


def trigger_frame(games: pl.LazyFrame, seats: pl.LazyFrame, runs: list[int]) -> pl.DataFrame:
    """One row per game of ``runs`` ended by a trigger (finished, a triggering seat recorded):
    run, game, end_reason, first_player, trig (the triggering seat), won (its win share is 1),
    draw (a shared win). Empty when the runs lack ``triggered_end``."""
    if missing(seats.filter(pl.col("run").is_in(runs)), ["triggered_end"]):
        return pl.DataFrame(schema={"run": pl.Int32, "game": pl.Int64, "end_reason": pl.Utf8,
                                    "first_player": pl.Int64, "trig": pl.Int64,
                                    "won": pl.Boolean, "draw": pl.Boolean})
    s = seats.filter(pl.col("run").is_in(runs) & (pl.col("triggered_end") == 1)).select(
        "run", pl.col("game").cast(pl.Int64), trig=pl.col("seat").cast(pl.Int64),
        won=pl.col("win_share") == 1.0,
        draw=(pl.col("win_share") > 0) & (pl.col("win_share") < 1))
    g = games.filter(pl.col("run").is_in(runs) & q.finished_game()).select(
        "run", pl.col("game").cast(pl.Int64), "end_reason",
        pl.col("first_player").cast(pl.Int64))
    return q.collect(g.join(s, on=["run", "game"])).sort("run", "game")


def _rate(k: int, n: int) -> tuple[float, float, float]:
    lo, hi = wilson_interval(k, n)
    return (k / n if n else float("nan")), float(np.ravel(lo)[0]), float(np.ravel(hi)[0])


def trigger_stats(tf: pl.DataFrame) -> pl.DataFrame:
    """Per end trigger and over all (``trigger`` "all"): ``n`` games, ``won`` (the triggering
    seat won outright), ``first`` (the first player triggered), each with ``_rate``/``_lo``/
    ``_hi`` (95% Wilson; games are independent)."""
    rows = []
    for name, sub in [("all", tf)] + [(e, tf.filter(pl.col("end_reason") == e))
                                      for e in END_TRIGGERS]:
        n = sub.height
        if not n:
            continue
        won = int(sub["won"].sum())
        first = int((sub["trig"] == sub["first_player"]).sum())
        w, f = _rate(won, n), _rate(first, n)
        rows.append(dict(trigger=name, n=n, won=won, won_rate=w[0], won_lo=w[1], won_hi=w[2],
                         first=first, first_rate=f[0], first_lo=f[1], first_hi=f[2]))
    return pl.DataFrame(rows)


def trigger_rule_holes(ctx, main: list[int]) -> pl.DataFrame:
    """Rule-hole row (``ctx.rule_hole``): main-run games that ended with the triggering player
    winning and the opponent unable to act again (runs under ``final_turn = finish_turn``; runs
    that give the opponent a last turn are counted apart, without a hole); and the section
    "End trigger". Runs played before ``triggered_end`` existed are said to lack it. Returns
    ``trigger_stats`` of the main runs."""
    ctx.doc.h(2, "End trigger: who ends the game and whether they win")
    tf = trigger_frame(ctx.games, ctx.seats, main) if main else pl.DataFrame()
    if tf.is_empty():
        ctx.doc.p("Not recorded in these runs: they were played before the engine recorded "
                  "`triggered_end` (issue 16), or no main game ended on a trigger; play them "
                  "again to see who ends the game.")
        return pl.DataFrame()
    seed_rule = [i for i in main if run_option(ctx, i, "final_turn", "finish_turn")
                 == "finish_turn"]
    no_reply = tf.filter(pl.col("run").is_in(seed_rule))
    if no_reply.height:
        won = int(no_reply["won"].sum())
        fix, note = fix_support(ctx, main) if won else (None, "")
        ctx.rule_hole(
            "the opponent cannot answer the last move (the player who triggered the end won "
            "and the opponent got no further turn)", won, no_reply.height, "games",
            "the trigger's turn ends the game (spec §5.9)" + (f". {note}" if note else ""),
            fix)
    st = trigger_stats(tf)
    ctx.doc.p("Main runs, finished games (the game ended on a trigger). *Triggered*: the seat "
              "to act when an end condition first held (a trigger met at a turn start belongs "
              "to the seat starting that turn). *Won*: the triggering seat won outright. Rates "
              "are shares of games with 95% Wilson intervals. Under the seed's rule "
              "(`final_turn = finish_turn`) the opponent gets no further turn.")
    ctx.doc.table(Table(
        ["End trigger", "Games", "Triggering player won", "First player triggered"],
        [[r["trigger"], count(r["n"]), pct_ci(r["won_rate"], r["won_lo"], r["won_hi"]),
          pct_ci(r["first_rate"], r["first_lo"], r["first_hi"])]
         for r in st.iter_rows(named=True)],
        [False, True, True, True]))
    return st
