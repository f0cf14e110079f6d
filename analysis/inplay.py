"""In-play component metrics per bot, 17lands style (issue 15, item 2): associations, each
bot's own row, never pooled across bots of different strength.

For every component a game's results can see offered to a seat (Little Town: a building in
the market; Suburbia: a tile that entered the market; Little Town goal cards: dealt to the
seat; Province: every structure, always available), and per strategy and player count:

* ``n_available`` / ``n_unavailable``: seat-games of that bot with the component available or
  not;
* ``wr_available`` - ``wr_unavailable`` = ``diff`` with a 95% interval clustered by game
  (``queries.clustered_differences``): the 17lands "in hand" (GIH WR) comparison, an
  association (a bot that sees a strong tile wins more, whatever it does with it);
* ``take_rate``: share of the available seat-games in which the bot took it (built, placed,
  completed), with a Wilson interval (seats treated as independent: an approximation);
* ``wr_taken``: its win rate when it took it (Wilson 95%) and ``mean_round`` the mean round in
  which it took it (where the results record one).

Finished games only. The causal answer is ``boardsim effects`` (docs/effects.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analysis import queries as q
from analysis.stats import wilson_interval
from sim.core.components import slug
from sim.core.errors import UserError

__all__ = ["InPlay", "IN_PLAY", "in_play_table"]


@dataclass(frozen=True)
class InPlay:
    """How a family's availability and take show in the seat detail columns (templates take
    ``{slug}`` or ``{num:02d}``): available when ``available`` >= ``available_min`` (None:
    always available), taken when ``taken`` >= ``taken_min``; ``round``: the round it was
    taken (None: not recorded)."""

    family: str
    table: str
    available: str | None
    available_min: int
    taken: str
    taken_min: int
    round: str | None = None


IN_PLAY: dict[str, tuple[InPlay, ...]] = {
    "little-town": (
        InPlay("buildings", "buildings", "market_{slug}", 1, "built_{slug}", 1,
               "built_round_{slug}"),
        InPlay("goal cards", "goals", "goal_{num:02d}", 0, "goal_{num:02d}", 1),
    ),
    "suburbia": (
        InPlay("tiles", "tiles", "offered_{slug}", 1, "tile_{slug}", 1, "turn_{slug}"),
    ),
    "province": (
        InPlay("structures", "structures", None, 0, "built_{slug}", 1, "turnbuilt_{slug}"),
    ),
}
"""The families whose availability the results record, per game."""


def _col(template: str, key) -> str:
    text = str(key)
    return template.format(slug=slug(key), num=int(text) if text.isdigit() else 0)


def in_play_table(game, seats: pl.LazyFrame) -> pl.DataFrame:
    """The in-play metrics of ``game``'s families (``IN_PLAY``) over a seats table
    (``queries.scan_runs``): one row per players, strategy and component, columns players,
    strategy, family, component, n_available, n_unavailable, wr_available, wr_unavailable,
    diff, lo, hi, p (rates as proportions; diff = available - unavailable, clustered 95%),
    take_rate, take_lo, take_hi, wr_taken, wr_taken_lo, wr_taken_hi, mean_round. Raises
    UserError for a game without such families."""
    fams = IN_PLAY.get(game.id)
    if not fams:
        raise UserError(f"in-play metrics: {game.id} records no component availability; games "
                        f"with it: {', '.join(IN_PLAY)}")
    names = set(seats.collect_schema().names())
    doc = game.component_document()
    keyf = game.component_schema.keys
    strategies = q.collect(seats.select(pl.col("strategy").unique()))["strategy"].to_list()
    frames = []
    for fam in fams:
        keys = [r[keyf.get(fam.table, "name")] for r in doc[fam.table]]
        comps = {}
        for k in keys:
            taken = _col(fam.taken, k)
            avail = _col(fam.available, k) if fam.available else None
            if taken in names and (avail is None or avail in names):
                comps[str(k)] = (avail, taken, _col(fam.round, k) if fam.round else None)
        if not comps:
            continue
        fin = seats.filter(q.finished_seat())
        for s in sorted(strategies):
            mine = pl.col("strategy") == s
            groups = {k: (pl.col(a) >= fam.available_min) if a else pl.lit(True)
                      for k, (a, _, _) in comps.items()}
            diff = q.clustered_differences(seats, groups, among=mine)
            exprs = []
            for i, (a, t, rnd) in enumerate(comps.values()):
                av = (pl.col(a) >= fam.available_min) if a else pl.lit(True)
                tk = av & (pl.col(t) >= fam.taken_min)
                exprs += [(av & mine).sum().alias(f"a{i}"), (tk & mine).sum().alias(f"t{i}"),
                          pl.when(tk & mine).then(pl.col("win_share")).otherwise(0.0).sum()
                          .alias(f"w{i}")]
                if rnd:
                    exprs.append(pl.when(tk & mine).then(pl.col(rnd).cast(pl.Float64))
                                 .otherwise(None).mean().alias(f"r{i}"))
            agg = q.collect(fin.group_by("players").agg(exprs))
            for row in agg.iter_rows(named=True):
                for i, k in enumerate(comps):
                    d = diff.filter((pl.col("players") == row["players"])
                                    & (pl.col("group") == k)).row(0, named=True)
                    na, nt, wt = row[f"a{i}"], row[f"t{i}"], row[f"w{i}"]
                    tlo, thi = wilson_interval(nt, na)
                    wlo, whi = wilson_interval(wt, nt)
                    frames.append({
                        "players": row["players"], "strategy": s, "family": fam.family,
                        "component": k, "n_available": d["n_with"],
                        "n_unavailable": d["n_without"], "wr_available": d["rate_with"],
                        "wr_unavailable": d["rate_without"], "diff": d["diff"],
                        "lo": d["lo"], "hi": d["hi"], "p": d["p"],
                        "take_rate": nt / na if na else None, "take_lo": float(tlo[0]),
                        "take_hi": float(thi[0]), "wr_taken": wt / nt if nt else None,
                        "wr_taken_lo": float(wlo[0]), "wr_taken_hi": float(whi[0]),
                        "mean_round": row.get(f"r{i}"),
                    })
    df = pl.DataFrame(frames, infer_schema_length=None)
    if df.is_empty():
        return df
    return df.with_columns(pl.col(pl.Float64).fill_nan(None)).sort(
        "players", "family", "component", "strategy")

