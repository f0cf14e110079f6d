"""The Three Little Wolves queries: the runs and their roles, seat and score tables, the
paired wolf and dummy studies, house ties and the card-set sensitivity rows."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from analysis import queries as q
from analysis.doc import is_missing
from analysis.games.three_little_wolves.data import COMPONENTS, DEFAULT_SET, SETS
from analysis.stats import Z95, bh_adjust, newcombe_difference, normal_pvalue, wilson_interval

__all__ = [
    "run_table", "fill_players", "pool_runs", "study_pairs", "seat_rates_by_set",
    "score_components", "wolf_by_strategy", "more_vs_less", "wolf_buckets", "bet_more_less",
    "house_ties", "paired_effect", "p_vs_parity", "mean_turns_by_set", "sensitivity_rows",
]


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


def fill_players(runs: list[dict], games: pl.LazyFrame) -> None:
    """Fill the missing ``players`` of ``runs`` from the games table (in place)."""
    missing = [r["run"] for r in runs if r["players"] is None]
    if not missing:
        return
    df = q.collect(games.filter(pl.col("run").is_in(missing))
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


def _finished(seats: pl.LazyFrame) -> pl.LazyFrame:
    return seats.filter(q.finished_seat())


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
    agg = q.collect(_finished(seats).group_by("players").agg(exprs)).sort("players")
    rows = []
    for r in agg.iter_rows(named=True):
        n, S, S2 = r["n"], float(r["S"]), float(r["S2"])
        for c in (*COMPONENTS, "score"):
            s, s2 = (S, S2) if c == "score" else (float(r[f"{c}_s"]), float(r[f"{c}_s2"]))
            xs = S2 if c == "score" else float(r[f"{c}_xs"])
            mean = s / n
            sd = math.sqrt(max(s2 - n * mean * mean, 0.0) / (n - 1)) if n > 1 else float("nan")
            half = Z95 * sd / math.sqrt(n) if n > 1 else float("nan")
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
                         "share_lo": share - Z95 * se, "share_hi": share + Z95 * se,
                         "winner_mean": float(win_mean)})
    schema = {"players": pl.Int64, "component": pl.Utf8, "n": pl.Int64, "mean": pl.Float64,
              "sd": pl.Float64, "lo": pl.Float64, "hi": pl.Float64, "share": pl.Float64,
              "share_lo": pl.Float64, "share_hi": pl.Float64, "winner_mean": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def wolf_by_strategy(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per players and strategy: n (seat-games), mean wolf actions, mean wolf points, wolves
    placed and standing, wins and win rate with its Wilson interval. Sorted by players, then
    mean wolf actions descending."""
    df = q.collect(_finished(seats).group_by("players", "strategy").agg(
        n=pl.len().cast(pl.Int64),
        wins=pl.col("win_share").sum().cast(pl.Float64),
        wolf_actions=_i64("act_wolf").mean(),
        wolf_points=_i64("pts_wolves").mean(),
        placed=_i64("wolves_placed").sum(),
        standing=_i64("wolves_standing").sum(),
    ))
    df = q.with_wilson(df)
    return df.sort(["players", "wolf_actions", "strategy"], descending=[False, True, False])


