"""The balance lab: paired comparisons, sweeps and suggested fixes on common random numbers.

Every *arm* (the printed game, or a variant with component-data overrides and/or rule options)
is played on the same game seeds and the same seatings: game ``i`` of every arm starts from
the same deal when the change does not touch the deal, and its bots draw from the same
generators. With ``rotate``, each seed is played once in every rotation of the strategies over
the seats, so strategy comparisons are free of seat effects.

Entry points (used by ``boardsim compare``, ``sweep`` and ``suggest``): ``run_arms``,
``paired_metrics``, ``compare``, ``sweep``, ``suggest``. Each writes its tables (CSV) and a
Markdown report under ``out`` through temporary names.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis import queries as q
from analysis.doc import md_table, pvalue, signed, signed_ci, slug, write_atomic
from analysis.paired import clustered_mean_se, paired_difference
from analysis.stats import Z95, bh_adjust, normal_pvalue, wilson_interval
from sim.core.components import tunable_paths
from sim.core.ending import NO_RESULT, NO_RESULT_TEXT, unfinished_reasons
from sim.core.errors import UserError
from sim.core.integrity import MAX_GAMES
from sim.core.io import atomic_path
from sim.registry import get_game
from sim.runner import DEFAULT_BACKEND


@dataclass
class Arm:
    """One setting of the game: a name, component-data overrides and rule options."""

    name: str
    overrides: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """'name=value, ..., option name=value' (or 'as printed')."""
        parts = [f"{k}={v}" for k, v in self.overrides.items()]
        parts += [f"option {k}={v}" for k, v in self.options.items()]
        return ", ".join(parts) or "as printed"


@dataclass
class ArmRuns:
    """The run folders of one arm: one per rotation of the strategies."""

    arm: Arm
    runs: list[Path]
    seat_strategies: list[list[str]]


RunFn = Callable[..., Path]


def _default_run(game, n, players, strategies, seed, options, jobs, chunk_size, out, seating,
                 backend, label=None, scheduler=None, overrides=None, budget=None) -> Path:
    from sim.runner import simulate

    return simulate(game, n, players, strategies, seed=seed, options=options, jobs=jobs,
                    chunk_size=chunk_size, out=out, seating=seating, backend=backend,
                    overrides=overrides, budget=budget)


def rotations(strategies: list[str], players: int, rotate: bool) -> list[list[str]]:
    """Seat strategy lists: the given one, and with ``rotate`` every rotation of it.

    ``strategies``: one name (every seat) or one per seat. Raises UserError otherwise."""
    if len(strategies) == 1:
        strategies = strategies * players
    if len(strategies) != players:
        raise UserError(f"give one strategy for every seat or one per seat ({players}), got "
                        f"{len(strategies)}")
    if not rotate or len(set(strategies)) == 1:
        return [list(strategies)]
    return [strategies[r:] + strategies[:r] for r in range(players)]


def run_arms(game_id: str, arms: list[Arm], n: int, players: int, strategies: list[str],
             seed: int, rotate: bool, jobs: int, out: Path, run: RunFn | None = None,
             chunk_size: int = 10_000, seating: str = "fixed",
             budget: int | None = None) -> list[ArmRuns]:
    """Play ``n`` games per rotation for every arm on the same seeds; return their folders.

    ``seating="pool"``: ``strategies`` is a pool, one run per arm with pool seating (each
    seat's bot drawn per game from the run seed, ``sim.core.seating``: the same seats in every
    arm), ``rotate`` unused. Runs go to ``out/runs/<arm>/rot<r>`` (``pool`` for a pool;
    resumable). ``budget``: the search bots' playouts per decision (each run's manifest
    records it; None: their defaults). Raises UserError on bad input."""
    run = run or _default_run
    pool = seating == "pool"
    seatings = [list(strategies)] if pool else rotations(strategies, players, rotate)
    mode = "pool" if pool else "fixed"
    out = Path(out)
    from sim.core.game import check_budget
    from sim.runner import validate

    for arm in arms:  # every arm checked before the first game of any (one line, nothing run)
        for seats in seatings:
            g, _ = validate(game_id, n, players, list(seats), mode, arm.options, jobs,
                            chunk_size, DEFAULT_BACKEND, arm.overrides)
            check_budget(g, list(seats), budget)
    extra = {} if budget is None else {"budget": budget}
    result = []
    for arm in arms:
        folders = []
        for r, seats in enumerate(seatings):
            folder = out / "runs" / slug(arm.name) / ("pool" if pool else f"rot{r}")
            folders.append(run(game_id, n, players, seats, seed, arm.options, jobs,
                               chunk_size, folder, mode, DEFAULT_BACKEND,
                               label=f"{arm.name} rot{r}" if len(seatings) > 1 else arm.name,
                               overrides=arm.overrides, **extra))
        result.append(ArmRuns(arm, folders, seatings))
    return result


# ---- per-game metrics ---------------------------------------------------------------------
def load_games(runs: list[Path], players: int, game=None) -> dict[str, np.ndarray]:
    """Per-game arrays of an arm's runs stacked in rotation order: win_share, score
    ``float64[N, players]``, strategy index ``int64[N, players]`` (into the sorted strategy
    names in ``"names"``), turns ``float64[N]``, first_player ``int64[N]``, ``seed_index``
    ``int64[N]`` (the game's index in its run: the rotations of one seed share it, the cluster
    of ``compare --rotate``), finished ``bool[N]`` (ended with a result:
    ``sim.core.ending``, from ``game``'s declared end reasons) and ``unfinished``
    ``{reason: bool[N]}`` for each of its end reasons without a result (limit, deadlock)."""
    ws, sc, st, turns, first, ends, idx_ = [], [], [], [], [], [], []
    for run in runs:
        seats = (pl.scan_parquet(os.path.join(run, "seats", "chunk-*.parquet"))
                 .select("game", "seat", "strategy", "score", "win_share")
                 .sort("game", "seat").collect())
        games = (pl.scan_parquet(os.path.join(run, "games", "chunk-*.parquet"))
                 .select("game", "turns", "first_player", "end_reason").sort("game").collect())
        ng = games.height
        ws.append(seats["win_share"].to_numpy().reshape(ng, players))
        sc.append(seats["score"].to_numpy().astype(np.float64).reshape(ng, players))
        st.append(seats["strategy"].to_numpy().reshape(ng, players))
        turns.append(games["turns"].to_numpy().astype(np.float64))
        first.append(games["first_player"].to_numpy().astype(np.int64))
        ends.append(games["end_reason"].fill_null("").to_numpy().astype(object))
        idx_.append(games["game"].to_numpy().astype(np.int64))
    strat = np.concatenate(st)
    names = sorted(set(strat.ravel().tolist()))
    idx = np.searchsorted(np.array(names), strat)
    end = np.concatenate(ends)
    reasons = unfinished_reasons(game) if game is not None else NO_RESULT
    unfinished = {r: end == r for r in reasons}
    fin = ~np.logical_or.reduce([m for m in unfinished.values()] + [np.zeros(len(end), bool)])
    return {"win_share": np.concatenate(ws), "score": np.concatenate(sc), "strategy": idx,
            "names": names, "turns": np.concatenate(turns), "first_player": np.concatenate(first),
            "seed_index": np.concatenate(idx_), "finished": fin, "unfinished": unfinished}


LIMIT_METRIC = "limit-game rate"
"""The metric counting games stopped at the length limit (over all games; every other metric
is over finished games only)."""
DEADLOCK_METRIC = "deadlock rate"
"""The metric counting games ended in a deadlock (Go Town; over all games)."""
UNFINISHED_METRICS = {"limit": LIMIT_METRIC, "deadlock": DEADLOCK_METRIC}
"""The metric of each end reason without a result (``sim.core.ending.NO_RESULT``)."""


def game_metrics(g: dict[str, np.ndarray], players: int) -> dict[str, np.ndarray]:
    """Per-game values of every metric ``name -> float64[N]``: first-player win rate, the
    win rate of every later turn-order position and the mean score of every position (by turn
    order, never by seat number), each strategy's win rate (mean win share of its seats in
    the game; NaN where absent), game length (turns), all NaN in a game without a result
    (stopped at the length limit or in a deadlock: neither a win nor a loss, nor a length);
    and, for each end reason without a result, its rate (1 for such a game, else 0; defined
    for every game): the limit-game rate, and Go Town's deadlock rate."""
    n = g["turns"].shape[0]
    fin = g.get("finished", np.ones(n, bool))
    out: dict[str, np.ndarray] = {}
    out["first-player win rate"] = g["win_share"][np.arange(n), g["first_player"]]
    # by turn order, never by seat number (a game may pick its first player at random)
    order = (g["first_player"][:, None] + np.arange(players)[None, :]) % players
    ws = np.take_along_axis(g["win_share"], order, axis=1)
    sc = np.take_along_axis(g["score"], order, axis=1)
    for k in range(1, players):
        out[f"turn position {k + 1} win rate"] = ws[:, k]
    for k in range(players):
        out[f"turn position {k + 1} mean score"] = sc[:, k]
    names = g["names"]
    if len(names) > 1:
        for k, name in enumerate(names):
            mask = g["strategy"] == k
            cnt = mask.sum(axis=1)
            val = np.where(mask, g["win_share"], 0.0).sum(axis=1)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[f"{name} win rate"] = np.where(cnt > 0, val / np.maximum(cnt, 1), np.nan)
    out["mean score (all seats)"] = g["score"].mean(axis=1)
    out["game length (turns)"] = g["turns"]
    out = {k: np.where(fin, v, np.nan) for k, v in out.items()}
    unfinished = g.get("unfinished") or {"limit": ~fin}
    for reason, mask in unfinished.items():
        out[UNFINISHED_METRICS.get(reason, f"{reason} rate")] = mask.astype(np.float64)
    return out


