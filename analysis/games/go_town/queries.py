"""Go Town report queries (issue 16): end reasons, length in rounds, kingmaking, the wrecking
ball held or not, and the rule options' paired effects (spec §8.3).

Every function takes the lazy frames of ``ReportContext`` (``games``/``seats`` over all the
runs, with a ``run`` column) and returns a small polars DataFrame; rates are proportions in
[0, 1] with 95% Wilson (rates) or Newcombe (differences) intervals.
"""

from __future__ import annotations

import polars as pl

from analysis import queries as q
from analysis.paired import paired_difference

__all__ = ["end_reasons", "rounds", "kingmaking", "held_effect", "option_effects",
           "never_played", "OPTION_PREFIX"]

OPTION_PREFIX = "option:"
"""Role prefix of the paired option runs of ``default_plan`` (``option:<name>=<value>``)."""


def end_reasons(games: pl.LazyFrame) -> pl.DataFrame:
    """Per player count: n (games), target (won), limit, deadlock (counts, Int64) and
    deadlock_rate/deadlock_lo/deadlock_hi (share of all games, Wilson 95%)."""
    er = pl.col("end_reason")
    df = q.collect(games.group_by("players").agg(
        n=pl.len().cast(pl.Int64), target=(er == "target").sum().cast(pl.Int64),
        limit=(er == q.LIMIT).sum().cast(pl.Int64),
        deadlock=(er == q.DEADLOCK).sum().cast(pl.Int64))).sort("players")
    return q.with_wilson(df, "deadlock", "n", ("deadlock_rate", "deadlock_lo", "deadlock_hi"))


def rounds(games: pl.LazyFrame) -> pl.DataFrame:
    """Game length in rounds (player-turns / players, skipped turns included) of the games won
    (end reason ``target``), per player count: n, mean, sd and the 5/25/50/75/95% quantiles
    (Float64)."""
    won = games.filter(pl.col("end_reason") == "target").with_columns(
        r=(pl.col("turns") / pl.col("players")))
    df = q.collect(won.group_by("players").agg(
        n=pl.len().cast(pl.Int64), mean=pl.col("r").mean(), sd=pl.col("r").std(),
        **{f"q{int(x * 100):02d}": pl.col("r").quantile(x, "linear")
           for x in (0.05, 0.25, 0.5, 0.75, 0.95)})).sort("players")
    return df


def kingmaking(seats: pl.LazyFrame) -> pl.DataFrame:
    """Kingmaking per player count (spec §8.3): of the games won, how many had a seat that did
    not win attack the lone leader, one floor or less from the target and 2+ floors ahead of
    it, who then did not win either (seat detail ``kingmaker``). Columns players, n (games won), kingmade (Int64), rate/lo/hi (Wilson).
    Empty when the runs have no ``kingmaker`` column."""
    if "kingmaker" not in seats.collect_schema().names():
        return pl.DataFrame()
    per_game = seats.filter(q.finished_seat()).group_by("run", "game", "players").agg(
        k=pl.col("kingmaker").max(), won=pl.col("win_share").sum())
    df = q.collect(per_game.filter(pl.col("won") > 0).group_by("players").agg(
        n=pl.len().cast(pl.Int64), kingmade=(pl.col("k") > 0).sum().cast(pl.Int64))
    ).sort("players")
    return q.with_wilson(df, "kingmade", "n", ("rate", "lo", "hi"))


def held_effect(seats: pl.LazyFrame, card: str = "WRECK") -> pl.DataFrame:
    """Win rate of seats that held ``card`` at some point minus seats that never did, per
    player count, finished games (spec §8.3 "win rate conditional on holding it"); also the
    same split for the seats that played it. Columns players, split ("held"/"played"), n1, w1,
    n0, w0, rate_with, rate_without, diff, lo, hi (95%, clustered by game:
    ``analysis.queries.clustered_differences``) and p. Empty without a ``held_<card>``
    column."""
    names = seats.collect_schema().names()
    if f"held_{card}" not in names:
        return pl.DataFrame()
    # the seats of one game are not independent: the interval is clustered by game
    cd = q.clustered_differences(seats, {split: pl.col(col) > 0 for split, col in
                                         (("held", f"held_{card}"),
                                          ("played", f"played_{card}"))})
    return cd.select(
        "players", pl.col("group").alias("split"), pl.col("n_with").alias("n1"),
        pl.col("wins_with").alias("w1"), pl.col("n_without").alias("n0"),
        pl.col("wins_without").alias("w0"), "rate_with", "rate_without", "diff", "lo", "hi",
        "p").sort("players", "split")