def more_vs_less(by_strategy: pl.DataFrame, exclude: tuple[str, ...] = ("random",),
                 seats: pl.LazyFrame | None = None) -> pl.DataFrame:
    """Per players: the bot that takes the most wolf actions per game against the one that
    takes the fewest (``exclude``d bots left out), win-rate difference with a Newcombe
    interval, or, given the ``seats`` the table was made from, an interval **clustered by
    game** (the two bots' seats of one game are not independent). Columns players, more, less, wolf_more, wolf_less, n_more, n_less, rate_more,
    rate_less, diff, lo, hi."""
    rows = []
    for (p,), g in by_strategy.filter(~pl.col("strategy").is_in(list(exclude))).group_by(
            "players", maintain_order=True):
        g = g.filter(pl.col("n") > 0).sort("wolf_actions", descending=True)
        if len(g) < 2:
            continue
        a, b = g.row(0, named=True), g.row(len(g) - 1, named=True)
        d, lo, hi = newcombe_difference(a["wins"], a["n"], b["wins"], b["n"])
        if seats is not None:
            cd = q.clustered_differences(
                _finished(seats).filter(pl.col("players") == p),
                {"more": pl.col("strategy") == a["strategy"]},
                among=pl.col("strategy").is_in([a["strategy"], b["strategy"]]))
            if cd.height and cd["lo"][0] is not None:
                d, lo, hi = ([cd[c][0]] for c in ("diff", "lo", "hi"))
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
    lf = _finished(seats)
    if strategy is not None:
        lf = lf.filter(pl.col("strategy") == strategy)
    df = q.collect(lf.group_by("players", pl.col("act_wolf").cast(pl.Int64).alias(
        "wolf_actions")).agg(n=pl.len().cast(pl.Int64),
                             wins=pl.col("win_share").sum().cast(pl.Float64)))
    return q.with_wilson(df).sort("players", "wolf_actions")


def bet_more_less(seats: pl.LazyFrame, strategy: str = "greedy", threshold: int = 2
                  ) -> pl.DataFrame:
    """Per players, seats of ``strategy`` that took at least ``threshold`` wolf actions
    against those that took fewer: n, win rates, difference with a 95% interval clustered by
    game."""
    more = _i64("act_wolf") >= threshold
    # two seats of one game are not independent: the interval is clustered by game
    cd = q.clustered_differences(_finished(seats), {"more": more},
                                 among=pl.col("strategy") == strategy)
    return cd.select("players", pl.col("n_with").alias("n_more"),
                     pl.col("wins_with").alias("w_more"), pl.col("n_without").alias("n_less"),
                     pl.col("wins_without").alias("w_less"), "diff", "lo", "hi"
                     ).with_columns(pl.col("players").cast(pl.Int8)).sort("players")


