"""The rating ladder: every bot against every other, seats rotated, on common seeds, and
Bradley-Terry ratings with 95% intervals, per player count.

The design (``ladder_tables``): for ``p`` players and ``k`` bots, every set of ``p`` distinct
bots sits at a table in each of its ``p!`` seat orders (2 players: every ordered pair), so
every bot plays every seat, and sits before and after every other bot, equally often (cyclic
rotations alone would not do: they keep the order of the bots round the table, and a bot
that always sits before another would be rated with that neighbour's effect; measured on two
identical Three Little Wolves bots at 4 players), and every table plays the same games: game ``i`` of every table has chance seed
``seed_for(seed, i, 0)`` and bot seed ``seed_for(seed, i, 1)`` (common random numbers). The
games are played by ``Game.run_chunk`` directly (no results folder).

The fit (``fit_ratings``): each pair of seats of a finished game is one comparison of their
bots, from the game's ranks (1 = winner): the better rank wins, a shared rank is a tie counted
as half a win (2 players: one comparison per game). The probability that bot ``a`` in seat
``s`` beats bot ``b`` in seat ``t`` is ``logistic(theta_a - theta_b + gamma_s - gamma_t)``:
a Bradley-Terry model with seat effects ``gamma`` (the seats are rotated, so they balance, but
leaving them out of a logistic model would shrink the ratings). It is fitted as a binomial GLM
(statsmodels) on the comparisons, with sum-to-zero constraints on ``theta`` and on ``gamma``
(a rating is log-odds against the average rated bot), plus one virtual drawn game per pair of
bots so that a bot that never wins (or never loses) keeps a finite rating. Comparisons from
one game are not independent, nor are the games that share a seed across tables: the
covariance is clustered by seed (the games of every table with the same chance and bot seeds,
which contains clustering by game), and the 95% intervals are Wald intervals from it.

Games stopped at the length limit have no ranks: they are excluded from the ratings and
counted apart, per pairing (the set of bots at the table).
"""

from __future__ import annotations

import itertools
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.results.ladder import (  # the read side, for the reports
    ELO,
    Ratings,
    fit_ratings,
    pairwise,
)
from analysis.stats import wilson_interval
from sim.core.errors import UserError
from sim.core.game import UNFINISHED
from sim.core.integrity import MAX_GAMES, check_int, check_jobs, check_seed

__all__ = ["DEFAULT_GAMES", "LadderGames", "fit_ratings", "ladder_tables", "pairwise",
           "play_ladder", "run_ladder", "write_ladder"]

# Games per player count when -n is not given (split evenly over the tables): the slowest
# case, Suburbia at 4 players with all seven bots (140 tables), plays this in about a minute
# on one core of the development machine (docs/bots.md, "The rating ladder").
DEFAULT_GAMES = 200_000
Z95 = 1.959963984540054


def ladder_tables(n_bots: int, players: int) -> list[tuple[int, ...]]:
    """Seatings of the ladder: every set of ``players`` distinct bots (indices ``0..n_bots-1``)
    in each of its seat orders, so that within a set every bot plays every seat, and follows
    every other bot, equally often: a list of tuples (bot index per seat),
    ``C(n_bots, players) * players!`` long. Raises UserError when there are fewer than
    ``max(2, players)`` bots."""
    if n_bots < max(2, players):
        raise UserError(f"ladder: {players} players need at least {max(2, players)} different "
                        f"strategies, got {n_bots}")
    return [order for combo in itertools.combinations(range(n_bots), players)
            for order in itertools.permutations(combo)]


