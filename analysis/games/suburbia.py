"""Suburbia report sections (issue 6, section 3): tiles, goals, the rulebook's tips, the bot
archetypes, score components and the red-line offset option.

Runs are told apart by the role ``sim.suburbia.game.SuburbiaGame.default_plan`` gives them:

* ``main``: the seven-bot pool at 2, 3 and 4 players (all headline numbers);
* ``tip:deny``: greedy and denier only (the same bot but for the discard rule): the
  hate-discarding tip, and a second bot mix;
* ``mix:archetypes``: the three scripted archetypes only (a third bot mix);
* ``sweep:red_line_offset=K``: 3 players, the main pool and seed, option ``red_line_offset=K``.

A finding is marked **robust** when it passes Benjamini-Hochberg control (q < 0.05) in the
main mix and its difference has the same sign in at least one other bot mix (so in at least two
mixes). Every query works on ``ReportContext.seats``/``games`` (lazy) and returns a small
DataFrame; the numbers are proportions in [0, 1] as in ``analysis.queries``.

Seat detail columns (docs/games/suburbia.md §13): ``tile_<slug>`` placed (0/1), ``turn_<slug>``
round first placed (0 = never), ``invest_<slug>``, ``offered_<slug>`` (same for every seat of a
game), ``goal_<slug>`` (1 scored, 0 in play and not scored, -1 not in play), ``private_goal``
(goal id), ``track_pop``, ``goals_pop``, ``money_pop``, ``redlines_up``, ``redlines_down``, ...
"""

from __future__ import annotations

import math
import os
import re
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from scipy import stats as sps  # noqa: E402
from statsmodels.stats.multitest import multipletests  # noqa: E402

from analysis import queries as q  # noqa: E402
from analysis.charts import _save  # noqa: E402
from analysis.report import Table, _ci, _count, _num, _pts, pct  # noqa: E402
from analysis.stats import newcombe_difference, rate, wilson_interval  # noqa: E402
from sim.suburbia import data  # noqa: E402

# ------------------------------------------------------------------------------ constants ----
MAIN = "main"
DENY = "tip:deny"
MIX_LABELS = {MAIN: "main pool (7 bots)", DENY: "greedy + denier",
              "mix:archetypes": "3 archetypes"}
EARLY_ROUNDS = 3       # "early" = a seat's first three turns (rounds 1-3)
RUSH_ROUNDS = 4        # population rush: a big-population tile in rounds 1-4
RUSH_POP = 5           # "big" = immediate Population >= 5
MIN_N = 30             # a mix's difference counts for the robust mark only with n >= 30 a side
MIN_RANK_N = 200       # strongest/weakest lists: tiles and goals with >= 200 scripted seat-games
Z95 = float(sps.norm.ppf(0.975))


def slug(name: str) -> str:
    """``"Bed & Breakfast"`` -> ``"bed_breakfast"`` (as sim.suburbia.batch.slug)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


TILES = [  # (kind, name, slug, stack) for the 50 placeable building kinds
    (k, t[0], slug(t[0]), t[1]) for k, t in enumerate(data.TILES, 1) if k <= 50
]
STACK_OF = {s: st for _, _, s, st in TILES}
NAME_OF = {s: n for _, n, s, _ in TILES}
GOALS = [(g, row[0], slug(row[0]), int(row[4])) for g, row in enumerate(data.GOALS)]
INCOME_SLUGS = [s for k, _, s, _ in TILES
                if data.TILES[k - 1][5].get("Inc", 0) > 0
                or any(r[0] == "Inc" and r[1] > 0 for r in data.TILES[k - 1][6])]
RUSH_SLUGS = [s for k, _, s, _ in TILES if data.TILES[k - 1][5].get("Pop", 0) >= RUSH_POP]


# ------------------------------------------------------------------------------ statistics ---
def z_pvalue(w1, n1, w0, n0) -> np.ndarray:
    """Two-sided p-value of the pooled two-proportion z-test of ``w1/n1 == w0/n0`` (arrays;
    NaN where a group is empty or the pooled rate is 0 or 1)."""
    w1, n1, w0, n0 = np.broadcast_arrays(*(np.atleast_1d(np.asarray(x, dtype=np.float64))
                                           for x in (w1, n1, w0, n0)))
    out = np.full(np.broadcast(w1, n1, w0, n0).shape, np.nan)
    ok = (n1 > 0) & (n0 > 0)
    pbar = np.where(ok, (w1 + w0) / np.where(ok, n1 + n0, 1), np.nan)
    se = np.sqrt(pbar * (1 - pbar) * (1 / np.where(ok, n1, 1) + 1 / np.where(ok, n0, 1)))
    good = ok & (se > 0)
    z = np.where(good, (w1 / np.where(ok, n1, 1) - w0 / np.where(ok, n0, 1))
                 / np.where(good, se, 1), np.nan)
    out[good] = 2 * sps.norm.sf(np.abs(z[good]))
    return out


def bh(pvalues) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q-values); NaN stays NaN."""
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = multipletests(p[ok], method="fdr_bh")[1]
    return out


def mh_difference(w1, n1, w0, n0) -> dict:
    """Stratified difference of two rates (Mantel-Haenszel weights ``n1*n0/(n1+n0)``), with a
    Wald 95% interval from the per-stratum variances and a two-sided p-value.

    Arguments are per-stratum arrays (wins and seat-games of the exposed and unexposed seats);
    strata missing a group are skipped. Returns diff, lo, hi, p, n1, n0, w1, w0, strata.
    """
    w1, n1, w0, n0 = (np.asarray(x, dtype=np.float64) for x in (w1, n1, w0, n0))
    ok = (n1 > 0) & (n0 > 0)
    res = {"n1": int(n1.sum()), "n0": int(n0.sum()), "w1": float(w1.sum()),
           "w0": float(w0.sum()), "strata": int(ok.sum()),
           "diff": math.nan, "lo": math.nan, "hi": math.nan, "p": math.nan}
    if not ok.any():
        return res
    w1, n1, w0, n0 = w1[ok], n1[ok], w0[ok], n0[ok]
    p1, p0 = w1 / n1, w0 / n0
    wt = n1 * n0 / (n1 + n0)
    d = float((wt * (p1 - p0)).sum() / wt.sum())
    var = float((wt ** 2 * (p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)).sum() / wt.sum() ** 2)
    se = math.sqrt(var)
    res.update(diff=d, lo=d - Z95 * se, hi=d + Z95 * se,
               p=float(2 * sps.norm.sf(abs(d) / se)) if se > 0 else math.nan)
    return res


def _with_diff(df: pl.DataFrame) -> pl.DataFrame:
    """Add rate_with/rate_without/diff/lo/hi (Newcombe) and p (z-test) from n1/w1/n0/w0."""
    if df.is_empty():
        return df.with_columns(*(pl.lit(None, pl.Float64).alias(c) for c in (
            "rate_with", "rate_without", "diff", "lo", "hi", "p")))
    w1, n1 = df["w1"].to_numpy().astype(float), df["n1"].to_numpy().astype(float)
    w0, n0 = df["w0"].to_numpy().astype(float), df["n0"].to_numpy().astype(float)
    d, lo, hi = newcombe_difference(w1, n1, w0, n0)
    return df.with_columns(
        pl.Series("rate_with", rate(w1, n1)).fill_nan(None),
        pl.Series("rate_without", rate(w0, n0)).fill_nan(None),
        pl.Series("diff", d).fill_nan(None), pl.Series("lo", lo).fill_nan(None),
        pl.Series("hi", hi).fill_nan(None),
        pl.Series("p", z_pvalue(w1, n1, w0, n0)).fill_nan(None),
    )


def summarise(df: pl.DataFrame, keys: list[str], exclude: tuple = ("random",)) -> pl.DataFrame:
    """Collapse per-bot counts (``strategy`` column with n1/w1/n0/w0) to one row per ``keys``:
    the crude difference over all seats (n1/w1/n0/w0 totals, rate_with, rate_without,
    diff/lo/hi Newcombe, p z-test) and the **bot-adjusted** difference: seats of the bots not
    in ``exclude`` only, stratified by bot and by every column of ``df`` not in ``keys``
    (e.g. players), Mantel-Haenszel weights: adj/adj_lo/adj_hi/adj_p, adj_n1/adj_n0."""
    tot = df.group_by(keys, maintain_order=True).agg(pl.col(["n1", "n0"]).sum(),
                                                     pl.col(["w1", "w0"]).sum())
    tot = _with_diff(tot)
    rows = []
    strata = df.filter(~pl.col("strategy").is_in(list(exclude)))
    for k, g in strata.group_by(keys, maintain_order=True):
        r = mh_difference(g["w1"], g["n1"], g["w0"], g["n0"])
        rows.append({**dict(zip(keys, k, strict=True)), "adj": r["diff"], "adj_lo": r["lo"],
                     "adj_hi": r["hi"], "adj_p": r["p"], "adj_n1": r["n1"],
                     "adj_n0": r["n0"]})
    schema = {k: df.schema[k] for k in keys} | {
        "adj": pl.Float64, "adj_lo": pl.Float64, "adj_hi": pl.Float64, "adj_p": pl.Float64,
        "adj_n1": pl.Int64, "adj_n0": pl.Int64}
    adj = pl.DataFrame(rows, schema=schema).with_columns(
        pl.col(["adj", "adj_lo", "adj_hi", "adj_p"]).fill_nan(None))
    return tot.join(adj, on=keys, how="left", nulls_equal=True)


