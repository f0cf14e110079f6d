"""In-play metrics per bot (issue 15, item 2) on a hand-made seats table."""

import polars as pl
import pytest

import sim
from analysis.inplay import in_play_table
from sim.core.errors import UserError


def _seats():
    rows = []
    # 4 games of 2 seats: seat 0 greedy, seat 1 builder; the Church is in the market in games
    # 0-2; greedy builds it in games 0 and 1 (rounds 2 and 4) and wins both; game 3 limit.
    spec = [  # (market, greedy built, round, winner)
        (1, 1, 2, 0), (1, 1, 4, 0), (1, 0, 0, 1), (0, 0, 0, 1)]
    for g, (m, b, r, w) in enumerate(spec):
        for seat, strat in ((0, "greedy"), (1, "builder")):
            built = b if seat == 0 else 0
            rows.append({"game": g, "players": 2, "seat": seat, "strategy": strat,
                         "rank": 1 if seat == w else 2, "win_share": float(seat == w),
                         "market_church": m, "built_church": built,
                         "built_round_church": r if built else 0})
    rows.append({"game": 4, "players": 2, "seat": 0, "strategy": "greedy", "rank": None,
                 "win_share": 0.0, "market_church": 1, "built_church": 1,
                 "built_round_church": 9})
    rows.append({"game": 4, "players": 2, "seat": 1, "strategy": "builder", "rank": None,
                 "win_share": 0.0, "market_church": 1, "built_church": 0,
                 "built_round_church": 0})
    return pl.DataFrame(rows).lazy()


def test_in_play_rows_per_bot_with_take_rate_round_and_available_difference():
    df = in_play_table(sim.get_game("little-town"), _seats())
    g = df.filter((pl.col("strategy") == "greedy") & (pl.col("component") == "Church")).row(
        0, named=True)
    # finished games only (game 4 stopped at the limit): available in 0-2, not in 3
    assert (g["n_available"], g["n_unavailable"]) == (3, 1)
    assert g["wr_available"] == pytest.approx(2 / 3) and g["wr_unavailable"] == 0.0
    assert g["take_rate"] == pytest.approx(2 / 3) and g["wr_taken"] == 1.0
    assert g["mean_round"] == 3.0
    b = df.filter((pl.col("strategy") == "builder") & (pl.col("component") == "Church")).row(
        0, named=True)
    assert b["take_rate"] == 0.0 and b["wr_taken"] is None
    assert set(df["component"].to_list()) == {"Church"}  # only columns present are measured
    with pytest.raises(UserError, match="records no component availability"):
        in_play_table(sim.get_game("go-town"), _seats())