def paired_metrics(base: ArmRuns, var: ArmRuns, players: int, game=None) -> pl.DataFrame:
    """One row per metric: baseline, variant, diff with the paired 95% interval, the unpaired
    interval, the width ratio, the games factor (how many more games independent runs would
    need), p (two-sided, paired normal test of diff == 0) and q (Benjamini-Hochberg across the
    table's metrics). Win rates, scores and lengths are over the games **finished in both
    arms** (``games``; ``sim.core.ending``: limit and deadlock games left out); the rate of
    each end reason without a result over every game. Win rates and those rates are in points
    (percent). The intervals are clustered by seed: with ``--rotate`` the rotations of one
    seed are one cluster, not independent games."""
    gb, gv = load_games(base.runs, players, game), load_games(var.runs, players, game)
    if gb["turns"].shape != gv["turns"].shape:
        raise UserError("compare: the two arms have different game counts")
    mb, mv = game_metrics(gb, players), game_metrics(gv, players)
    clusters = gb["seed_index"]
    rows = []
    for name, xb in mb.items():
        if name not in mv:
            continue
        xv = mv[name]
        ok = ~(np.isnan(xb) | np.isnan(xv))
        if ok.sum() < 2:
            continue
        pdiff = paired_difference(xb[ok], xv[ok], clusters[ok])
        scale = 100.0 if "rate" in name else 1.0
        se = (pdiff.hi - pdiff.lo) / (2 * Z95)
        rows.append({
            "metric": name, "games": pdiff.n, "baseline": pdiff.baseline * scale,
            "variant": pdiff.variant * scale, "diff": pdiff.diff * scale,
            "lo": pdiff.lo * scale, "hi": pdiff.hi * scale,
            "unpaired_lo": pdiff.unpaired_lo * scale, "unpaired_hi": pdiff.unpaired_hi * scale,
            "width_ratio": pdiff.width_ratio, "games_factor": pdiff.games_factor,
            "p": normal_pvalue(pdiff.diff, se),
        })
    df = pl.DataFrame(rows)
    if df.is_empty():
        return df
    return df.with_columns(q=pl.Series(bh_adjust(df["p"].to_numpy())))


