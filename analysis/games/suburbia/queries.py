"""Suburbia queries: tile and goal balance (17lands IWD, crude and bot-adjusted), the tips as
tests, strategy profiles, score components and the red-line offset; the robust mark."""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import polars as pl

from analysis import queries as q
from analysis.games.suburbia.data import (
    DENY,
    EARLY_ROUNDS,
    GOALS,
    INCOME_SLUGS,
    MAIN,
    MIN_N,
    RUSH_ROUNDS,
    RUSH_SLUGS,
    STACK_OF,
    TILES,
)
from analysis.stats import (
    Z95,
    bh_adjust,
    mh_difference,
    newcombe_difference,
    normal_pvalue,
    rate,
    t_value,
    wilson_interval,
)

__all__ = [
    "summarise", "robust", "with_role", "mixes", "tile_market", "tile_balance", "tile_summary",
    "pooled_main", "goal_balance", "goal_summary", "tile_clusters", "goal_clusters",
    "cluster_sums_by", "seat_features", "deny_tables", "deny_rows",
    "TIP_SCHEMA", "TIP_TESTS", "tip_tests", "verdict", "strategy_profile", "score_components",
    "decided_by", "offset_effect", "roles_in", "first_seat",
]


def mh_clipped(w1, n1, w0, n0) -> dict:
    """``analysis.stats.mh_difference`` with its Wald interval clipped to [-1, 1], the range of
    a difference of two rates (issue 16: an "impossible" interval [-102.9, -17.1] points)."""
    r = mh_difference(w1, n1, w0, n0)
    if r["lo"] == r["lo"]:
        r["lo"] = max(r["lo"], -1.0)
    if r["hi"] == r["hi"]:
        r["hi"] = min(r["hi"], 1.0)
    return r


def summarise(df: pl.DataFrame, keys: list[str], exclude: tuple = ("random",),
              clusters: pl.DataFrame | None = None) -> pl.DataFrame:
    """Collapse per-bot counts (``strategy`` column with n1/w1/n0/w0) to one row per ``keys``:
    the crude difference over all seats (n1/w1/n0/w0 totals, rate_with, rate_without,
    diff/lo/hi, p) and the **bot-adjusted** difference: seats of the bots not
    in ``exclude`` only, stratified by bot and by every column of ``df`` not in ``keys``
    (e.g. players), Mantel-Haenszel weights: adj/adj_lo/adj_hi/adj_p, adj_n1/adj_n0.

    ``clusters`` (``cluster_sums_by``'s frame for the same rows): the crude interval and p are
    **clustered by game** (the seats of one game are not independent), and the adjusted
    interval is widened by the same design effect (the ratio of the clustered to the
    independent standard error of the crude difference; ``deff`` column). Without it: Newcombe
    and the z-test, seats treated as independent."""
    tot = df.group_by(keys, maintain_order=True).agg(pl.col(["n1", "n0"]).sum(),
                                                     pl.col(["w1", "w0"]).sum())
    tot = q.with_difference(tot)
    if clusters is not None:
        tot = _clustered_crude(tot, clusters, keys)
    rows = []
    strata = df.filter(~pl.col("strategy").is_in(list(exclude)))
    for k, g in strata.group_by(keys, maintain_order=True):
        r = mh_clipped(g["w1"], g["n1"], g["w0"], g["n0"])
        rows.append({**dict(zip(keys, k, strict=True)), "adj": r["diff"], "adj_lo": r["lo"],
                     "adj_hi": r["hi"], "adj_p": r["p"], "adj_n1": r["n1"],
                     "adj_n0": r["n0"]})
    schema = {k: df.schema[k] for k in keys} | {
        "adj": pl.Float64, "adj_lo": pl.Float64, "adj_hi": pl.Float64, "adj_p": pl.Float64,
        "adj_n1": pl.Int64, "adj_n0": pl.Int64}
    adj = pl.DataFrame(rows, schema=schema).with_columns(
        pl.col(["adj", "adj_lo", "adj_hi", "adj_p"]).fill_nan(None))
    out = tot.join(adj, on=keys, how="left", nulls_equal=True)
    if clusters is not None:
        f = pl.col("deff").fill_null(1.0)
        se = (pl.col("adj_hi") - pl.col("adj_lo")) / (2 * Z95) * f
        out = out.with_columns(adj_lo=pl.col("adj") - Z95 * se, adj_hi=pl.col("adj") + Z95 * se)
        out = out.with_columns(adj_p=pl.struct("adj", "adj_lo", "adj_hi").map_elements(
            lambda r: (normal_pvalue(r["adj"], (r["adj_hi"] - r["adj_lo"]) / (2 * Z95))
                       if r["adj"] is not None and r["adj_lo"] is not None else None),
            return_dtype=pl.Float64))
        out = out.with_columns(adj_lo=pl.max_horizontal(pl.col("adj_lo"), pl.lit(-1.0)),
                               adj_hi=pl.min_horizontal(pl.col("adj_hi"), pl.lit(1.0)))
    return out