@dataclass
class LadderGames:
    """The games of one player count, every table's games concatenated (G games):
    ``bots`` int64[G, p] (index into ``names`` per seat), ``rank`` int64[G, p] (1 = winner,
    0 = none), ``seed_index`` int64[G] (game i of its table: the common seed), ``table``
    int64[G], ``limit`` bool[G] (unfinished: stopped at the length limit or, in Go Town, in a
    deadlock), ``action_hash`` uint64[G],
    ``decisions`` int64[G]; timings in seconds: ``seconds`` (wall) and ``cpu_seconds`` (CPU
    time of the process) of the games, ``compile_seconds`` (the first game, which compiles or
    loads the engine)."""

    game_id: str
    players: int
    names: list[str]
    tables: list[tuple[int, ...]]
    n_per_table: int
    seed: int
    options: dict[str, Any]
    bots: np.ndarray
    rank: np.ndarray
    seed_index: np.ndarray
    table: np.ndarray
    limit: np.ndarray
    action_hash: np.ndarray
    decisions: np.ndarray
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    compile_seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def play_ladder(game, players: int, names: list[str], n_per_table: int, seed: int = 1,
                options: dict[str, Any] | None = None, jobs: int = 1) -> LadderGames:
    """Play ``n_per_table`` games at every table of ``ladder_tables`` (common seeds: game i of
    every table is ``run_chunk`` game i of run ``seed``) with ``game`` (a Game), ``players``
    seats and the strategies ``names``; ``jobs`` tables at a time in threads (the batch loops
    release the GIL). Returns LadderGames. Raises UserError on bad input."""
    players = game.check_players(players)
    for s in names:
        game.strategy(s)
    if len(set(names)) != len(names):
        raise UserError(f"ladder: a strategy is named twice in {', '.join(names)}")
    if isinstance(n_per_table, bool) or not isinstance(n_per_table, int) or n_per_table <= 0:
        raise UserError(f"ladder: n must be a positive number of games, got {n_per_table}")
    if jobs == 0 or jobs < -1:
        raise UserError(f"jobs must be a positive number or -1 (all cores), got {jobs}")
    resolved = game.resolve_options(options)
    tables = ladder_tables(len(names), players)
    limit_codes = [game.end_reasons.index(r) for r in UNFINISHED if r in game.end_reasons]
    t0 = time.perf_counter()
    # one game first: numba compiles (or loads) the batch loop here, timed apart
    game.run_chunk(0, 1, seed, players, np.array([tables[0]], np.int64), resolved, names)
    compile_s = time.perf_counter() - t0

    def play(t: int):
        idx = np.tile(np.array(tables[t], np.int64), (n_per_table, 1))
        return game.run_chunk(0, n_per_table, seed, players, idx, resolved, names)

    t1, c1 = time.perf_counter(), time.process_time()
    if jobs == 1 or len(tables) == 1:
        results = [play(t) for t in range(len(tables))]
    else:
        from concurrent.futures import ThreadPoolExecutor

        workers = (os.cpu_count() or 1) if jobs == -1 else jobs
        with ThreadPoolExecutor(max_workers=workers) as ex:
            results = list(ex.map(play, range(len(tables))))
    seconds, cpu = time.perf_counter() - t1, time.process_time() - c1
    n = n_per_table
    return LadderGames(
        game_id=game.id, players=players, names=list(names), tables=tables,
        n_per_table=n, seed=int(seed), options=game.options.non_default(resolved),
        bots=np.concatenate([np.tile(np.array(tb, np.int64), (n, 1)) for tb in tables]),
        rank=np.concatenate([np.asarray(r.rank, np.int64) for r in results]),
        seed_index=np.tile(np.arange(n, dtype=np.int64), len(tables)),
        table=np.repeat(np.arange(len(tables), dtype=np.int64), n),
        limit=np.concatenate([np.isin(np.asarray(r.end_reason), limit_codes) for r in results]),
        action_hash=np.concatenate([np.asarray(r.action_hash, np.uint64) for r in results]),
        decisions=np.concatenate([np.asarray(r.decisions, np.int64) for r in results]),
        seconds=seconds, cpu_seconds=cpu, compile_seconds=compile_s)


