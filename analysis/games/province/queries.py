"""Province queries: one frame per game of the runs, first/second-player rates, paired
differences on the same seeds, structures, goal tokens and the coin supply."""

from __future__ import annotations

import json
import math
import os
import re

import polars as pl

from analysis import queries as q
from analysis.games.province.data import END_TRIGGERS, GOALS, MAIN, STRUCTURES
from analysis.stats import Z95, normal_pvalue, rate, wilson_interval
from sim.core.components import slug

__all__ = [
    "SANITY_TURNS", "margin_lender", "run_label", "run_options", "run_option", "role_runs", "one_coin_base", "game_frame",
    "order_rates", "rates_all", "paired_difference", "pair_summary", "seat_rows",
    "structure_stats", "second_first_builds", "goal_stats", "supply_length", "with_rate",
]


def with_rate(df: pl.DataFrame, wins: str, n: str, prefix: str) -> pl.DataFrame:
    """``<prefix>_rate``/``_lo``/``_hi``: the rate ``wins / n`` with its Wilson interval."""
    return q.with_wilson(df, wins, n, (f"{prefix}_rate", f"{prefix}_lo", f"{prefix}_hi"))


def run_label(run_dir: str) -> str:
    """``reports/_runs/province/p2coins-3-n50000`` -> ``p2coins-3``."""
    return re.sub(r"-n\d+$", "", os.path.basename(os.path.normpath(run_dir)))


def run_options(manifest: dict) -> dict:
    """A run's rule options (the manifest's resolved options)."""
    opts = manifest.get("options")
    if opts is None:
        opts = manifest.get("identity", {}).get("options", {})
    if isinstance(opts, str):
        opts = json.loads(opts or "{}")
    return dict(opts or {})


def run_option(ctx, i: int, name: str, default):
    """Rule option ``name`` of run ``i`` of the report (``default`` when not recorded)."""
    return run_options(ctx.manifests[i]).get(name, default)


def role_runs(ctx, prefix: str) -> list[int]:
    """Run indices whose role is ``prefix`` or starts with ``prefix:``."""
    return [i for i in range(len(ctx.run_dirs))
            if (ctx.roles.get(i, MAIN) == prefix
                or ctx.roles.get(i, MAIN).startswith(prefix + ":"))]


def one_coin_base(ctx) -> int:
    """The second player's starting coins in the main runs (3 under the rules)."""
    main = role_runs(ctx, MAIN)
    return int(run_option(ctx, main[0], "p2_coins", 3)) if main else 3


def game_frame(games: pl.LazyFrame, seats: pl.LazyFrame, runs: list[int]) -> pl.DataFrame:
    """One row per game of ``runs``: run, game, seed, strategies, first_player, turns,
    end_reason, finished (not stopped at the limit), draw (finished, both seats win),
    fp_share / sp_share (win share of the first / second player), dry (the supply ran dry),
    missed (coins not received, both seats)."""
    g = games.filter(pl.col("run").is_in(runs)).select(
        "run", "game", "seed", "strategies", "first_player", "turns", "end_reason")
    s = seats.filter(pl.col("run").is_in(runs)).select(
        "run", "game", "seat", "win_share", "coins_dry", "coins_missed")
    first = pl.col("seat") == pl.col("first_player")
    per = s.join(g.select("run", "game", "first_player"), on=["run", "game"]).group_by(
        "run", "game").agg(
        fp_share=pl.col("win_share").filter(first).sum().cast(pl.Float64),
        sp_share=pl.col("win_share").filter(~first).sum().cast(pl.Float64),
        dry=pl.col("coins_dry").max().fill_null(0).cast(pl.Int64),
        missed=pl.col("coins_missed").sum().fill_null(0).cast(pl.Int64),
    )
    fin = q.finished_game()  # one definition (sim.core.ending)
    return g.join(per, on=["run", "game"]).with_columns(
        finished=fin,
        draw=fin & (pl.col("fp_share") == 0.5) & (pl.col("sp_share") == 0.5),
    ).sort("run", "game").collect(engine="streaming")