def cluster_sums_by(lf: pl.LazyFrame, keys: list[str],
                    specs: dict[str, tuple[pl.Expr, pl.Expr]], name: str) -> pl.DataFrame:
    """Per ``keys`` and spec (a column ``name`` holding the spec's key): the sums over games
    that a difference clustered by game needs (``queries.cluster_sums``), for the seats of
    ``lf`` (finished seat rows with run and game) where ``specs[k] = (with, population)``:
    the seats of the population that are "with" against the others of the population.
    Additive over ``keys`` (pooling player counts sums the rows)."""
    share = pl.col("win_share").cast(pl.Float64)
    per_game, sums = [], []
    for i, (w, pop) in enumerate(specs.values()):
        w1 = w & pop
        per_game += [w1.sum().cast(pl.Float64).alias(f"n1{i}"),
                     pl.when(w1).then(share).otherwise(0.0).sum().alias(f"s1{i}"),
                     pop.sum().cast(pl.Float64).alias(f"na{i}"),
                     pl.when(pop).then(share).otherwise(0.0).sum().alias(f"sa{i}")]
        n1, s1 = pl.col(f"n1{i}"), pl.col(f"s1{i}")
        sums += q.cluster_sums(n1, s1, pl.col(f"na{i}") - n1, pl.col(f"sa{i}") - s1, f"_{i}")
        sums.append((pl.col(f"na{i}") > 0).sum().cast(pl.Float64).alias(f"g_{i}"))
    agg = q.collect(lf.group_by(*keys, "run", "game").agg(per_game).group_by(keys).agg(sums))
    frames = []
    for i, k in enumerate(specs):
        cols = [f"{p}_{i}" for p in (*q.PRODUCTS, "g")]
        frames.append(agg.select(*keys, *[pl.col(c).alias(c[: -len(f"_{i}")] + "_")
                                          for c in cols]).with_columns(pl.lit(k).alias(name)))
    return pl.concat(frames) if frames else pl.DataFrame()


