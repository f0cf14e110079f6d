"""Lazy polars queries over run folders: each returns a small aggregate DataFrame.

Inputs are the two tables the runner writes (see ``scan_runs``):

* ``games`` (one row per game): game Int64, seed UInt64, players Int8, options Utf8,
  strategies Utf8 (seat strategies comma-joined in seat order), first_player Int8,
  turns Int32 (player-turns), decisions Int32, end_reason Utf8 ("target", ..., "limit"),
  n_winners Int8, winners List(Int8).
* ``seats`` (one row per seat of each game): game Int64, players Int8, seat Int8,
  strategy Utf8, score Int32, rank Int8 (null when the game stopped at the length limit),
  win_share Float64 (1/k for a k-way shared win, else 0), detail columns such as
  ``played_DRILL`` Int16.

Conventions of every result:

* Seats and turn-order positions are 0-based, as in the data (seat 0 is the first seat).
* A game that ended by ``"limit"`` (stopped at the maximum length) or ``"deadlock"`` (Go Town:
  no player could ever change the state again) is neither a win nor a draw:
  it is left out of every win rate and counted apart (``n_limit`` columns, ``completion``).
  Any other end reason is a finished game; one without winners is a draw (0 wins for all).
* ``wins`` is the sum of ``win_share`` (Float64), so a k-way shared win counts 1/k per winner;
  rates and Wilson intervals (``lo``/``hi``, 95%) treat it as a count (an approximation).
* Rates, bounds and differences are proportions in [0, 1] (not percent).
* ``parity`` is ``1 / players``: the rate of a seat when the game is balanced and decisive.

Helpers for the game-specific reports (``analysis.games``): ``collect`` (streaming collect),
``by_game_slices``, ``finished_seat`` / ``finished_game`` (filters), ``with_wilson`` (a rate
and its interval as columns), ``with_difference`` (two groups compared: Newcombe interval and
z-test), ``weighted_stats`` (summary of a frequency table).

Queries only aggregate; nothing larger than a per-group table is collected, so they run on
10 million games in well under 2 GB (polars streaming engine).
"""

from __future__ import annotations

import glob
import os
from collections import defaultdict
from collections.abc import Callable, Sequence

import numpy as np
import polars as pl

from analysis.stats import (
    Z95,
    equal_rates_pvalue,
    newcombe_difference,
    normal_pvalue,
    rate,
    two_proportion_pvalue,
    wilson_interval,
)
from sim.core.ending import NO_RESULT

__all__ = [
    "LIMIT",
    "component_columns",
    "DEADLOCK",
    "UNFINISHED",
    "collect",
    "by_game_slices",
    "finished_seat",
    "finished_game",
    "with_wilson",
    "with_difference",
    "weighted_stats",
    "scan_runs",
    "seat_win_rates",
    "turn_order_win_rates",
    "strategy_win_rates",
    "game_mix",
    "matchup_matrix",
    "balance",
    "completion",
    "score_distribution",
    "length_distribution",
    "length_counts",
    "component_impact",
    "clustered_differences",
    "cluster_sums",
    "clustered_from_sums",
]

LIMIT, DEADLOCK = NO_RESULT
"""``LIMIT``: the ``end_reason`` of a game stopped at the maximum length (not a win, not a
draw); ``DEADLOCK``: of a game in which no player can ever change the state again (Go Town's
rules deadlock): not a win, not a draw, not a length."""
UNFINISHED = NO_RESULT
"""The end reasons without a result: the one definition of ``sim.core.ending`` (each game
declares its reasons with a result; every other one is a name of this tuple)."""

QUANTILES = (0.05, 0.25, 0.50, 0.75, 0.95)


def collect(lf: pl.LazyFrame) -> pl.DataFrame:
    """Run a lazy query with polars' streaming engine (bounded memory over many chunks)."""
    return lf.collect(engine="streaming")


def by_game_slices(lf: pl.LazyFrame, query: Callable[[pl.LazyFrame], pl.LazyFrame],
                   games_per_slice: int = 200_000) -> pl.DataFrame:
    """Run ``query`` (a per-game aggregation ending in additive totals) on slices of game ids
    and stack the results; the caller sums them. Memory is bounded by the slice (a per-game
    group-by over ten million games would hold every game at once), and Parquet statistics
    let each slice read only the chunks holding its games."""
    top = collect(lf.select(pl.col("game").max())).item()
    if top is None:
        return collect(query(lf))
    parts = [collect(query(lf.filter(pl.col("game").is_between(lo, lo + games_per_slice - 1))))
             for lo in range(0, int(top) + 1, games_per_slice)]
    return pl.concat(parts, how="vertical_relaxed")