def limit_rates(arms: list[ArmRuns], players: int, game=None) -> list[dict[str, Any]]:
    """Each arm's games without a result, each end reason apart (``sim.core.ending``):
    ``{"arm", "games", "finished", "limit", "rate", "lo", "hi", "reasons"}``: ``limit``/
    ``rate``/``lo``/``hi`` the games stopped at the length limit (rate and Wilson 95% bounds in
    points), ``reasons`` ``{reason: {"games", "rate", "lo", "hi"}}`` for every reason without
    a result (Go Town's deadlocks too), so ``finished + sum of reasons == games``."""
    out = []
    for a in arms:
        g = load_games(a.runs, players, game)
        n = int(g["finished"].shape[0])
        reasons = {}
        for r, mask in g["unfinished"].items():
            k = int(mask.sum())
            lo, hi = wilson_interval(k, n)
            reasons[r] = {"games": k, "rate": 100.0 * k / n, "lo": 100.0 * float(lo[0]),
                          "hi": 100.0 * float(hi[0])}
        lim = reasons.get("limit") or {"games": 0, "rate": 0.0, "lo": 0.0, "hi": 0.0}
        out.append({"arm": a.arm.name, "games": n, "finished": int(g["finished"].sum()),
                    "limit": lim["games"], "rate": lim["rate"], "lo": lim["lo"],
                    "hi": lim["hi"], "reasons": reasons})
    return out


def limit_lines(rates: list[dict[str, Any]]) -> list[str]:
    """Markdown lines: each arm's finished games and, apart, its games without a result,
    each end reason with its own rate and interval."""
    def arm(r):
        reasons = r.get("reasons") or {"limit": {"games": r["limit"], "rate": r["rate"],
                                                  "lo": r["lo"], "hi": r["hi"]}}
        parts = [f"{NO_RESULT_TEXT.get(k, k)} {v['games']:,} = {v['rate']:.2f}% "
                 f"[{v['lo']:.2f}, {v['hi']:.2f}]" for k, v in reasons.items()]
        fin = r.get("finished", r["games"] - sum(v["games"] for v in reasons.values()))
        return f"{r['arm']}: {fin:,} of {r['games']:,} finished; " + ", ".join(parts)
    return ["Games without a result (left out of every rate, score and length above; each "
            "end reason apart, Wilson 95%): " + "; ".join(arm(r) for r in rates) + "."]


def sample_warnings(table: pl.DataFrame, target: float = 1.0) -> list[str]:
    """Markdown lines warning of win-rate differences whose 95% half-width exceeds ``target``
    points, with the games per arm that would bring it to ``target`` (width shrinks as
    1/sqrt(games))."""
    out = []
    for r in table.iter_rows(named=True):
        if "win rate" not in r["metric"] or r["hi"] is None:
            continue
        half = (r["hi"] - r["lo"]) / 2
        if half > target:
            need = math.ceil(r["games"] * (half / target) ** 2)
            out.append(f"- Sample size: {r['metric']} is resolved to +-{half:.2f} points on "
                       f"{r['games']:,} games; about {need:,} games would resolve "
                       f"+-{target:g} point.")
    return out


# ---- component win-rate differences ---------------------------------------------------------
def component_table(game, runs: list[Path]) -> pl.DataFrame:
    """Win-rate difference (points) of every component linked by the game's schema
    (``ImpactLink``): table, key, component (row key), column, n_with, diff, lo, hi (95%
    interval clustered by game, ``queries.component_impact``; finished games only)."""
    schema = game.component_schema
    doc = game.component_document()
    _, seats = q.scan_runs([str(r) for r in runs])
    names = set(seats.collect_schema().names())
    frames = []
    for link in schema.impact:
        node = doc[link.table]
        keyf = schema.keys.get(link.table, "name")
        keys = [r[keyf] for r in node] if isinstance(node, list) else list(node)
        cols = {link.column(k): k for k in keys if link.column(k) in names}
        if not cols:
            continue
        imp = q.component_impact(seats, detail_prefix=link.prefix)
        imp = imp.filter(pl.col("column").is_in(list(cols)))
        frames.append(imp.with_columns(
            table=pl.lit(link.table),
            key=pl.col("column").replace_strict(cols, return_dtype=pl.Utf8,
                                                default=None).cast(pl.Utf8),
            key_slug=pl.col("column").replace_strict({c: slug(k) for c, k in cols.items()},
                                                     return_dtype=pl.Utf8, default=None),
        ))
    if not frames:
        return pl.DataFrame()
    df = pl.concat(frames)
    return df.with_columns((pl.col(["diff", "lo", "hi"]) * 100.0)).select(
        "players", "table", "key", "key_slug", "column", "n_with", "n_without", "diff", "lo",
        "hi")


def component_row(comp: pl.DataFrame, table: str, key: Any = None,
                  key_slug: str | None = None) -> dict | None:
    """The row of ``comp`` (a ``component_table``) for one component, by its key or by the
    slug of its key (as spelled in a data path); None when absent."""
    if comp.is_empty():
        return None
    match = pl.col("key") == key if key_slug is None else pl.col("key_slug") == key_slug
    hit = comp.filter((pl.col("table") == table) & match)
    return hit.row(0, named=True) if hit.height else None


# ---- writing -----------------------------------------------------------------------------
def _write_csv(df: pl.DataFrame, path: Path) -> Path:
    with atomic_path(path) as tmp:
        df.write_csv(tmp)
    return path


def _setup_lines(game, n, players, strategies, seed, rotate, seatings,
                 pool_text: str | None = None) -> list[str]:
    bots = (f"- Bots: {pool_text}" if pool_text else
            f"- Bots: {', '.join(strategies)}; seatings: "
            + ("; ".join(",".join(s) for s in seatings)) + (" (every rotation)" if rotate else ""))
    return [
        f"- Game: {game.title} (`{game.id}`), {players} players; data status: "
        f"{game.data_status}",
        bots,
        f"- Games: {n:,} per arm and seating, seed {seed}; every arm plays the same seeds "
        "(common random numbers).",
    ]


