"""Little Town queries: per building and per goal card over finished games, and the robust
mark across bot mixes."""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import queries as q
from analysis.doc import diff_ci
from analysis.games.little_town.data import CARDS, FEE, NAME_OF, SLUGS
from analysis.stats import as_float, rate, wilson_interval

__all__ = ["weighted_summary", "interval_sign", "building_stats", "goal_stats", "mark_robust"]


def weighted_summary(values: np.ndarray, counts: np.ndarray) -> dict:
    """n, mean, var, sd, quantiles and mean absolute deviation from the median of a sample
    given as a frequency table."""
    values = np.asarray(values, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.float64)
    n, mean, sd, q05, q25, q50, q75, q95 = q.weighted_stats(values, counts)
    out = {"n": int(n), "mean": mean, "sd": sd, "var": sd * sd if n > 1 else float("nan"),
           "q05": q05, "q25": q25, "q50": q50, "q75": q75, "q95": q95}
    if n > 1:
        dev = np.abs(values - q50)
        m = float((dev * counts).sum() / n)
        out["mad"] = m
        out["mad_var"] = float((counts * (dev - m) ** 2).sum() / (n - 1))
    else:
        out["mad"] = out["mad_var"] = float("nan")
    return out


def interval_sign(lo, hi) -> int:
    """+1 if the interval is above 0, -1 if below, 0 if it contains 0 (or is undefined)."""
    lo, hi = as_float(lo), as_float(hi)
    if lo > 0:
        return 1
    if hi < 0:
        return -1
    return 0


# ---------------------------------------------------------------- per building ----------
_BUILDING_SCHEMA = {
    "players": pl.Int8, "building": pl.Utf8, "slug": pl.Utf8, "games": pl.Int64,
    "present": pl.Int64, "presence": pl.Float64, "presence_lo": pl.Float64,
    "presence_hi": pl.Float64, "built_games": pl.Int64, "build_rate": pl.Float64,
    "build_lo": pl.Float64, "build_hi": pl.Float64, "copies": pl.Float64,
    "mean_round": pl.Float64, "act_own": pl.Float64, "act_others": pl.Float64,
    "fees": pl.Float64, "n_with": pl.Int64, "wins_with": pl.Float64, "rate_with": pl.Float64,
    "n_others": pl.Int64, "wins_others": pl.Float64, "rate_others": pl.Float64,
    "diff": pl.Float64, "lo": pl.Float64, "hi": pl.Float64, "p": pl.Float64,
}