def by_pairing(lg: LadderGames) -> pl.DataFrame:
    """Per pairing (the set of bots at a table, over all its seat orders): ``games``,
    ``limit_games`` (stopped at the length limit) and ``limit_rate`` with its Wilson 95%
    bounds ``limit_lo``/``limit_hi``, ``distinct`` (distinct
    action sequences within each seat order, summed) and ``distinct_rate``."""
    label = [" vs ".join(lg.names[i] for i in sorted(t)) for t in lg.tables]
    df = pl.DataFrame({"table": lg.table, "limit": lg.limit.astype(np.int64),
                       "hash": lg.action_hash})
    per_table = (df.group_by("table", maintain_order=True)
                 .agg(pl.len().alias("games"), pl.col("limit").sum().alias("limit_games"),
                      pl.col("hash").n_unique().alias("distinct"))
                 .with_columns(pl.col("table").replace_strict(dict(enumerate(label)),
                                                              return_dtype=pl.Utf8)
                               .alias("pairing")))
    df = (per_table.group_by("pairing", maintain_order=True)
          .agg(pl.col("games").sum(), pl.col("limit_games").sum(), pl.col("distinct").sum())
          .with_columns((pl.col("limit_games") / pl.col("games")).alias("limit_rate"),
                        (pl.col("distinct") / pl.col("games")).alias("distinct_rate")))
    lo, hi = wilson_interval(df["limit_games"].to_numpy().astype(float),
                             df["games"].to_numpy().astype(float))
    return (df.with_columns(limit_lo=pl.Series(lo), limit_hi=pl.Series(hi))
            .select("pairing", "games", "limit_games", "limit_rate", "limit_lo", "limit_hi",
                    "distinct", "distinct_rate"))


def rate(lg: LadderGames) -> tuple[Ratings, dict[str, Any]]:
    """Ratings of one player count's ladder games (limit games excluded, clustered by seed)
    and the facts the outputs print."""
    keep = ~lg.limit
    pairs = pairwise(lg.bots[keep], lg.rank[keep], lg.seed_index[keep])
    r = fit_ratings(pairs, lg.names, lg.players)
    g = len(lg.limit)
    pairings = by_pairing(lg)
    facts = {
        "games": g, "limit_games": int(lg.limit.sum()),
        "unranked_games": int((keep & ~(lg.rank > 0).all(axis=1)).sum()),
        "rated_games": int((keep & (lg.rank > 0).all(axis=1)).sum()),
        "distinct_games": int(pairings["distinct"].sum()), "tables": len(lg.tables),
        "pairings": pairings,
    }
    return r, facts


# ---- outputs ---------------------------------------------------------------------------------
def _plain(name: str) -> str:
    """A name as plain text in a matplotlib label (no mathtext)."""
    return str(name).replace("$", r"\$")


def _md(text: str) -> str:
    return str(text).replace("|", r"\|")


def _f(x: float, d: int = 2) -> str:
    return "n/a" if x is None or not np.isfinite(x) else f"{x:+.{d}f}"


def ordering_text(table: pl.DataFrame) -> str:
    """``a > b ~ c``: the bots best first, ``>`` where the next one's rating is clearly lower
    (``clear_of_next``: Benjamini-Hochberg q < 0.05 across the neighbouring differences), ``~``
    where it is not."""
    parts = []
    for row in table.iter_rows(named=True):
        parts.append(row["strategy"])
        if row["clear_of_next"] is not None:
            parts.append(">" if row["clear_of_next"] else "~")
    return " ".join(parts)