def _robust(df: pl.DataFrame, keys: list[str], diff: str = "adj", pcol: str = "adj_p",
            n1: str = "adj_n1", n0: str = "adj_n0") -> pl.DataFrame:
    """Per row of the main mix: q (BH of ``pcol`` over the main rows), ``other_signs`` (signs
    of the other mixes' ``diff``, e.g. "+ -"), ``agree`` (mixes, main included, whose sign
    equals main's) and ``robust`` (q < 0.05 and agree >= 2). Returns the main rows only."""
    main = df.filter(pl.col("role") == MAIN)
    main = main.with_columns(pl.Series("q", bh(main[pcol].fill_null(np.nan).to_numpy()))
                             .fill_nan(None))
    others = df.filter((pl.col("role") != MAIN) & (pl.col(n1) >= MIN_N)
                       & (pl.col(n0) >= MIN_N) & pl.col(diff).is_not_null())
    signs: dict[tuple, list[float]] = defaultdict(list)
    for r in others.sort("role").iter_rows(named=True):
        signs[tuple(r[k] for k in keys)].append(r[diff])
    other_signs, agree = [], []
    for r in main.iter_rows(named=True):
        ds = signs.get(tuple(r[k] for k in keys), [])
        other_signs.append(" ".join("+" if d > 0 else "-" if d < 0 else "0" for d in ds))
        if r[diff] is None:
            agree.append(0)
        else:
            agree.append(1 + sum(1 for d in ds if d * r[diff] > 0))
    return main.with_columns(
        pl.Series("other_signs", other_signs, pl.Utf8), pl.Series("agree", agree, pl.Int64),
    ).with_columns(robust=((pl.col("q") < 0.05) & (pl.col("agree") >= 2)).fill_null(False))


# ------------------------------------------------------------------------------ queries ------
def with_role(lf: pl.LazyFrame, roles: dict[int, str]) -> pl.LazyFrame:
    """``lf`` with a ``role`` column (Utf8) from the run index (runs without a role: main)."""
    runs = sorted(roles)
    return lf.with_columns(role=pl.col("run").replace_strict(
        runs, [roles[r] for r in runs], default=MAIN, return_dtype=pl.Utf8))


def _mixes(lf: pl.LazyFrame) -> pl.LazyFrame:
    """Bot-mix runs only (not rule sweeps)."""
    return lf.filter(~pl.col("role").str.starts_with("sweep:"))