def building_stats(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per player count and building, over finished games.

    Columns: players, building (name), slug, games (finished games), present (games whose
    market held it) with presence = present/games and its Wilson interval, built_games (games
    where some seat built it) with build_rate = built_games/present and interval, copies
    (copies built per game where built; > 1 only for the Wheat Field), mean_round (mean round
    in which a building seat first built it), act_own / act_others (activations per game where
    built, by the owner / by other seats), fees (coins earned by the owner from others'
    activations per game where built, = act_others x fee), n_with / wins_with / rate_with (the
    seats that built it), n_others / wins_others / rate_others (the other seats of the same
    games), diff = rate_with - rate_others with its 95% interval lo/hi **clustered by game**
    (the builders and the others of one game are not independent: ``queries.cluster_sums``)
    and p from the clustered standard error (the input of the BH q-values and robust marks).
    Sorted by players, then diff descending.
    """
    names = set(seats.collect_schema().names())
    slugs = [s for s in SLUGS if f"built_{s}" in names]
    if not slugs:
        return pl.DataFrame(schema=_BUILDING_SCHEMA)
    share = pl.col("win_share").cast(pl.Float64)

    def col(name: str) -> pl.Expr:
        return pl.col(name).fill_null(0) if name in names else pl.lit(0)

    per_game: list[pl.Expr] = [share.sum().alias("gshare")]
    for i, s in enumerate(slugs):
        built = col(f"built_{s}") > 0
        per_game += [
            (col(f"market_{s}").max() > 0).cast(pl.Int64).alias(f"pres{i}"),
            built.any().cast(pl.Int64).alias(f"any{i}"),
            built.sum().cast(pl.Int64).alias(f"nb{i}"),
            col(f"built_{s}").sum().cast(pl.Int64).alias(f"cp{i}"),
            pl.when(built).then(share).otherwise(0.0).sum().alias(f"wb{i}"),
            pl.when(built).then(col(f"built_round_{s}")).otherwise(0).sum()
            .cast(pl.Int64).alias(f"rd{i}"),
            col(f"act_own_{s}").sum().cast(pl.Int64).alias(f"ao{i}"),
            col(f"act_by_others_{s}").sum().cast(pl.Int64).alias(f"ab{i}"),
        ]
    totals: list[pl.Expr] = [pl.len().cast(pl.Int64).alias("games")]
    for i in range(len(slugs)):
        totals += [pl.col(f"{k}{i}").sum().alias(f"{k}{i}")
                   for k in ("pres", "any", "nb", "cp", "wb", "rd", "ao", "ab")]
        totals += [
            (pl.col(f"any{i}") * pl.col("players").cast(pl.Int64)).sum().alias(f"np{i}"),
            (pl.col(f"any{i}") * pl.col("gshare")).sum().alias(f"gs{i}"),
        ]
        # the builders and the other seats of one game are one cluster (clustered interval)
        n1, s1 = pl.col(f"nb{i}").cast(pl.Float64), pl.col(f"wb{i}")
        totals += q.cluster_sums(
            n1, s1, pl.col(f"any{i}") * pl.col("players").cast(pl.Float64) - n1,
            pl.col(f"any{i}") * pl.col("gshare") - s1, f"_{i}")
    # per game, then totals per player count, in slices of game ids (bounded memory)
    parts = q.by_game_slices(seats, lambda lf: (
        lf.filter(q.finished_seat()).group_by("run", "game", "players").agg(per_game)
        .group_by("players").agg(totals)))
    agg = parts.group_by("players").agg(pl.all().sum()).sort("players")
    rows = []
    for r in agg.iter_rows(named=True):
        for i, s in enumerate(slugs):
            nb, bg = int(r[f"nb{i}"]), int(r[f"any{i}"])
            wb = float(r[f"wb{i}"])
            n0, w0 = int(r[f"np{i}"]) - nb, float(r[f"gs{i}"]) - wb
            d, lo, hi, p = q.clustered_from_sums(r, f"_{i}", bg, nb, wb, n0, w0)
            rows.append({
                "players": r["players"], "building": NAME_OF[s], "slug": s,
                "games": int(r["games"]), "present": int(r[f"pres{i}"]), "built_games": bg,
                "copies": r[f"cp{i}"] / bg if bg else float("nan"),
                "mean_round": r[f"rd{i}"] / nb if nb else float("nan"),
                "act_own": r[f"ao{i}"] / bg if bg else float("nan"),
                "act_others": r[f"ab{i}"] / bg if bg else float("nan"),
                "fees": FEE * r[f"ab{i}"] / bg if bg else float("nan"),
                "n_with": nb, "wins_with": wb,
                "n_others": n0, "wins_others": w0, "diff": d, "lo": lo, "hi": hi, "p": p,
            })
    if not rows:
        return pl.DataFrame(schema=_BUILDING_SCHEMA)
    df = pl.DataFrame(rows)
    g, pr, bg = (df[c].to_numpy().astype(float) for c in ("games", "present", "built_games"))
    plo, phi = wilson_interval(pr, g)
    blo, bhi = wilson_interval(bg, pr)
    nw, ww, no, wo = (df[c].to_numpy().astype(float)
                      for c in ("n_with", "wins_with", "n_others", "wins_others"))
    df = df.with_columns(
        pl.Series("presence", rate(pr, g)), pl.Series("presence_lo", plo),
        pl.Series("presence_hi", phi), pl.Series("build_rate", rate(bg, pr)),
        pl.Series("build_lo", blo), pl.Series("build_hi", bhi),
        pl.Series("rate_with", rate(ww, nw)), pl.Series("rate_others", rate(wo, no)),
    )
    df = df.select([pl.col(k).cast(t) for k, t in _BUILDING_SCHEMA.items()])
    df = df.with_columns(pl.col(pl.Float64).fill_nan(None))
    return df.sort(["players", "diff"], descending=[False, True], nulls_last=True)


# ---------------------------------------------------------------- per goal card ---------
_GOAL_SCHEMA = {
    "players": pl.Int8, "card": pl.Int64, "held": pl.Int64, "completed": pl.Int64,
    "completion": pl.Float64, "completion_lo": pl.Float64, "completion_hi": pl.Float64,
    "mean_round": pl.Float64, "wins_done": pl.Float64, "rate_done": pl.Float64,
    "n_not": pl.Int64, "wins_not": pl.Float64, "rate_not": pl.Float64, "diff": pl.Float64,
    "lo": pl.Float64, "hi": pl.Float64, "p": pl.Float64,
}


def goal_stats(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per player count and goal card, over seats of finished games that held the card
    (``goal_NN`` 1 completed, 0 held and not completed, -1 not held).

    Columns: players, card, held (seat-games holding it), completed, completion =
    completed/held with Wilson interval, mean_round (mean round completed), wins_done /
    rate_done (holders who completed it), n_not / wins_not / rate_not (holders who did not),
    diff = rate_done - rate_not with its 95% lo/hi clustered by game, p from the clustered
    standard error. Cards nobody held
    are left out. Sorted by players, then diff descending.
    """
    names = set(seats.collect_schema().names())
    cards = [c for c in CARDS if f"goal_{c:02d}" in names]
    if not cards:
        return pl.DataFrame(schema=_GOAL_SCHEMA)
    share = pl.col("win_share").cast(pl.Float64)
    exprs, totals = [], [pl.len().cast(pl.Int64).alias("games")]
    for c in cards:
        g = pl.col(f"goal_{c:02d}").fill_null(-1)
        done = g == 1
        exprs += [
            (g >= 0).sum().cast(pl.Int64).alias(f"h{c}"),
            done.sum().cast(pl.Int64).alias(f"d{c}"),
            pl.when(done).then(share).otherwise(0.0).sum().alias(f"wd{c}"),
            pl.when(g == 0).then(share).otherwise(0.0).sum().alias(f"wn{c}"),
            pl.when(done).then(pl.col(f"goal_round_{c:02d}").fill_null(0)).otherwise(0).sum()
            .cast(pl.Int64).alias(f"r{c}"),
        ]
        totals += [pl.col(f"{k}{c}").sum().alias(f"{k}{c}") for k in ("h", "d", "wd", "wn", "r")]
        totals.append((pl.col(f"h{c}") > 0).sum().cast(pl.Int64).alias(f"g{c}"))
        # the holders of one card in one game are one cluster (clustered interval)
        d1 = pl.col(f"d{c}").cast(pl.Float64)
        totals += q.cluster_sums(d1, pl.col(f"wd{c}"), pl.col(f"h{c}").cast(pl.Float64) - d1,
                                 pl.col(f"wn{c}"), f"_{c}")
    parts = q.by_game_slices(seats, lambda lf: (
        lf.filter(q.finished_seat()).group_by("run", "game", "players").agg(exprs)
        .group_by("players").agg(totals)))
    agg = parts.group_by("players").agg(pl.all().sum())
    rows = []
    for r in agg.sort("players").iter_rows(named=True):
        for c in cards:
            h, d = int(r[f"h{c}"]), int(r[f"d{c}"])
            if h == 0:
                continue
            wd, wn = float(r[f"wd{c}"]), float(r[f"wn{c}"])
            diff, lo, hi, p = q.clustered_from_sums(r, f"_{c}", r[f"g{c}"], d, wd, h - d, wn)
            rows.append({"players": r["players"], "card": c, "held": h, "completed": d,
                         "mean_round": r[f"r{c}"] / d if d else float("nan"),
                         "wins_done": wd, "n_not": h - d, "wins_not": wn, "diff": diff,
                         "lo": lo, "hi": hi, "p": p})
    if not rows:
        return pl.DataFrame(schema=_GOAL_SCHEMA)
    df = pl.DataFrame(rows)
    h, d, wd, nn, wn = (df[c].to_numpy().astype(float)
                        for c in ("held", "completed", "wins_done", "n_not", "wins_not"))
    clo, chi = wilson_interval(d, h)
    df = df.with_columns(
        pl.Series("completion", rate(d, h)), pl.Series("completion_lo", clo),
        pl.Series("completion_hi", chi), pl.Series("rate_done", rate(wd, d)),
        pl.Series("rate_not", rate(wn, nn)),
    )
    df = df.select([pl.col(k).cast(t) for k, t in _GOAL_SCHEMA.items()])
    df = df.with_columns(pl.col(pl.Float64).fill_nan(None))
    return df.sort(["players", "diff"], descending=[False, True], nulls_last=True)


# ---------------------------------------------------------------- robustness ------------
def mark_robust(main: pl.DataFrame, others: dict[str, pl.DataFrame], key: str) -> pl.DataFrame:
    """Add ``robust`` (Boolean; null when no other bot mix measured that row) and
    ``mix_signs`` (text) to ``main``.

    A row (players, ``key``) is robust when its 95% interval excludes 0 under the main mix and
    under at least one other mix with the same sign, and under no mix with the opposite sign.
    ``others``: role -> the same statistics computed on that mix's runs.
    """
    look = {}
    for role, df in others.items():
        for r in df.iter_rows(named=True):
            look.setdefault((int(r["players"]), r[key]), []).append((role, r))
    robust, signs = [], []
    for r in main.iter_rows(named=True):
        other = look.get((int(r["players"]), r[key]), [])
        s0 = interval_sign(r["lo"], r["hi"])
        txt = [f"{role}: {diff_ci(o)}"
               for role, o in other]
        signs.append("; ".join(txt))
        if not other or r["diff"] is None:
            robust.append(None)
            continue
        ss = [interval_sign(o["lo"], o["hi"]) for _, o in other]
        robust.append(bool(s0 != 0 and any(s == s0 for s in ss) and not any(s == -s0 for s in ss)))
    return main.with_columns(pl.Series("robust", robust, dtype=pl.Boolean),
                             pl.Series("mix_signs", signs, dtype=pl.Utf8))