def finished_seat() -> pl.Expr:
    """A seat row of a game that did not stop at the limit (rank is set; 0 is read as unset)."""
    return (pl.col("rank").is_not_null() & (pl.col("rank") > 0)).fill_null(False)


def finished_game() -> pl.Expr:
    """A game row that did not stop at the limit or in a deadlock (``UNFINISHED``; a null
    ``end_reason`` counts as finished)."""
    return (~pl.col("end_reason").is_in(UNFINISHED)).fill_null(True)


def with_wilson(df: pl.DataFrame, successes: str = "wins", n: str = "n",
                out: tuple[str, str, str] = ("win_rate", "lo", "hi")) -> pl.DataFrame:
    """``df`` with the rate ``successes / n`` and its 95% Wilson interval as three Float64
    columns named ``out`` (rate, lo, hi); null where ``n`` is 0."""
    w = df[successes].to_numpy().astype(np.float64)
    m = df[n].to_numpy().astype(np.float64)
    lo, hi = wilson_interval(w, m)
    return df.with_columns(
        pl.Series(out[0], rate(w, m)).fill_nan(None),
        pl.Series(out[1], lo).fill_nan(None),
        pl.Series(out[2], hi).fill_nan(None),
    )


def with_difference(df: pl.DataFrame, w1: str = "w1", n1: str = "n1", w0: str = "w0",
                    n0: str = "n0") -> pl.DataFrame:
    """``df`` with the comparison of two groups given by their wins and sizes (columns ``w1``,
    ``n1`` and ``w0``, ``n0``): rate_with, rate_without, diff = rate_with - rate_without with
    its Newcombe 95% interval lo/hi, and p (pooled two-proportion z-test); Float64, null where
    undefined (an empty ``df`` gets the columns, all null)."""
    names = ("rate_with", "rate_without", "diff", "lo", "hi", "p")
    if df.is_empty():
        return df.with_columns(*(pl.lit(None, pl.Float64).alias(c) for c in names))
    a1, m1 = df[w1].to_numpy().astype(float), df[n1].to_numpy().astype(float)
    a0, m0 = df[w0].to_numpy().astype(float), df[n0].to_numpy().astype(float)
    d, lo, hi = newcombe_difference(a1, m1, a0, m0)
    values = (rate(a1, m1), rate(a0, m0), d, lo, hi, two_proportion_pvalue(a1, m1, a0, m0))
    return df.with_columns(*(pl.Series(c, v).fill_nan(None)
                             for c, v in zip(names, values, strict=True)))