# ---- compare ------------------------------------------------------------------------------
def compare(game_id: str, baseline: Arm, variant: Arm, n: int, players: int,
            strategies: list[str], seed: int = 1, rotate: bool = True, jobs: int = -1,
            out: Path | None = None, run: RunFn | None = None, seating: str = "fixed",
            source: str | None = None, budget: int | None = None) -> dict[str, Any]:
    """Paired comparison of ``variant`` against ``baseline`` on the same seeds and seatings.

    ``strategies``: one bot for every seat or one per seat (``rotate``: every rotation too),
    or with ``seating="pool"`` a pool of bots drawn per seat and game (the seating of
    ``boardsim tune`` and of the recommended mix: the same seats in both arms); ``source``:
    where the pool came from (e.g. "the recommended mix"), said in the output. Writes ``out/compare.md`` and ``out/compare.csv`` (one row per metric: baseline, variant,
    diff with paired and unpaired 95% intervals, in points for win rates); ``budget``: the
    search bots' playouts per decision (None: their defaults), said in the output. Returns
    ``{"table": DataFrame, "markdown": path, "summary": str}``. Raises UserError on bad input.
    """
    game = get_game(game_id)
    game.check_players(players)
    out = Path(out or Path("reports") / game.id / "compare" / f"{slug(variant.name)}")
    pool = seating == "pool"
    arms = run_arms(game.id, [baseline, variant], n, players, strategies, seed, rotate, jobs,
                    out, run, seating=seating, budget=budget)
    pool_text = (f"{source + ': ' if source else ''}{', '.join(strategies)}, pool seating "
                 "(each seat's bot drawn per game from the run seed; the same seats in both "
                 "arms)") if pool else None
    table = paired_metrics(arms[0], arms[1], players, game)
    comp_b = component_table(get_game(game.id, baseline.overrides), arms[0].runs)
    comp_v = component_table(get_game(game.id, variant.overrides), arms[1].runs)
    lines = [f"# Paired comparison: {game.title}", "",
             f"Baseline: {baseline.describe()}. Variant: {variant.describe()}.", ""]
    lines += _setup_lines(game, n, players, strategies, seed, rotate, arms[0].seat_strategies,
                          pool_text)
    if budget is not None:
        lines.append(f"- Search bots: {budget:,} playouts per decision (`--budget`).")
    lines += ["", "## Metrics", "",
              "Difference = variant - baseline (points for win rates), 95% interval from the "
              "paired games, and the interval two independent runs of the same size would "
              "give, both clustered by seed (the rotations of one seed are not independent "
              "games). *Games factor*: independent runs would need that many times more games "
              "for the same precision. Win rates, scores and lengths are over the games finished "
              "in both arms (*games*: a game stopped at the length limit or in a deadlock has no "
              "result); the rate of each end reason without a result over every game. q: "
              "Benjamini-Hochberg across the metrics of this table.", ""]
    rows = []
    for r in table.iter_rows(named=True):
        rows.append([r["metric"], f"{r['games']:,}", f"{r['baseline']:.2f}",
                     f"{r['variant']:.2f}",
                     f"{signed(r['diff'], 2)} [{r['lo']:+.2f}, {r['hi']:+.2f}]",
                     f"[{r['unpaired_lo']:+.2f}, {r['unpaired_hi']:+.2f}]",
                     f"{r['games_factor']:.1f}x" if r["games_factor"] == r["games_factor"]
                     and r["games_factor"] != float("inf") else "exact",
                     pvalue(r["q"])])
    lines.append(md_table(["metric", "games", "baseline", "variant", "difference (paired 95%)",
                           "unpaired 95%", "games factor", "BH q"], rows))
    lims = limit_rates(arms, players, game)
    lines += [""] + limit_lines(lims)
    warn = sample_warnings(table)
    if warn:
        lines += [""] + warn
    changed = _changed_components(comp_b, comp_v, variant.overrides)
    if changed:
        lines += ["", "## Changed components", "",
                  "Win-rate difference of the seats that have the component against those that "
                  "do not (points, 95% interval clustered by game; an association: `boardsim "
                  "effects` measures causal effects).", ""]
        lines.append(md_table(["component", "baseline", "variant"], changed))
    md = write_atomic(out / "compare.md", "\n".join(lines) + "\n")
    _write_csv(table, out / "compare.csv")
    head = [f"{r['metric']}: {signed(r['diff'], 2)} [{r['lo']:+.2f}, {r['hi']:+.2f}] "
            f"(unpaired [{r['unpaired_lo']:+.2f}, {r['unpaired_hi']:+.2f}]; {r['games']:,} "
            "games)" for r in table.iter_rows(named=True)]
    head += [f"{r['arm']}: {r['finished']:,} of {r['games']:,} games finished; "
             + "; ".join(f"{NO_RESULT_TEXT.get(k, k)}: {v['games']:,} = {v['rate']:.2f}% "
                         f"[{v['lo']:.2f}, {v['hi']:.2f}]" for k, v in r["reasons"].items())
             for r in lims]
    head += [w[2:] for w in warn]
    if pool_text:
        head.insert(0, f"bots: {pool_text}; {n:,} games per arm")
    if budget is not None:
        head.insert(0, f"search bots: {budget:,} playouts per decision")
    return {"table": table, "markdown": md, "limit": lims,
            "summary": "\n".join(head + [f"report: {md}"])}


def _changed_components(cb: pl.DataFrame, cv: pl.DataFrame, overrides: dict) -> list[list[str]]:
    if cb.is_empty() or cv.is_empty():
        return []
    rows = []
    for path in overrides:
        parts = path.split(".")
        if len(parts) < 3:
            continue
        t, k = parts[0], parts[1]
        rb, rv = component_row(cb, t, key_slug=k), component_row(cv, t, key_slug=k)
        if rb and rv:
            rows.append([f"{t}.{k}", _component_diff(rb), _component_diff(rv)])
    return rows


def _component_diff(r: dict) -> str:
    if r["diff"] is None:
        return "n/a"
    return f"{signed_ci(r['diff'], r['lo'], r['hi'])} (n={r['n_with']:,})"


# ---- sweep --------------------------------------------------------------------------------
MAX_SWEEP_VALUES = 50   # values of one --param
MAX_SWEEP_ARMS = 400    # combinations of the values of two --param
def parse_param(game, text: str) -> tuple[str, str, list[str]]:
    """``NAME=v1,v2,..`` -> (kind "option"/"data", name, values). Raises UserError."""
    if "=" not in text:
        raise UserError(f"--param {text!r}: expected NAME=v1,v2,... (a rule option or a data "
                        "path, e.g. buildings.church.vp=6,7,8)")
    name, vals = text.split("=", 1)
    name = name.strip()
    values = [v.strip() for v in vals.split(",") if v.strip()]
    if not values:
        raise UserError(f"--param {name}: give at least one value")
    if len(values) > MAX_SWEEP_VALUES:
        raise UserError(f"--param {name}: {len(values):,} values; at most {MAX_SWEEP_VALUES} "
                        "per parameter (each value plays its own games)")
    twice = sorted({v for v in values if values.count(v) > 1})
    if twice:
        raise UserError(f"--param {name}: value {twice[0]} given twice; give each value once")
    if name in [o.name for o in game.options]:
        for v in values:
            game.resolve_options({name: v})
        return "option", name, values
    for v in values:
        game.with_overrides({name: v})
    return "data", name, values


