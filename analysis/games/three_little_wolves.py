"""The Three Little Wolves: game-specific report sections (issue 4, "Analysis and report").

``extend_report(ctx)`` adds, after the generic sections:

* **Seat order under each card set**: seat win rates per card set, side by side;
* **Score components**: houses, collapses, bonuses, pigs, wolves and marks as mean points per
  seat-game and as shares of the final score;
* **Value of the wolf action**: the restricted-play comparison (the same bot with wolves
  allowed and forbidden, on the same seeds, paired by game and seat), points per wolf action,
  and the association of betting more with winning in the main pool;
* **Ties that save a house**;
* **Two-player dummy control**: neutral against hostile, paired on the same seeds;
* **Sensitivity to the card list**: every headline metric under each card set, side by side
  with intervals, the shift from the default set, and whether the verdict changes.

Runs are told apart by their role (sim/three_little_wolves/game.py, ``default_plan``):
``main`` and ``cards:<set>`` are pool runs (the card set is read from the manifest's options,
``cards_v1`` when absent); ``wolf:allowed:<set>`` / ``wolf:forbidden:<set>`` and
``dummy:neutral:<set>`` / ``dummy:hostile:<set>`` are the arms of the paired studies. In a
pair the *focal seat* of game i is the seat that plays the first strategy of the treated-arm
run's strategy list (``no-wolf`` or ``hostile``); the other arm is read at the same game and
seat. All rates are over finished games (``rank`` set); a k-way shared win counts 1/k.
"""

from __future__ import annotations

import math
import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from scipy.stats import norm  # noqa: E402
from statsmodels.stats.multitest import multipletests  # noqa: E402

from analysis import queries as q  # noqa: E402
from analysis.charts import _empty, _save  # noqa: E402
from analysis.report import Table, _ci, _count, _num, _pts, pct  # noqa: E402
from analysis.stats import newcombe_difference, wilson_interval  # noqa: E402

SETS = ("cards_v0", "cards_v1", "cards_v2")
DEFAULT_SET = "cards_v1"
COMPONENTS = ("houses", "collapses", "bonuses", "pigs", "wolves", "marks")
Z = float(norm.ppf(0.975))

TITLE_SEATS = "Seat order under each card set"
TITLE_SCORE = "Score components"
TITLE_WOLF = "Value of the wolf action"
TITLE_TIES = "Ties that save a house"
TITLE_DUMMY = "Two-player dummy control: neutral vs hostile"
TITLE_SENS = "Sensitivity to the card list"
TITLES = (TITLE_SEATS, TITLE_SCORE, TITLE_WOLF, TITLE_TIES, TITLE_DUMMY, TITLE_SENS)

_COLORS = {"cards_v0": "#DD8452", "cards_v1": "#4C72B0", "cards_v2": "#55A868"}


# ---------------------------------------------------------------- runs and roles ---------
def run_table(manifests: list[dict], roles: dict[int, str]) -> list[dict]:
    """One dict per run: run (index), role, kind ("pool", "wolf", "dummy" or "other"), arm
    ("" for pool runs), card_set, players (None if unknown), focal (first strategy of the run).
    """
    out = []
    for i, m in enumerate(manifests):
        role = roles.get(i, "main")
        parts = role.split(":")
        if role == "main" or parts[0] == "cards":
            kind, arm = "pool", ""
        elif parts[0] in ("wolf", "dummy") and len(parts) >= 2:
            kind, arm = parts[0], parts[1]
        else:
            kind, arm = "other", ""
        opts = m.get("options") or {}
        cs = opts.get("card_set") or (parts[-1] if parts[-1] in SETS else DEFAULT_SET)
        strategies = m.get("strategies") or []
        out.append({"run": i, "role": role, "kind": kind, "arm": arm, "card_set": cs,
                    "players": m.get("players"),
                    "focal": strategies[0] if strategies else None})
    return out


def _fill_players(runs: list[dict], games: pl.LazyFrame) -> None:
    missing = [r["run"] for r in runs if r["players"] is None]
    if not missing:
        return
    df = q._collect(games.filter(pl.col("run").is_in(missing))
                    .group_by("run").agg(pl.col("players").first()))
    got = dict(zip(df["run"].to_list(), df["players"].to_list(), strict=True))
    for r in runs:
        if r["players"] is None and r["run"] in got:
            r["players"] = int(got[r["run"]])


def pool_runs(runs: list[dict]) -> dict[str, list[int]]:
    """Card set -> indexes of its pool runs (roles ``main`` and ``cards:*``)."""
    out: dict[str, list[int]] = {}
    for r in runs:
        if r["kind"] == "pool":
            out.setdefault(r["card_set"], []).append(r["run"])
    return out


def study_pairs(runs: list[dict], kind: str, control: str, treated: str) -> list[dict]:
    """The paired arms of a study (``kind`` "wolf" or "dummy"): one dict per (card set,
    players) having both arms: card_set, players, control_run, treated_run (run indexes)."""
    arms: dict[tuple, dict[str, dict]] = {}
    for r in runs:
        if r["kind"] == kind and r["arm"] in (control, treated):
            arms.setdefault((r["card_set"], r["players"]), {})[r["arm"]] = r
    out = []
    for (cs, p), a in sorted(arms.items(), key=lambda kv: (str(kv[0][0]), kv[0][1] or 0)):
        if control in a and treated in a:
            out.append({"card_set": cs, "players": p, "control_run": a[control]["run"],
                        "treated_run": a[treated]["run"]})
    return out


# ---------------------------------------------------------------- queries ----------------
def _fin(seats: pl.LazyFrame) -> pl.LazyFrame:
    return seats.filter(q._finished_seat())


def _i64(col: str) -> pl.Expr:
    return pl.col(col).cast(pl.Int64).fill_null(0)


def seat_rates_by_set(seats: pl.LazyFrame, by_set: dict[str, list[int]]) -> pl.DataFrame:
    """``q.seat_win_rates`` of the pool runs of each card set, with a ``card_set`` column."""
    parts = []
    for cs, idx in sorted(by_set.items()):
        df = q.seat_win_rates(seats.filter(pl.col("run").is_in(idx)))
        parts.append(df.with_columns(card_set=pl.lit(cs)))
    if not parts:
        return pl.DataFrame(schema={"card_set": pl.Utf8})
    return pl.concat(parts, how="diagonal_relaxed")