def order_rates(gf: pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """First- and second-player win rates, draw rate and first-player share per ``by`` group,
    finished games only: n, n_limit, fp_wins, sp_wins, draws, share (sum of fp_share) and,
    for fp/sp/draw/share, ``<x>_rate``/``<x>_lo``/``<x>_hi`` (Wilson 95%)."""
    fin = pl.col("finished")
    df = gf.group_by(by).agg(
        n=fin.sum().cast(pl.Int64),
        n_limit=(~fin).sum().cast(pl.Int64),
        fp_wins=(fin & (pl.col("fp_share") == 1.0)).sum().cast(pl.Int64),
        sp_wins=(fin & (pl.col("sp_share") == 1.0)).sum().cast(pl.Int64),
        draws=(fin & pl.col("draw")).sum().cast(pl.Int64),
        share=pl.col("fp_share").filter(fin).sum().cast(pl.Float64),
    ).sort(by)
    for col, pre in (("fp_wins", "fp"), ("sp_wins", "sp"), ("draws", "draw"),
                     ("share", "share")):
        df = with_rate(df, col, "n", pre)
    return df


def rates_all(gf: pl.DataFrame) -> dict:
    """``order_rates`` of every game of ``gf`` together (one row, as a dict)."""
    return order_rates(gf.with_columns(_all=pl.lit(1)), ["_all"]).row(0, named=True)


def paired_difference(base: pl.DataFrame, other: pl.DataFrame, col: str = "fp_share") -> dict:
    """Mean of ``other[col] - base[col]`` over games present and finished in both, joined on
    (seed, strategies); Wald 95% interval and two-sided p from the per-game differences.
    Returns n, diff, lo, hi, p, changed (share of pairs whose value differs), base and other
    (the means of ``col`` over those same pairs: the shift is other - base)."""
    keys = ["seed", "strategies"]
    b = base.filter(pl.col("finished")).unique(keys, keep="first").select(*keys, b=col)
    o = other.filter(pl.col("finished")).unique(keys, keep="first").select(*keys, o=col)
    d = o.join(b, on=keys).select(d=(pl.col("o") - pl.col("b")).cast(pl.Float64))["d"]
    n = len(d)
    if n == 0:
        return {"n": 0, "diff": math.nan, "lo": math.nan, "hi": math.nan, "p": math.nan,
                "changed": math.nan, "base": math.nan, "other": math.nan}
    x = d.to_numpy()
    j = o.join(b, on=keys)
    mean = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return {"n": n, "diff": mean, "lo": mean - Z95 * se, "hi": mean + Z95 * se,
            "p": normal_pvalue(mean, se), "changed": float((x != 0).mean()),
            "base": float(j["b"].mean()), "other": float(j["o"].mean())}


def pair_summary(gf: pl.DataFrame, a: str, b: str) -> dict:
    """Both seat orders of the pairing a/b joined game by game on the seed (finished in both):
    n, ``first`` = mean first-player share over the two orders, ``a_share`` = a's mean share
    over the two orders, each with a Wilson interval on that mean (conservative: it ignores
    the variance the pairing removes)."""
    ab = gf.filter((pl.col("strategies") == f"{a},{b}") & pl.col("finished")).unique(
        "seed", keep="first").select("seed", ab_fp="fp_share", ab_sp="sp_share")
    ba = gf.filter((pl.col("strategies") == f"{b},{a}") & pl.col("finished")).unique(
        "seed", keep="first").select("seed", ba_fp="fp_share", ba_sp="sp_share")
    j = ab.join(ba, on="seed")
    n = len(j)
    first = float(((j["ab_fp"] + j["ba_fp"]) / 2).sum()) if n else 0.0
    # a's share: a is the first player of a,b, the second of b,a
    a_sh = float(((j["ab_fp"] + j["ba_sp"]) / 2).sum()) if n else 0.0
    lo, hi = wilson_interval([first, a_sh], [n, n])
    r = rate([first, a_sh], [n, n])
    return {"n": n, "first": float(r[0]), "first_lo": float(lo[0]), "first_hi": float(hi[0]),
            "a_share": float(r[1]), "a_lo": float(lo[1]), "a_hi": float(hi[1])}


def seat_rows(games: pl.LazyFrame, seats: pl.LazyFrame, runs: list[int]) -> pl.LazyFrame:
    """Seats of finished games of ``runs`` with ``first`` (the seat moved first)."""
    g = games.filter(pl.col("run").is_in(runs)).select("run", "game", "first_player")
    fin = (pl.col("rank").is_not_null() & (pl.col("rank") > 0)).fill_null(False)
    return seats.filter(pl.col("run").is_in(runs) & fin).join(
        g, on=["run", "game"]).with_columns(first=pl.col("seat") == pl.col("first_player"))


def structure_stats(games: pl.LazyFrame, seats: pl.LazyFrame, runs: list[int],
                    names=STRUCTURES) -> pl.DataFrame:
    """Per structure over the finished games of ``runs``: games, built (games with a first
    builder) and built_rate/lo/hi, fp_first (first builds by the first player) and
    fp_first_rate/lo/hi (of built), copies (second builds) and copy_rate, turn_mean/turn_lo/
    turn_hi (player-turn of the first build; normal interval), and the win rate of the first
    builder's seats against all other seats: n_with, wins_with, n_without, wins_without,
    rate_with, rate_without, diff/lo/hi (95%, clustered by game), p (from the clustered
    standard error)."""
    s = seat_rows(games, seats, runs)
    share = pl.col("win_share").cast(pl.Float64)
    exprs = [pl.len().cast(pl.Int64).alias("seat_n"), share.sum().alias("seat_w")]
    for k, name in enumerate(names):
        b, t = pl.col(f"built_{slug(name)}"), pl.col(f"turnbuilt_{slug(name)}")
        fb = b == 1
        exprs += [
            fb.sum().cast(pl.Int64).alias(f"fb{k}"),
            (fb & pl.col("first")).sum().cast(pl.Int64).alias(f"fp{k}"),
            (b == 2).sum().cast(pl.Int64).alias(f"cp{k}"),
            pl.when(fb).then(share).otherwise(0.0).sum().alias(f"w{k}"),
            t.filter(fb).cast(pl.Float64).mean().alias(f"tm{k}"),
            t.filter(fb).cast(pl.Float64).std().alias(f"ts{k}"),
        ]
    agg = s.select(exprs).collect(engine="streaming").row(0, named=True)
    n_games = agg["seat_n"] // 2
    rows = []
    for k, name in enumerate(names):
        nb = agg[f"fb{k}"]
        tm, ts = agg[f"tm{k}"], agg[f"ts{k}"]
        half = Z95 * ts / math.sqrt(nb) if nb > 1 and ts is not None else math.nan
        rows.append({
            "structure": name, "games": n_games, "built": nb, "fp_first": agg[f"fp{k}"],
            "copies": agg[f"cp{k}"],
            "turn_mean": math.nan if tm is None else tm,
            "turn_lo": math.nan if tm is None else tm - half,
            "turn_hi": math.nan if tm is None else tm + half,
            "n_with": nb, "wins_with": float(agg[f"w{k}"]),
            "n_without": agg["seat_n"] - nb, "wins_without": float(agg["seat_w"] - agg[f"w{k}"]),
        })
    df = pl.DataFrame(rows)
    df = with_rate(df, "built", "games", "built")
    df = with_rate(df, "fp_first", "built", "fp_first")
    df = df.with_columns(copy_rate=pl.Series(rate(df["copies"], df["games"])).fill_nan(None))
    return _with_diff(df, s, "structure",
                      {name: pl.col(f"built_{slug(name)}") == 1 for name in names})


def _with_diff(df: pl.DataFrame, s: pl.LazyFrame, key: str, groups: dict) -> pl.DataFrame:
    """``df`` with rate_with, rate_without, diff, lo, hi and p of each row (``key``): the
    seats of ``groups[row]`` against the others, the interval **clustered by game**
    (``queries.clustered_differences``: the two seats of one game are not independent)."""
    cd = q.clustered_differences(s, groups).select(
        pl.col("group").alias(key), "rate_with", "rate_without", "diff", "lo", "hi", "p")
    if cd.is_empty():
        return q.with_difference(df, "wins_with", "n_with", "wins_without", "n_without")
    return df.join(cd, on=key, how="left", maintain_order="left")


def second_first_builds(games: pl.LazyFrame, seats: pl.LazyFrame, run_key: dict[int, int],
                        names=STRUCTURES) -> pl.DataFrame:
    """Per key (``run_key`` maps run -> key, e.g. the second player's coins) and structure:
    games (finished), sp_first (games in which the second player built it first) and
    sp_first_rate/lo/hi (Wilson)."""
    s = seat_rows(games, seats, list(run_key)).with_columns(
        key=pl.col("run").replace_strict(run_key, return_dtype=pl.Int64))
    exprs = [pl.len().cast(pl.Int64).alias("seat_n")] + [
        ((pl.col(f"built_{slug(n)}") == 1) & ~pl.col("first")).sum().cast(pl.Int64).alias(
            f"s{k}") for k, n in enumerate(names)]
    agg = s.group_by("key").agg(exprs).sort("key").collect(engine="streaming")
    rows = [{"key": r["key"], "structure": n, "games": r["seat_n"] // 2, "sp_first": r[f"s{k}"]}
            for r in agg.iter_rows(named=True) for k, n in enumerate(names)]
    df = pl.DataFrame(rows, schema={"key": pl.Int64, "structure": pl.Utf8, "games": pl.Int64,
                                    "sp_first": pl.Int64})
    return with_rate(df, "sp_first", "games", "sp_first")


def goal_stats(games: pl.LazyFrame, seats: pl.LazyFrame, runs: list[int],
               names=GOALS) -> pl.DataFrame:
    """Per goal token over the finished games of ``runs``: games, drawn (games where the token
    was in the stack) and drawn_rate, claimed (games where a seat claimed it) and
    claim_rate/lo/hi (of drawn), removed (both seats met it at its reveal) and
    removal_rate/lo/hi, unresolved (still in play at the end), fp_claims (claims by the first
    player) and fp_claim_rate/lo/hi (of claimed), and the claimant's win rate against every
    other seat of the games where it was drawn: n_with, ..., diff/lo/hi (95%, clustered by
    game), p."""
    s = seat_rows(games, seats, runs)
    share = pl.col("win_share").cast(pl.Float64)
    exprs = [pl.len().cast(pl.Int64).alias("seat_n")]
    for k, name in enumerate(names):
        gcol, inn = pl.col(f"goal_{slug(name)}"), pl.col(f"goalin_{slug(name)}") == 1
        cl = inn & (gcol == 1)
        exprs += [
            inn.sum().cast(pl.Int64).alias(f"in{k}"),
            cl.sum().cast(pl.Int64).alias(f"cl{k}"),
            (cl & pl.col("first")).sum().cast(pl.Int64).alias(f"fp{k}"),
            (inn & (gcol == -1)).sum().cast(pl.Int64).alias(f"rm{k}"),
            pl.when(cl).then(share).otherwise(0.0).sum().alias(f"wc{k}"),
            pl.when(inn).then(share).otherwise(0.0).sum().alias(f"wi{k}"),
        ]
    agg = s.select(exprs).collect(engine="streaming").row(0, named=True)
    n_games = agg["seat_n"] // 2
    rows = []
    for k, name in enumerate(names):
        drawn, cl, rm = agg[f"in{k}"] // 2, agg[f"cl{k}"], agg[f"rm{k}"] // 2
        rows.append({
            "goal": name, "games": n_games, "drawn": drawn, "claimed": cl, "removed": rm,
            "unresolved": drawn - cl - rm, "fp_claims": agg[f"fp{k}"],
            "n_with": cl, "wins_with": float(agg[f"wc{k}"]),
            "n_without": agg[f"in{k}"] - cl,
            "wins_without": float(agg[f"wi{k}"] - agg[f"wc{k}"]),
        })
    df = pl.DataFrame(rows)
    df = df.with_columns(drawn_rate=pl.Series(rate(df["drawn"], df["games"])).fill_nan(None))
    df = with_rate(df, "claimed", "drawn", "claim")
    df = with_rate(df, "removed", "drawn", "removal")
    df = with_rate(df, "fp_claims", "claimed", "fp_claim")
    return _with_diff(df, s, "goal", {
        name: ((pl.col(f"goal_{slug(name)}") == 1), pl.col(f"goalin_{slug(name)}") == 1)
        for name in names})


def supply_length(gf: pl.DataFrame, by: str = "group") -> pl.DataFrame:
    """Per ``by`` group: games, dry (games in which the supply ran dry) and dry_rate/lo/hi,
    missed_mean (coins not received per game), n_finished, turn quantiles (mean, q25, q50,
    q75 of player-turns in finished games), n_limit and the share of each end trigger."""
    fin = pl.col("finished")
    t = pl.col("turns").filter(fin).cast(pl.Float64)
    df = gf.group_by(by, maintain_order=True).agg(
        games=pl.len().cast(pl.Int64),
        dry=pl.col("dry").gt(0).sum().cast(pl.Int64),
        missed_mean=pl.col("missed").cast(pl.Float64).mean(),
        n_finished=fin.sum().cast(pl.Int64),
        n_limit=(~fin).sum().cast(pl.Int64),
        turn_mean=t.mean(), turn_q25=t.quantile(0.25, "linear"),
        turn_q50=t.quantile(0.5, "linear"), turn_q75=t.quantile(0.75, "linear"),
        **{f"end_{e}": (pl.col("end_reason") == e).sum().cast(pl.Int64) for e in END_TRIGGERS},
    )
    df = with_rate(df, "dry", "games", "dry")
    return df.with_columns(
        [(pl.col(f"end_{e}") / pl.col("n_finished")).alias(f"share_{e}") for e in END_TRIGGERS])


SANITY_TURNS = (15, 25)
"""The spec's sanity range of turns per player (shared/rules/province.md §9: "roughly 15-25
turns per player")."""


def margin_lender(games: pl.LazyFrame, seats: pl.LazyFrame, runs: list[int]) -> dict:
    """Finished games of ``runs``: n; turns per player (turns / 2) quartiles tpp_q25/q50/q75
    and the share within ``SANITY_TURNS`` (in_rate/lo/hi, Wilson); n_decided (not tied) with
    the winner's score margin margin_mean and quartiles; lender (games ending with a seat
    holding the Lender, seat detail ``lender_end``) with lender_rate/lo/hi over n, and that
    seat's win share lwin_rate/lo/hi (a tie counts 1/2)."""
    g = games.filter(pl.col("run").is_in(runs) & q.finished_game()).select(
        "run", "game", tpp=pl.col("turns") / 2)
    cols = seats.collect_schema().names()
    lend = pl.col("lender_end") if "lender_end" in cols else pl.lit(0)
    s = seats.filter(pl.col("run").is_in(runs)).select(
        "run", "game", "score", "win_share", lend=lend.fill_null(0) > 0)
    per = s.group_by("run", "game").agg(
        margin=pl.col("score").filter(pl.col("win_share") == 1.0).max()
        - pl.col("score").filter(pl.col("win_share") == 0.0).max(),
        lender=pl.col("lend").any(),
        lwin=pl.col("win_share").filter(pl.col("lend")).sum())
    df = g.join(per, on=["run", "game"]).collect(engine="streaming")
    n = df.height
    lo_ok, hi_ok = SANITY_TURNS
    inside = int(df["tpp"].is_between(lo_ok, hi_ok).sum()) if n else 0
    dec = df["margin"].drop_nulls()
    nl = int(df["lender"].sum()) if n else 0
    lw = float(df.filter(pl.col("lender"))["lwin"].sum()) if nl else 0.0
    (ilo, llo, wlo), (ihi, lhi, whi) = wilson_interval([inside, nl, lw], [n, n, nl])
    r = rate([inside, nl, lw], [n, n, nl])

    def qt(x, p):
        return float(x.quantile(p, "linear")) if len(x) else math.nan

    return {"n": n, "tpp_q25": qt(df["tpp"], 0.25), "tpp_q50": qt(df["tpp"], 0.5),
            "tpp_q75": qt(df["tpp"], 0.75), "in_rate": float(r[0]), "in_lo": float(ilo),
            "in_hi": float(ihi), "n_decided": len(dec),
            "margin_mean": float(dec.mean()) if len(dec) else math.nan,
            "margin_q25": qt(dec, 0.25), "margin_q50": qt(dec, 0.5), "margin_q75": qt(dec, 0.75),
            "lender": nl, "lender_rate": float(r[1]), "lender_lo": float(llo),
            "lender_hi": float(lhi), "lwin_rate": float(r[2]), "lwin_lo": float(wlo),
            "lwin_hi": float(whi)}