def house_ties(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per players: seat-games n, houses built, collapsed and saved by a tie (own houses at
    their colour's minimum height, shared), bonuses lost to a tie; the share of built houses
    saved (saved_rate, Wilson lo/hi; houses of one seat are not independent, so the interval
    is approximate), the share of seat-games with at least one saved house (seat_rate, Wilson)
    and of games in which some player's house was saved (game_rate, Wilson), the share of
    built houses that collapsed, and bonuses lost per seat-game."""
    fin = _finished(seats)
    per_seat = q.collect(fin.group_by("players").agg(
        n=pl.len().cast(pl.Int64),
        built=_i64("houses_built").sum(),
        collapsed=_i64("houses_collapsed").sum(),
        saved=_i64("houses_saved_by_tie").sum(),
        bonus_lost=_i64("bonus_lost_to_tie").sum(),
        seats_saved=(_i64("houses_saved_by_tie") > 0).sum().cast(pl.Int64),
    ))
    per_game = q.collect(
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
        return _finished(seats.filter(pl.col("run") == run)).select(
            "game", "seat", pl.col("win_share").cast(pl.Float64).alias(f"s{tag}"),
            _i64("score").alias(f"x{tag}"), _i64("act_wolf").alias(f"w{tag}"))

    j = focal.join(arm(treated_run, "t"), on=["game", "seat"]).join(
        arm(control_run, "c"), on=["game", "seat"])
    d = pl.col("st") - pl.col("sc")
    ds = (pl.col("xt") - pl.col("xc")).cast(pl.Float64)
    dw = (pl.col("wt") - pl.col("wc")).cast(pl.Float64)
    a = q.collect(j.select(
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
        out[key], out[lo_k], out[hi_k] = mean, mean - Z95 * se, mean + Z95 * se
        if key == "diff":
            out["se"], out["p"] = se, normal_pvalue(mean, se)
    if a["dw"]:
        r = a["ds"] / a["dw"]
        resid = a["ds2"] - 2 * r * a["dsdw"] + r * r * a["dw2"]
        se = math.sqrt(max(resid, 0.0) / (n * (n - 1))) / abs(a["dw"] / n) if n > 1 else nan
        out |= {"per_wolf": r, "per_wolf_lo": r - Z95 * se, "per_wolf_hi": r + Z95 * se,
                "p_per_wolf": normal_pvalue(r, se)}
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


def p_vs_parity(rate: float, n: int, parity: float) -> float:
    """Two-sided p-value of a win rate against parity (normal approximation to the binomial
    with the variance at parity)."""
    if not n or rate is None or math.isnan(rate):
        return float("nan")
    return normal_pvalue(rate - parity, math.sqrt(parity * (1 - parity) / n))


def mean_turns_by_set(games: pl.LazyFrame, by_set: dict[str, list[int]]) -> dict[tuple, dict]:
    """(card_set, players) -> n, mean, lo, hi of player-turns (finished pool games)."""
    out = {}
    for cs, idx in by_set.items():
        df = q.collect(games.filter(pl.col("run").is_in(idx) & q.finished_game())
                       .group_by("players").agg(
            n=pl.len().cast(pl.Int64), s=pl.col("turns").cast(pl.Float64).sum(),
            s2=(pl.col("turns").cast(pl.Float64) ** 2).sum()))
        for r in df.iter_rows(named=True):
            mean, se = _mean_se(r["s"], r["s2"], r["n"])
            out[(cs, int(r["players"]))] = {"n": r["n"], "est": mean, "lo": mean - Z95 * se,
                                            "hi": mean + Z95 * se}
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
    for c, qv in zip(tested, bh_adjust([c["p"] for c in tested]), strict=True):
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
        if base is None or is_missing(base["est"]):
            continue
        for cs, c in row["cells"].items():
            if cs == DEFAULT_SET or is_missing(c["est"]):
                continue
            se = math.hypot(_se_of(c), _se_of(base))
            sh = c["est"] - base["est"]
            row["shifts"][cs] = [sh, sh - Z95 * se, sh + Z95 * se, normal_pvalue(sh, se),
                                 float("nan")]
            shifts.append(row["shifts"][cs])
    for s, qv in zip(shifts, bh_adjust([s[3] for s in shifts]), strict=True):
        s[4] = qv
    for row in rows.values():
        verdicts = [c.get("verdict") for c in row["cells"].values()
                    if c.get("verdict") not in (None, "n/a")]
        row["same"] = None if len(verdicts) < 2 else len(set(verdicts)) == 1
        row["change"] = None if row["same"] is None else (
            "same" if row["same"] else "sign" if {"+", "-"} <= set(verdicts)
            else "significance")
    return list(rows.values())


def _se_of(c: dict) -> float:
    if is_missing(c["lo"]) or is_missing(c["hi"]):
        return float("nan")
    return (c["hi"] - c["lo"]) / (2 * Z95)


def last_pig(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per player count, the distribution of ``cards_under_last_pig`` (cards left in the deck
    when the third pig was revealed; -1 = never revealed, left out) over finished games (one
    seat row per game): players, under, n (games), share of the player count's games with its
    Wilson 95% interval lo/hi. Empty without the column."""
    if "cards_under_last_pig" not in seats.collect_schema().names():
        return pl.DataFrame()
    g = seats.filter(q.finished_seat()).group_by("run", "game", "players").agg(
        under=pl.col("cards_under_last_pig").first())
    df = q.collect(g.filter(pl.col("under") >= 0).group_by("players", "under").agg(
        n=pl.len().cast(pl.Int64))).sort("players", "under")
    df = df.with_columns(total=pl.col("n").sum().over("players"))
    return q.with_wilson(df, "n", "total", ("share", "lo", "hi")).drop("total")