def sweep(game_id: str, params: list[str], n: int, players: int, strategies: list[str],
          seed: int = 1, rotate: bool = True, jobs: int = -1, out: Path | None = None,
          run: RunFn | None = None) -> dict[str, Any]:
    """Play every value (or pair of values) of one or two parameters on the same seeds.

    ``rotate`` (default, as ``compare``): every rotation of ``strategies`` over the seats, so the
    first-player win rate is the first turn position's and not the bot in seat 1; intervals
    are clustered by seed. ``params``: ``["NAME=v1,v2,..."]`` (one or two; a rule option or a data path). Writes
    ``out/sweep.csv`` (one row per value and metric: value, estimate, lo, hi), ``out/sweep.md``
    and ``out/sweep.png`` (metrics against the value with 95% bands). Raises UserError."""
    game = get_game(game_id)
    game.check_players(players)
    if not 1 <= len(params) <= 2:
        raise UserError("sweep: give one or two --param")
    parsed = [parse_param(game, p) for p in params]
    if len(parsed) == 2 and parsed[0][1] == parsed[1][1]:
        raise UserError(f"sweep: --param {parsed[0][1]} given twice; give one parameter once "
                        "with all its values, or two different parameters")
    arms_n = math.prod(len(v) for _, _, v in parsed)
    if arms_n > MAX_SWEEP_ARMS:
        raise UserError(f"sweep: {arms_n:,} combinations of values; at most {MAX_SWEEP_ARMS}")
    if arms_n * n > MAX_GAMES:
        raise UserError(f"sweep: {arms_n:,} values x -n {n:,} games makes more than "
                        f"{MAX_GAMES:,} games")
    grid: list[list[tuple[str, str, str]]] = [[]]
    for kind, name, values in parsed:
        grid = [g + [(kind, name, v)] for g in grid for v in values]
    arms = []
    for combo in grid:
        arm = Arm(" ".join(f"{name}={v}" for _, name, v in combo))
        for kind, name, v in combo:
            (arm.options if kind == "option" else arm.overrides)[name] = v
        arms.append(arm)
    tag = "-".join(slug(p[1]) for p in parsed)
    out = Path(out or Path("reports") / game.id / "sweep" / tag)
    runs = run_arms(game.id, arms, n, players, strategies, seed, rotate, jobs, out, run)
    rows = []
    for combo, ar in zip(grid, runs):
        g = load_games(ar.runs, players, game)
        mets = game_metrics(g, players)
        vals = {f"param{i + 1}": v for i, (_, _, v) in enumerate(combo)}
        for name, x in mets.items():
            keep = ~np.isnan(x)  # finished games only (the rates of no result: every game)
            x, cl = x[keep], g["seed_index"][keep]
            if len(x) < 2:
                continue
            scale = 100.0 if "rate" in name else 1.0
            if name in UNFINISHED_METRICS.values():
                lo_, hi_ = wilson_interval(x.sum(), len(x))
                rows.append({**vals, "metric": name, "games": len(x),
                             "estimate": x.mean() * scale, "lo": float(lo_[0]) * scale,
                             "hi": float(hi_[0]) * scale})
                continue
            m, se = x.mean(), clustered_mean_se(x, cl)
            rows.append({**vals, "metric": name, "games": len(x), "estimate": m * scale,
                         "lo": (m - Z95 * se) * scale, "hi": (m + Z95 * se) * scale})
        games_lf, seats = q.scan_runs([str(r) for r in ar.runs])
        for b in q.balance(seats, games_lf).iter_rows(named=True):
            rows.append({**vals, "metric": "Balance (turn order, 2-player definition)",
                         "games": b["n"], "estimate": b["balance"], "lo": None, "hi": None})
        for _, name, _v in combo:
            if name.count(".") >= 2:
                comp = component_table(get_game(game.id, ar.arm.overrides), ar.runs)
                t, k = name.split(".")[:2]
                r = component_row(comp, t, key_slug=k)
                if r:
                    rows.append({**vals, "metric": f"{t}.{k} win-rate difference",
                                 "games": r["n_with"], "estimate": r["diff"], "lo": r["lo"],
                                 "hi": r["hi"]})
    table = pl.DataFrame(rows)
    _write_csv(table, out / "sweep.csv")
    png = sweep_chart(table, [p[1] for p in parsed], out / "sweep.png")
    lines = [f"# Sweep: {game.title}", "",
             "Parameters: " + "; ".join(f"`{p[1]}` = {', '.join(p[2])} ({p[0]})"
                                        for p in parsed), ""]
    lines += _setup_lines(game, n, players, strategies, seed, rotate, runs[0].seat_strategies)
    lines += ["", f"![metrics against the parameter]({Path(png).name})", ""]
    metrics = list(dict.fromkeys(table["metric"].to_list()))
    header = [p[1] for p in parsed] + metrics
    body = []
    for combo in grid:
        sel = table
        for i, (_, _, v) in enumerate(combo):
            sel = sel.filter(pl.col(f"param{i + 1}") == v)
        cells = [v for _, _, v in combo]
        for m in metrics:
            r = sel.filter(pl.col("metric") == m)
            if not r.height:
                cells.append("")
                continue
            r = r.row(0, named=True)
            cells.append(f"{r['estimate']:.2f}" + (f" [{r['lo']:.2f}, {r['hi']:.2f}]"
                                                   if r["lo"] is not None else ""))
        body.append(cells)
    lines.append(md_table(header, body))
    lines += ["", "Win rates, scores and lengths are over finished games only (*games* in "
              "sweep.csv; a game stopped at the length limit or in a deadlock has no result); "
              "the rate of each end reason without a result is over every game, with its "
              "Wilson 95% interval; other intervals are normal 95% over games, clustered by "
              "seed (the rotations of one seed are one cluster)."]
    small = table.filter(pl.col("metric").str.contains("win rate") & pl.col("lo").is_not_null()
                         & ((pl.col("hi") - pl.col("lo")) / 2 > 1.0))
    if small.height:
        worst = small.with_columns(h=(pl.col("hi") - pl.col("lo")) / 2).sort(
            "h", descending=True).row(0, named=True)
        need = math.ceil(worst["games"] * (worst["h"] / 1.0) ** 2)
        lines += ["", f"- Sample size: {small.height} win-rate estimates are wider than +-1 "
                  f"point (widest: {worst['metric']} +-{worst['h']:.2f} on "
                  f"{worst['games']:,} games; about {need:,} games per value would resolve "
                  "+-1 point)."]
    md = write_atomic(out / "sweep.md", "\n".join(lines) + "\n")
    return {"table": table, "markdown": md, "chart": png,
            "summary": f"{len(grid)} settings x {n:,} games; table {out / 'sweep.csv'}\n"
            f"report: {md}"}