def score_components(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per players and component: n (seat-games), mean points with sd and 95% interval,
    share of the final score (sum of the component / sum of the scores) with a 95% interval
    (ratio estimator, linearised), and the winners' mean (weighted by win share).
    Components: houses, collapses, bonuses, pigs, wolves, marks; plus a "score" row."""
    exprs = [pl.len().cast(pl.Int64).alias("n"), _i64("score").sum().alias("S"),
             (_i64("score") ** 2).sum().alias("S2"),
             pl.col("win_share").sum().alias("W"),
             (_i64("score") * pl.col("win_share")).sum().alias("SW")]
    for c in COMPONENTS:
        x = _i64(f"pts_{c}")
        exprs += [x.sum().alias(f"{c}_s"), (x * x).sum().alias(f"{c}_s2"),
                  (x * _i64("score")).sum().alias(f"{c}_xs"),
                  (x * pl.col("win_share")).sum().alias(f"{c}_w")]
    agg = q._collect(_fin(seats).group_by("players").agg(exprs)).sort("players")
    rows = []
    for r in agg.iter_rows(named=True):
        n, S, S2 = r["n"], float(r["S"]), float(r["S2"])
        for c in (*COMPONENTS, "score"):
            s, s2 = (S, S2) if c == "score" else (float(r[f"{c}_s"]), float(r[f"{c}_s2"]))
            xs = S2 if c == "score" else float(r[f"{c}_xs"])
            mean = s / n
            sd = math.sqrt(max(s2 - n * mean * mean, 0.0) / (n - 1)) if n > 1 else float("nan")
            half = Z * sd / math.sqrt(n) if n > 1 else float("nan")
            share = s / S if S else float("nan")
            if S and n > 1:
                resid = s2 - 2 * share * xs + share * share * S2
                se = math.sqrt(max(resid, 0.0) / (n * (n - 1))) / (S / n)
            else:
                se = float("nan")
            win_mean = (r["SW"] if c == "score" else r[f"{c}_w"]) / r["W"] if r["W"] else \
                float("nan")
            rows.append({"players": int(r["players"]), "component": c, "n": n, "mean": mean,
                         "sd": sd, "lo": mean - half, "hi": mean + half, "share": share,
                         "share_lo": share - Z * se, "share_hi": share + Z * se,
                         "winner_mean": float(win_mean)})
    schema = {"players": pl.Int64, "component": pl.Utf8, "n": pl.Int64, "mean": pl.Float64,
              "sd": pl.Float64, "lo": pl.Float64, "hi": pl.Float64, "share": pl.Float64,
              "share_lo": pl.Float64, "share_hi": pl.Float64, "winner_mean": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def wolf_by_strategy(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per players and strategy: n (seat-games), mean wolf actions, mean wolf points, wolves
    placed and standing, wins and win rate with its Wilson interval. Sorted by players, then
    mean wolf actions descending."""
    df = q._collect(_fin(seats).group_by("players", "strategy").agg(
        n=pl.len().cast(pl.Int64),
        wins=pl.col("win_share").sum().cast(pl.Float64),
        wolf_actions=_i64("act_wolf").mean(),
        wolf_points=_i64("pts_wolves").mean(),
        placed=_i64("wolves_placed").sum(),
        standing=_i64("wolves_standing").sum(),
    ))
    df = q._with_intervals(df)
    return df.sort(["players", "wolf_actions", "strategy"], descending=[False, True, False])


def more_vs_less(by_strategy: pl.DataFrame, exclude: tuple[str, ...] = ("random",)
                 ) -> pl.DataFrame:
    """Per players: the bot that takes the most wolf actions per game against the one that
    takes the fewest (``exclude``d bots left out), win-rate difference with a Newcombe
    interval. Columns players, more, less, wolf_more, wolf_less, n_more, n_less, rate_more,
    rate_less, diff, lo, hi."""
    rows = []
    for (p,), g in by_strategy.filter(~pl.col("strategy").is_in(list(exclude))).group_by(
            "players", maintain_order=True):
        g = g.filter(pl.col("n") > 0).sort("wolf_actions", descending=True)
        if len(g) < 2:
            continue
        a, b = g.row(0, named=True), g.row(len(g) - 1, named=True)
        d, lo, hi = newcombe_difference(a["wins"], a["n"], b["wins"], b["n"])
        rows.append({"players": int(p), "more": a["strategy"], "less": b["strategy"],
                     "wolf_more": a["wolf_actions"], "wolf_less": b["wolf_actions"],
                     "n_more": a["n"], "n_less": b["n"], "rate_more": a["win_rate"],
                     "rate_less": b["win_rate"], "diff": float(d[0]), "lo": float(lo[0]),
                     "hi": float(hi[0])})
    return pl.DataFrame(rows, schema={
        "players": pl.Int64, "more": pl.Utf8, "less": pl.Utf8, "wolf_more": pl.Float64,
        "wolf_less": pl.Float64, "n_more": pl.Int64, "n_less": pl.Int64,
        "rate_more": pl.Float64, "rate_less": pl.Float64, "diff": pl.Float64,
        "lo": pl.Float64, "hi": pl.Float64})


def wolf_buckets(seats: pl.LazyFrame, strategy: str | None = None) -> pl.DataFrame:
    """Win rate by the number of wolf actions a seat took (0..3), per players; all bots or
    one ``strategy``. Columns players, wolf_actions, n, wins, win_rate, lo, hi."""
    lf = _fin(seats)
    if strategy is not None:
        lf = lf.filter(pl.col("strategy") == strategy)
    df = q._collect(lf.group_by("players", pl.col("act_wolf").cast(pl.Int64).alias(
        "wolf_actions")).agg(n=pl.len().cast(pl.Int64),
                             wins=pl.col("win_share").sum().cast(pl.Float64)))
    return q._with_intervals(df).sort("players", "wolf_actions")


def bet_more_less(seats: pl.LazyFrame, strategy: str = "greedy", threshold: int = 2
                  ) -> pl.DataFrame:
    """Per players, seats of ``strategy`` that took at least ``threshold`` wolf actions
    against those that took fewer: n, win rates, difference with a Newcombe interval."""
    lf = _fin(seats).filter(pl.col("strategy") == strategy)
    more = _i64("act_wolf") >= threshold
    df = q._collect(lf.group_by("players").agg(
        n_more=more.sum().cast(pl.Int64),
        w_more=pl.when(more).then(pl.col("win_share")).otherwise(0.0).sum(),
        n_less=(~more).sum().cast(pl.Int64),
        w_less=pl.when(~more).then(pl.col("win_share")).otherwise(0.0).sum(),
    )).sort("players")
    d, lo, hi = newcombe_difference(df["w_more"].to_numpy(), df["n_more"].to_numpy(),
                                    df["w_less"].to_numpy(), df["n_less"].to_numpy())
    return df.with_columns(pl.Series("diff", d).fill_nan(None),
                           pl.Series("lo", lo).fill_nan(None), pl.Series("hi", hi).fill_nan(None))


def house_ties(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per players: seat-games n, houses built, collapsed and saved by a tie (own houses at
    their colour's minimum height, shared), bonuses lost to a tie; the share of built houses
    saved (saved_rate, Wilson lo/hi; houses of one seat are not independent, so the interval
    is approximate), the share of seat-games with at least one saved house (seat_rate, Wilson)
    and of games in which some player's house was saved (game_rate, Wilson), the share of
    built houses that collapsed, and bonuses lost per seat-game."""
    fin = _fin(seats)
    per_seat = q._collect(fin.group_by("players").agg(
        n=pl.len().cast(pl.Int64),
        built=_i64("houses_built").sum(),
        collapsed=_i64("houses_collapsed").sum(),
        saved=_i64("houses_saved_by_tie").sum(),
        bonus_lost=_i64("bonus_lost_to_tie").sum(),
        seats_saved=(_i64("houses_saved_by_tie") > 0).sum().cast(pl.Int64),
    ))
    per_game = q._collect(
        fin.group_by("run", "game", "players").agg(
            saved=(_i64("houses_saved_by_tie") > 0).any())
        .group_by("players").agg(games=pl.len().cast(pl.Int64),
                                 games_saved=pl.col("saved").sum().cast(pl.Int64)))
    df = per_seat.join(per_game, on="players", how="left").sort("players")
    out = df
    for name, num, den in (("saved_rate", "saved", "built"), ("seat_rate", "seats_saved", "n"),
                           ("game_rate", "games_saved", "games"),
                           ("collapse_rate", "collapsed", "built")):
        x = df[num].to_numpy().astype(float)
        m = df[den].to_numpy().astype(float)
        lo, hi = wilson_interval(x, m)
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(m > 0, x / np.where(m > 0, m, 1), np.nan)
        out = out.with_columns(pl.Series(name, r).fill_nan(None),
                               pl.Series(f"{name}_lo", lo).fill_nan(None),
                               pl.Series(f"{name}_hi", hi).fill_nan(None))
    return out.with_columns(bonus_lost_per_seat=pl.col("bonus_lost") / pl.col("n"))


def paired_effect(seats: pl.LazyFrame, treated_run: int, control_run: int, focal_run: int,
                  focal_strategy: str) -> dict:
    """Paired comparison of the focal seat between two runs on the same seeds.

    The focal seat of game i is the seat of ``focal_run`` that plays ``focal_strategy``;
    its win share, score and wolf actions are read in ``treated_run`` and ``control_run`` at
    the same game and seat (games finished in both arms). Returns a dict: n (pairs),
    rate_t/rate_c with Wilson lo/hi (``t_lo``...), diff = rate_t - rate_c with a normal 95%
    interval over the per-game differences (lo, hi, se, p two-sided), score_t, score_c,
    score_diff (score_lo, score_hi), wolf_t, wolf_c (mean wolf actions), per_wolf = sum of
    score differences / sum of wolf-action differences (points per extra wolf action,
    linearised ratio interval per_wolf_lo/hi, p_per_wolf), same = share of pairs with an
    identical win share."""
    focal = seats.filter((pl.col("run") == focal_run) & (pl.col("strategy") == focal_strategy)
                         ).select("game", "seat")

    def arm(run: int, tag: str) -> pl.LazyFrame:
        return _fin(seats.filter(pl.col("run") == run)).select(
            "game", "seat", pl.col("win_share").cast(pl.Float64).alias(f"s{tag}"),
            _i64("score").alias(f"x{tag}"), _i64("act_wolf").alias(f"w{tag}"))

    j = focal.join(arm(treated_run, "t"), on=["game", "seat"]).join(
        arm(control_run, "c"), on=["game", "seat"])
    d = pl.col("st") - pl.col("sc")
    ds = (pl.col("xt") - pl.col("xc")).cast(pl.Float64)
    dw = (pl.col("wt") - pl.col("wc")).cast(pl.Float64)
    a = q._collect(j.select(
        n=pl.len().cast(pl.Int64), st=pl.col("st").sum(), sc=pl.col("sc").sum(),
        d=d.sum(), d2=(d * d).sum(), xt=pl.col("xt").sum(), xc=pl.col("xc").sum(),
        ds=ds.sum(), ds2=(ds * ds).sum(), dw=dw.sum(), dw2=(dw * dw).sum(),
        dsdw=(ds * dw).sum(), wt=pl.col("wt").sum(), wc=pl.col("wc").sum(),
        same=(pl.col("st") == pl.col("sc")).sum(),
    )).row(0, named=True)
    n = int(a["n"])
    nan = float("nan")
    out = {"n": n}
    if n == 0:
        return out | {k: nan for k in (
            "rate_t", "t_lo", "t_hi", "rate_c", "c_lo", "c_hi", "diff", "lo", "hi", "se", "p",
            "score_t", "score_c", "score_diff", "score_lo", "score_hi", "wolf_t", "wolf_c",
            "per_wolf", "per_wolf_lo", "per_wolf_hi", "p_per_wolf", "same")}
    for tag in ("t", "c"):
        lo, hi = wilson_interval(a[f"s{tag}"], n)
        out |= {f"rate_{tag}": a[f"s{tag}"] / n, f"{tag}_lo": float(lo[0]),
                f"{tag}_hi": float(hi[0]), f"score_{tag}": a[f"x{tag}"] / n,
                f"wolf_{tag}": a[f"w{tag}"] / n}
    for key, s1, s2, lo_k, hi_k in (("diff", "d", "d2", "lo", "hi"),
                                    ("score_diff", "ds", "ds2", "score_lo", "score_hi")):
        mean, se = _mean_se(a[s1], a[s2], n)
        out[key], out[lo_k], out[hi_k] = mean, mean - Z * se, mean + Z * se
        if key == "diff":
            out["se"], out["p"] = se, _p_normal(mean, se)
    if a["dw"]:
        r = a["ds"] / a["dw"]
        resid = a["ds2"] - 2 * r * a["dsdw"] + r * r * a["dw2"]
        se = math.sqrt(max(resid, 0.0) / (n * (n - 1))) / abs(a["dw"] / n) if n > 1 else nan
        out |= {"per_wolf": r, "per_wolf_lo": r - Z * se, "per_wolf_hi": r + Z * se,
                "p_per_wolf": _p_normal(r, se)}
    else:
        out |= {"per_wolf": nan, "per_wolf_lo": nan, "per_wolf_hi": nan, "p_per_wolf": nan}
    out["same"] = a["same"] / n
    return out


def _mean_se(s: float, s2: float, n: int) -> tuple[float, float]:
    mean = s / n
    if n < 2:
        return mean, float("nan")
    var = max(s2 - n * mean * mean, 0.0) / (n - 1)
    return mean, math.sqrt(var / n)


def _p_normal(est: float, se: float) -> float:
    """Two-sided p-value of ``est / se`` against a standard normal (NaN if undefined)."""
    if est is None or se is None or math.isnan(est) or math.isnan(se):
        return float("nan")
    if se == 0:
        return 1.0 if est == 0 else 0.0
    return float(2 * norm.sf(abs(est) / se))


def p_vs_parity(rate: float, n: int, parity: float) -> float:
    """Two-sided p-value of a win rate against parity (normal approximation to the binomial
    with the variance at parity)."""
    if not n or rate is None or math.isnan(rate):
        return float("nan")
    return _p_normal(rate - parity, math.sqrt(parity * (1 - parity) / n))


def bh(pvalues: list[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (q-values); NaN entries stay NaN."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(len(p), np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method="fdr_bh")[1]
    return out.tolist()


def mean_turns_by_set(games: pl.LazyFrame, by_set: dict[str, list[int]]) -> dict[tuple, dict]:
    """(card_set, players) -> n, mean, lo, hi of player-turns (finished pool games)."""
    out = {}
    for cs, idx in by_set.items():
        df = q._collect(games.filter(pl.col("run").is_in(idx) & q._finished_game())
                        .group_by("players").agg(
            n=pl.len().cast(pl.Int64), s=pl.col("turns").cast(pl.Float64).sum(),
            s2=(pl.col("turns").cast(pl.Float64) ** 2).sum()))
        for r in df.iter_rows(named=True):
            mean, se = _mean_se(r["s"], r["s2"], r["n"])
            out[(cs, int(r["players"]))] = {"n": r["n"], "est": mean, "lo": mean - Z * se,
                                            "hi": mean + Z * se}
    return out


# ---------------------------------------------------------------- sensitivity ------------
def _verdict(est: float, q_value: float) -> str:
    if q_value is None or math.isnan(q_value) or est is None or math.isnan(est):
        return "n/a"
    if q_value >= 0.05:
        return "0"
    return "+" if est > 0 else "-"


def sensitivity_rows(cells: list[dict]) -> list[dict]:
    """Group per-card-set cells into metric rows and judge them.

    ``cells``: dicts metric, players, card_set, est, lo, hi, n and optionally p (a test of
    est against 0 / parity; None for descriptive metrics). Adds to every tested cell its BH
    q-value over all tested cells and a verdict ("+", "-", "0" = not significant at BH 5%),
    and returns one dict per (metric, players): metric, players, cells {card_set: cell},
    tested (bool), same (True / False / None when fewer than two sets have a verdict),
    change ("same", "significance" when the sets differ only between a sign and "0", "sign"
    when one set says "+" and another "-", None as for ``same``), and
    shifts {card_set: (shift, lo, hi, p, q)} = the estimate under the set minus the estimate
    under cards_v1 (normal interval from the two cells' intervals, BH over all shifts)."""
    tested = [c for c in cells if c.get("p") is not None and not math.isnan(c["p"])]
    for c, qv in zip(tested, bh([c["p"] for c in tested]), strict=True):
        c["q"] = qv
        c["verdict"] = _verdict(c["est"], qv)
    rows: dict[tuple, dict] = {}
    for c in cells:
        key = (c["metric"], c["players"])
        row = rows.setdefault(key, {"metric": c["metric"], "players": c["players"],
                                    "cells": {}, "tested": False, "shifts": {}})
        row["cells"][c["card_set"]] = c
        row["tested"] |= c.get("p") is not None
    shifts = []
    for row in rows.values():
        base = row["cells"].get(DEFAULT_SET)
        if base is None or _bad(base["est"]):
            continue
        for cs, c in row["cells"].items():
            if cs == DEFAULT_SET or _bad(c["est"]):
                continue
            se = math.hypot(_se_of(c), _se_of(base))
            sh = c["est"] - base["est"]
            row["shifts"][cs] = [sh, sh - Z * se, sh + Z * se, _p_normal(sh, se), float("nan")]
            shifts.append(row["shifts"][cs])
    for s, qv in zip(shifts, bh([s[3] for s in shifts]), strict=True):
        s[4] = qv
    for row in rows.values():
        verdicts = [c.get("verdict") for c in row["cells"].values()
                    if c.get("verdict") not in (None, "n/a")]
        row["same"] = None if len(verdicts) < 2 else len(set(verdicts)) == 1
        row["change"] = None if row["same"] is None else (
            "same" if row["same"] else "sign" if {"+", "-"} <= set(verdicts)
            else "significance")
    return list(rows.values())


def _bad(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _se_of(c: dict) -> float:
    if _bad(c["lo"]) or _bad(c["hi"]):
        return float("nan")
    return (c["hi"] - c["lo"]) / (2 * Z)


# ---------------------------------------------------------------- charts -----------------
def _err(ax, x, est, lo, hi, fmt="o", **kw):
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    ax.errorbar(x, est, yerr=[est - lo, hi - est], fmt=fmt, capsize=3, **kw)


def chart_seats_by_set(rates: pl.DataFrame, path: str) -> str:
    if rates.is_empty() or "players" not in rates.columns:
        return _empty(path, "no pool runs")
    players = sorted(int(p) for p in rates["players"].unique())
    fig, axes = plt.subplots(1, len(players), figsize=(4.2 * len(players), 3.4), squeeze=False)
    sets = [s for s in SETS if s in set(rates["card_set"])]
    width = 0.8 / max(len(sets), 1)
    for ax, p in zip(axes[0], players, strict=True):
        for k, cs in enumerate(sets):
            g = rates.filter((pl.col("players") == p) & (pl.col("card_set") == cs)).sort("seat")
            if g.is_empty():
                continue
            x = g["seat"].to_numpy() + 1 + (k - (len(sets) - 1) / 2) * width
            r = g["win_rate"].fill_null(np.nan).to_numpy() * 100
            lo = g["lo"].fill_null(np.nan).to_numpy() * 100
            hi = g["hi"].fill_null(np.nan).to_numpy() * 100
            ax.bar(x, r, width=width, color=_COLORS.get(cs, "grey"), label=cs)
            ax.errorbar(x, r, yerr=[r - lo, hi - r], fmt="none", ecolor="black", capsize=2,
                        lw=1)
        ax.axhline(100 / p, ls="--", color="grey", lw=1)
        ax.set_xticks(range(1, p + 1), [f"Seat {i}" for i in range(1, p + 1)], fontsize=8)
        ax.set_ylabel("win rate (%)")
        ax.set_title(f"{p} players (dashed: parity)", fontsize=9)
        ax.legend(fontsize=7)
    return _save(fig, path)


def chart_components(comp: pl.DataFrame, path: str) -> str:
    data = comp.filter(pl.col("component") != "score")
    if data.is_empty():
        return _empty(path, "no score detail columns")
    players = sorted(int(p) for p in data["players"].unique())
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    width = 0.8 / len(players)
    x0 = np.arange(len(COMPONENTS))
    for k, p in enumerate(players):
        g = data.filter(pl.col("players") == p)
        m = {r["component"]: r for r in g.iter_rows(named=True)}
        est = [m[c]["mean"] if c in m else np.nan for c in COMPONENTS]
        lo = [m[c]["lo"] if c in m else np.nan for c in COMPONENTS]
        hi = [m[c]["hi"] if c in m else np.nan for c in COMPONENTS]
        x = x0 + (k - (len(players) - 1) / 2) * width
        ax.bar(x, est, width=width, label=f"{p} players",
               color=["#4C72B0", "#DD8452", "#55A868"][k % 3])
        ax.errorbar(x, est, yerr=[np.subtract(est, lo), np.subtract(hi, est)], fmt="none",
                    ecolor="black", capsize=2, lw=1)
    ax.axhline(0, color="grey", lw=1)
    ax.set_xticks(x0, COMPONENTS)
    ax.set_ylabel("mean points per seat-game")
    ax.set_title("Score components (default card set, all bots, 95% intervals)", fontsize=9)
    ax.legend(fontsize=8)
    return _save(fig, path)


def chart_wolf(pairs: list[dict], buckets: pl.DataFrame, path: str) -> str:
    if not pairs and buckets.is_empty():
        return _empty(path, "no wolf data")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    ax = axes[0]
    sets = [s for s in SETS if any(r["card_set"] == s for r in pairs)]
    for k, cs in enumerate(sets):
        rs = sorted((r for r in pairs if r["card_set"] == cs and r["n"]),
                    key=lambda r: r["players"])
        x = np.array([r["players"] for r in rs], float) + (k - (len(sets) - 1) / 2) * 0.2
        _err(ax, x, [r["diff"] * 100 for r in rs], [r["lo"] * 100 for r in rs],
             [r["hi"] * 100 for r in rs], color=_COLORS.get(cs, "grey"), label=cs)
    ax.axhline(0, color="grey", lw=1)
    ax.set_xticks([2, 3, 4], ["2 players", "3 players", "4 players"])
    ax.set_ylabel("win rate allowed - forbidden (points)")
    ax.set_title("Restricted play: greedy with wolves allowed vs forbidden\n(same seeds, paired)",
                 fontsize=9)
    ax.legend(fontsize=8)
    ax = axes[1]
    for k, p in enumerate(sorted(int(p) for p in buckets["players"].unique())
                          if not buckets.is_empty() else []):
        g = buckets.filter(pl.col("players") == p)
        x = g["wolf_actions"].to_numpy() + (k - 1) * 0.1
        _err(ax, x, g["win_rate"].to_numpy() * 100, g["lo"].to_numpy() * 100,
             g["hi"].to_numpy() * 100, label=f"{p} players (parity {100 / p:.3g}%)")
    ax.set_xticks([0, 1, 2, 3])
    ax.set_xlabel("wolf actions taken by the seat")
    ax.set_ylabel("win rate (%)")
    ax.set_title("Main pool, greedy seats: win rate by wolf actions (association)", fontsize=9)
    ax.legend(fontsize=8)
    return _save(fig, path)


def chart_ties(ties_by_set: dict[str, pl.DataFrame], path: str) -> str:
    if not ties_by_set or all(t.is_empty() for t in ties_by_set.values()):
        return _empty(path, "no house data")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    sets = [s for s in SETS if s in ties_by_set]
    for ax, (col, label) in zip(axes, (("saved_rate", "built houses saved by a tie (%)"),
                                       ("game_rate", "games with a house saved by a tie (%)")),
                                strict=True):
        for k, cs in enumerate(sets):
            t = ties_by_set[cs]
            if t.is_empty():
                continue
            x = t["players"].to_numpy() + (k - (len(sets) - 1) / 2) * 0.2
            _err(ax, x, t[col].to_numpy() * 100, t[f"{col}_lo"].to_numpy() * 100,
                 t[f"{col}_hi"].to_numpy() * 100, color=_COLORS.get(cs, "grey"), label=cs)
        ax.set_xticks([2, 3, 4], ["2 players", "3 players", "4 players"])
        ax.set_ylabel(label)
        ax.legend(fontsize=8)
    fig.suptitle("Ties that save a house (pool runs, 95% Wilson intervals)", fontsize=10)
    return _save(fig, path)


def chart_dummy(pairs: list[dict], path: str) -> str:
    pairs = [r for r in pairs if r["n"]]
    if not pairs:
        return _empty(path, "no dummy-control runs")
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    ax = axes[0]
    for k, r in enumerate(pairs):
        col = _COLORS.get(r["card_set"], "grey")
        _err(ax, [k - 0.12], [r["rate_c"] * 100], [r["c_lo"] * 100], [r["c_hi"] * 100],
             color=col, fmt="o", mfc="white")
        _err(ax, [k + 0.12], [r["rate_t"] * 100], [r["t_lo"] * 100], [r["t_hi"] * 100],
             color=col, fmt="s")
    ax.axhline(50, ls="--", color="grey", lw=1)
    labels = [f"{r['card_set']}\n(n = {r['n']:,})" for r in pairs]
    ax.set_xticks(range(len(pairs)), labels, fontsize=8)
    ax.set_ylabel("win rate of the seat (%)")
    ax.set_title("Open = neutral control, filled = hostile (same seeds)", fontsize=9)
    ax = axes[1]
    for k, r in enumerate(pairs):
        _err(ax, [k], [r["diff"] * 100], [r["lo"] * 100], [r["hi"] * 100],
             color=_COLORS.get(r["card_set"], "grey"))
    ax.axhline(0, color="grey", lw=1)
    ax.set_xticks(range(len(pairs)), labels, fontsize=8)
    ax.set_ylabel("hostile - neutral (points)")
    ax.set_title("Paired difference, 95% interval", fontsize=9)
    fig.suptitle("Two-player dummy control", fontsize=10)
    return _save(fig, path)


def chart_sensitivity(rows: list[dict], path: str) -> str:
    groups = [("win-rate effects (points)", [r for r in rows if r["unit"] == "rate"]),
              ("points per wolf action", [r for r in rows if r["unit"] == "points"])]
    groups = [(t, g) for t, g in groups if g]
    if not groups:
        return _empty(path, "no sensitivity data")
    heights = [len(g) for _, g in groups]
    fig, axes = plt.subplots(1, len(groups), figsize=(6 * len(groups), 1.4 + 0.45 * max(heights)),
                             squeeze=False)
    for ax, (title, g) in zip(axes[0], groups, strict=True):
        y = np.arange(len(g))[::-1]
        scale = 100 if title.startswith("win") else 1
        for k, cs in enumerate(SETS):
            est, lo, hi, yy = [], [], [], []
            for yi, r in zip(y, g, strict=True):
                c = r["cells"].get(cs)
                if c is None or _bad(c["est"]):
                    continue
                est.append(c["est"] * scale)
                lo.append(c["lo"] * scale)
                hi.append(c["hi"] * scale)
                yy.append(yi + (1 - k) * 0.22)
            if est:
                est, lo, hi = np.array(est), np.array(lo), np.array(hi)
                ax.errorbar(est, yy, xerr=[est - lo, hi - est], fmt="o", capsize=2,
                            color=_COLORS[cs], label=cs)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(y, [f"{r['label']} ({r['players']}p)" for r in g], fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7)
    return _save(fig, path)


# ---------------------------------------------------------------- report -----------------
def _f(x, digits=2) -> str:
    return "n/a" if _bad(x) else f"{x:+.{digits}f}"


def _q(x) -> str:
    if _bad(x):
        return "n/a"
    return "< 0.0001" if x < 1e-4 else f"{x:.4f}"


def _chart(ctx, name: str, fn, *args) -> str:
    path = os.path.join(ctx.out_dir, f"{name}.png")
    fn(*args, path)
    ctx.add_chart(name, path)
    return f"{name}.png"


def extend_report(ctx) -> None:
    """Add the Three Little Wolves sections, charts and headline bullets (see module doc)."""
    runs = run_table(ctx.manifests, ctx.roles)
    _fill_players(runs, ctx.games)
    by_set = pool_runs(runs)
    seats, games, doc = ctx.seats, ctx.games, ctx.doc
    main_idx = [r["run"] for r in runs if r["role"] == "main"] or by_set.get(DEFAULT_SET, [])
    main = seats.filter(pl.col("run").is_in(main_idx))
    cells: list[dict] = []

    # ---- seat order by card set -----------------------------------------------------
    rates = seat_rates_by_set(seats, by_set)
    doc.h(2, TITLE_SEATS)
    doc.p("Seat win rates of the pool runs under each card set (the data are a reconstruction, "
          "spec §2.1): `cards_v1` is the default (the main runs), `cards_v0` has no floor "
          "icons, `cards_v2` gives the duplicate 9 an icon of 3. Same bot pool and seeds in "
          "every set, so the deals and seatings of game i agree; the intervals are per set "
          "(95% Wilson). Seat 1 always starts.")
    rows = []
    for (p, seat), g in rates.group_by(["players", "seat"], maintain_order=True) \
            if not rates.is_empty() else []:
        row = [str(p), f"Seat {seat + 1}"]
        for cs in SETS:
            r = g.filter(pl.col("card_set") == cs)
            row.append("-" if r.is_empty() else
                       f"{pct(r['win_rate'][0])} {_ci(r['lo'][0], r['hi'][0])} "
                       f"(n={r['n'][0]:,})")
        rows.append(row)
    rows.sort(key=lambda r: (int(r[0]), r[1]))
    doc.table(Table(["Players", "Seat", *SETS], rows, [True, False, True, True, True]))
    doc.img(_chart(ctx, "tlw_seats_by_card_set", chart_seats_by_set, rates),
            "Seat win rates under each card set")
    for r in rates.filter(pl.col("seat") == 0).iter_rows(named=True) \
            if not rates.is_empty() else []:
        par = 1.0 / r["players"]
        cells.append({"metric": "seat1", "label": "Seat 1 win rate - parity", "unit": "rate",
                      "players": int(r["players"]), "card_set": r["card_set"], "n": r["n"],
                      "est": _nan(r["win_rate"]) - par, "lo": _nan(r["lo"]) - par,
                      "hi": _nan(r["hi"]) - par,
                      "p": p_vs_parity(_nan(r["win_rate"]), r["n"], par)})

    # ---- score components ------------------------------------------------------------
    comp = score_components(main)
    doc.h(2, TITLE_SCORE)
    doc.p("Mean points per seat-game of each score component (main runs: default rules and "
          "card set, all bots of the pool), with a 95% interval, and its share of the final "
          "score (component total / score total, 95% interval of the ratio). Collapses are "
          "negative, marks can be; shares of positive components can exceed 100% in sum. "
          "\"Winners\" is the mean among winning seats (weighted by win share).")
    doc.table(Table(
        ["Players", "Component", "n (seat-games)", "Mean points", "95% CI", "Share of score",
         "95% CI", "Winners' mean"],
        [[str(r["players"]), r["component"], _count(r["n"]), _num(r["mean"], 2),
          f"[{_num(r['lo'], 2)}, {_num(r['hi'], 2)}]", pct(r["share"]),
          _ci(r["share_lo"], r["share_hi"]), _num(r["winner_mean"], 2)]
         for r in comp.iter_rows(named=True)],
        [True, False, True, True, True, True, True, True]))
    comp_sets = {}
    for cs, idx in by_set.items():
        comp_sets[cs] = score_components(seats.filter(pl.col("run").is_in(idx)))
    if len(comp_sets) > 1:
        doc.p("Share of the final score by card set (pool runs; 95% intervals):")
        rows = []
        for p in sorted({int(x) for c in comp_sets.values() for x in c["players"]}):
            for c in COMPONENTS:
                row = [str(p), c]
                for cs in SETS:
                    t = comp_sets.get(cs)
                    r = None if t is None else t.filter(
                        (pl.col("players") == p) & (pl.col("component") == c))
                    row.append("-" if r is None or r.is_empty() else
                               f"{pct(r['share'][0])} {_ci(r['share_lo'][0], r['share_hi'][0])}")
                rows.append(row)
        doc.table(Table(["Players", "Component", *SETS], rows, [True, False, True, True, True]))
    doc.img(_chart(ctx, "tlw_score_components", chart_components, comp),
            "Score components: mean points per seat-game")
    for cs, t in comp_sets.items():
        for r in t.filter(pl.col("component") == "wolves").iter_rows(named=True):
            cells.append({"metric": "wolf_share", "label": "wolf points / final score",
                          "unit": "share", "players": r["players"], "card_set": cs,
                          "n": r["n"], "est": r["share"], "lo": r["share_lo"],
                          "hi": r["share_hi"], "p": None})

    # ---- value of the wolf action -----------------------------------------------------
    doc.h(2, TITLE_WOLF)
    wolf_pairs = []
    for pr in study_pairs(runs, "wolf", "forbidden", "allowed"):
        focal = runs[pr["control_run"]]["focal"]
        eff = paired_effect(seats, pr["treated_run"], pr["control_run"], pr["control_run"],
                            focal)
        wolf_pairs.append(pr | eff | {"focal": focal})
    doc.h(3, "Restricted play: wolves allowed vs forbidden (same seeds)")
    doc.p("Each pair of runs plays the same games (same seeds, so the same deals and bot "
          "randomness) with all-greedy tables; in the *forbidden* arm one seat (rotating "
          "through the seats) plays `no-wolf`, the greedy bot that never takes the wolf "
          "action, and in the *allowed* arm that seat plays `greedy`. Both arms use "
          "`pure_discard_allowed` so that the restricted bot is never forced to bet. The "
          "difference is the allowed seat's win rate minus the forbidden seat's, game by game "
          "(95% normal interval of the paired differences, two-sided p with Benjamini-Hochberg "
          "q over all tests of the card-set table). *Points per wolf action* = the score "
          "gained by the seat / the extra wolf actions it took (a ratio of paired sums, "
          "linearised interval): what a card spent on a wolf is worth against the bot's next "
          "best use of it, a build or a discard.")
    rows = []
    for r in sorted(wolf_pairs, key=lambda r: (r["players"], SETS.index(r["card_set"])
                                               if r["card_set"] in SETS else 9)):
        rows.append([str(r["players"]), r["card_set"], _count(r["n"]),
                     f"{pct(r['rate_t'])} {_ci(r['t_lo'], r['t_hi'])}",
                     f"{pct(r['rate_c'])} {_ci(r['c_lo'], r['c_hi'])}",
                     f"{_pts(r['diff'])} {_ci(r['lo'], r['hi'])}",
                     f"{_f(r['score_diff'])} [{_f(r['score_lo'])}, {_f(r['score_hi'])}]",
                     f"{_num(r['wolf_t'], 2)} / {_num(r['wolf_c'], 2)}",
                     f"{_f(r['per_wolf'])} [{_f(r['per_wolf_lo'])}, {_f(r['per_wolf_hi'])}]",
                     pct(r["same"], 0)])
        cells.append({"metric": "wolf_value", "label": "wolves allowed - forbidden",
                      "unit": "rate", "players": r["players"], "card_set": r["card_set"],
                      "n": r["n"], "est": r["diff"], "lo": r["lo"], "hi": r["hi"],
                      "p": r["p"]})
        cells.append({"metric": "per_wolf", "label": "points per wolf action",
                      "unit": "points", "players": r["players"], "card_set": r["card_set"],
                      "n": r["n"], "est": r["per_wolf"], "lo": r["per_wolf_lo"],
                      "hi": r["per_wolf_hi"], "p": r["p_per_wolf"]})
    if rows:
        doc.table(Table(
            ["Players", "Card set", "n (paired games)", "Win rate allowed", "Win rate forbidden",
             "Difference (points)", "Score difference", "Wolf actions allowed / forbidden",
             "Points per wolf action", "Same outcome"],
            rows, [True, False, True, True, True, True, True, True, True, True]))
    else:
        doc.p("No wolf-study runs (roles `wolf:allowed:*` / `wolf:forbidden:*`) in this report.")

    strat = wolf_by_strategy(main)
    mvl = more_vs_less(strat)
    buckets = wolf_buckets(main, "greedy")
    buckets_all = wolf_buckets(main)
    bml = bet_more_less(main)
    doc.h(3, "Bots that bet more against bots that bet less (main pool)")
    doc.p("Association, not causation: the bots differ in more than their betting. Per bot: "
          "mean wolf actions per game, mean wolf points, the share of its placed wolves that "
          "ended on standing houses, and its win rate (95% Wilson). Under the default rules "
          "`no-wolf` must still bet when a wolf is its only legal move.")
    doc.table(Table(
        ["Players", "Strategy", "n (seat-games)", "Wolf actions", "Wolf points",
         "Wolves standing", "Win rate", "95% CI"],
        [[str(r["players"]), f"`{r['strategy']}`", _count(r["n"]), _num(r["wolf_actions"], 2),
          _num(r["wolf_points"], 2), pct(r["standing"] / r["placed"] if r["placed"] else None),
          pct(r["win_rate"]), _ci(r["lo"], r["hi"])] for r in strat.iter_rows(named=True)],
        [True, False, True, True, True, True, True, True]))
    if not mvl.is_empty():
        doc.p("The bot that bets most against the one that bets least (`random` left out), "
              "difference in win rate with a 95% Newcombe interval:")
        doc.ul([f"{r['players']} players: `{r['more']}` ({_num(r['wolf_more'], 2)} wolf "
                f"actions) wins {pct(r['rate_more'])}, `{r['less']}` "
                f"({_num(r['wolf_less'], 2)}) {pct(r['rate_less'])}: "
                f"{_pts(r['diff'])} {_ci(r['lo'], r['hi'])} points "
                f"(n = {r['n_more']:,} vs {r['n_less']:,})." for r in mvl.iter_rows(named=True)])
    doc.p("Win rate by the number of wolf actions a seat took (0 to 3), greedy seats and all "
          "seats of the main pool:")
    allb = {(r["players"], r["wolf_actions"]): r for r in buckets_all.iter_rows(named=True)}
    rows = []
    for r in buckets.iter_rows(named=True):
        a = allb.get((r["players"], r["wolf_actions"]))
        rows.append([str(r["players"]), str(r["wolf_actions"]), _count(r["n"]),
                     f"{pct(r['win_rate'])} {_ci(r['lo'], r['hi'])}",
                     "-" if a is None else _count(a["n"]),
                     "-" if a is None else f"{pct(a['win_rate'])} {_ci(a['lo'], a['hi'])}"])
    doc.table(Table(["Players", "Wolf actions", "n greedy", "Win rate greedy", "n all bots",
                     "Win rate all bots"], rows, [True] * 6))
    if not bml.is_empty():
        doc.ul([f"{r['players']} players, greedy seats: 2 or more wolf actions win "
                f"{pct(r['w_more'] / r['n_more'] if r['n_more'] else None)} against "
                f"{pct(r['w_less'] / r['n_less'] if r['n_less'] else None)} with fewer, "
                f"{_pts(r['diff'])} {_ci(r['lo'], r['hi'])} points "
                f"(n = {r['n_more']:,} vs {r['n_less']:,})." for r in bml.iter_rows(named=True)])
    doc.img(_chart(ctx, "tlw_wolf_value", chart_wolf, wolf_pairs, buckets),
            "Value of the wolf action")

    # ---- ties -----------------------------------------------------------------------------
    ties = {cs: house_ties(seats.filter(pl.col("run").is_in(idx))) for cs, idx in by_set.items()}
    doc.h(2, TITLE_TIES)
    doc.p("A house at its colour's minimum height stands when another house of that colour "
          "ties it (§3.12). *Saved* counts own houses of real players at the colour minimum "
          "with a tie; the dummy's houses are not counted. Rates are over built houses, over "
          "seat-games and over games (95% Wilson; houses of one game are not independent, so "
          "the first interval is approximate). *Bonus lost* = own houses at the colour maximum "
          "that share it (no bonus).")
    rows = []
    for cs in SETS:
        t = ties.get(cs)
        if t is None:
            continue
        for r in t.iter_rows(named=True):
            rows.append([cs, str(r["players"]), _count(r["n"]), _count(r["built"]),
                         f"{pct(r['saved_rate'])} {_ci(r['saved_rate_lo'], r['saved_rate_hi'])}",
                         f"{pct(r['seat_rate'])} {_ci(r['seat_rate_lo'], r['seat_rate_hi'])}",
                         f"{pct(r['game_rate'])} {_ci(r['game_rate_lo'], r['game_rate_hi'])}",
                         pct(r["collapse_rate"]), _num(r["bonus_lost_per_seat"], 2)])
            cells.append({"metric": "ties", "label": "built houses saved by a tie",
                          "unit": "share", "players": int(r["players"]), "card_set": cs,
                          "n": r["built"], "est": _nan(r["saved_rate"]),
                          "lo": _nan(r["saved_rate_lo"]), "hi": _nan(r["saved_rate_hi"]),
                          "p": None})
    doc.table(Table(["Card set", "Players", "n (seat-games)", "Houses built",
                     "Saved by a tie (% of built)", "Seat-games with a saved house",
                     "Games with a saved house", "Collapsed (% of built)",
                     "Bonus lost to a tie per seat-game"], rows,
                    [False] + [True] * 8))
    doc.img(_chart(ctx, "tlw_house_ties", chart_ties, ties), "Ties that save a house")

    # ---- dummy control ------------------------------------------------------------------
    doc.h(2, TITLE_DUMMY)
    dummy_pairs = []
    for pr in study_pairs(runs, "dummy", "neutral", "hostile"):
        focal = runs[pr["treated_run"]]["focal"]
        eff = paired_effect(seats, pr["treated_run"], pr["control_run"], pr["treated_run"],
                            focal)
        dummy_pairs.append(pr | eff | {"focal": focal})
    dummy_pairs.sort(key=lambda r: SETS.index(r["card_set"]) if r["card_set"] in SETS else 9)
    doc.p("Two players, `dummy_policy=holder_choice` (the mustache holder places the dummy's "
          "cards). Neutral arm: both seats greedy, which place the dummy's cards by the "
          "neutral rule (§3.10.5); hostile arm: the same games with one seat (alternating) "
          "playing `hostile`, greedy with hostile dummy control (§7.1.10). Difference = "
          "the hostile seat's win rate minus the same seat's in the neutral arm, paired by "
          "game (95% normal interval, BH q in the card-set table).")
    rows = []
    for r in dummy_pairs:
        rows.append([r["card_set"], _count(r["n"]),
                     f"{pct(r['rate_c'])} {_ci(r['c_lo'], r['c_hi'])}",
                     f"{pct(r['rate_t'])} {_ci(r['t_lo'], r['t_hi'])}",
                     f"{_pts(r['diff'])} {_ci(r['lo'], r['hi'])}",
                     f"{_f(r['score_diff'])} [{_f(r['score_lo'])}, {_f(r['score_hi'])}]",
                     pct(r["same"], 0)])
        cells.append({"metric": "dummy", "label": "dummy hostile - neutral", "unit": "rate",
                      "players": 2, "card_set": r["card_set"], "n": r["n"], "est": r["diff"],
                      "lo": r["lo"], "hi": r["hi"], "p": r["p"]})
    if rows:
        doc.table(Table(["Card set", "n (paired games)", "Win rate neutral", "Win rate hostile",
                         "Difference (points)", "Score difference", "Same outcome"], rows,
                        [False] + [True] * 6))
    else:
        doc.p("No dummy-control runs (roles `dummy:neutral:*` / `dummy:hostile:*`) here.")
    doc.img(_chart(ctx, "tlw_dummy_control", chart_dummy, dummy_pairs),
            "Two-player dummy control")

    # ---- sensitivity ------------------------------------------------------------------
    turns = mean_turns_by_set(games, by_set)
    for (cs, p), t in turns.items():
        cells.append({"metric": "length", "label": "mean player-turns", "unit": "turns",
                      "players": p, "card_set": cs, "n": t["n"], "est": t["est"],
                      "lo": t["lo"], "hi": t["hi"], "p": None})
    sens = sensitivity_rows(cells)
    for row in sens:
        first = next(iter(row["cells"].values()))
        row["label"], row["unit"] = first["label"], first["unit"]
    order = ["seat1", "wolf_value", "per_wolf", "dummy", "wolf_share", "ties", "length"]
    sens.sort(key=lambda r: (order.index(r["metric"]), r["players"]))
    doc.h(2, TITLE_SENS)
    doc.p("Every headline metric under each card set, side by side (95% intervals). For the "
          "tested effects (against parity or 0) the verdict is `+`/`-` when the "
          "Benjamini-Hochberg q over all tested cells is below 0.05 and `0` otherwise; "
          "*Same verdict* says whether the three sets agree (and if not, whether a sign flips "
          "or an effect is only significant under some sets; the alternative sets have fewer "
          "games). *Shift* is the largest change from `cards_v1` (set minus default, normal "
          "interval from the two cells; q = BH over all shifts). Win rates and shares are in "
          "percent, their differences and shifts in percentage points; points per wolf action "
          "and turns in their own units.")
    rows = []
    for r in sens:
        row = [r["label"], str(r["players"])]
        for cs in SETS:
            c = r["cells"].get(cs)
            row.append("-" if c is None else _cell(c, r["unit"]))
        row.append({"same": "yes", "significance": "no: significant under some sets only",
                    "sign": "**no: the sign flips**",
                    None: "n/a" if r["tested"] else "descriptive"}[r["change"]])
        if r["shifts"]:
            cs, s = max(r["shifts"].items(), key=lambda kv: abs(kv[1][0])
                        if not _bad(kv[1][0]) else -1)
            row.append(f"{cs}: {_fmt(s[0], r['unit'])} [{_fmt(s[1], r['unit'])}, "
                       f"{_fmt(s[2], r['unit'])}], q {_q(s[4])}")
        else:
            row.append("-")
        rows.append(row)
    doc.table(Table(["Metric", "Players", *SETS, "Same verdict", "Largest shift from cards_v1"],
                    rows, [False, True, True, True, True, False, False]))
    doc.img(_chart(ctx, "tlw_card_set_sensitivity", chart_sensitivity,
                   [r for r in sens if r["unit"] in ("rate", "points")]),
            "Headline effects under each card set")

    _headlines(ctx, rates, comp, wolf_pairs, mvl, ties, dummy_pairs, sens)


def _nan(x) -> float:
    return float("nan") if x is None else float(x)


def _fmt(x, unit: str) -> str:
    if _bad(x):
        return "n/a"
    if unit in ("rate", "share"):
        return f"{x * 100:+.1f}"
    return f"{x:+.2f}"


def _cell(c: dict, unit: str) -> str:
    if _bad(c["est"]):
        return f"n/a (n={c['n']:,})"
    if unit == "rate":
        txt = f"{_pts(c['est'])} {_ci(c['lo'], c['hi'])}"
    elif unit == "share":
        txt = f"{pct(c['est'])} {_ci(c['lo'], c['hi'])}"
    else:
        txt = f"{c['est']:.2f} [{_num(c['lo'], 2)}, {_num(c['hi'], 2)}]"
    if c.get("verdict"):
        txt += f" `{c['verdict']}` q {_q(c.get('q'))}"
    return txt + f" (n={c['n']:,})"


def _headlines(ctx, rates, comp, wolf_pairs, mvl, ties, dummy_pairs, sens) -> None:
    by = {(r["metric"], r["players"]): r for r in sens}
    # seat order
    d = rates.filter(pl.col("card_set") == DEFAULT_SET) if not rates.is_empty() else rates
    parts, short = [], []
    for (p,), g in (d.group_by("players", maintain_order=True) if not d.is_empty() else []):
        g = g.sort("seat")
        par = 1.0 / p
        f, last = g.row(0, named=True), g.row(len(g) - 1, named=True)
        spread = g["win_rate"].max() - g["win_rate"].min()
        parts.append(f"{p}p: Seat 1 {_pts(_nan(f['win_rate']) - par)} "
                     f"{_ci(_nan(f['lo']) - par, _nan(f['hi']) - par)}, last seat "
                     f"{_pts(_nan(last['win_rate']) - par)} "
                     f"{_ci(_nan(last['lo']) - par, _nan(last['hi']) - par)}, spread "
                     f"{_num(spread * 100, 1)} points (n = {f['n']:,})")
        short.append(f"{p}p {_pts(_nan(f['win_rate']) - par)}")
    if parts:
        ctx.headline(
            "**How much seat order matters** (win rate minus parity, percentage points, "
            "default card set, 95% intervals): " + "; ".join(parts) + ". Under the other card "
            "sets: " + _robust(by, "seat1") + ".",
            "Seat 1 vs parity: " + ", ".join(short) + " points.")
    # wolf action
    wv = sorted((r for r in wolf_pairs if r["card_set"] == DEFAULT_SET and r["n"]),
                key=lambda r: r["players"])
    if wv:
        txt = "; ".join(f"{r['players']}p {_pts(r['diff'])} {_ci(r['lo'], r['hi'])} "
                        f"(n = {r['n']:,})" for r in wv)
        pw = "; ".join(f"{r['players']}p {_f(r['per_wolf'])} [{_f(r['per_wolf_lo'])}, "
                       f"{_f(r['per_wolf_hi'])}]" for r in wv)
        extra = ""
        if not mvl.is_empty():
            extra = " In the main pool the heaviest bettor against the lightest (an " \
                    "association): " + "; ".join(
                        f"{r['players']}p `{r['more']}` - `{r['less']}` {_pts(r['diff'])} "
                        f"{_ci(r['lo'], r['hi'])}" for r in mvl.iter_rows(named=True)) + "."
        ctx.headline(
            "**Is the wolf action worth a card?** Forbidding wolves to one greedy seat on the "
            "same seeds changes its win rate by (allowed - forbidden, points): " + txt
            + f". Each wolf action is worth, in final points against the card's other use: "
            f"{pw}. Under the other card sets: {_robust(by, 'wolf_value')}; points per wolf "
            f"action: {_robust(by, 'per_wolf')}." + extra,
            "Wolves allowed - forbidden: " + ", ".join(
                f"{r['players']}p {_pts(r['diff'])} {_ci(r['lo'], r['hi'])}" for r in wv)
            + " points.")
    # card list
    tested = [r for r in sens if r["tested"] and r["same"] is not None]
    if tested:
        changed = [f"{r['label']} ({r['players']}p: {r['change']})" for r in tested
                   if not r["same"]]
        flips = [r for r in tested if r["change"] == "sign"]
        big = []
        for r in tested:
            for cs, s in r["shifts"].items():
                if not _bad(s[4]) and s[4] < 0.05:
                    big.append(f"{r['label']} {r['players']}p under {cs}: "
                               f"{_fmt(s[0], r['unit'])} [{_fmt(s[1], r['unit'])}, "
                               f"{_fmt(s[2], r['unit'])}]")
        ctx.headline(
            f"**Do the results survive the uncertainty about the card list?** "
            f"{len(tested) - len(changed)} of {len(tested)} tested findings keep their verdict "
            "(sign at BH 5%) under `cards_v0`, `cards_v1` and `cards_v2`"
            + (f"; changed: {', '.join(changed)}" if changed else "")
            + ("; none reverses its sign" if not flips else
               f"; {len(flips)} reverse{'s' if len(flips) == 1 else ''} their sign")
            + ". Shifts of tested effects from the default set with BH q < 0.05: "
            + ("; ".join(big[:6]) + ("; ..." if len(big) > 6 else "") if big else "none")
            + ".",
            f"Card-set sensitivity: {len(tested) - len(changed)}/{len(tested)} verdicts "
            "unchanged.")
    # ties
    t = ties.get(DEFAULT_SET)
    if t is not None and not t.is_empty():
        ctx.headline(
            "**Ties that save a house** (default card set): "
            + "; ".join(f"{r['players']}p {pct(r['saved_rate'])} "
                        f"{_ci(r['saved_rate_lo'], r['saved_rate_hi'])} of built houses, in "
                        f"{pct(r['game_rate'])} of games" for r in t.iter_rows(named=True))
            + ".")
    # score components
    if not comp.is_empty():
        parts = []
        for (p,), g in comp.group_by("players", maintain_order=True):
            m = {r["component"]: r for r in g.iter_rows(named=True)}
            parts.append(f"{p}p: " + ", ".join(
                f"{c} {pct(m[c]['share'], 0)}" for c in COMPONENTS if c in m))
        ctx.headline("**Score components** (share of the final score, main runs): "
                     + "; ".join(parts) + ".")
    # dummy
    dd = [r for r in dummy_pairs if r["n"]]
    if dd:
        ctx.headline(
            "**Two-player dummy control** (win rate of a hostile controller minus the same "
            "seat with neutral control, same seeds): "
            + "; ".join(f"{r['card_set']} {_pts(r['diff'])} {_ci(r['lo'], r['hi'])} points "
                        f"(n = {r['n']:,})" for r in dd)
            + f"; across card sets: {_robust(by, 'dummy')}.")


def _robust(by: dict, metric: str) -> str:
    """'same verdict at 3p, 4p; significant under some sets only at 2p (cards_v1 +, ...)'."""
    groups: dict[str, list[str]] = {}
    for (m, p), r in sorted(by.items(), key=lambda kv: kv[0][1]):
        if m != metric or r.get("change") is None:
            continue
        if r["change"] == "same":
            groups.setdefault("same verdict", []).append(f"{p}p")
        else:
            v = ", ".join(f"{cs} `{c.get('verdict', 'n/a')}`" for cs, c in
                          sorted(r["cells"].items()))
            key = ("significant under some sets only" if r["change"] == "significance"
                   else "**the sign flips**")
            groups.setdefault(key, []).append(f"{p}p ({v})")
    if not groups:
        return "not available"
    return "; ".join(f"{k} at {', '.join(v)}" for k, v in groups.items())