def write_chart(results: list[tuple[LadderGames, Ratings, dict]], path: Path, title: str) -> Path:
    """``ladder.png``: one panel per player count, each bot's rating (logits, points) with its
    95% interval (bars), best at the top. Names are drawn as plain text."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with plt.rc_context({"text.usetex": False}):
        n = len(results)
        height = max(2.2, 0.42 * max(r.table.height for _, r, _ in results) + 1.2)
        fig, axes = plt.subplots(1, n, figsize=(5.2 * n, height), squeeze=False)
        for ax, (lg, r, _) in zip(axes[0], results):
            t = r.table
            ypos = np.arange(t.height)[::-1]
            rating = t["rating"].to_numpy()
            err = np.vstack([rating - t["lo"].to_numpy(), t["hi"].to_numpy() - rating])
            ax.errorbar(rating, ypos, xerr=err, fmt="o", color="#4C72B0", ecolor="#4C72B0",
                        capsize=3)
            ax.axvline(0, color="#999999", lw=0.8, ls="--")
            ax.set_yticks(ypos)
            ax.set_yticklabels([_plain(s) for s in t["strategy"].to_list()])
            ax.set_xlabel("rating (log-odds against the average bot), 95% interval")
            ax.set_title(_plain(f"{title}: {lg.players} players"))
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fig.savefig(tmp, format="png", dpi=110)
        plt.close(fig)
        os.replace(tmp, path)
    return path


def write_ladder(results: list[tuple[LadderGames, Ratings, dict]], out: Path,
                 title: str) -> dict[str, Path]:
    """Write ``ladder.md``, ``ladder.csv`` (one row per player count and bot) and
    ``ladder.png`` under ``out``; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    csv = pl.concat([
        r.table.with_columns(pl.lit(lg.players).alias("players"),
                             pl.lit(lg.n_per_table).alias("games_per_table"),
                             pl.lit(lg.seed).alias("seed"))
        .select("players", "position", "strategy", "rating", "se", "lo", "hi", "elo",
                "elo_lo", "elo_hi", "comparisons", "score", "clear_of_next",
                "games_per_table", "seed")
        for lg, r, _ in results
    ])
    paths = {"csv": out / "ladder.csv", "md": out / "ladder.md", "png": out / "ladder.png"}
    tmp = paths["csv"].with_name(f".ladder.csv.{os.getpid()}.tmp")
    csv.write_csv(tmp, float_precision=6)
    os.replace(tmp, paths["csv"])
    write_chart(results, paths["png"], title)
    lines = [f"# {title}: the rating ladder", ""]
    lg0 = results[0][0]
    lines += [
        f"Every bot against every other: each set of bots of a player count sits at a table in "
        f"each of its seat orders, and every table plays the same seeds (run seed {lg0.seed}: game "
        f"i of every table has the same chance and bot seeds). Rule options: "
        f"{', '.join(f'{k}={v}' for k, v in lg0.options.items()) or 'the defaults'}.",
        "",
        "**How the ratings are fitted.** Bradley-Terry with seat effects, a binomial GLM "
        "(statsmodels, logit link) on pairwise outcomes **from ranks**: each pair of seats in a "
        "finished game is one comparison (the better rank wins; a shared rank is a tie, counted "
        "as half), so a 2-player game is one comparison and a 4-player game six. A rating is "
        "the log-odds of beating the average rated bot (ratings sum to zero; Elo = rating x "
        f"{ELO:.1f}). The 95% intervals are Wald intervals from a covariance **clustered by "
        "seed** (the games of every table that share a seed form one cluster; this contains "
        "clustering by game, since the pairs of one game are not independent). One virtual "
        "drawn game per pair of bots keeps every rating finite. Games stopped at the length "
        "limit have no ranks: they are left out of the ratings and counted below. "
        "`>` in an ordering: the next bot's rating is clearly lower (Benjamini-Hochberg q < "
        "0.05 across the neighbouring pairs of the ordering, from the clustered covariance); "
        "`~`: not separated by this run. An interval is for the "
        "rating against the average rated bot and includes the uncertainty of that average; to "
        "compare two bots, use the ordering marks, which use the interval of their difference.",
        "",
    ]
    for lg, r, facts in results:
        lines += [f"## {lg.players} players", ""]
        lines += [
            f"{facts['tables']} tables x {lg.n_per_table:,} games = {facts['games']:,} games "
            f"({facts['rated_games']:,} rated, {facts['limit_games']:,} stopped at the length "
            f"limit), {r.comparisons:,} comparisons in {r.clusters:,} seed clusters; played in "
            f"{lg.seconds:.1f} s wall, {lg.cpu_seconds:.1f} s CPU ({lg.compile_seconds:.1f} s "
            "compiling or loading the engine first, not counted).",
            "",
            f"**Ordering:** {_md(ordering_text(r.table))}",
            "",
            "| # | bot | rating (logits) | 95% interval | Elo | comparisons | score |",
            "|---:|---|---:|---|---:|---:|---:|",
        ]
        for row in r.table.iter_rows(named=True):
            lines.append(
                f"| {row['position']} | {_md(row['strategy'])} | {_f(row['rating'])} | "
                f"[{_f(row['lo'])}, {_f(row['hi'])}] | {row['elo']:+.0f} | "
                f"{row['comparisons']:,} | {row['score']:.3f} |")
        lines += ["", "Score: the share of its comparisons the bot won (ties half).", ""]
        for row in r.table.iter_rows(named=True):
            if row["comparisons"] and row["score"] in (0.0, 1.0):
                what = "never won" if row["score"] == 0.0 else "never lost"
                lines += [f"**{_md(row['strategy'])}** {what} a comparison: its rating is held "
                          "by the virtual drawn games alone; read it as a bound (far below or "
                          "far above the others), not as an estimate. Its uncertainty also "
                          "widens every other bot's interval (they are against the average), "
                          "not the comparisons between the others (see the ordering).", ""]
        seat = ", ".join(f"seat {s['seat'] + 1} {_f(s['effect'])} [{_f(s['lo'])}, "
                         f"{_f(s['hi'])}]" for s in r.seat.iter_rows(named=True))
        lines += [f"Seat effects (logits against the average seat, 95%): {seat}.", ""]
        pt = facts["pairings"]
        few = pt.filter(pl.col("distinct_rate") < 0.5)
        lines += [f"Distinct games (distinct action sequences within each table, summed): "
                  f"{facts['distinct_games']:,} of {facts['games']:,}.", ""]
        if few.height:
            lines += [f"**Warning:** in {few.height} of {pt.height} pairings fewer than half the "
                      "games are distinct (table below): those bots replay the same few games "
                      "whatever the seed, so their results rest on few different games and "
                      "more games add little (the intervals are right about these bots on "
                      "these deals, not about varied play).", ""]
        lines += ["Head to head (mean score of the row bot against the column bot over their "
                  "comparisons; ties half):", ""]
        order = r.table["strategy"].to_list()
        h = {(x, y): (s, n) for x, y, s, n in r.h2h.iter_rows()}
        lines.append("| | " + " | ".join(_md(o) for o in order) + " |")
        lines.append("|---|" + "---:|" * len(order))
        for x in order:
            cells = [f"{h[(x, y)][0]:.3f}" if (x, y) in h else "" for y in order]
            lines.append(f"| **{_md(x)}** | " + " | ".join(cells) + " |")
        lines.append("")
        lines += ["Per pairing (the set of bots at a table, over its seat orders): games stopped "
                  "at the length limit (excluded from the ratings) and distinct games (within "
                  "each seat order, summed):", "",
                  "| pairing | games | limit games | limit rate [Wilson 95%] | distinct games "
                  "| distinct |",
                  "|---|---:|---:|---:|---:|---:|"]
        for row in pt.iter_rows(named=True):
            mark = " **(few)**" if row["distinct_rate"] < 0.5 else ""
            lines.append(f"| {_md(row['pairing'])} | {row['games']:,} | "
                         f"{row['limit_games']:,} | {row['limit_rate']:.2%} "
                         f"[{row['limit_lo']:.2%}, {row['limit_hi']:.2%}] | "
                         f"{row['distinct']:,} | {row['distinct_rate']:.1%}{mark} |")
        lines.append("")
        unsep = r.table.filter(pl.col("clear_of_next") == False)  # noqa: E712
        if unsep.height:
            lines += [f"**Sample size:** {unsep.height} of {r.table.height - 1} neighbouring "
                      "pairs of the ordering are not separated (Benjamini-Hochberg q >= 0.05 "
                      "across the neighbouring comparisons); intervals narrow as 1/sqrt(games), "
                      "so 4x the games halve them.", ""]
        if facts["unranked_games"]:
            lines += [f"{facts['unranked_games']:,} games ended without ranks for every seat "
                      "(not at the limit) and are left out too.", ""]
    lines += ["![ratings](ladder.png)", ""]
    tmp = paths["md"].with_name(f".ladder.md.{os.getpid()}.tmp")
    tmp.write_text("\n".join(lines))
    os.replace(tmp, paths["md"])
    return paths


