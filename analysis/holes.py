"""Rule holes recorded in the results (issue 16, item 4): helpers the games' report extensions
share to turn the engines' rule-hole columns (seat detail, int16) into per-player-count rates.

A column either describes the game (the same value in every seat of a game: Little Town's
``supply_out_*``, Suburbia's ``market_dry_round``) or the seat (Suburbia's ``pop_lost_unpaid``,
Province's ``triggered_end``). Game-level rates count games (95% Wilson interval: games are
independent); seat-level rates count seat-games with a 95% interval clustered by game
(``analysis.stats.cluster_mean``), because the seats of one game share its course.

Results played before a column existed lack it (or hold nulls when such runs are read together
with newer ones): every helper keeps only the games that recorded every column it reads, and
``missing`` names the columns no game recorded, so a report says "not recorded" instead of
printing a zero.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from analysis import queries as q
from analysis.stats import cluster_mean, wilson_interval

__all__ = ["missing", "not_recorded", "seat_frame", "game_rates", "seat_rates"]


def missing(seats: pl.LazyFrame, cols: Sequence[str]) -> list[str]:
    """The columns of ``cols`` that no seat row of ``seats`` holds (absent from the schema, or
    null in every row)."""
    names = seats.collect_schema().names()
    absent = [c for c in cols if c not in names]
    present = [c for c in cols if c in names]
    if present:
        row = q.collect(seats.select([pl.col(c).is_not_null().any().alias(c)
                                      for c in present])).row(0, named=True)
        absent += [c for c in present if not row[c]]
    return [c for c in cols if c in absent]


def not_recorded(seats: pl.LazyFrame, cols: Sequence[str], what: str) -> str:
    """The paragraph a section prints when its runs lack the columns ``cols`` (runs played
    before the engine recorded them): names the missing ones and says to play again to see
    ``what`` (e.g. "how often a cube supply runs out")."""
    names = "`, `".join(missing(seats, cols) or list(cols))
    return (f"Not recorded in these runs: they were played before the engine recorded `{names}` "
            f"(issue 16); play them again to see {what}.")


def seat_frame(seats: pl.LazyFrame, cols: Sequence[str]) -> pl.DataFrame:
    """Columns ``run``, ``game``, ``players``, ``seat`` and ``cols`` (Int64) of the seat rows
    that recorded every column of ``cols`` (an empty frame when a column is absent)."""
    if missing(seats, cols):
        return pl.DataFrame(schema={"run": pl.Int32, "game": pl.Int64, "players": pl.Int64,
                                    "seat": pl.Int64, **{c: pl.Int64 for c in cols}})
    return q.collect(seats.select(
        pl.col("run"), pl.col("game").cast(pl.Int64), pl.col("players").cast(pl.Int64),
        pl.col("seat").cast(pl.Int64), *[pl.col(c).cast(pl.Int64) for c in cols])
        .drop_nulls(list(cols)))


def game_rates(frame: pl.DataFrame, flag: pl.Expr) -> pl.DataFrame:
    """Per player count, the games in which ``flag`` (a boolean expression over the seat rows
    of ``seat_frame``, aggregated with ``any`` over a game's seats) holds: columns ``players``,
    ``count``, ``n`` (games), ``rate``, ``lo``, ``hi`` (95% Wilson), ascending players."""
    schema = {"players": pl.Int64, "count": pl.Int64, "n": pl.Int64, "rate": pl.Float64,
              "lo": pl.Float64, "hi": pl.Float64}
    if frame.is_empty():
        return pl.DataFrame(schema=schema)
    per = (frame.group_by("run", "game", "players").agg(f=flag.any())
           .group_by("players").agg(count=pl.col("f").sum().cast(pl.Int64),
                                    n=pl.len().cast(pl.Int64)).sort("players"))
    lo, hi = wilson_interval(per["count"].to_numpy(), per["n"].to_numpy())
    return per.with_columns(rate=pl.col("count") / pl.col("n"), lo=pl.Series(lo),
                            hi=pl.Series(hi)).select(list(schema))


def seat_rates(frame: pl.DataFrame, flag: pl.Expr) -> pl.DataFrame:
    """Per player count, the share of seat-games in which ``flag`` (a boolean expression per
    seat row of ``seat_frame``) holds, with its 95% interval clustered by game
    (``cluster_mean``), clipped to [0, 1]; a share of 0 (or 1) has no spread to cluster, so its
    interval is the Wilson interval of 0 (or all) of the games, which bounds it (a game with no
    such seat has a share of 0). Columns ``players``, ``count`` (seat-games), ``n``
    (seat-games), ``games``, ``est``, ``lo``, ``hi``, ascending players."""
    schema = {"players": pl.Int64, "count": pl.Int64, "n": pl.Int64, "games": pl.Int64,
              "est": pl.Float64, "lo": pl.Float64, "hi": pl.Float64}
    rows = []
    if frame.is_empty():
        return pl.DataFrame(schema=schema)
    f = frame.with_columns(v=flag.cast(pl.Float64))
    for p in sorted(f["players"].unique().to_list()):
        sub = f.filter(pl.col("players") == p)
        clusters = (sub["run"].cast(pl.Int64) * (1 << 40) + sub["game"]).to_numpy()
        r = cluster_mean(sub["v"].to_numpy(), clusters)
        g = int(r["clusters"])
        est = float(r["est"])
        if est in (0.0, 1.0) or np.isnan(r["se"]):
            wl, wh = wilson_interval(np.array([g if est == 1.0 else 0]), np.array([g]))
            lo, hi = (float(wl[0]), 1.0) if est == 1.0 else (0.0, float(wh[0]))
            if 0.0 < est < 1.0:  # one game: no spread to estimate, the whole range
                lo, hi = 0.0, 1.0
        else:
            lo, hi = max(0.0, float(r["lo"])), min(1.0, float(r["hi"]))
        rows.append(dict(players=int(p), count=int(sub["v"].sum()), n=sub.height, games=g,
                         est=est, lo=lo, hi=hi))
    return pl.DataFrame(rows, schema=schema)