def tile_market(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per (role, players, tile): games, offered (games in which the kind entered the market),
    taken (offered games in which some seat placed it), placers (seat-games that placed it),
    invested (seat-games that put a marker on it), mean_round (mean round of a seat's first
    placement). Basic tiles have offered/taken null (they come from the supply)."""
    names = set(seats.collect_schema().names())
    tiles = [s for _, _, s, _ in TILES if f"tile_{s}" in names]
    game_exprs = [pl.len().alias("__seats")]
    seat_exprs = [pl.len().alias("seat_games")]
    for i, s in enumerate(tiles):
        placed = pl.col(f"tile_{s}").fill_null(0) > 0
        game_exprs.append(placed.any().alias(f"a{i}"))
        if f"offered_{s}" in names:
            game_exprs.append((pl.col(f"offered_{s}").fill_null(0) > 0).any().alias(f"o{i}"))
        seat_exprs.append(placed.sum().cast(pl.Int64).alias(f"pl{i}"))
        inv = (pl.col(f"invest_{s}").fill_null(0) > 0) if f"invest_{s}" in names else pl.lit(False)
        seat_exprs.append(inv.sum().cast(pl.Int64).alias(f"iv{i}"))
        t = pl.col(f"turn_{s}") if f"turn_{s}" in names else pl.lit(0)
        seat_exprs.append(pl.when(t > 0).then(t).otherwise(None).mean().alias(f"tr{i}"))
    per_game = q._collect(seats.group_by("role", "players", "run", "game").agg(game_exprs))
    g = per_game.group_by("role", "players").agg(
        [pl.len().alias("games")]
        + [pl.col(f"o{i}").sum().alias(f"o{i}") for i, s in enumerate(tiles)
           if f"o{i}" in per_game.columns]
        + [(pl.col(f"a{i}") & (pl.col(f"o{i}") if f"o{i}" in per_game.columns else True))
           .sum().alias(f"t{i}") for i in range(len(tiles))])
    sg = q._collect(seats.group_by("role", "players").agg(seat_exprs))
    both = g.join(sg, on=["role", "players"])
    rows = []
    for r in both.iter_rows(named=True):
        for i, s in enumerate(tiles):
            off = r.get(f"o{i}")
            rows.append({
                "role": r["role"], "players": int(r["players"]), "tile": s,
                "stack": STACK_OF[s], "games": int(r["games"]),
                "offered": None if off is None else int(off),
                "taken": None if off is None else int(r[f"t{i}"]),
                "placers": int(r[f"pl{i}"]), "invested": int(r[f"iv{i}"]),
                "seat_games": int(r["seat_games"]), "mean_round": r[f"tr{i}"],
            })
    schema = {"role": pl.Utf8, "players": pl.Int64, "tile": pl.Utf8, "stack": pl.Utf8,
              "games": pl.Int64, "offered": pl.Int64, "taken": pl.Int64, "placers": pl.Int64,
              "invested": pl.Int64, "seat_games": pl.Int64, "mean_round": pl.Float64}
    df = pl.DataFrame(rows, schema=schema)
    return df.with_columns(
        offered_rate=pl.col("offered") / pl.col("games"),
        take_rate=pl.col("taken") / pl.col("offered"),
        invest_rate=pl.col("invested") / pl.col("placers"),
    ).sort("role", "players", "tile")


def tile_balance(seats: pl.LazyFrame) -> pl.DataFrame:
    """17lands-style IWD counts per (role, players, strategy, tile), finished games only:
    among the games in which at least one seat placed the kind, the seats of that bot that
    placed it (n1 seat-games, w1 wins) and the seats of that bot that did not (n0, w0).
    ``tile_summary`` turns them into differences."""
    names = set(seats.collect_schema().names())
    tiles = [s for _, _, s, _ in TILES if f"tile_{s}" in names]
    share = pl.col("win_share").cast(pl.Float64)
    fin = seats.filter(q._finished_seat()).select(
        "run", "game", "role", "players", "strategy", "win_share",
        *[(pl.col(f"tile_{s}").fill_null(0) > 0).alias(f"__p{i}") for i, s in enumerate(tiles)])
    per_game = fin.group_by("run", "game").agg(
        [pl.col(f"__p{i}").any().alias(f"__a{i}") for i in range(len(tiles))])
    lf = fin.join(per_game, on=["run", "game"])
    exprs = []
    for i in range(len(tiles)):
        p, o = pl.col(f"__p{i}"), pl.col(f"__a{i}") & ~pl.col(f"__p{i}")
        exprs += [p.sum().cast(pl.Int64).alias(f"n1_{i}"),
                  pl.when(p).then(share).otherwise(0.0).sum().alias(f"w1_{i}"),
                  o.sum().cast(pl.Int64).alias(f"n0_{i}"),
                  pl.when(o).then(share).otherwise(0.0).sum().alias(f"w0_{i}")]
    agg = q._collect(lf.group_by("role", "players", "strategy").agg(exprs))
    rows = [{"role": r["role"], "players": int(r["players"]), "strategy": r["strategy"],
             "tile": s, "n1": r[f"n1_{i}"], "w1": float(r[f"w1_{i}"]), "n0": r[f"n0_{i}"],
             "w0": float(r[f"w0_{i}"])}
            for r in agg.iter_rows(named=True) for i, s in enumerate(tiles)]
    schema = {"role": pl.Utf8, "players": pl.Int64, "strategy": pl.Utf8, "tile": pl.Utf8,
              "n1": pl.Int64, "w1": pl.Float64, "n0": pl.Int64, "w0": pl.Float64}
    return pl.DataFrame(rows, schema=schema).sort("role", "players", "strategy", "tile")


def tile_summary(bal: pl.DataFrame, pooled: bool = False) -> pl.DataFrame:
    """``summarise`` of ``tile_balance`` per (role, players, tile), or per (role, tile) pooled
    over player counts; with the tile's stack."""
    keys = ["role", "tile"] if pooled else ["role", "players", "tile"]
    return summarise(bal, keys).with_columns(
        stack=pl.col("tile").replace_strict(STACK_OF, return_dtype=pl.Utf8))


def pooled_main(summary: pl.DataFrame) -> pl.DataFrame:
    """Main rows of a pooled summary with q = BH of adj_p, sorted by adj descending."""
    m = summary.filter(pl.col("role") == MAIN)
    return m.with_columns(pl.Series("q", bh(m["adj_p"].fill_null(np.nan).to_numpy()))
                          .fill_nan(None)).sort("adj", descending=True, nulls_last=True)


def goal_balance(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per (role, players, strategy, goal, kind = "public" | "private"), finished games, the
    seats for which the goal was in play (``goal_*`` >= 0; a seat's private goal is the one
    equal to its ``private_goal``): in_play (seat-games), n1/w1 (seat-games that scored it,
    their wins), n0/w0 (the other in-play seats). ``goal_summary`` turns them into rates."""
    names = set(seats.collect_schema().names())
    share = pl.col("win_share").cast(pl.Float64)
    exprs = []
    goals = [(g, s) for g, _, s, _ in GOALS if f"goal_{s}" in names]
    for g, s in goals:
        col = pl.col(f"goal_{s}").fill_null(-1)
        priv = pl.col("private_goal").fill_null(-1) == g
        for kind, sel in (("public", (col >= 0) & ~priv), ("private", (col >= 0) & priv)):
            ach, non = sel & (col == 1), sel & (col != 1)
            exprs += [sel.sum().cast(pl.Int64).alias(f"{kind}_in_{g}"),
                      ach.sum().cast(pl.Int64).alias(f"{kind}_n1_{g}"),
                      pl.when(ach).then(share).otherwise(0.0).sum().alias(f"{kind}_w1_{g}"),
                      non.sum().cast(pl.Int64).alias(f"{kind}_n0_{g}"),
                      pl.when(non).then(share).otherwise(0.0).sum().alias(f"{kind}_w0_{g}")]
    agg = q._collect(seats.filter(q._finished_seat())
                     .group_by("role", "players", "strategy").agg(exprs))
    rows = []
    for r in agg.iter_rows(named=True):
        for g, s in goals:
            for kind in ("public", "private"):
                if not r[f"{kind}_in_{g}"]:
                    continue
                rows.append({"role": r["role"], "players": int(r["players"]),
                             "strategy": r["strategy"], "goal": s, "kind": kind,
                             "in_play": r[f"{kind}_in_{g}"],
                             "n1": r[f"{kind}_n1_{g}"], "w1": float(r[f"{kind}_w1_{g}"]),
                             "n0": r[f"{kind}_n0_{g}"], "w0": float(r[f"{kind}_w0_{g}"])})
    schema = {"role": pl.Utf8, "players": pl.Int64, "strategy": pl.Utf8, "goal": pl.Utf8,
              "kind": pl.Utf8, "in_play": pl.Int64, "n1": pl.Int64, "w1": pl.Float64,
              "n0": pl.Int64, "w0": pl.Float64}
    return pl.DataFrame(rows, schema=schema).sort("role", "players", "strategy", "kind", "goal")


def goal_summary(gb: pl.DataFrame, pooled: bool = False) -> pl.DataFrame:
    """``summarise`` of ``goal_balance`` per (role, players, goal, kind) (or pooled over player
    counts), plus in_play, achieved, bonus and achieve_rate (public: share of the games it was
    dealt in where some seat scored it; private: share of its owners who scored it)."""
    keys = ["role", "goal", "kind"] if pooled else ["role", "players", "goal", "kind"]
    extra = gb.group_by(keys).agg(
        pl.col("in_play").sum(), pl.col("n1").sum().alias("achieved"),
        (pl.col("in_play") / pl.col("players")).sum().alias("__games"))
    bonus = {s: b for _, _, s, b in GOALS}
    return summarise(gb, keys).join(extra, on=keys, how="left").with_columns(
        bonus=pl.col("goal").replace_strict(bonus, return_dtype=pl.Int64),
        achieve_rate=pl.when(pl.col("kind") == "public")
        .then(pl.col("achieved") / pl.col("__games"))
        .otherwise(pl.col("achieved") / pl.col("in_play")),
    ).drop("__games")


def _round_in(slugs: list[str], names: set[str], last: int) -> pl.Expr:
    parts = [((pl.col(f"turn_{s}") >= 1) & (pl.col(f"turn_{s}") <= last)).cast(pl.Int32)
             for s in slugs if f"turn_{s}" in names]
    return pl.sum_horizontal(parts) if parts else pl.lit(0, pl.Int32)


def seat_features(seats: pl.LazyFrame) -> pl.LazyFrame:
    """Finished seat rows with the tip features: ``early_income`` (distinct income-raising
    kinds first placed in rounds 1-3), ``income_first`` (early_income >= 2), ``pop_rush`` (a
    tile of immediate Population >= 5 first placed in rounds 1-4), ``fell_back`` (population
    fell below a red line at least once: redlines_down > 0)."""
    names = set(seats.collect_schema().names())
    return seats.filter(q._finished_seat()).with_columns(
        early_income=_round_in(INCOME_SLUGS, names, EARLY_ROUNDS),
        pop_rush=_round_in(RUSH_SLUGS, names, RUSH_ROUNDS) > 0,
        fell_back=(pl.col("redlines_down").fill_null(0) > 0) if "redlines_down" in names
        else pl.lit(False),
    ).with_columns(income_first=pl.col("early_income") >= 2)


def _exposure_table(lf: pl.LazyFrame, feature: str) -> pl.DataFrame:
    share = pl.col("win_share").cast(pl.Float64)
    x = pl.col(feature)
    return q._collect(lf.group_by("role", "players", "strategy").agg(
        n1=x.sum().cast(pl.Int64), w1=pl.when(x).then(share).otherwise(0.0).sum(),
        n0=(~x).sum().cast(pl.Int64), w0=pl.when(~x).then(share).otherwise(0.0).sum(),
    )).sort("role", "players", "strategy")


def _tip_rows(tab: pl.DataFrame, tip: str, test: str) -> list[dict]:
    """MH-stratified rows per (role, players) and per role over all player counts (strata =
    players x bot; the random bot left out), plus the crude (unstratified) difference over the
    same seats."""
    rows = []
    tab = tab.filter(pl.col("strategy") != "random")
    for (role,), g in _mixes_df(tab).group_by("role", maintain_order=True):
        for p in sorted(g["players"].unique().to_list()) + ["all"]:
            h = g if p == "all" else g.filter(pl.col("players") == p)
            r = mh_difference(h["w1"], h["n1"], h["w0"], h["n0"])
            crude = newcombe_difference(r["w1"], r["n1"], r["w0"], r["n0"])[0][0]
            rows.append({"tip": tip, "test": test, "role": role, "players": str(p), **r,
                         "crude": float(crude)})
    return rows


def _mixes_df(df: pl.DataFrame) -> pl.DataFrame:
    return df.filter(~pl.col("role").str.starts_with("sweep:"))


def deny_tables(seats: pl.LazyFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(a) per (role, players, strategy): seat-games and wins, finished games; (b) greedy seats
    only, per (role, players, prev_strategy): the strategy of the seat just before (whose
    discards come right before its turn; the tip's "next player" of that seat)."""
    share = pl.col("win_share").cast(pl.Float64)
    fin = seats.filter(q._finished_seat() & (pl.col("players") >= 2))
    a = q._collect(fin.group_by("role", "players", "strategy").agg(
        n=pl.len().cast(pl.Int64), w=share.sum())).sort("role", "players", "strategy")
    prev = fin.select("run", "game", "players", pl.col("strategy").alias("prev_strategy"),
                      ((pl.col("seat").cast(pl.Int32) + 1) % pl.col("players").cast(pl.Int32))
                      .alias("seat32"))
    b = q._collect(
        fin.filter(pl.col("strategy") == "greedy")
        .with_columns(seat32=pl.col("seat").cast(pl.Int32))
        .join(prev.drop("players"), on=["run", "game", "seat32"])
        .group_by("role", "players", "prev_strategy").agg(n=pl.len().cast(pl.Int64),
                                                          w=share.sum())
    ).sort("role", "players", "prev_strategy")
    return a, b


def deny_rows(a: pl.DataFrame, b: pl.DataFrame) -> list[dict]:
    """Tip rows: denier seats minus greedy seats; greedy seats after a denier minus greedy
    seats after a greedy bot (stratified by player count in the "all" rows)."""
    rows = []

    def pick(df, col, val):
        return df.filter(pl.col(col) == val).select("role", "players", "n", "w")

    for test, df, col, yes, no in (
            ("denier seats - greedy seats", a, "strategy", "denier", "greedy"),
            ("greedy seat after a denier - after a greedy bot", b, "prev_strategy", "denier",
             "greedy")):
        j = pick(df, col, yes).join(pick(df, col, no), on=["role", "players"], suffix="0")
        j = _mixes_df(j).rename({"n": "n1", "w": "w1", "n0": "n0", "w0": "w0"})
        for (role,), g in j.group_by("role", maintain_order=True):
            for p in sorted(g["players"].unique().to_list()) + ["all"]:
                h = g if p == "all" else g.filter(pl.col("players") == p)
                r = mh_difference(h["w1"], h["n1"], h["w0"], h["n0"])
                crude = newcombe_difference(r["w1"], r["n1"], r["w0"], r["n0"])[0][0]
                rows.append({"tip": "deny", "test": test, "role": role, "players": str(p),
                             **r, "crude": float(crude)})
    return rows


TIP_SCHEMA = {"tip": pl.Utf8, "test": pl.Utf8, "role": pl.Utf8, "players": pl.Utf8,
              "n1": pl.Int64, "n0": pl.Int64, "w1": pl.Float64, "w0": pl.Float64,
              "strata": pl.Int64, "diff": pl.Float64, "lo": pl.Float64, "hi": pl.Float64,
              "p": pl.Float64, "crude": pl.Float64}
TIP_TESTS = {  # test -> (tip, the sign the tip predicts, the mix of its verdict)
    "income-first seats - others": ("income", +1, MAIN),
    "early population rush - others": ("red lines", -1, MAIN),
    "fell back below a red line - others": ("red lines", -1, MAIN),
    "denier seats - greedy seats": ("deny", +1, DENY),
    "greedy seat after a denier - after a greedy bot": ("deny", -1, DENY),
}


def tip_tests(seats: pl.LazyFrame) -> pl.DataFrame:
    """Every tip test, per bot mix (role) and players ("2", "3", "4", "all"), stratified by
    bot (and player count in "all"): diff/lo/hi (Wald, MH weights), p, crude difference, and
    q (BH over the verdict rows: players "all" in the test's verdict mix, ``TIP_TESTS``)."""
    f = seat_features(seats)
    rows = []
    rows += _tip_rows(_exposure_table(f, "income_first"), "income",
                      "income-first seats - others")
    rows += _tip_rows(_exposure_table(f, "pop_rush"), "red lines",
                      "early population rush - others")
    rows += _tip_rows(_exposure_table(f, "fell_back"), "red lines",
                      "fell back below a red line - others")
    rows += deny_rows(*deny_tables(seats))
    df = pl.DataFrame(rows, schema=TIP_SCHEMA).with_columns(
        pl.col(["diff", "lo", "hi", "p", "crude"]).fill_nan(None))
    verdict_role = pl.col("test").replace_strict(
        {t: v[2] for t, v in TIP_TESTS.items()}, return_dtype=pl.Utf8)
    main_all = (pl.col("role") == verdict_role) & (pl.col("players") == "all")
    sel = df.filter(main_all)
    qv = dict(zip(sel["test"].to_list(),
                  bh(sel["p"].fill_null(np.nan).to_numpy()).tolist(), strict=True))
    return df.with_columns(
        q=pl.when(main_all).then(pl.col("test").replace_strict(
            qv, default=None, return_dtype=pl.Float64)).otherwise(None).fill_nan(None))


def verdict(test: str, row: dict | None, others: list[dict]) -> str:
    """The verdict on a tip test from its "all players" row in the verdict mix: the interval
    excludes 0 on the side the tip predicts ("supported" for the deny experiment,
    "consistent with the tip (association)" for the detail-column tests), on the other side
    ("contradicted" / "against the tip (association)"), or not ("not detectable at this
    n"); "robust" is added when a significant verdict keeps its sign in another bot mix."""
    if row is None or row.get("diff") is None or row.get("lo") is None:
        return "no data"
    sign = TIP_TESTS[test][1]
    experiment = TIP_TESTS[test][0] == "deny"
    lo, hi = row["lo"], row["hi"]
    if lo > 0 or hi < 0:
        agrees = (lo > 0) == (sign > 0)
        if experiment:
            word = "supported" if agrees else "contradicted"
        else:
            word = ("consistent with the tip (association)" if agrees
                    else "against the tip (association)")
        same = [o for o in others if o.get("diff") is not None and o["diff"] * row["diff"] > 0]
        return word + (", robust" if same else "")
    return "not detectable at this n"


def strategy_profile(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per (role, players, strategy), finished games: n, wins, win_rate/lo/hi (Wilson), means
    of score, track_pop, goals_pop, money_pop, final_income, final_reputation, redlines_up,
    investments, lakes, n_R, n_C, n_I, n_V, and diff/lo/hi vs ``greedy`` of the same run role
    (Newcombe; null when the mix has no greedy seats)."""
    names = set(seats.collect_schema().names())
    means = [c for c in ("score", "track_pop", "goals_pop", "money_pop", "final_income",
                         "final_reputation", "redlines_up", "investments", "lakes",
                         "n_R", "n_C", "n_I", "n_V") if c in names]
    df = q._collect(_mixes(seats).filter(q._finished_seat())
                    .group_by("role", "players", "strategy").agg(
        n=pl.len().cast(pl.Int64), wins=pl.col("win_share").cast(pl.Float64).sum(),
        **{f"mean_{c}": pl.col(c).cast(pl.Float64).mean() for c in means},
    )).sort("role", "players", "strategy")
    df = q._with_intervals(df)
    g = df.filter(pl.col("strategy") == "greedy").select(
        "role", "players", pl.col("n").alias("n_g"), pl.col("wins").alias("wins_g"))
    df = df.join(g, on=["role", "players"], how="left")
    n_g = df["n_g"].fill_null(0).to_numpy().astype(float)
    d, lo, hi = newcombe_difference(df["wins"].to_numpy(), df["n"].to_numpy().astype(float),
                                    df["wins_g"].fill_null(0).to_numpy(), n_g)
    not_g = pl.col("strategy") != "greedy"
    return df.with_columns(pl.Series("d_greedy", d).fill_nan(None),
                           pl.Series("d_lo", lo).fill_nan(None),
                           pl.Series("d_hi", hi).fill_nan(None)).with_columns(
        *(pl.when(not_g).then(pl.col(c)).otherwise(None).alias(c)
          for c in ("d_greedy", "d_lo", "d_hi"))).drop("n_g", "wins_g")


def score_components(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per (role, players, winner = win_share > 0), finished games: n seat-games and the means
    of score, track_pop, goals_pop, money_pop, redlines_up."""
    return q._collect(seats.filter(q._finished_seat())
                      .with_columns(winner=pl.col("win_share") > 0)
                      .group_by("role", "players", "winner").agg(
        n=pl.len().cast(pl.Int64),
        **{c: pl.col(c).cast(pl.Float64).mean() for c in
           ("score", "track_pop", "goals_pop", "money_pop", "redlines_up")},
    )).sort("role", "players", "winner", descending=[False, False, True])


def decided_by(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per (role, players), finished games with a winner: games, ``by_goals`` (games in which
    a non-winner had strictly more population than every winner before the goal bonuses) and
    ``by_money`` (the same before the money conversion), with Wilson intervals."""
    pre_g = pl.col("score") - pl.col("goals_pop")
    pre_m = pl.col("score") - pl.col("money_pop")
    won = pl.col("win_share") > 0
    per = seats.filter(q._finished_seat()).group_by("role", "players", "run", "game").agg(
        has=won.any(),
        g=pre_g.filter(~won).max() > pre_g.filter(won).max(),
        m=pre_m.filter(~won).max() > pre_m.filter(won).max(),
    ).filter(pl.col("has"))
    df = q._collect(per.group_by("role", "players").agg(
        games=pl.len().cast(pl.Int64), by_goals=pl.col("g").fill_null(False).sum(),
        by_money=pl.col("m").fill_null(False).sum())).sort("role", "players")
    n = df["games"].to_numpy().astype(float)
    out = {}
    for c in ("by_goals", "by_money"):
        k = df[c].to_numpy().astype(float)
        lo, hi = wilson_interval(k, n)
        out.update({f"{c}_rate": rate(k, n), f"{c}_lo": lo, f"{c}_hi": hi})
    return df.with_columns(*(pl.Series(k, v) for k, v in out.items()))


def offset_effect(seats: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """The red-line offset option at 3 players: one row per offset (0 = the main 3-player run,
    restricted to the game indices the sweep runs played, so games are dealt and seated
    alike). Columns: offset, games, mean_pop (per seat) with lo/hi (t 95% over games),
    redlines (mean red lines crossed up per seat), seat1 (first seat's win rate, Wilson
    lo1/hi1), paired_diff/p_lo/p_hi (mean population minus offset 0 over the same games, t
    95%), same_winner (share of games with the same winning seats as at offset 0)."""
    sweep = [r for r in _roles_in(seats) if r.startswith("sweep:red_line_offset=")]
    if not sweep:
        return pl.DataFrame()
    fin = seats.filter(q._finished_seat() & (pl.col("players") == 3))
    per = q._collect(
        fin.filter((pl.col("role") == MAIN) | pl.col("role").is_in(sweep))
        .group_by("role", "game").agg(
            pop=pl.col("score").cast(pl.Float64).mean(),
            rl=pl.col("redlines_up").cast(pl.Float64).mean(),
            s1=pl.col("win_share").filter(pl.col("seat") == 0).sum(),
            winners=pl.col("seat").filter(pl.col("win_share") > 0).sort()
            .cast(pl.Utf8).str.join(","),
        ))
    idx = set()
    for r in sweep:
        idx |= set(per.filter(pl.col("role") == r)["game"].to_list())
    base = per.filter((pl.col("role") == MAIN) & pl.col("game").is_in(sorted(idx)))
    rows = []
    for role in [MAIN] + sorted(sweep, key=lambda s: int(s.split("=")[1])):
        g = base if role == MAIN else per.filter(pl.col("role") == role)
        if g.is_empty():
            continue
        off = 0 if role == MAIN else int(role.split("=")[1])
        x = g["pop"].to_numpy()
        n = len(x)
        se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
        t = float(sps.t.ppf(0.975, n - 1)) if n > 1 else math.nan
        lo1, hi1 = wilson_interval(float(g["s1"].sum()), n)
        row = {"offset": off, "games": n, "mean_pop": float(x.mean()),
               "lo": float(x.mean()) - t * se, "hi": float(x.mean()) + t * se,
               "redlines": float(g["rl"].mean()), "seat1": float(g["s1"].sum()) / n,
               "lo1": float(lo1[0]), "hi1": float(hi1[0]),
               "paired_diff": None, "p_lo": None, "p_hi": None, "same_winner": None}
        if role != MAIN:
            j = g.join(base, on="game", suffix="_0")
            if len(j) > 1:
                d = (j["pop"] - j["pop_0"]).to_numpy()
                sd = float(d.std(ddof=1) / math.sqrt(len(d)))
                tt = float(sps.t.ppf(0.975, len(d) - 1))
                row.update(paired_diff=float(d.mean()), p_lo=float(d.mean()) - tt * sd,
                           p_hi=float(d.mean()) + tt * sd,
                           same_winner=float((j["winners"] == j["winners_0"]).mean()))
        rows.append(row)
    return pl.DataFrame(rows, schema={
        "offset": pl.Int64, "games": pl.Int64, "mean_pop": pl.Float64, "lo": pl.Float64,
        "hi": pl.Float64, "redlines": pl.Float64, "seat1": pl.Float64, "lo1": pl.Float64,
        "hi1": pl.Float64, "paired_diff": pl.Float64, "p_lo": pl.Float64, "p_hi": pl.Float64,
        "same_winner": pl.Float64})


def _roles_in(lf: pl.LazyFrame) -> list[str]:
    return sorted(q._collect(lf.select(pl.col("role").unique()))["role"].to_list())


def first_seat(seats: pl.LazyFrame) -> pl.DataFrame:
    """Main runs: per player count, the first seat's (seat 0 always moves first in Suburbia)
    win rate with Wilson interval, its difference from parity, and the last seat's rate."""
    r = q.seat_win_rates(seats.filter(pl.col("role") == MAIN))
    first = r.filter(pl.col("seat") == 0)
    last = r.filter(pl.col("seat") == pl.col("players") - 1).select(
        "players", pl.col("win_rate").alias("last_rate"), pl.col("lo").alias("last_lo"),
        pl.col("hi").alias("last_hi"))
    return first.join(last, on="players", how="left").sort("players")


# ------------------------------------------------------------------------------ charts -------
_STACK_COLOURS = {"basic": "#8C8C8C", "A": "#4C72B0", "B": "#DD8452", "C": "#55A868"}
_P_MARK = {2: "o", 3: "s", 4: "^"}


def tile_chart(summ: pl.DataFrame, pooled: pl.DataFrame, path: str) -> str:
    """Tile balance: per player count, the bot-adjusted IWD with 95% interval, tiles sorted by
    the pooled value, coloured by stack."""
    main = summ.filter((pl.col("role") == MAIN) & pl.col("adj").is_not_null())
    have = set(main["tile"].to_list())
    order = [t for t in pooled["tile"].to_list() if t in have][::-1]
    if not order:
        return _empty_chart(path, "no tile placements")
    players = sorted(main["players"].unique().to_list())
    fig, axes = plt.subplots(1, len(players), figsize=(4.2 * len(players) + 1.5,
                                                       2 + 0.2 * len(order)),
                             sharey=True, squeeze=False)
    y = {t: i for i, t in enumerate(order)}
    for ax, p in zip(axes[0], players, strict=True):
        g = main.filter(pl.col("players") == p)
        for r in g.iter_rows(named=True):
            c = _STACK_COLOURS[r["stack"]]
            yy = y[r["tile"]]
            ax.plot([r["adj_lo"] * 100, r["adj_hi"] * 100], [yy, yy], color=c, lw=1.4)
            ax.plot(r["adj"] * 100, yy, "o", color=c, ms=3.5)
        ax.axvline(0, color="grey", lw=1)
        ax.set_title(f"{p} players", fontsize=9)
        ax.set_xlabel("IWD, bot-adjusted (points)", fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0][0].set_yticks(range(len(order)), [NAME_OF[t] for t in order], fontsize=7)
    handles = [plt.Line2D([], [], color=c, marker="o", lw=1.4, label=f"stack {s}")
               for s, c in _STACK_COLOURS.items()]
    axes[0][-1].legend(handles=handles, fontsize=7, loc="lower right")
    fig.suptitle("Tile balance: win rate of seats that placed the tile minus the other seats "
                 "of the same games (same bot), 95% intervals", fontsize=9)
    return _save(fig, path)


def market_chart(mk: pl.DataFrame, path: str) -> str:
    """Per tile: share of the games it was offered in in which some seat placed it."""
    main = mk.filter((pl.col("role") == MAIN) & pl.col("take_rate").is_not_null())
    if main.is_empty():
        return _empty_chart(path, "no market data")
    order = (main.group_by("tile").agg(pl.col("take_rate").mean()).sort("take_rate")
             ["tile"].to_list())
    y = {t: i for i, t in enumerate(order)}
    fig, ax = plt.subplots(figsize=(7.5, 2 + 0.19 * len(order)))
    for (p,), g in main.group_by("players", maintain_order=True):
        for r in g.iter_rows(named=True):
            ax.plot(r["take_rate"] * 100, y[r["tile"]], _P_MARK.get(int(p), "o"),
                    color=_STACK_COLOURS[r["stack"]], ms=4, alpha=0.8)
    ax.set_yticks(range(len(order)), [NAME_OF[t] for t in order], fontsize=7)
    ax.set_xlabel("placed by some seat, % of the games in which it was offered")
    handles = [plt.Line2D([], [], color="black", marker=m, ls="", label=f"{p} players")
               for p, m in _P_MARK.items()]
    handles += [plt.Line2D([], [], color=c, marker="s", ls="", label=f"stack {s}")
                for s, c in _STACK_COLOURS.items() if s != "basic"]
    ax.legend(handles=handles, fontsize=7, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    return _save(fig, path)


def goal_chart(gs: pl.DataFrame, path: str) -> str:
    """Goal balance: bot-adjusted win-rate difference of achievers, public and private, per
    player count."""
    main = gs.filter((pl.col("role") == MAIN) & pl.col("adj").is_not_null())
    if main.is_empty():
        return _empty_chart(path, "no goals in play")
    kinds = [k for k in ("public", "private") if k in set(main["kind"].to_list())]
    fig, axes = plt.subplots(1, len(kinds), figsize=(6.2 * len(kinds), 6.5), squeeze=False)
    names = {s: n for _, n, s, _ in GOALS}
    for ax, kind in zip(axes[0], kinds, strict=True):
        g = main.filter(pl.col("kind") == kind)
        order = g.group_by("goal").agg(pl.col("adj").mean()).sort("adj")["goal"].to_list()
        y = {t: i for i, t in enumerate(order)}
        for r in g.iter_rows(named=True):
            yy = y[r["goal"]] + (int(r["players"]) - 3) * 0.22
            ax.plot([r["adj_lo"] * 100, r["adj_hi"] * 100], [yy, yy], color="#4C72B0", lw=1.2)
            ax.plot(r["adj"] * 100, yy, _P_MARK.get(int(r["players"]), "o"), color="#4C72B0",
                    ms=4)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(range(len(order)), [names[t] for t in order], fontsize=8)
        ax.set_xlabel("win rate achievers - other in-play seats, bot-adjusted (points)",
                      fontsize=8)
        ax.set_title(f"{kind} goals", fontsize=9)
    handles = [plt.Line2D([], [], color="#4C72B0", marker=m, ls="", label=f"{p} players")
               for p, m in _P_MARK.items()]
    axes[0][-1].legend(handles=handles, fontsize=7, loc="lower right")
    return _save(fig, path)


def tips_chart(tips: pl.DataFrame, path: str) -> str:
    """Forest plot of the tip tests: every mix and player count, stratified differences."""
    d = tips.filter(pl.col("diff").is_not_null()).sort("test", "role", "players")
    if d.is_empty():
        return _empty_chart(path, "no tip tests")
    labels, ys, k = [], [], 0
    fig, ax = plt.subplots(figsize=(9, 1.5 + 0.22 * len(d)))
    colours = {MAIN: "#4C72B0", DENY: "#C44E52", "mix:archetypes": "#55A868"}
    for r in d.iter_rows(named=True):
        c = colours.get(r["role"], "#8C8C8C")
        lw = 2.2 if r["players"] == "all" else 1.0
        ax.plot([r["lo"] * 100, r["hi"] * 100], [k, k], color=c, lw=lw)
        ax.plot(r["diff"] * 100, k, "D" if r["players"] == "all" else "o", color=c, ms=4)
        p = "all players" if r["players"] == "all" else f"{r['players']}p"
        labels.append(f"{r['test']} [{MIX_LABELS.get(r['role'], r['role'])}, {p}]")
        ys.append(k)
        k += 1
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(ys, labels, fontsize=6.5)
    ax.invert_yaxis()
    ax.set_xlabel("win-rate difference (points), stratified by bot (and player count)")
    return _save(fig, path)


def archetype_chart(prof: pl.DataFrame, path: str) -> str:
    """Win rate of each bot per player count with Wilson intervals: main pool (filled) and the
    archetype-only mix (hollow); dashed = parity."""
    if prof.is_empty():
        return _empty_chart(path, "no strategies")
    names = sorted(prof["strategy"].unique().to_list())
    players = sorted(prof["players"].unique().to_list())
    fig, axes = plt.subplots(1, len(players), figsize=(4.3 * len(players), 4.2),
                             sharey=True, squeeze=False)
    for ax, p in zip(axes[0], players, strict=True):
        for j, (role, fill) in enumerate(((MAIN, True), ("mix:archetypes", False),
                                          (DENY, False))):
            g = prof.filter((pl.col("role") == role) & (pl.col("players") == p))
            for r in g.iter_rows(named=True):
                yy = names.index(r["strategy"]) + (j - 1) * 0.2
                c = ["#4C72B0", "#55A868", "#C44E52"][j]
                ax.plot([r["lo"] * 100, r["hi"] * 100], [yy, yy], color=c, lw=1.2)
                ax.plot(r["win_rate"] * 100, yy, "o", color=c, ms=5,
                        mfc=c if fill else "white")
        ax.axvline(100 / p, ls="--", color="grey", lw=1)
        ax.set_title(f"{p} players (parity {100 / p:.3g}%)", fontsize=9)
        ax.set_xlabel("win rate (%)")
    axes[0][0].set_yticks(range(len(names)), names, fontsize=8)
    handles = [plt.Line2D([], [], color=c, marker="o", mfc=c if f else "white", ls="",
                          label=MIX_LABELS[r])
               for r, c, f in ((MAIN, "#4C72B0", True), ("mix:archetypes", "#55A868", False),
                               (DENY, "#C44E52", False))]
    axes[0][-1].legend(handles=handles, fontsize=7, loc="lower right")
    return _save(fig, path)


def components_chart(comp: pl.DataFrame, pops: pl.DataFrame, path: str) -> str:
    """Left: mean population of winners and other seats split into track, goals and money,
    per player count (main). Right: final population histograms, winners vs others."""
    main = comp.filter(pl.col("role") == MAIN)
    if main.is_empty():
        return _empty_chart(path, "no finished games")
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4.3))
    labels, x = [], 0
    for r in main.sort("players", "winner", descending=[False, True]).iter_rows(named=True):
        b = 0.0
        for c, col in (("track_pop", "#4C72B0"), ("goals_pop", "#DD8452"),
                       ("money_pop", "#55A868")):
            a1.bar(x, r[c], bottom=b, color=col, width=0.7,
                   label=c.replace("_pop", "") if x == 0 else None)
            b += r[c]
        labels.append(f"{r['players']}p {'winners' if r['winner'] else 'others'}")
        x += 1
    a1.set_xticks(range(x), labels, rotation=30, ha="right", fontsize=8)
    a1.set_ylabel("mean final population")
    a1.legend(fontsize=8)
    for (p, w), g in pops.group_by("players", "winner", maintain_order=True):
        v = g["score"].to_numpy().astype(float)
        c = g["count"].to_numpy().astype(float)
        edges = np.arange(0, max(v.max() + 10, 20), 5)
        h, e = np.histogram(v, bins=edges, weights=c)
        a2.step(e[:-1], h / h.sum(), where="post",
                ls="-" if w else "--", color={2: "#4C72B0", 3: "#DD8452", 4: "#55A868"}
                .get(int(p), "grey"), label=f"{p}p {'winners' if w else 'others'}")
    a2.set_xlabel("final population (bins of 5)")
    a2.set_ylabel("share of seat-games")
    a2.legend(fontsize=7)
    return _save(fig, path)


def _empty_chart(path: str, message: str) -> str:
    fig, ax = plt.subplots(figsize=(5, 1.6))
    ax.axis("off")
    ax.text(0.5, 0.5, message, ha="center", va="center")
    return _save(fig, path)


# ------------------------------------------------------------------------------ the report ---
def _fmt_diff(r: dict) -> str:
    return f"{_pts(r['diff'])} {_ci(r['lo'], r['hi'])}"


def _q(x) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return "< 0.0001" if x < 1e-4 else f"{x:.4f}"


def _fmt_adj(r: dict) -> str:
    return f"{_pts(r['adj'])} {_ci(r['adj_lo'], r['adj_hi'])}"


def _tile_list(df: pl.DataFrame) -> str:
    return "; ".join(
        f"**{NAME_OF[r['tile']]}** ({r['stack']}) {_fmt_adj(r)}"
        + ("" if (r["q"] is not None and r["q"] < 0.05) else " (not significant after BH)")
        for r in df.iter_rows(named=True))


def extend_report(ctx) -> None:
    """Add the Suburbia sections and headline answers to the report (see module doc)."""
    seats = with_role(ctx.seats, ctx.roles)
    games = with_role(ctx.games, ctx.roles)
    roles = _roles_in(seats)
    doc = ctx.doc
    out = ctx.out_dir

    doc.h(2, "Suburbia: how the runs are used")
    mixes = [r for r in roles if not r.startswith("sweep:")]
    doc.p("Every table above (seat win rates, strategies, matchups, the generic tile and "
          "investment sections) uses the **main** runs only: 2, 3 and 4 players, every seat "
          "drawn from the pool of all seven bots (so the header's note on pooling runs of one "
          "player count applies to the main runs only: there is one main run per player "
          "count). The sections below also use the other runs "
          "of the plan: "
          + "; ".join(f"`{r}` = {MIX_LABELS.get(r, r)}" for r in mixes if r != MAIN)
          + ("; " if len(mixes) > 1 else "")
          + "`sweep:red_line_offset=K` = the main 3-player pool and seed with that rule option. "
          "**Robust** = the finding passes Benjamini-Hochberg control at q < 0.05 in the main "
          "mix and its difference keeps its sign in at least one other bot mix. Differences "
          "are win-rate points (1 point = 1% of seat-games); intervals are 95%.")

    # ---- first seat ---------------------------------------------------------------------
    fs = first_seat(seats)
    items = []
    for r in fs.iter_rows(named=True):
        p = int(r["players"])
        items.append(f"{p}p: Seat 1 wins {pct(r['win_rate'])} {_ci(r['lo'], r['hi'])} vs "
                     f"parity {100 / p:.1f}% ({_pts(r['win_rate'] - 1 / p)} points), last seat "
                     f"{pct(r['last_rate'])} {_ci(r['last_lo'], r['last_hi'])}; "
                     f"n = {r['n']:,}")
    if items:
        ctx.headline("**First-seat advantage** (Seat 1 always starts): " + "; ".join(items)
                     + ".", "First seat: " + "; ".join(
                         f"{r['players']}p {pct(r['win_rate'])} {_ci(r['lo'], r['hi'])}"
                         for r in fs.iter_rows(named=True)))

    # ---- tiles --------------------------------------------------------------------------
    mk = tile_market(_mixes(seats))
    bal = tile_balance(_mixes(seats))
    summ = tile_summary(bal)
    main_t = _robust(summ, ["players", "tile"])
    pooled = pooled_main(tile_summary(bal, pooled=True))
    doc.h(2, "Suburbia: tile balance")
    doc.p("For each tile: how often it entered the market (offered, share of games), how often "
          "some seat then placed it (taken, share of the games it was offered in), investment "
          "markers put on it (share of the seats that placed it), the mean round of a seat's "
          "first placement, and its **IWD** (17lands' idea): among the games in which some "
          "seat placed it, the win rate of the seats that placed it minus that of the other "
          "seats of those games. \"Crude\" compares all seats (Newcombe 95% interval); "
          "**bot-adjusted** compares seats of the same bot only (the six scripted bots; the "
          "`random` bot, which buys what the others leave and almost never wins, is left out) "
          "and combines the bots with Mantel-Haenszel weights (Wald 95% interval). q = "
          "Benjamini-Hochberg adjusted p-value of the bot-adjusted difference over every tile "
          "and player count of the main mix; \"Other mixes\" = signs of the bot-adjusted "
          "difference in the greedy + denier and archetype mixes. Basic tiles come from the "
          "supply (not offered). Caution: this is an association; an expensive tile that comes "
          "late (stack C) is bought by the seat that is already rich, so it looks strong "
          "partly for that reason.")
    top = pooled.filter(pl.col("adj").is_not_null() & (pl.col("adj_n1") >= MIN_RANK_N))
    rare = pooled.filter(pl.col("adj_n1").fill_null(0) < MIN_RANK_N)["tile"].to_list()
    if not top.is_empty():
        doc.p("**Pooled over 2-4 players** (bot-adjusted IWD, strata = bot x player count), "
              f"five strongest and five weakest of the tiles placed at least {MIN_RANK_N} "
              "times by the scripted bots"
              + (f" (left out as too rare: {', '.join(NAME_OF[t] for t in rare)})"
                 if rare else "") + ":")
        doc.table(Table(
            ["Tile", "Stack", "n placed", "n others", "IWD (points)", "95% CI", "q (BH)",
             "Crude IWD", "95% CI"],
            [[NAME_OF[r["tile"]], r["stack"], _count(r["adj_n1"]), _count(r["adj_n0"]),
              _pts(r["adj"]), _ci(r["adj_lo"], r["adj_hi"]), _q(r["q"]), _pts(r["diff"]),
              _ci(r["lo"], r["hi"])]
             for r in pl.concat([top.head(5), top.tail(5)]).iter_rows(named=True)],
            [False, False, True, True, True, True, True, True, True]))
        ctx.headline("**Strongest tiles** (IWD, bot-adjusted, pooled over 2-4 players, main "
                     "mix): " + _tile_list(top.head(5)) + ".",
                     "Strongest tiles: " + ", ".join(
                         f"{NAME_OF[r['tile']]} {_fmt_adj(r)}"
                         for r in top.head(5).iter_rows(named=True)))
        ctx.headline("**Weakest tiles**: " + _tile_list(top.tail(5).reverse()) + ".",
                     "Weakest tiles: " + ", ".join(
                         f"{NAME_OF[r['tile']]} {_fmt_adj(r)}"
                         for r in top.tail(5).reverse().iter_rows(named=True)))
        parts = []
        for st in ("A", "B", "C"):
            g = top.filter(pl.col("stack") == st)
            if len(g) >= 2:
                hi_, lo_ = g.row(0, named=True), g.row(len(g) - 1, named=True)
                parts.append(f"{st}: best {NAME_OF[hi_['tile']]} {_fmt_adj(hi_)}, worst "
                             f"{NAME_OF[lo_['tile']]} {_fmt_adj(lo_)} (stack median "
                             f"{_pts(float(g['adj'].median()))})")
        if parts:
            ctx.headline("**Tiles within their stack** (the IWD grows from stack A to C: "
                         "late, dear tiles are bought by the seats already ahead, so compare "
                         "a tile with its own stack): " + "; ".join(parts) + ".")
    mkm = mk.filter(pl.col("role") == MAIN)
    for p in sorted(main_t["players"].unique().to_list()):
        g = (main_t.filter(pl.col("players") == p)
             .join(mkm.filter(pl.col("players") == p).drop("stack", "role"),
                   on=["players", "tile"], how="left")
             .sort("adj", descending=True, nulls_last=True))
        doc.h(3, f"Tiles at {p} players")
        doc.table(Table(
            ["Tile", "Stack", "Offered", "Taken when offered", "Invested", "Mean round",
             "n placed", "Win rate placed", "n others", "Win rate others", "Crude IWD",
             "95% CI", "Bot-adjusted IWD", "95% CI", "q (BH)", "Other mixes", "Robust"],
            [[NAME_OF[r["tile"]], r["stack"],
              "supply" if r["offered_rate"] is None else pct(r["offered_rate"]),
              "n/a" if r["take_rate"] is None else pct(r["take_rate"]),
              pct(r["invest_rate"]), _num(r["mean_round"]), _count(r["n1"]),
              pct(r["rate_with"]), _count(r["n0"]), pct(r["rate_without"]), _pts(r["diff"]),
              _ci(r["lo"], r["hi"]), _pts(r["adj"]), _ci(r["adj_lo"], r["adj_hi"]),
              _q(r["q"]), r["other_signs"] or "-", "**robust**" if r["robust"] else ""]
             for r in g.iter_rows(named=True)],
            [False, False] + [True] * 13 + [False, False]))
    ctx.add_chart("suburbia_tiles", tile_chart(summ, pooled, os.path.join(
        out, "suburbia_tiles.png")))
    doc.img("suburbia_tiles.png", "Tile balance (bot-adjusted IWD) with 95% intervals")
    ctx.add_chart("suburbia_market", market_chart(mk, os.path.join(out, "suburbia_market.png")))
    doc.img("suburbia_market.png", "How often a tile is placed when it is offered")

    # ---- goals --------------------------------------------------------------------------
    gb = goal_balance(_mixes(seats))
    gs = goal_summary(gb)
    main_g = _robust(gs, ["players", "goal", "kind"])
    gnames = {s: n for _, n, s, _ in GOALS}
    doc.h(2, "Suburbia: goals")
    doc.p("Seats for which the goal was in play only (`goal_*` = -1, not in play, is left "
          "out). A public goal is in play for every seat of the games it was dealt in; its "
          "achievement rate is the share of those games in which one seat was strictly best "
          "(and scored it). A private goal is in play for its owner only; its rate is the "
          "share of owners who scored it, and n in play = how often it was kept. Win-rate "
          "difference = achievers minus the other in-play seats: crude (all seats, Newcombe "
          "95%) and bot-adjusted (same bot, random left out, Mantel-Haenszel, Wald 95%); "
          "q = BH of the bot-adjusted difference over every goal, type and player count of "
          "the main mix.")
    doc.table(Table(
        ["Players", "Goal", "Type", "Bonus", "n in play", "Achieved", "Win rate achievers",
         "Win rate others", "Crude (points)", "95% CI", "Bot-adjusted (points)", "95% CI",
         "q (BH)", "Other mixes", "Robust"],
        [[str(r["players"]), gnames[r["goal"]], r["kind"], str(r["bonus"]),
          _count(r["in_play"]), pct(r["achieve_rate"]), pct(r["rate_with"]),
          pct(r["rate_without"]), _pts(r["diff"]), _ci(r["lo"], r["hi"]), _pts(r["adj"]),
          _ci(r["adj_lo"], r["adj_hi"]), _q(r["q"]), r["other_signs"] or "-",
          "**robust**" if r["robust"] else ""]
         for r in main_g.sort("players", "kind", "adj", descending=[False, True, True],
                              nulls_last=True).iter_rows(named=True)],
        [True, False, False] + [True] * 10 + [False, False]))
    items = []
    pooled_g = goal_summary(gb, pooled=True)
    for kind in ("public", "private"):
        pg = pooled_main(pooled_g.filter(pl.col("kind") == kind)).filter(
            pl.col("adj").is_not_null() & (pl.col("adj_n1") >= MIN_RANK_N))
        if pg.is_empty():
            continue
        b, w = pg.row(0, named=True), pg.row(len(pg) - 1, named=True)
        items.append(
            f"{kind}: strongest **{gnames[b['goal']]}** {_fmt_adj(b)} (scored in "
            f"{pct(b['achieve_rate'])} of {'games' if kind == 'public' else 'owners'}, "
            f"q {_q(b['q'])}), weakest **{gnames[w['goal']]}** {_fmt_adj(w)} (scored in "
            f"{pct(w['achieve_rate'])}, q {_q(w['q'])})")
        doc.p(f"**{kind.capitalize()} goals pooled over 2-4 players** (bot-adjusted, strata = "
              f"bot x player count; goals scored at least {MIN_RANK_N} times by the scripted "
              "bots):")
        doc.table(Table(
            ["Goal", "Bonus", "n in play", "Achieved", "n achievers", "n others",
             "Difference (points)", "95% CI", "q (BH)"],
            [[gnames[r["goal"]], str(r["bonus"]), _count(r["in_play"]),
              pct(r["achieve_rate"]), _count(r["adj_n1"]), _count(r["adj_n0"]),
              _pts(r["adj"]), _ci(r["adj_lo"], r["adj_hi"]), _q(r["q"])]
             for r in pg.iter_rows(named=True)],
            [False, True, True, True, True, True, True, True, True]))
    if items:
        ctx.headline("**Goals** (win-rate difference of the seat that scored it vs the other "
                     "in-play seats, bot-adjusted, pooled over 2-4 players): "
                     + "; ".join(items) + ".",
                     "Goals: " + "; ".join(i.replace("**", "") for i in items))
    ctx.add_chart("suburbia_goals", goal_chart(gs, os.path.join(out, "suburbia_goals.png")))
    doc.img("suburbia_goals.png", "Goal balance (bot-adjusted) with 95% intervals")

    # ---- tips ---------------------------------------------------------------------------
    tips = tip_tests(seats)
    doc.h(2, "Suburbia: the rulebook's tips as claims")
    doc.p("Each tip is turned into a comparison of win rates, stratified by bot (and by player "
          "count in the \"all\" rows; Mantel-Haenszel weights, Wald 95% interval) so that a "
          "bot's style does not pass for the tip's effect; \"crude\" is the unstratified "
          "difference. q = BH over the five main-mix pooled tests. Definitions: "
          f"**income-first** = at least 2 distinct income-raising tiles (a tile with an "
          f"immediate or conditional +Income: {len(INCOME_SLUGS)} kinds, Heavy Factory "
          f"included) first placed in rounds 1-{EARLY_ROUNDS}; **early population rush** = a "
          f"tile worth +{RUSH_POP} or more Population at once ("
          + ", ".join(NAME_OF[s] for s in RUSH_SLUGS) + f") placed in rounds 1-{RUSH_ROUNDS}; "
          "**fell back below a red line** = population dropped back across a red line at "
          "least once (negative reputation or unpaid income), so that line is paid for again "
          "on the way up; **deny**: the `denier` bot is `greedy` except that after a basic "
          "tile or an investment it discards the tile the next seat values most (the tip), "
          "instead of the cheapest; its victims are the seats right after it. These are "
          "associations for the detail-column tests (a seat with a good early market both "
          "raises income and wins); the deny test compares two bots that differ only in the "
          "tip, so it is an experiment.")
    items = []
    tipnames = {"income": "Income early", "red lines": "Watch the red lines",
                "deny": "Deny the next player"}
    for tip in ("income", "red lines", "deny"):
        parts, short = [], []
        for test, (t, _, role) in TIP_TESTS.items():
            sub = tips.filter((pl.col("test") == test) & (pl.col("players") == "all"))
            row = sub.filter(pl.col("role") == role)
            if t != tip or row.is_empty():
                continue
            r = row.row(0, named=True)
            others = sub.filter((pl.col("role") != role) & (pl.col("n1") >= MIN_N)
                                & (pl.col("n0") >= MIN_N)).to_dicts()
            v = verdict(test, r, others)
            parts.append(
                f"*{test}* ({MIX_LABELS.get(role, role)}, 2-4 players): {_fmt_diff(r)} "
                f"(n = {r['n1']:,} vs {r['n0']:,}; crude {_pts(r['crude'])}; q {_q(r['q'])}) "
                f"— **{v}**")
            short.append(f"{test} {_fmt_diff(r)} {v}")
        if parts:
            items.append(f"**{tipnames[tip]}**: " + "; ".join(parts))
            ctx.headline(f"Rulebook tip — {items[-1]}.",
                         f"Tip '{tipnames[tip]}': " + "; ".join(short))
    doc.ul(items)
    doc.table(Table(
        ["Test", "Bot mix", "Players", "n exposed", "n others", "Difference (points)",
         "95% CI", "Crude (points)", "p", "q (BH)"],
        [[r["test"], MIX_LABELS.get(r["role"], r["role"]), r["players"], _count(r["n1"]),
          _count(r["n0"]), _pts(r["diff"]), _ci(r["lo"], r["hi"]), _pts(r["crude"]),
          _q(r["p"]), _q(r["q"])]
         for r in tips.iter_rows(named=True)],
        [False, False, True, True, True, True, True, True, True, True]))
    comp = score_components(_mixes(seats))
    rl = comp.filter(pl.col("role") == MAIN)
    doc.p("**Red-line crossings** (main mix, mean upward crossings per seat, winners vs "
          "others): " + "; ".join(
              f"{r['players']}p {'winners' if r['winner'] else 'others'} "
              f"{_num(r['redlines_up'], 2)}" for r in rl.iter_rows(named=True)) + ".")
    ctx.add_chart("suburbia_tips", tips_chart(tips, os.path.join(out, "suburbia_tips.png")))
    doc.img("suburbia_tips.png", "Tip tests: stratified win-rate differences")

    # ---- red-line offset ------------------------------------------------------------------
    off = offset_effect(seats, games)
    if not off.is_empty():
        doc.h(3, "The red-line offset option (3 players)")
        doc.p("Option `red_line_offset` shifts every red line (rule D1; -1 = the FastAPI "
              "convention). Each sweep run replays the first games of the main 3-player run "
              "(same deals, same bots in the same seats) under the shifted lines, so the "
              "difference in mean final population per seat is paired game by game (t "
              "interval); \"same winner\" = share of games won by the same seat(s).")
        doc.table(Table(
            ["Offset", "Games", "Mean population per seat", "95% CI",
             "Red lines crossed per seat", "Seat 1 win rate", "95% CI",
             "Paired difference vs 0", "95% CI", "Same winner as offset 0"],
            [[f"{r['offset']:+d}" if r["offset"] else "0 (main)", _count(r["games"]),
              _num(r["mean_pop"], 2), f"[{_num(r['lo'], 2)}, {_num(r['hi'], 2)}]",
              _num(r["redlines"], 2), pct(r["seat1"]), _ci(r["lo1"], r["hi1"]),
              "-" if r["paired_diff"] is None else f"{r['paired_diff']:+.2f}",
              "-" if r["p_lo"] is None else f"[{r['p_lo']:+.2f}, {r['p_hi']:+.2f}]",
              "-" if r["same_winner"] is None else pct(r["same_winner"])]
             for r in off.iter_rows(named=True)],
            [False] + [True] * 9))

    # ---- archetypes ---------------------------------------------------------------------
    prof = strategy_profile(seats)
    doc.h(2, "Suburbia: strategy archetypes")
    doc.p("Per bot: win rate (Wilson 95%), its difference from `greedy` in the same mix "
          "(Newcombe 95%), and what its boroughs look like at the end (means per seat-game: "
          "final population and its parts, income, reputation, red lines crossed, "
          "investments, Lakes, tiles of each type). The three archetypes are greedy with "
          "class affinities (spec §9); the archetype-only mix pits them against each other.")
    for role in [r for r in (MAIN, "mix:archetypes", DENY) if r in roles]:
        g = prof.filter(pl.col("role") == role)
        doc.p(f"**{MIX_LABELS.get(role, role)}:**")
        doc.table(Table(
            ["Players", "Bot", "n", "Win rate", "95% CI", "vs greedy (points)", "95% CI",
             "Population", "Track", "Goals", "Money", "Income", "Reputation", "Red lines",
             "Invest.", "Lakes", "R/C/I/V tiles"],
            [[str(r["players"]), f"`{r['strategy']}`", _count(r["n"]), pct(r["win_rate"]),
              _ci(r["lo"], r["hi"]), "-" if r["d_greedy"] is None else _pts(r["d_greedy"]),
              "-" if r["d_greedy"] is None else _ci(r["d_lo"], r["d_hi"]),
              _num(r.get("mean_score")), _num(r.get("mean_track_pop")),
              _num(r.get("mean_goals_pop")), _num(r.get("mean_money_pop")),
              _num(r.get("mean_final_income")), _num(r.get("mean_final_reputation")),
              _num(r.get("mean_redlines_up")), _num(r.get("mean_investments")),
              _num(r.get("mean_lakes")),
              "/".join(_num(r.get(f"mean_n_{t}")) for t in "RCIV")]
             for r in g.iter_rows(named=True)],
            [True, False] + [True] * 15))
    arche = prof.filter((pl.col("role") == MAIN) & pl.col("strategy").is_in(
        ["residential-civic", "industrial-airports", "commercial"]))
    if not arche.is_empty():
        parts = []
        for (p,), g in arche.group_by("players", maintain_order=True):
            g = g.sort("win_rate", descending=True)
            parts.append(f"{p}p " + " > ".join(
                f"`{r['strategy']}` {pct(r['win_rate'])} {_ci(r['lo'], r['hi'])}"
                for r in g.iter_rows(named=True)))
        ctx.headline("**Archetypes** (main mix win rates): " + "; ".join(parts) + ".")
    ctx.add_chart("suburbia_archetypes", archetype_chart(
        prof, os.path.join(out, "suburbia_archetypes.png")))
    doc.img("suburbia_archetypes.png", "Win rate per bot and mix")

    # ---- score components ---------------------------------------------------------------
    dec = decided_by(_mixes(seats))
    doc.h(2, "Suburbia: score components")
    doc.p("Final population = the track (tiles, reputation, red lines) + goal bonuses + "
          "money converted at $5 per person. Means per seat-game, winners vs the other seats; "
          "\"decided by goals\" = games in which, before the goal bonuses, some losing seat was "
          "strictly ahead of every winner (likewise before the money conversion).")
    doc.table(Table(
        ["Bot mix", "Players", "Seats", "n", "Population", "Track", "Goals", "Money",
         "Goals share"],
        [[MIX_LABELS.get(r["role"], r["role"]), str(r["players"]),
          "winners" if r["winner"] else "others", _count(r["n"]), _num(r["score"]),
          _num(r["track_pop"]), _num(r["goals_pop"]), _num(r["money_pop"]),
          pct(r["goals_pop"] / r["score"] if r["score"] else None)]
         for r in comp.iter_rows(named=True)],
        [False, True, False] + [True] * 6))
    doc.table(Table(
        ["Bot mix", "Players", "Games", "Decided by goals", "95% CI", "Decided by money",
         "95% CI"],
        [[MIX_LABELS.get(r["role"], r["role"]), str(r["players"]), _count(r["games"]),
          pct(r["by_goals_rate"]), _ci(r["by_goals_lo"], r["by_goals_hi"]),
          pct(r["by_money_rate"]), _ci(r["by_money_lo"], r["by_money_hi"])]
         for r in dec.iter_rows(named=True)],
        [False, True, True, True, True, True, True]))
    dm = dec.filter(pl.col("role") == MAIN)
    if not dm.is_empty():
        ctx.headline("**Goals decide games**: the goal bonuses change the winner in " + "; ".join(
            f"{r['players']}p {pct(r['by_goals_rate'])} {_ci(r['by_goals_lo'], r['by_goals_hi'])}"
            for r in dm.iter_rows(named=True)) + " of games (main mix; winners' goal share "
            + ", ".join(f"{r['players']}p {pct(r['goals_pop'] / r['score'])}"
                        for r in comp.filter((pl.col("role") == MAIN) & pl.col("winner"))
                        .iter_rows(named=True)) + ").")
    pops = q._collect(seats.filter(q._finished_seat() & (pl.col("role") == MAIN))
                      .with_columns(winner=pl.col("win_share") > 0)
                      .group_by("players", "winner", "score").agg(count=pl.len())
                      ).sort("players", "winner", "score", descending=[False, True, False])
    ctx.add_chart("suburbia_score_components", components_chart(
        comp, pops, os.path.join(out, "suburbia_score_components.png")))
    doc.img("suburbia_score_components.png", "Score components and final population")
    doc.p("Not shown: population-track trajectories over the game (the results table keeps "
          "end-of-game values only, docs/games/suburbia.md §13).")