def sweep_chart(table: pl.DataFrame, names: list[str], path: Path) -> Path:
    """One panel per metric: estimate against the first parameter's value with its 95% band,
    one line per value of the second parameter. Written to a temporary name, then renamed."""
    from analysis.charts import plt, save  # matplotlib with the Agg backend

    metrics = list(dict.fromkeys(table["metric"].to_list()))
    cols = 3
    rows_ = (len(metrics) + cols - 1) // cols
    fig, axes = plt.subplots(rows_, cols, figsize=(4.2 * cols, 3.0 * rows_), squeeze=False)
    xs = list(dict.fromkeys(table["param1"].to_list()))
    groups = list(dict.fromkeys(table["param2"].to_list())) if "param2" in table.columns \
        else [None]
    for ax, m in zip(axes.ravel(), metrics):
        for g in groups:
            sel = table.filter(pl.col("metric") == m)
            if g is not None:
                sel = sel.filter(pl.col("param2") == g)
            pos = [xs.index(v) for v in sel["param1"].to_list()]
            est = sel["estimate"].to_numpy()
            label = f"{names[1]}={g}" if g is not None else None
            ax.plot(pos, est, marker="o", label=label)
            if sel["lo"].null_count() < sel.height:
                lo = sel["lo"].fill_null(np.nan).to_numpy()
                hi = sel["hi"].fill_null(np.nan).to_numpy()
                ax.fill_between(pos, lo, hi, alpha=0.25)
        ax.set_xticks(range(len(xs)), xs)
        ax.set_xlabel(names[0])
        ax.set_title(m, fontsize=9)
        if groups != [None]:
            ax.legend(fontsize=7)
    for ax in axes.ravel()[len(metrics):]:
        ax.axis("off")
    save(fig, path, dpi=90)
    return path


# ---- suggest -------------------------------------------------------------------------------
@dataclass
class Proposal:
    """A suggested change of one component number: the value before and after, the
    component's difference (dicts diff/lo/hi/n_with) before and after, the games played, and
    the check under a second bot mix (``robust``, ``robust_note``); ``inside``: whether the
    change brings it inside the band (else the closest change found)."""
    component: str
    path: str
    before_value: Any
    after_value: Any
    before: dict
    after: dict
    games: int
    robust: bool | None = None
    robust_note: str = ""
    inside: bool = True


def centred(comp: pl.DataFrame, center: str) -> pl.DataFrame:
    """``comp`` with ``center`` (the reference of each table: 0, or the median difference of
    the table's components) and ``dev``/``dev_lo``/``dev_hi`` = diff/lo/hi minus it."""
    if comp.is_empty():
        return comp
    ref = (pl.col("diff").median().over("table") if center == "median" else pl.lit(0.0))
    return comp.with_columns(center=ref).with_columns(
        dev=pl.col("diff") - pl.col("center"), dev_lo=pl.col("lo") - pl.col("center"),
        dev_hi=pl.col("hi") - pl.col("center"))


def _with_q(comp: pl.DataFrame) -> pl.DataFrame:
    """``comp`` (centred) with ``p_dev`` (two-sided p of dev == 0, from the clustered
    interval's standard error) and ``q_dev`` (Benjamini-Hochberg across the table)."""
    if comp.is_empty() or "dev" not in comp.columns:
        return comp
    ps = [normal_pvalue(r["dev"], (r["dev_hi"] - r["dev_lo"]) / (2 * Z95))
          if r["dev"] is not None and r["dev_lo"] is not None else float("nan")
          for r in comp.iter_rows(named=True)]
    return comp.with_columns(p_dev=pl.Series(ps, dtype=pl.Float64),
                             q_dev=pl.Series(bh_adjust(ps), dtype=pl.Float64))


def inside_band(r: dict, band: float) -> bool:
    """Whether a component's whole 95% interval (``dev_lo``..``dev_hi``, around its centre)
    lies inside ``+-band``."""
    return (r.get("dev_lo") is not None and r.get("dev_hi") is not None
            and -band <= r["dev_lo"] and r["dev_hi"] <= band)


def _outliers(comp: pl.DataFrame, band: float, limit: int, min_n: int = 50) -> list[dict]:
    """Components whose difference lies outside the band around the centre with an interval
    that excludes the centre and a Benjamini-Hochberg q below 0.05 across the table, seen in
    at least ``min_n`` seat-games with and without, largest deviation first."""
    if comp.is_empty():
        return []
    comp = _with_q(comp)
    df = comp.filter(pl.col("dev").is_not_null()
                     & (pl.col("n_with") >= min_n) & (pl.col("n_without") >= min_n)
                     & ((pl.col("dev") > band) | (pl.col("dev") < -band))
                     & ((pl.col("dev_lo") > 0) | (pl.col("dev_hi") < 0))
                     & (pl.col("q_dev") < 0.05))
    df = df.with_columns(_a=pl.col("dev").abs()).sort("_a", descending=True).drop("_a")
    return df.head(limit).to_dicts()