def _per_game(games: pl.LazyFrame, run: int) -> pl.DataFrame:
    """Per game of run ``run``: game, players, fp (first player's win share: 1 if the first
    player won), rounds (turns / players), finished (bool), deadlock (bool)."""
    return q.collect(games.filter(pl.col("run") == run).select(
        "game", "players",
        fp=(pl.col("winners").list.first().cast(pl.Int64) == pl.col("first_player").cast(
            pl.Int64)).fill_null(False).cast(pl.Float64),
        rounds=pl.col("turns") / pl.col("players"),
        finished=q.finished_game(),
        deadlock=pl.col("end_reason") == q.DEADLOCK))


def option_effects(games: pl.LazyFrame, roles: dict[int, str], manifests: list[dict]
                   ) -> pl.DataFrame:
    """Each option run (role ``option:<name>=<value>``) against the main run of the same
    player count with the same seed, paired game by game (the first ``n`` games of both, ``n``
    the option run's size; spec §8.3 "switch sensitivity").

    Columns: option (Utf8, ``name=value``), players, n (pairs won in both arms), fp_base,
    fp_var, fp_diff, fp_lo, fp_hi (first player's win rate and the paired difference, 95%),
    r_base, r_var, r_diff, r_lo, r_hi (mean rounds and the paired difference), dead_base,
    dead_var (deadlocked games / all paired games). Option runs without a main run of the same
    players and seed are left out (never paired with a different seed)."""
    mains = {}
    for i, r in roles.items():
        if r == "main":
            m = manifests[i]
            mains[(int(m.get("players", 0)), m.get("seed"))] = i
    rows = []
    for i, r in sorted(roles.items()):
        if not r.startswith(OPTION_PREFIX):
            continue
        m = manifests[i]
        base_i = mains.get((int(m.get("players", 0)), m.get("seed")))
        if base_i is None or manifests[base_i].get("strategies") != m.get("strategies"):
            continue
        var = _per_game(games, i)
        base = _per_game(games, base_i)
        j = base.join(var, on=["game", "players"], suffix="_v")
        both = j.filter(pl.col("finished") & pl.col("finished_v"))
        if both.height < 2:
            continue
        fp = paired_difference(both["fp"].to_numpy(), both["fp_v"].to_numpy())
        rd = paired_difference(both["rounds"].to_numpy(), both["rounds_v"].to_numpy())
        rows.append(dict(
            option=r[len(OPTION_PREFIX):], players=int(m.get("players", 0)), n=both.height,
            pairs=j.height, fp_base=fp.baseline, fp_var=fp.variant, fp_diff=fp.diff,
            fp_lo=fp.lo, fp_hi=fp.hi, r_base=rd.baseline, r_var=rd.variant, r_diff=rd.diff,
            r_lo=rd.lo, r_hi=rd.hi,
            dead_base=float(j["deadlock"].mean()), dead_var=float(j["deadlock_v"].mean())))
    schema = {"option": pl.Utf8, "players": pl.Int64, "n": pl.Int64, "pairs": pl.Int64,
              **{c: pl.Float64 for c in ("fp_base", "fp_var", "fp_diff", "fp_lo", "fp_hi",
                                         "r_base", "r_var", "r_diff", "r_lo", "r_hi",
                                         "dead_base", "dead_var")}}
    return pl.DataFrame(rows, schema=schema)


def never_played(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per card type (``played_<card>`` columns): seat-games that played it, over all seat-games
    of the given runs. Columns card (Utf8), played (Int64), n (Int64)."""
    cols = [c for c in seats.collect_schema().names() if c.startswith("played_")]
    if not cols:
        return pl.DataFrame(schema={"card": pl.Utf8, "played": pl.Int64, "n": pl.Int64})
    agg = q.collect(seats.select(n=pl.len(), **{c: (pl.col(c) > 0).sum() for c in cols}))
    n = int(agg["n"][0])
    return pl.DataFrame({"card": [c[len("played_"):] for c in cols],
                         "played": [int(agg[c][0]) for c in cols], "n": [n] * len(cols)},
                        schema={"card": pl.Utf8, "played": pl.Int64, "n": pl.Int64})