def scan_runs(run_dirs: Sequence[str]) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Lazy ``(games, seats)`` over one or more run folders.

    Reads ``RUN/games/chunk-*.parquet`` and ``RUN/seats/chunk-*.parquet`` of each folder and
    adds ``run`` (Int32: index of the folder in ``run_dirs``). Runs are stacked; detail
    columns missing from one run are null there. Raises FileNotFoundError for a folder
    without chunks.
    """
    games, seats = [], []
    for i, run in enumerate(run_dirs):
        parts = []
        for table in ("games", "seats"):
            pattern = os.path.join(run, table, "chunk-*.parquet")
            if not glob.glob(pattern):
                raise FileNotFoundError(f"no {table} chunks in {run} ({pattern})")
            parts.append(pl.scan_parquet(pattern).with_columns(run=pl.lit(i, pl.Int32)))
        games.append(parts[0])
        seats.append(parts[1])
    if len(games) == 1:
        return games[0], seats[0]
    return pl.concat(games, how="diagonal_relaxed"), pl.concat(seats, how="diagonal_relaxed")


def seat_win_rates(seats: pl.LazyFrame) -> pl.DataFrame:
    """Win rate of each seat, per player count.

    Returns one row per (players, seat), sorted: players Int8, seat Int8 (0-based),
    n UInt32/Int64 (finished games), wins Float64 (sum of win_share), n_limit (games of that
    player count stopped at the limit, excluded from n), parity Float64 (1/players),
    win_rate, lo, hi Float64 (Wilson 95%).
    """
    fin = finished_seat()
    df = collect(
        seats.group_by("players", "seat").agg(
            n=fin.sum().cast(pl.Int64),
            wins=pl.when(fin).then(pl.col("win_share")).otherwise(0.0).sum().cast(pl.Float64),
            n_limit=(~fin).sum().cast(pl.Int64),
        )
    ).sort("players", "seat")
    df = with_wilson(df).with_columns(parity=1.0 / pl.col("players").cast(pl.Float64))
    return df.select("players", "seat", "n", "wins", "win_rate", "lo", "hi", "parity", "n_limit")


def game_mix(games: pl.LazyFrame) -> pl.DataFrame:
    """Games counted by composition and outcome: the small table behind turn-order and
    matchup statistics.

    Returns players Int8, strategies Utf8 (seat order), first_player Int8, finished Boolean,
    winners Utf8 (winning seats comma-joined, "" for none), count Int64 (games).
    """
    return collect(
        games.with_columns(
            finished=finished_game(),
            winners=pl.col("winners")
            .list.eval(pl.element().cast(pl.Utf8))
            .list.join(",")
            .fill_null(""),
        )
        .group_by("players", "strategies", "first_player", "finished", "winners")
        .agg(count=pl.len().cast(pl.Int64))
    ).sort("players", "strategies", "first_player", "finished", "winners")


def _winner_list(text: str) -> list[int]:
    return [int(x) for x in text.split(",")] if text else []


def turn_order_win_rates(games: pl.LazyFrame) -> pl.DataFrame:
    """Win rate by turn-order position (0 = the player who moved first), per player count.

    Position of a seat = (seat - first_player) mod players; it equals the seat when every game
    starts with seat 0. Same columns as ``seat_win_rates`` with ``position`` (Int8) instead of
    ``seat``. Wins are 1/k per winner of a k-way shared win.
    """
    n = defaultdict(int)
    wins = defaultdict(float)
    limit = defaultdict(int)
    for row in game_mix(games).iter_rows(named=True):
        p, c = int(row["players"]), int(row["count"])
        for pos in range(p):
            n[(p, pos)] += c if row["finished"] else 0
            limit[(p, pos)] += 0 if row["finished"] else c
            wins[(p, pos)] += 0.0
        winners = _winner_list(row["winners"]) if row["finished"] else []
        for s in winners:
            wins[(p, (s - int(row["first_player"])) % p)] += c / len(winners)
    keys = sorted(n)
    df = pl.DataFrame(
        {
            "players": [k[0] for k in keys],
            "position": [k[1] for k in keys],
            "n": [n[k] for k in keys],
            "wins": [wins[k] for k in keys],
            "n_limit": [limit[k] for k in keys],
        },
        schema={"players": pl.Int8, "position": pl.Int8, "n": pl.Int64, "wins": pl.Float64,
                "n_limit": pl.Int64},
    )
    df = with_wilson(df).with_columns(parity=1.0 / pl.col("players").cast(pl.Float64))
    return df.select(
        "players", "position", "n", "wins", "win_rate", "lo", "hi", "parity", "n_limit"
    )


def strategy_win_rates(seats: pl.LazyFrame) -> pl.DataFrame:
    """Win rate of each strategy (bot), per player count, over the seats it played.

    Returns players Int8, strategy Utf8, n Int64 (seat-games in finished games), wins Float64,
    win_rate/lo/hi Float64 (Wilson 95%), parity Float64 (1/players: the rate of a strategy
    as strong as the average seat), n_limit Int64 (its seat-games in limit games).
    Two seats of one strategy in one game count as two seat-games; as they cannot both win,
    the Wilson interval (which assumes independent trials) is then slightly conservative.
    """
    fin = finished_seat()
    df = collect(
        seats.group_by("players", "strategy").agg(
            n=fin.sum().cast(pl.Int64),
            wins=pl.when(fin).then(pl.col("win_share")).otherwise(0.0).sum().cast(pl.Float64),
            n_limit=(~fin).sum().cast(pl.Int64),
        )
    ).sort("players", "strategy")
    df = with_wilson(df).with_columns(parity=1.0 / pl.col("players").cast(pl.Float64))
    return df.select(
        "players", "strategy", "n", "wins", "win_rate", "lo", "hi", "parity", "n_limit"
    )


def matchup_matrix(games: pl.LazyFrame) -> pl.DataFrame:
    """Win rate of a row strategy against a column strategy, per player count (long format).

    For 2-player games: the rate at which ``strategy`` wins games whose other seat plays
    ``opponent`` (the diagonal is the mirror match). For more players: the rate at which
    ``strategy`` wins games in which at least one *other* seat plays ``opponent``.
    Returns players Int8, strategy Utf8 (row), opponent Utf8 (column), n Int64 (seat-games of
    ``strategy``), wins Float64, win_rate/lo/hi Float64 (Wilson 95%). Finished games only;
    pairs that never met have no row.
    """
    n = defaultdict(int)
    wins = defaultdict(float)
    for row in game_mix(games).filter(pl.col("finished")).iter_rows(named=True):
        p, c = int(row["players"]), int(row["count"])
        strats = row["strategies"].split(",")
        winners = set(_winner_list(row["winners"]))
        share = 1.0 / len(winners) if winners else 0.0
        for seat, a in enumerate(strats):
            others = set(strats[:seat] + strats[seat + 1:])
            for b in others:
                n[(p, a, b)] += c
                if seat in winners:
                    wins[(p, a, b)] += c * share
    keys = sorted(n)
    df = pl.DataFrame(
        {
            "players": [k[0] for k in keys],
            "strategy": [k[1] for k in keys],
            "opponent": [k[2] for k in keys],
            "n": [n[k] for k in keys],
            "wins": [wins[k] for k in keys],
        },
        schema={"players": pl.Int8, "strategy": pl.Utf8, "opponent": pl.Utf8, "n": pl.Int64,
                "wins": pl.Float64},
    )
    return with_wilson(df)


def balance(seats: pl.LazyFrame, games: pl.LazyFrame | None = None) -> pl.DataFrame:
    """Ludii's Balance per player count, by **turn order** (never by seat number: in games
    with a random first player the seat says nothing about who moved first).

    ``games``: the games table (its ``first_player`` gives each seat's turn-order position,
    ``(seat - first_player) mod players``); required (a ValueError says so otherwise).
    ``seats``: the seats table (its ``rank`` gives the rank-based measure).

    Two measures, each named:

    * ``balance``: the 2-player definition, ``1 - (max - min)`` of the win rates of the
      turn-order positions (``turn_order_win_rates``; wins are win shares);
    * ``balance_rank``: Ludii's definition for more than 2 players, the same spread of the mean
      *rank-based partial win* of each position, ``(players - rank) / (players - 1)`` (1 for
      the winner, 0 for the last, linear between; equal to ``balance`` at 2 players without
      draws). Finished games only.

    Returns players Int8, n Int64 (finished games), balance Float64, best_position /
    worst_position Int8 (0 = moved first), best_rate/worst_rate Float64, p_equal Float64
    (chi-square p-value of "all positions win equally often"), balance_rank Float64;
    ``best_seat``/``worst_seat`` are kept as aliases of the positions.
    """
    if games is None:
        raise ValueError("balance(seats, games): the games table is needed (Balance is by "
                         "turn order, from first_player)")
    rates = turn_order_win_rates(games)
    keys = ["game"] + (["run"] if "run" in seats.collect_schema().names()
                       and "run" in games.collect_schema().names() else [])
    ranked = collect(
        seats.filter(finished_seat())
        .join(games.select(*keys, "first_player"), on=keys, how="inner")
        .with_columns(
            position=((pl.col("seat").cast(pl.Int16) - pl.col("first_player").cast(pl.Int16)
                       + pl.col("players").cast(pl.Int16)) % pl.col("players").cast(pl.Int16)),
            partial=(pl.col("players").cast(pl.Float64) - pl.col("rank").cast(pl.Float64))
            / (pl.col("players").cast(pl.Float64) - 1.0))
        .group_by("players", "position").agg(partial=pl.col("partial").mean()))
    rows = []
    for (p,), g in rates.group_by("players", maintain_order=True):
        r = g["win_rate"].to_numpy()
        if np.isnan(r).all():
            continue
        best, worst = int(np.nanargmax(r)), int(np.nanargmin(r))
        pr = ranked.filter(pl.col("players") == p)["partial"].to_numpy()
        rows.append({
            "players": p,
            "n": int(g["n"].max()),
            "balance": float(1.0 - (r[best] - r[worst])),
            "best_position": int(g["position"][best]),
            "best_rate": float(r[best]),
            "worst_position": int(g["position"][worst]),
            "worst_rate": float(r[worst]),
            "p_equal": equal_rates_pvalue(g["wins"].to_numpy(), float(g["n"].max())),
            "balance_rank": float(1.0 - (pr.max() - pr.min())) if len(pr) else float("nan"),
        })
    schema = {"players": pl.Int8, "n": pl.Int64, "balance": pl.Float64,
              "best_position": pl.Int8, "best_rate": pl.Float64, "worst_position": pl.Int8,
              "worst_rate": pl.Float64, "p_equal": pl.Float64, "balance_rank": pl.Float64}
    df = pl.DataFrame(rows, schema=schema).sort("players")
    return df.with_columns(best_seat=pl.col("best_position"),
                           worst_seat=pl.col("worst_position"))


def completion(games: pl.LazyFrame) -> pl.DataFrame:
    """How many games finished, per player count.

    Returns players Int8, n Int64 (all games), finished Int64, limit Int64 (stopped at the
    maximum length), deadlock Int64 (no player could ever change the state: Go Town), draws
    Int64 (finished without a winner), shared Int64 (finished with two or more winners: a tie
    the rules leave standing, which some games call a draw), limit_rate/limit_lo/limit_hi
    Float64 (share of games stopped at the limit, Wilson 95%), deadlock_rate/deadlock_lo/
    deadlock_hi Float64 (the same for deadlocks: each reason without a result has its own
    rate; ``finished + limit + deadlock == n``).
    """
    fin = finished_game()
    no_winner = (pl.col("winners").list.len().fill_null(0) == 0) & fin
    shared = (pl.col("winners").list.len().fill_null(0) >= 2) & fin
    df = collect(
        games.group_by("players").agg(
            n=pl.len().cast(pl.Int64),
            finished=fin.sum().cast(pl.Int64),
            limit=(pl.col("end_reason") == LIMIT).sum().cast(pl.Int64),
            deadlock=(pl.col("end_reason") == DEADLOCK).sum().cast(pl.Int64),
            draws=no_winner.sum().cast(pl.Int64),
            shared=shared.sum().cast(pl.Int64),
        )
    ).sort("players")
    lim = df["limit"].to_numpy().astype(float)
    tot = df["n"].to_numpy().astype(float)
    lo, hi = wilson_interval(lim, tot)
    dead = df["deadlock"].to_numpy().astype(float)
    dlo, dhi = wilson_interval(dead, tot)
    return df.with_columns(
        pl.Series("limit_rate", rate(lim, tot)), pl.Series("limit_lo", lo),
        pl.Series("limit_hi", hi), pl.Series("deadlock_rate", rate(dead, tot)),
        pl.Series("deadlock_lo", dlo), pl.Series("deadlock_hi", dhi),
    )


_DIST_COLS = ["n", "mean", "sd"] + [f"q{round(q * 100):02d}" for q in QUANTILES]


def weighted_stats(values: np.ndarray, counts: np.ndarray) -> list[float]:
    """n, mean, sd (ddof 1) and linear-interpolated quantiles (numpy's default method) of a
    sample given as distinct ``values`` with their ``counts``: exact, without expanding it."""
    order = np.argsort(values)
    x, w = values[order].astype(np.float64), counts[order].astype(np.int64)
    n = int(w.sum())
    if n == 0:
        return [0] + [float("nan")] * (2 + len(QUANTILES))
    mean = float((x * w).sum() / n)
    sd = float(np.sqrt((w * (x - mean) ** 2).sum() / (n - 1))) if n > 1 else float("nan")
    cum = np.cumsum(w)

    def at(k: int) -> float:  # k-th smallest, 0-based
        return float(x[np.searchsorted(cum, k, side="right")])

    out = [n, mean, sd]
    for q in QUANTILES:
        h = (n - 1) * q
        k = int(np.floor(h))
        lo = at(k)
        out.append(lo + (h - k) * (at(min(k + 1, n - 1)) - lo))
    return out


def _distribution(lf: pl.LazyFrame, col: str) -> pl.DataFrame:
    """Per-players statistics of ``col`` from its frequency table (small for integer data)."""
    freq = collect(lf.group_by("players", col).agg(count=pl.len().cast(pl.Int64)))
    rows = []
    for (p,), g in freq.group_by("players"):
        rows.append([p, *weighted_stats(g[col].to_numpy(), g["count"].to_numpy())])
    schema = {"players": pl.Int8, "n": pl.Int64} | {c: pl.Float64 for c in _DIST_COLS[1:]}
    return pl.DataFrame(rows, schema=schema, orient="row").sort("players")


def score_distribution(seats: pl.LazyFrame, finished_only: bool = True) -> pl.DataFrame:
    """Distribution of the final score of a seat (Go Town: floors built), per player count.

    Returns players Int8, n Int64 (seat-games), mean, sd (ddof 1), q05, q25, q50, q75, q95
    Float64 (quantiles interpolated linearly, as numpy's default), in score units. Only
    finished games by default. Computed exactly from the table of distinct scores.
    """
    lf = seats.filter(finished_seat()) if finished_only else seats
    return _distribution(lf, "score")


def length_distribution(games: pl.LazyFrame, finished_only: bool = True) -> pl.DataFrame:
    """Game length per player count, in player-turns and in decisions.

    Returns players Int8, measure Utf8 ("turns" = player-turns, "decisions" = bot decisions),
    n Int64 (games), mean, sd, q05, q25, q50, q75, q95 Float64 (as ``score_distribution``).
    Only finished games by default (limit games all sit at the maximum and would pull the
    upper quantiles to it).
    """
    lf = games.filter(finished_game()) if finished_only else games
    parts = [_distribution(lf, m).with_columns(measure=pl.lit(m)) for m in ("turns", "decisions")]
    return (
        pl.concat(parts)
        .select("players", "measure", *_DIST_COLS)
        .sort("players", "measure", descending=[False, True])
    )


def length_counts(games: pl.LazyFrame) -> pl.DataFrame:
    """Histogram data: games per (players, turns, finished).

    Returns players Int8, turns Int32 (player-turns), finished Boolean, count Int64.
    """
    return collect(
        games.with_columns(finished=finished_game())
        .group_by("players", "turns", "finished")
        .agg(count=pl.len().cast(pl.Int64))
    ).sort("players", "turns", "finished")


def component_columns(names: Sequence[str], prefix: str) -> list[str]:
    """The columns of ``names`` that are components of ``prefix``: every ``prefix + NAME``
    except the attribute columns of other components, ``prefix + W + "_" + NAME`` where
    every column starting with ``prefix + W + "_"`` (at least 3 of them) names another
    component (Little Town's ``built_round_tavern``: the round the Tavern was built in, not a
    building)."""
    cols = [c for c in names if c.startswith(prefix)]
    comps = {c[len(prefix):] for c in cols}
    heads: dict[str, list[str]] = defaultdict(list)
    for c in comps:
        if "_" in c:
            w, rest = c.split("_", 1)
            heads[w].append(rest)
    attr = {w for w, rests in heads.items()
            if len(rests) >= 3 and all(r in comps for r in rests)}
    return [c for c in cols if c[len(prefix):].split("_", 1)[0] not in attr
            or "_" not in c[len(prefix):]]


def component_impact(seats: pl.LazyFrame, detail_prefix: str = "played_") -> pl.DataFrame:
    """Win rate of seats whose detail column is > 0 minus that of seats where it is 0, with a
    95% interval **clustered by game** (the seats of one game are not independent: if one
    wins, the others do not).

    For every column named ``detail_prefix + NAME`` (Go Town: cards of type NAME played from
    hand), per player count, over seats of finished games: component Utf8 (NAME), column Utf8,
    n_with/n_without Int64 (seat-games), wins_with/wins_without Float64,
    rate_with/rate_without Float64, diff Float64 (rate_with - rate_without) with lo/hi (95%,
    cluster-robust, ``clustered_differences``), p Float64 (two-sided, from the clustered
    standard error) and games Int64 (finished games, the clusters). Sorted by players, then by
    |diff| descending (components never or always used, diff null, last). An association, not
    a causal effect: seats that play more cards also tend to last longer or lead
    (``boardsim effects`` measures causal effects).
    """
    cols = component_columns(seats.collect_schema().names(), detail_prefix)
    df = clustered_differences(seats, {c: pl.col(c).fill_null(0) > 0 for c in cols})
    df = df.rename({"group": "column"}).with_columns(
        component=pl.col("column").str.slice(len(detail_prefix)))
    return (
        df.select("players", "component", "column", "n_with", "wins_with", "rate_with",
                  "n_without", "wins_without", "rate_without", "diff", "lo", "hi", "p", "games")
        .with_columns(__abs=pl.col("diff").abs())
        .sort(["players", "__abs"], descending=[False, True], nulls_last=True)
        .drop("__abs")
    )


PRODUCTS = ("n1", "s1", "s1s1", "s1n1", "n1n1", "s0s0", "s0n0", "n0n0", "s1s0", "s1n0",
             "n1s0", "n1n0")


def cluster_sums(n1: pl.Expr, s1: pl.Expr, n0: pl.Expr, s0: pl.Expr,
                 suffix: str) -> list[pl.Expr]:
    """The sums over games (clusters) that a clustered difference of two group means needs,
    from per-game columns: ``n1``/``s1`` (units and value sum of the group "with" in the game)
    and ``n0``/``s0`` (the group "without"). One aggregate expression per product, named
    ``<product><suffix>``; ``clustered_from_sums`` turns the summed row into the interval. A
    game table can carry them beside its own per-game columns (Little Town's buildings and
    goals, Province's structures, Suburbia's tiles, Go Town's wrecking ball, ...)."""
    prods = {"n1": n1, "s1": s1, "s1s1": s1 * s1, "s1n1": s1 * n1, "n1n1": n1 * n1,
             "s0s0": s0 * s0, "s0n0": s0 * n0, "n0n0": n0 * n0, "s1s0": s1 * s0,
             "s1n0": s1 * n0, "n1s0": n1 * s0, "n1n0": n1 * n0}
    return [e.cast(pl.Float64).sum().alias(f"{k}{suffix}") for k, e in prods.items()]


def clustered_from_sums(row: dict, suffix: str, g: float, n1: float, s1: float, n0: float,
                        s0: float, bound: float | None = 1.0
                        ) -> tuple[float, float, float, float]:
    """(diff, lo, hi, p): ``s1/n1 - s0/n0`` with its 95% interval clustered by game (CR1:
    the per-game linearisation of ``analysis.stats.cluster_difference``,
    ``G/(G-1) sum_g u_g^2``) from the summed products of ``cluster_sums`` in ``row`` (keys
    ``<product><suffix>``) and ``g`` games. NaN where a side is empty (or, for the interval,
    fewer than 2 games).

    ``bound``: the values are win shares (in [0, 1]), so a difference of two of their means
    lies in [-1, 1] and the interval is clipped to ``[-bound, bound]`` (the normal interval of
    few games can pass it); ``None`` for other values (no clipping). ``p`` is the unclipped
    normal p-value."""
    nan = float("nan")
    if not (n1 > 0 and n0 > 0):
        return nan, nan, nan, nan
    m1, m0 = s1 / n1, s0 / n0
    d = m1 - m0
    if g <= 1:
        return d, nan, nan, nan
    r = {k: row[f"{k}{suffix}"] for k in PRODUCTS}
    aa = r["s1s1"] - 2 * m1 * r["s1n1"] + m1 * m1 * r["n1n1"]
    bb = r["s0s0"] - 2 * m0 * r["s0n0"] + m0 * m0 * r["n0n0"]
    ab = r["s1s0"] - m0 * r["s1n0"] - m1 * r["n1s0"] + m1 * m0 * r["n1n0"]
    var = g / (g - 1) * max(aa / n1 ** 2 - 2 * ab / (n1 * n0) + bb / n0 ** 2, 0.0)
    se = var ** 0.5
    lo, hi = d - Z95 * se, d + Z95 * se
    if bound is not None:
        lo, hi = max(lo, -bound), min(hi, bound)
    return d, lo, hi, normal_pvalue(d, se)


def clustered_differences(seats: pl.LazyFrame, groups: dict[str, pl.Expr],
                          value: pl.Expr | None = None,
                          among: pl.Expr | None = None) -> pl.DataFrame:
    """For each named boolean expression of ``groups`` (e.g. ``{"first builder":
    pl.col("built_bank") == 1}``), per player count, over the seats of finished games (and
    ``among``, a boolean expression, if given; a group given as a tuple ``(with, among)``
    compares within its own population: e.g. the claimants of a goal against the other seats
    of the games where it was drawn, ``games`` then the games holding that population): the
    mean of ``value`` (default the win share)
    of the seats where it holds minus the mean where it does not, with a 95% interval
    **clustered by game** (cluster-robust, CR1: the per-game linearisation of
    ``analysis.stats.cluster_difference``; games are ``(run, game)`` when the frame has a
    ``run`` column; for the win share clipped to [-1, 1], ``clustered_from_sums``). Streams: per-game sums over slices of games (``by_game_slices``), then
    totals, so it runs on millions of games.

    Returns players Int8, group Utf8, n_with/n_without Int64 (seat-games), wins_with/
    wins_without Float64 (sums of the value), rate_with/rate_without, diff, lo, hi, p Float64
    (null where a side is empty), games Int64 (clusters)."""
    schema = {"players": pl.Int8, "group": pl.Utf8, "n_with": pl.Int64,
              "wins_with": pl.Float64, "rate_with": pl.Float64, "n_without": pl.Int64,
              "wins_without": pl.Float64, "rate_without": pl.Float64, "diff": pl.Float64,
              "lo": pl.Float64, "hi": pl.Float64, "p": pl.Float64, "games": pl.Int64}
    names = list(groups)
    if not names:
        return pl.DataFrame(schema=schema)
    keys = ["players"] + (["run"] if "run" in seats.collect_schema().names() else []) + ["game"]
    share = (pl.col("win_share") if value is None else value).cast(pl.Float64)
    per_game = [pl.len().cast(pl.Float64).alias("__n"), share.sum().alias("__w")]
    own = {}  # group -> its own population (a tuple (with, among) in ``groups``)
    for i, name in enumerate(names):
        spec = groups[name]
        if isinstance(spec, tuple):
            spec, pop = spec[0], spec[1].fill_null(False)
            own[i] = True
            per_game.append(pop.sum().cast(pl.Float64).alias(f"a{i}"))
            per_game.append(pl.when(pop).then(share).otherwise(0.0).sum().alias(f"b{i}"))
            spec = spec & pop
        used = spec.fill_null(False)
        per_game.append(used.sum().cast(pl.Float64).alias(f"n{i}"))
        per_game.append(pl.when(used).then(share).otherwise(0.0).sum().alias(f"w{i}"))
    # per game: n1, s1 (with), n0 = n - n1, s0 = s - s1 (without); summed over games with
    # the products the clustered variance needs
    sums = [pl.len().cast(pl.Int64).alias("__g"), pl.col("__n").sum().alias("__n"),
            pl.col("__w").sum().alias("__w")]
    for i in range(len(names)):
        n1, s1 = pl.col(f"n{i}"), pl.col(f"w{i}")
        tn, tw = (pl.col(f"a{i}"), pl.col(f"b{i}")) if i in own else (pl.col("__n"),
                                                                     pl.col("__w"))
        sums += cluster_sums(n1, s1, tn - n1, tw - s1, f"_{i}")
        if i in own:
            sums += [tn.sum().alias(f"__n_{i}"), tw.sum().alias(f"__w_{i}"),
                     (tn > 0).sum().cast(pl.Int64).alias(f"__g_{i}")]
    keep = finished_seat() if among is None else finished_seat() & among.fill_null(False)

    def query(lf: pl.LazyFrame) -> pl.LazyFrame:
        return (lf.filter(keep).group_by(keys).agg(per_game)
                .group_by("players").agg(sums))

    parts = by_game_slices(seats, query)
    agg = (parts.group_by("players").agg(pl.all().sum()).sort("players") if parts.height
           else parts)
    out = defaultdict(list)
    for row in agg.iter_rows(named=True):
        for i, name in enumerate(names):
            g = row[f"__g_{i}"] if i in own else row["__g"]
            n1, s1 = row[f"n1_{i}"], row[f"s1_{i}"]
            n0 = row[f"__n_{i}"] - n1 if i in own else row["__n"] - n1
            s0 = row[f"__w_{i}"] - s1 if i in own else row["__w"] - s1
            d, lo, hi, p = clustered_from_sums(row, f"_{i}", g, n1, s1, n0, s0,
                                               bound=1.0 if value is None else None)
            out["players"].append(row["players"])
            out["group"].append(name)
            out["n_with"].append(int(round(n1)))
            out["wins_with"].append(float(s1))
            out["n_without"].append(int(round(n0)))
            out["wins_without"].append(float(s0))
            out["rate_with"].append(s1 / n1 if n1 > 0 else float("nan"))
            out["rate_without"].append(s0 / n0 if n0 > 0 else float("nan"))
            out["diff"].append(d)
            out["lo"].append(lo)
            out["hi"].append(hi)
            out["p"].append(p)
            out["games"].append(int(g))
    if not out:
        return pl.DataFrame(schema=schema)
    df = pl.DataFrame({k: out[k] for k in schema}, schema=schema)
    return df.with_columns(pl.col(["rate_with", "rate_without", "diff", "lo", "hi", "p"])
                           .fill_nan(None))