def _candidates(game, table: str, key: Any, direction: int, max_step: int
                ) -> list[tuple[str, int, int]]:
    """Changes to one component's own numbers, smallest first: (path, old, new). ``direction``
    -1 weakens the component, +1 strengthens it."""
    doc = game.component_document()
    out = []
    for step in range(1, max_step + 1):
        for path, value, effect, lo, hi in tunable_paths(doc, game.component_schema, table, key):
            new = value + step * direction * effect
            if lo <= new <= hi:
                out.append((path, value, new))
    return out


def suggest(game_id: str, n: int, players: int | None = None,
            strategies: list[str] | None = None, seed: int = 1, band: float = 2.0,
            limit: int = 5, max_step: int = 2, alt_strategies: list[str] | None = None,
            jobs: int = -1, out: Path | None = None, run: RunFn | None = None,
            base_overrides: dict[str, Any] | None = None, center: str = "median",
            min_n: int = 50, max_games: int | None = None) -> dict[str, Any]:
    """Find components whose win-rate difference lies outside ``+-band`` points around the
    centre (interval excluding the centre), and for each the smallest change to its own
    numbers that brings it inside the band without pushing another component out (outside the
    band with an interval clear of it), on the same seeds.

    ``center``: ``"median"`` (default): the median difference of the component's table, so a
    component is judged against its peers (seats that build or complete more tend to win, so
    raw differences all sit above 0); ``"zero"``: the raw difference. ``min_n``: components
    seen in fewer seat-games (with, or without) are not judged.

    A change is kept only when the component's whole 95% interval (clustered by game) lies
    inside the band; while its estimate is inside but its interval is not, the change is
    played again on twice the games (``n``, ``2n``, ... up to ``max_games``, default ``4n``),
    and the games it took are reported (``Proposal.games``).

    Default bots and player count: the game's first main-job run. ``alt_strategies``: a second
    bot mix to check each proposal under (default: the game's other mix, else all-greedy).
    ``base_overrides``: start from changed data (e.g. a deliberately broken component).
    Writes ``out/suggest.md`` and ``out/suggest.csv``; returns ``{"proposals", "outliers",
    "markdown", "summary"}``. Raises UserError when the game has no tunable data."""
    if center not in ("median", "zero"):
        raise UserError(f"--center {center!r}; allowed: median, zero")
    game = get_game(game_id, base_overrides or None)
    schema = game.component_schema
    if not schema.impact or not schema.tunables:
        raise UserError(f"suggest: {game.id} has no tunable component data linked to results")
    plan = next((p for p in game.default_plan() if p.get("role", "main") == "main"), None)
    if players is None:  # 0 is a player count to refuse, not "the default"
        players = plan["players"] if plan else game.min_players
    game.check_players(players)
    base_strats = strategies or (list(plan["strategies"]) if plan else ["greedy"])
    for x in [*base_strats, *(alt_strategies or [])]:  # checked before any game is played
        game.strategy(x)
    if alt_strategies is None:
        mix = next((p for p in game.default_plan() if str(p.get("role", "")).startswith("mix")
                    and p["players"] == players), None)
        alt_strategies = list(mix["strategies"]) if mix else ["greedy"]
        if sorted(alt_strategies) == sorted(base_strats):
            main = next((list(p["strategies"]) for p in game.default_plan()
                         if p.get("role", "main") == "main" and p["players"] == players), None)
            alt_strategies = main if main and sorted(main) != sorted(base_strats) \
                else ["greedy"]
    out = Path(out or Path("reports") / game.id / "suggest")
    run = run or _default_run

    max_games = max(n, max_games or 4 * n)

    def play(overrides: dict, strats: list[str], tag: str, games: int) -> list[Path]:
        seat_mode = "pool" if len(strats) > 1 and (len(strats) != players or (
            plan is not None and plan.get("seating") == "pool")) else "fixed"
        full = {**(base_overrides or {}), **overrides}
        return [run(game.id, games, players, strats, seed, {}, jobs, 10_000,
                    out / "runs" / tag, seat_mode, DEFAULT_BACKEND, label=tag, overrides=full)]

    def measure(overrides: dict, strats: list[str], tag: str, games: int = n) -> pl.DataFrame:
        runs = play(overrides, strats, tag if games == n else f"{tag}-n{games}", games)
        return centred(component_table(get_game(
            game.id, {**(base_overrides or {}), **overrides} or None), runs), center)

    base = measure({}, base_strats, "baseline")
    outliers = _outliers(base, band, limit, min_n)
    inside = {(r["table"], r["key"]) for r in base.iter_rows(named=True)
              if r["dev"] is not None and abs(r["dev"]) <= band}
    proposals: list[Proposal] = []
    tried: list[dict] = []
    alt_base = None
    for o in outliers:
        direction = -1 if o["dev"] > 0 else +1
        found = None
        best = None
        for path, old, new in _candidates(game, o["table"], o["key"], direction, max_step):
            tag = f"{slug(path)}-{new}"
            try:
                comp = measure({path: new}, base_strats, tag)
            except UserError as e:  # a number the game refuses to change (e.g. option-owned)
                tried.append({"component": f"{o['table']}.{o['key']}", "path": path,
                              "from": old, "to": new, "diff": float("nan"),
                              "lo": float("nan"), "hi": float("nan"), "center": float("nan"),
                              "pushed_out": f"refused: {e}", "games": n})
                continue
            r = component_row(comp, o["table"], o["key"])
            if r is None or r["dev"] is None:
                continue
            games = n
            # the estimate is inside the band but its interval is not: more games decide
            while (abs(r["dev"]) <= band and not inside_band(r, band)
                   and games * 2 <= max_games):
                games *= 2
                comp = measure({path: new}, base_strats, tag, games)
                r = component_row(comp, o["table"], o["key"])
                if r is None or r["dev"] is None:
                    break
            if r is None or r["dev"] is None:
                continue
            pushed = [f"{x['table']}.{x['key']}" for x in comp.iter_rows(named=True)
                      if (x["table"], x["key"]) in inside and x["dev"] is not None
                      and (x["dev_lo"] > band or x["dev_hi"] < -band)]
            tried.append({"component": f"{o['table']}.{o['key']}", "path": path, "from": old,
                          "to": new, "diff": r["diff"], "lo": r["lo"], "hi": r["hi"],
                          "center": r["center"], "pushed_out": ";".join(pushed),
                          "games": games})
            if inside_band(r, band) and not pushed:
                found = Proposal(f"{o['table']}.{o['key']}", path, old, new, o, r, games)
                break
            if not pushed and abs(r["dev"]) < abs(o["dev"]) and (
                    best is None or abs(r["dev"]) < abs(best.after["dev"])):
                best = Proposal(f"{o['table']}.{o['key']}", path, old, new, o, r, games,
                                inside=False)
        if found is None:
            found = best  # no single change reached the band: the one that came closest
        if found is None:
            continue
        if alt_strategies:
            if alt_base is None:
                alt_base = measure({}, alt_strategies, "alt-baseline")
            ca = measure({found.path: found.after_value}, alt_strategies,
                         f"alt-{slug(found.path)}-{found.after_value}")
            a0 = component_row(alt_base, o["table"], o["key"])
            a1 = component_row(ca, o["table"], o["key"])
            if a1 is not None and a1["dev"] is not None:
                d1 = a1["dev"]
                d0 = a0["dev"] if a0 is not None else None
                found.robust = abs(d1) <= band
                before = signed(d0, 1) if d0 is not None else "n/a"
                found.robust_note = f"{', '.join(alt_strategies)}: {before} -> {signed(d1, 1)}"
        proposals.append(found)
    return _write_suggest(game, out, proposals, outliers, tried, _with_q(base), band, n,
                          players, base_strats, alt_strategies, seed, base_overrides, center,
                          min_n, max_games)