def default_games_per_table(n_tables: int, total: int = DEFAULT_GAMES) -> int:
    """Games per table of the default budget: ``total`` games split over the tables."""
    return max(1, math.ceil(total / n_tables))


def run_ladder(game_id: str, players: list[int] | None = None, n: int | None = None,
               strategies: list[str] | None = None, seed: int = 1,
               options: dict[str, Any] | None = None, jobs: int = 1,
               out: str | os.PathLike | None = None,
               progress=None) -> dict[str, Any]:
    """The ladder of ``game_id``: for each player count in ``players`` (default: every count
    the game allows), every bot of ``strategies`` (default: ``Game.pool_strategies``, every
    bot of the game but the search bot) against every other, ``n`` games per table (default: ``DEFAULT_GAMES`` split over the tables), common
    seeds from ``seed``; writes ladder.md, ladder.csv and ladder.png under ``out`` (default
    ``reports/<game>/ladder``). ``progress(text)`` is called with a line per player count.
    Returns {"paths", "results", "summary"}. Raises UserError on bad input."""
    from sim.registry import get_game

    game = get_game(game_id)
    names = list(strategies) if strategies else game.pool_strategies
    for s in names:
        game.strategy(s)
    if len(set(names)) != len(names):
        raise UserError(f"ladder: a strategy is named twice in {', '.join(names)}")
    counts = players or list(range(game.min_players, game.max_players + 1))
    for p in counts:
        game.check_players(p)
        ladder_tables(len(names), p)
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n <= 0):
        raise UserError(f"ladder: n must be a positive number of games, got {n}")
    if n is not None:
        check_int("-n (games per table)", n, 1, MAX_GAMES)
    check_seed(seed)
    check_jobs(jobs)
    root = Path(out) if out is not None else Path("reports") / game.id / "ladder"
    if root.exists() and not root.is_dir():
        raise UserError(f"--out {root} exists and is not a folder")
    results = []
    summary = []
    for p in counts:
        tables = ladder_tables(len(names), p)
        per = n if n is not None else default_games_per_table(len(tables))
        lg = play_ladder(game, p, names, per, seed, options, jobs)
        r, facts = rate(lg)
        results.append((lg, r, facts))
        line = (f"{game.id} {p}p: {ordering_text(r.table)}  ({facts['games']:,} games, "
                f"{facts['limit_games']:,} at the limit, {lg.seconds:.1f} s wall, "
                f"{lg.cpu_seconds:.1f} s CPU)")
        summary.append(line)
        if progress:
            progress(line)
    try:
        paths = write_ladder(results, root, game.title)
    except OSError as e:
        raise UserError(f"--out {root} is not writable ({e.strerror})") from None
    summary.append(f"ladder: {paths['md']}, {paths['csv']} and {paths['png']}")
    return {"paths": paths, "results": results, "summary": "\n".join(summary)}