def _clustered_crude(tot: pl.DataFrame, clusters: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """``tot`` (per ``keys``, Newcombe columns) with diff/lo/hi/p clustered by game from
    ``clusters`` (``cluster_sums_by``, summed to ``keys``) and ``deff`` (clustered / independent
    standard error)."""
    c = clusters.group_by(keys).agg(pl.all().exclude(keys).sum())
    j = tot.join(c, on=keys, how="left", nulls_equal=True)
    out = {k: [] for k in ("diff", "lo", "hi", "p", "deff")}
    for r in j.iter_rows(named=True):
        if r.get("g_") is None:
            for k in ("diff", "lo", "hi", "p"):
                out[k].append(r[k])
            out["deff"].append(None)
            continue
        sums = (r, "_", r["g_"], r["n1"], r["w1"], r["n0"], r["w0"])
        d, lo, hi, p = q.clustered_from_sums(*sums)  # clipped to [-1, 1]
        _, ulo, uhi, _ = q.clustered_from_sums(*sums, bound=None)  # the design effect: unclipped
        naive = (r["hi"] - r["lo"]) if r["hi"] is not None and r["lo"] is not None else None
        out["deff"].append((uhi - ulo) / naive if naive and uhi == uhi else None)
        for k, v in (("diff", d), ("lo", lo), ("hi", hi), ("p", p)):
            out[k].append(v)
    return tot.with_columns(*(pl.Series(k, v, dtype=pl.Float64).fill_nan(None)
                              for k, v in out.items()))


def robust(df: pl.DataFrame, keys: list[str], diff: str = "adj", pcol: str = "adj_p",
           n1: str = "adj_n1", n0: str = "adj_n0") -> pl.DataFrame:
    """Per row of the main mix: q (BH of ``pcol`` over the main rows), ``other_signs`` (signs
    of the other mixes' ``diff``, e.g. "+ -"), ``agree`` (mixes, main included, whose sign
    equals main's) and ``robust`` (q < 0.05 and agree >= 2). Returns the main rows only."""
    main = df.filter(pl.col("role") == MAIN)
    main = main.with_columns(pl.Series("q", bh_adjust(main[pcol].fill_null(np.nan).to_numpy()))
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


def with_role(lf: pl.LazyFrame, roles: dict[int, str]) -> pl.LazyFrame:
    """``lf`` with a ``role`` column (Utf8) from the run index (runs without a role: main)."""
    runs = sorted(roles)
    return lf.with_columns(role=pl.col("run").replace_strict(
        runs, [roles[r] for r in runs], default=MAIN, return_dtype=pl.Utf8))


def mixes(frame: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame | pl.DataFrame:
    """Bot-mix runs only (not rule sweeps), of a lazy or an eager frame."""
    return frame.filter(~pl.col("role").str.starts_with("sweep:"))


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
    per_game = q.collect(seats.group_by("role", "players", "run", "game").agg(game_exprs))
    g = per_game.group_by("role", "players").agg(
        [pl.len().alias("games")]
        + [pl.col(f"o{i}").sum().alias(f"o{i}") for i, s in enumerate(tiles)
           if f"o{i}" in per_game.columns]
        + [(pl.col(f"a{i}") & (pl.col(f"o{i}") if f"o{i}" in per_game.columns else True))
           .sum().alias(f"t{i}") for i in range(len(tiles))])
    sg = q.collect(seats.group_by("role", "players").agg(seat_exprs))
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
    # owners: the seats that placed the tile, and for a basic tile every seat (each starts
    # with one in its start column, which can take a marker but is not "placed"; issue 16:
    # Community Park investments were 106-118% of its placers)
    basic = pl.col("stack") == "basic"
    return df.with_columns(
        offered_rate=pl.col("offered") / pl.col("games"),
        take_rate=pl.col("taken") / pl.col("offered"),
        owners=pl.when(basic).then(pl.col("seat_games")).otherwise(pl.col("placers")),
    ).with_columns(
        invest_rate=pl.when(pl.col("owners") > 0).then(pl.col("invested") / pl.col("owners")),
    ).sort("role", "players", "tile")


def tile_balance(seats: pl.LazyFrame) -> pl.DataFrame:
    """17lands-style IWD counts per (role, players, strategy, tile), finished games only:
    among the games in which at least one seat placed the kind, the seats of that bot that
    placed it (n1 seat-games, w1 wins) and the seats of that bot that did not (n0, w0).
    ``tile_summary`` turns them into differences."""
    names = set(seats.collect_schema().names())
    tiles = [s for _, _, s, _ in TILES if f"tile_{s}" in names]
    share = pl.col("win_share").cast(pl.Float64)
    fin = seats.filter(q.finished_seat()).select(
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
    agg = q.collect(lf.group_by("role", "players", "strategy").agg(exprs))
    rows = [{"role": r["role"], "players": int(r["players"]), "strategy": r["strategy"],
             "tile": s, "n1": r[f"n1_{i}"], "w1": float(r[f"w1_{i}"]), "n0": r[f"n0_{i}"],
             "w0": float(r[f"w0_{i}"])}
            for r in agg.iter_rows(named=True) for i, s in enumerate(tiles)]
    schema = {"role": pl.Utf8, "players": pl.Int64, "strategy": pl.Utf8, "tile": pl.Utf8,
              "n1": pl.Int64, "w1": pl.Float64, "n0": pl.Int64, "w0": pl.Float64}
    return pl.DataFrame(rows, schema=schema).sort("role", "players", "strategy", "tile")


def tile_clusters(seats: pl.LazyFrame) -> pl.DataFrame:
    """``cluster_sums_by`` per (role, players, tile) for ``tile_balance``'s comparison (the
    seats that placed the tile against the other seats of the games where some seat placed
    it): the input of ``tile_summary``'s intervals clustered by game."""
    names = set(seats.collect_schema().names())
    tiles = [s for _, _, s, _ in TILES if f"tile_{s}" in names]
    fin = seats.filter(q.finished_seat())
    placed = {s: pl.col(f"tile_{s}").fill_null(0) > 0 for s in tiles}
    fin = fin.with_columns(*[placed[s].any().over("run", "game").alias(f"__a_{s}")
                             for s in tiles])
    return cluster_sums_by(fin, ["role", "players"],
                           {s: (placed[s], pl.col(f"__a_{s}")) for s in tiles}, "tile")


def goal_clusters(seats: pl.LazyFrame) -> pl.DataFrame:
    """``cluster_sums_by`` per (role, players, goal, kind) for ``goal_balance``'s comparison
    (the in-play seats that scored the goal against the other in-play seats)."""
    names = set(seats.collect_schema().names())
    fin = seats.filter(q.finished_seat())
    frames = []
    for kind in ("public", "private"):
        specs = {}
        for g, _, s, _ in GOALS:
            if f"goal_{s}" not in names:
                continue
            col = pl.col(f"goal_{s}").fill_null(-1)
            priv = pl.col("private_goal").fill_null(-1) == g
            sel = (col >= 0) & (priv if kind == "private" else ~priv)
            specs[s] = (col == 1, sel)
        if specs:
            frames.append(cluster_sums_by(fin, ["role", "players"], specs, "goal")
                          .with_columns(kind=pl.lit(kind)))
    return pl.concat(frames) if frames else pl.DataFrame()


def tile_summary(bal: pl.DataFrame, pooled: bool = False,
                 clusters: pl.DataFrame | None = None) -> pl.DataFrame:
    """``summarise`` of ``tile_balance`` per (role, players, tile), or per (role, tile) pooled
    over player counts; with the tile's stack. ``clusters``: ``tile_clusters`` of the same
    seats, for intervals clustered by game."""
    keys = ["role", "tile"] if pooled else ["role", "players", "tile"]
    return summarise(bal, keys, clusters=clusters).with_columns(
        stack=pl.col("tile").replace_strict(STACK_OF, return_dtype=pl.Utf8))


def pooled_main(summary: pl.DataFrame) -> pl.DataFrame:
    """Main rows of a pooled summary with q = BH of adj_p, sorted by adj descending."""
    m = summary.filter(pl.col("role") == MAIN)
    return m.with_columns(pl.Series("q", bh_adjust(m["adj_p"].fill_null(np.nan).to_numpy()))
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
    agg = q.collect(seats.filter(q.finished_seat())
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


def goal_summary(gb: pl.DataFrame, pooled: bool = False,
                 clusters: pl.DataFrame | None = None) -> pl.DataFrame:
    """``summarise`` of ``goal_balance`` per (role, players, goal, kind) (or pooled over player
    counts), plus in_play, achieved, bonus and achieve_rate (public: share of the games it was
    dealt in where some seat scored it; private: share of its owners who scored it).
    ``clusters``: ``goal_clusters`` of the same seats, for intervals clustered by game."""
    keys = ["role", "goal", "kind"] if pooled else ["role", "players", "goal", "kind"]
    extra = gb.group_by(keys).agg(
        pl.col("in_play").sum(), pl.col("n1").sum().alias("achieved"),
        (pl.col("in_play") / pl.col("players")).sum().alias("__games"))
    bonus = {s: b for _, _, s, b in GOALS}
    return summarise(gb, keys, clusters=clusters).join(extra, on=keys,
                                                       how="left").with_columns(
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
    return seats.filter(q.finished_seat()).with_columns(
        early_income=_round_in(INCOME_SLUGS, names, EARLY_ROUNDS),
        pop_rush=_round_in(RUSH_SLUGS, names, RUSH_ROUNDS) > 0,
        fell_back=(pl.col("redlines_down").fill_null(0) > 0) if "redlines_down" in names
        else pl.lit(False),
    ).with_columns(income_first=pl.col("early_income") >= 2)


def _exposure_table(lf: pl.LazyFrame, feature: str) -> pl.DataFrame:
    share = pl.col("win_share").cast(pl.Float64)
    x = pl.col(feature)
    return q.collect(lf.group_by("role", "players", "strategy").agg(
        n1=x.sum().cast(pl.Int64), w1=pl.when(x).then(share).otherwise(0.0).sum(),
        n0=(~x).sum().cast(pl.Int64), w0=pl.when(~x).then(share).otherwise(0.0).sum(),
    )).sort("role", "players", "strategy")


def _tip_rows(tab: pl.DataFrame, tip: str, test: str) -> list[dict]:
    """MH-stratified rows per (role, players) and per role over all player counts (strata =
    players x bot; the random bot left out), plus the crude (unstratified) difference over the
    same seats."""
    rows = []
    tab = tab.filter(pl.col("strategy") != "random")
    for (role,), g in mixes(tab).group_by("role", maintain_order=True):
        for p in sorted(g["players"].unique().to_list()) + ["all"]:
            h = g if p == "all" else g.filter(pl.col("players") == p)
            r = mh_clipped(h["w1"], h["n1"], h["w0"], h["n0"])
            crude = newcombe_difference(r["w1"], r["n1"], r["w0"], r["n0"])[0][0]
            rows.append({"tip": tip, "test": test, "role": role, "players": str(p), **r,
                         "crude": float(crude)})
    return rows


def deny_tables(seats: pl.LazyFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(a) per (role, players, strategy): seat-games and wins, finished games; (b) greedy seats
    only, per (role, players, prev_strategy): the strategy of the seat just before (whose
    discards come right before its turn; the tip's "next player" of that seat)."""
    share = pl.col("win_share").cast(pl.Float64)
    fin = seats.filter(q.finished_seat() & (pl.col("players") >= 2))
    a = q.collect(fin.group_by("role", "players", "strategy").agg(
        n=pl.len().cast(pl.Int64), w=share.sum())).sort("role", "players", "strategy")
    prev = fin.select("run", "game", "players", pl.col("strategy").alias("prev_strategy"),
                      ((pl.col("seat").cast(pl.Int32) + 1) % pl.col("players").cast(pl.Int32))
                      .alias("seat32"))
    b = q.collect(
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
        j = mixes(j).rename({"n": "n1", "w": "w1", "n0": "n0", "w0": "w0"})
        for (role,), g in j.group_by("role", maintain_order=True):
            for p in sorted(g["players"].unique().to_list()) + ["all"]:
                h = g if p == "all" else g.filter(pl.col("players") == p)
                r = mh_clipped(h["w1"], h["n1"], h["w0"], h["n0"])
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
                  bh_adjust(sel["p"].fill_null(np.nan).to_numpy()).tolist(), strict=True))
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
    df = q.collect(mixes(seats).filter(q.finished_seat())
                   .group_by("role", "players", "strategy").agg(
        n=pl.len().cast(pl.Int64), wins=pl.col("win_share").cast(pl.Float64).sum(),
        **{f"mean_{c}": pl.col(c).cast(pl.Float64).mean() for c in means},
    )).sort("role", "players", "strategy")
    df = q.with_wilson(df)
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
    return q.collect(seats.filter(q.finished_seat())
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
    per = seats.filter(q.finished_seat()).group_by("role", "players", "run", "game").agg(
        has=won.any(),
        g=pre_g.filter(~won).max() > pre_g.filter(won).max(),
        m=pre_m.filter(~won).max() > pre_m.filter(won).max(),
    ).filter(pl.col("has"))
    df = q.collect(per.group_by("role", "players").agg(
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
    sweep = [r for r in roles_in(seats) if r.startswith("sweep:red_line_offset=")]
    if not sweep:
        return pl.DataFrame()
    fin = seats.filter(q.finished_seat() & (pl.col("players") == 3))
    per = q.collect(
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
        t = t_value(n - 1) if n > 1 else math.nan
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
                tt = t_value(len(d) - 1)
                row.update(paired_diff=float(d.mean()), p_lo=float(d.mean()) - tt * sd,
                           p_hi=float(d.mean()) + tt * sd,
                           same_winner=float((j["winners"] == j["winners_0"]).mean()))
        rows.append(row)
    return pl.DataFrame(rows, schema={
        "offset": pl.Int64, "games": pl.Int64, "mean_pop": pl.Float64, "lo": pl.Float64,
        "hi": pl.Float64, "redlines": pl.Float64, "seat1": pl.Float64, "lo1": pl.Float64,
        "hi1": pl.Float64, "paired_diff": pl.Float64, "p_lo": pl.Float64, "p_hi": pl.Float64,
        "same_winner": pl.Float64})


def roles_in(lf: pl.LazyFrame) -> list[str]:
    """The distinct roles of ``lf`` (sorted)."""
    return sorted(q.collect(lf.select(pl.col("role").unique()))["role"].to_list())


def first_seat(seats: pl.LazyFrame) -> pl.DataFrame:
    """Main runs: per player count, the first seat's (seat 0 always moves first in Suburbia)
    win rate with Wilson interval, its difference from parity, and the last seat's rate."""
    r = q.seat_win_rates(seats.filter(pl.col("role") == MAIN))
    first = r.filter(pl.col("seat") == 0)
    last = r.filter(pl.col("seat") == pl.col("players") - 1).select(
        "players", pl.col("win_rate").alias("last_rate"), pl.col("lo").alias("last_lo"),
        pl.col("hi").alias("last_hi"))
    return first.join(last, on="players", how="left").sort("players")