def _write_suggest(game, out, proposals, outliers, tried, base, band, n, players, strats,
                   alt, seed, base_overrides, center, min_n=50,
                   max_games=None) -> dict[str, Any]:
    lines = [f"# Suggested fixes: {game.title}", "",
             f"- {players} players; bots {', '.join(strats)}; {n:,} games per setting, seed "
             f"{seed}, every setting on the same seeds; data status: {game.data_status}",
             f"- Band: win-rate difference within +-{band:g} points of "
             + ("the median difference of the component's table (its peers)"
                if center == "median" else "zero")
             + " (seats with the component minus seats without, 95% interval clustered by "
             "game; an association, not a cause: `boardsim effects` measures causal effects). "
             "An outlier lies outside the band with an interval clear of its centre and a "
             "Benjamini-Hochberg q < 0.05 across the table. A change is accepted only when the "
             "component's whole interval falls inside the band (not just its estimate; "
             f"undecided changes are played again on 2x the games, up to {max_games or n:,}) "
             "and no component that was inside moves out of it with an interval clear of the "
             "band. Games without a result (stopped at the length limit, or in a deadlock) are "
             "left out.",
             f"- Second bot mix for the robustness check: {', '.join(alt or [])}"]
    if base_overrides:
        lines.append("- Starting data: " + ", ".join(f"{k}={v}" for k, v in
                                                     base_overrides.items()))
    if not base.is_empty():
        judged = base.filter((pl.col("n_with") >= min_n) & (pl.col("n_without") >= min_n))
        small = judged.filter(pl.col("n_with") < 1000)
        lines.append(f"- Sample size: {base.height - judged.height} of {base.height} "
                     f"components seen in fewer than {min_n} seat-games with or without are "
                     f"not judged; {small.height} judged ones rest on fewer than 1,000 "
                     "seat-games with the component (wide intervals).")
    lines += ["", "## Proposals", ""]
    if proposals:
        rows = [[p.component, f"`{p.path}`", f"{p.before_value} -> {p.after_value}",
                 _component_diff(p.before),
                 _component_diff(p.after) + ("" if p.inside else " (closest; still outside)"),
                 f"{p.games:,}",
                 "yes" if p.robust else "no" if p.robust is False else "not checked",
                 p.robust_note] for p in proposals]
        lines.append(md_table(["component", "number", "change", "before", "after",
                               "games", "holds under 2nd mix", "2nd mix"], rows))
    else:
        lines.append("No proposal: " + ("no component lies outside the band with an interval "
                                        "excluding its centre." if not outliers else
                                        "no single change of up to the maximum step moved "
                                        "an outlier towards the band without pushing another "
                                        "component out."))
    lines += ["", "## Outliers found", ""]
    lines.append(md_table(["component", "difference (95%)", "centre"],
                          [[f"{o['table']}.{o['key']}", _component_diff(o),
                            f"{o['center']:+.1f}"] for o in outliers])
                 if outliers else "None.")
    if tried:
        lines += ["", "## Every change tried", ""]
        lines.append(md_table(["component", "number", "change", "difference (95%)",
                               "games", "pushed out"],
                              [[t["component"], f"`{t['path']}`", f"{t['from']} -> {t['to']}",
                                signed_ci(t["diff"], t["lo"], t["hi"]),
                                f"{t.get('games', n):,}", t["pushed_out"] or "-"]
                               for t in tried]))
    md = write_atomic(out / "suggest.md", "\n".join(lines) + "\n")
    _write_csv(base, out / "components.csv")
    rows = [{"component": p.component, "path": p.path, "from": p.before_value,
             "to": p.after_value, "before_diff": p.before["diff"], "before_lo": p.before["lo"],
             "before_hi": p.before["hi"], "after_diff": p.after["diff"],
             "after_lo": p.after["lo"], "after_hi": p.after["hi"], "games": p.games,
             "robust": p.robust, "inside_band": p.inside} for p in proposals]
    write_atomic(out / "suggest.json", json.dumps(rows, indent=2, default=str))
    summary = [f"{p.component}: {p.path.split('.')[-1]} {p.before_value} to {p.after_value} "
               f"brings its difference from {_component_diff(p.before)} to "
               f"{_component_diff(p.after)} ({p.games:,} games)"
               + ("" if p.inside else " (closest change found; still outside the band)")
               + ("" if p.robust is None else " (holds under the 2nd mix)" if p.robust
                  else " (does NOT hold under the 2nd mix)") for p in proposals]
    if not proposals:
        summary = [lines[lines.index("## Proposals") + 2]]
    return {"proposals": proposals, "outliers": outliers, "tried": tried, "markdown": md,
            "summary": "\n".join(summary + [f"report: {md}"])}

