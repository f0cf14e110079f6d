"""Little Town report extension (issue 3, section 4) and the setup comparison.

Sections added to ``reports/little-town/report.md``:

* **Buildings**: per player count and building, from the runs of role ``main``: market
  presence, build rate, mean round built, activations per game (own and others'), fees earned
  and the win-rate difference between the seat that built it and the other seats of the same
  games (17lands' "improvement when drawn" idea), Newcombe 95% interval and a two-proportion
  z-test;
* **Goal cards**: completion rate, mean round completed, win rate of holders who completed it
  against holders who did not, interval and test;
* Benjamini-Hochberg (``statsmodels`` ``fdr_bh``) over all those tests together, and a
  **robust** mark for a finding that keeps its sign (interval excluding 0) under at least two
  bot mixes (roles ``main`` and ``mix:*`` of the same player count);
* **Setup variants** (roles ``setup:<market>``, compared with the ``main`` run of the same
  player count, which uses the random market, the same bots, seeds and number of games):
  first-player advantage, winning score and margin, score spread, strategy win rates, Balance
  and draft picks;
* **Component data**: which data are confirmed and which assumed (spec section 8).

``compare_setups`` (``boardsim compare-setups little-town``) runs the setups and writes the
same setup sections as a report of their own.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from datetime import datetime, timezone
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from scipy import stats as sps  # noqa: E402
from statsmodels.stats.multitest import multipletests  # noqa: E402

from analysis import queries as q  # noqa: E402
from analysis.report import (  # noqa: E402
    Doc,
    Table,
    _ci,
    _count,
    _num,
    _pts,
    _pvalue,
    _write_atomic,
    load_manifests,
    pct,
    render_html,
    render_markdown,
)
from analysis.stats import newcombe_difference, rate, wilson_interval  # noqa: E402
from sim.little_town import data as ltd  # noqa: E402

GAME_ID = "little-town"
SLUGS: tuple[str, ...] = ltd.SLUGS
NAME_OF = dict(zip(ltd.SLUGS, ltd.BUILDING_NAMES, strict=True))
CARDS = tuple(range(1, 19))
FEE = int(ltd.CONSTANTS["fee"])
SETUPS = ("random", "beginner", "draft", "one-of-two")
Z95 = float(sps.norm.ppf(0.975))

GOAL_TEXT = {
    1: "3 own buildings connected by sides",
    2: "more buildings than workers",
    3: "food held >= 2 x workers",
    4: "buildings next to lake, mountain, forest",
    5: "one activation paying 2 cube types",
    6: "feed all workers with fish",
    7: "unknown card (placeholder: feed all with wheat)",
    8: "own a fish building",
    9: "own 2 coin buildings",
    10: "own a wood/stone building",
    11: "own a building costing >= 3 stone",
    12: "have exactly 0 coins",
    13: "have >= 6 coins",
    14: "spend a cube gathered this turn",
    15: "4 activations in one turn",
    16: "VP from 2 buildings in one turn",
    17: "gather 5 cubes in one turn",
    18: "own a building costing >= 3 wood",
}

# spec section 8 (shared/rules/little_town.md), condensed: (fact, status, reading used)
DATA_CONFIDENCE = [
    ("25 building tile faces (costs, VP, effects, bird icon)", "confirmed",
     "scans of the tiles plus two fan implementations (spec §4)"),
    ("Both board sides (6 x 9 terrain)", "confirmed", "board art and two fan implementations"),
    ("Beginner set (the 12 bird tiles)", "confirmed", "tile scans and fan code"),
    ("Goal cards 1-6, 8-18", "single source",
     "French course scans only; used as printed"),
    ("Goal card 7", "unknown", "left out by default (17-card deck); option `goal7`"),
    ("Goal card 13 (VP, (!) icon)", "single source (conflict)", "2 VP and (!) per the photo"),
    ("Workers / houses / goal cards per player count", "secondary [2+]",
     "5/7/4, 4/6/3, 3/6/2"),
    ("Residence effect", "assumed",
     "optional activation of neighbours, fee to other owners, no terrain (options A6)"),
    ("Castle: whose buildings count", "assumed", "own buildings only (option `castle_counts`)"),
    ("Watchtower: do workers block a cell", "assumed",
     "workers ignored (option `watchtower_workers_block`)"),
    ("Cathedral counts every colour of worker", "assumed (icon + one fan source)",
     "any colour (option `cathedral_counts_own`)"),
    ("Coin bank limit", "assumed", "unlimited (option `coin_bank`)"),
    ("Building outputs capped by the supply", "assumed", "capped, no refund"),
    ("Order of end-of-round buildings", "assumed", "start player, clockwise"),
    ("One-of-two: unpicked tiles", "assumed", "out of the game"),
    ("Terrain gathering mandatory", "assumed (secondary sources)",
     "mandatory (option `optional_gather`)"),
    ("Goal 17 counts building outputs", "assumed", "no (option `gather_includes_buildings`)"),
]

__all__ = [
    "building_stats", "goal_stats", "bh_adjust", "mark_robust", "setup_groups",
    "setup_comparison", "extend_report", "compare_setups", "write_setup_report",
]


# ---------------------------------------------------------------- small statistics -------
def _ztest_p(w1, n1, w2, n2) -> np.ndarray:
    """Two-sided p-value of the pooled two-proportion z-test (NaN where undefined)."""
    w1, n1, w2, n2 = (np.asarray(x, dtype=np.float64) for x in (w1, n1, w2, n2))
    out = np.full(np.broadcast(w1, n1, w2, n2).shape, np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        pbar = (w1 + w2) / (n1 + n2)
        se = np.sqrt(pbar * (1 - pbar) * (1 / n1 + 1 / n2))
        z = (w1 / n1 - w2 / n2) / se
    ok = (n1 > 0) & (n2 > 0) & np.isfinite(z) & (se > 0)
    out[ok] = 2 * sps.norm.sf(np.abs(z[ok]))
    return out


def bh_adjust(pvalues) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q-values); NaN entries stay NaN and are not
    counted as tests."""
    p = np.asarray(pvalues, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = np.isfinite(p)
    if ok.any():
        out[ok] = multipletests(p[ok], alpha=0.05, method="fdr_bh")[1]
    return out


def _welch(m1, v1, n1, m2, v2, n2) -> tuple[float, float, float, float]:
    """Difference of means m1 - m2 with a normal-approximation (Welch) 95% interval and p."""
    if min(n1, n2) < 2:
        return (float("nan"),) * 4
    d = m1 - m2
    se = math.sqrt(v1 / n1 + v2 / n2)
    if se == 0:
        return d, d, d, (1.0 if d == 0 else 0.0)
    return d, d - Z95 * se, d + Z95 * se, float(2 * sps.norm.sf(abs(d / se)))


def _wstats(values: np.ndarray, counts: np.ndarray) -> dict:
    """n, mean, var, sd, quantiles and mean absolute deviation from the median of a sample
    given as a frequency table."""
    values = np.asarray(values, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.float64)
    n, mean, sd, q05, q25, q50, q75, q95 = q._weighted_stats(values, counts)
    out = {"n": int(n), "mean": mean, "sd": sd, "var": sd * sd if n > 1 else float("nan"),
           "q05": q05, "q25": q25, "q50": q50, "q75": q75, "q95": q95}
    if n > 1:
        dev = np.abs(values - q50)
        m = float((dev * counts).sum() / n)
        out["mad"] = m
        out["mad_var"] = float((counts * (dev - m) ** 2).sum() / (n - 1))
    else:
        out["mad"] = out["mad_var"] = float("nan")
    return out


def _f(x) -> float:
    return float("nan") if x is None else float(x)


def _excl0(lo, hi) -> int:
    """+1 if the interval is above 0, -1 if below, 0 if it contains 0 (or is undefined)."""
    lo, hi = _f(lo), _f(hi)
    if lo > 0:
        return 1
    if hi < 0:
        return -1
    return 0


# ---------------------------------------------------------------- per building ----------
_BUILDING_SCHEMA = {
    "players": pl.Int8, "building": pl.Utf8, "slug": pl.Utf8, "games": pl.Int64,
    "present": pl.Int64, "presence": pl.Float64, "presence_lo": pl.Float64,
    "presence_hi": pl.Float64, "built_games": pl.Int64, "build_rate": pl.Float64,
    "build_lo": pl.Float64, "build_hi": pl.Float64, "copies": pl.Float64,
    "mean_round": pl.Float64, "act_own": pl.Float64, "act_others": pl.Float64,
    "fees": pl.Float64, "n_with": pl.Int64, "wins_with": pl.Float64, "rate_with": pl.Float64,
    "n_others": pl.Int64, "wins_others": pl.Float64, "rate_others": pl.Float64,
    "diff": pl.Float64, "lo": pl.Float64, "hi": pl.Float64, "p": pl.Float64,
}


def building_stats(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per player count and building, over finished games.

    Columns: players, building (name), slug, games (finished games), present (games whose
    market held it) with presence = present/games and its Wilson interval, built_games (games
    where some seat built it) with build_rate = built_games/present and interval, copies
    (copies built per game where built; > 1 only for the Wheat Field), mean_round (mean round
    in which a building seat first built it), act_own / act_others (activations per game where
    built, by the owner / by other seats), fees (coins earned by the owner from others'
    activations per game where built, = act_others x fee), n_with / wins_with / rate_with (the
    seats that built it), n_others / wins_others / rate_others (the other seats of the same
    games), diff = rate_with - rate_others with Newcombe 95% lo/hi, p (pooled z-test).
    Sorted by players, then diff descending.
    """
    names = set(seats.collect_schema().names())
    slugs = [s for s in SLUGS if f"built_{s}" in names]
    if not slugs:
        return pl.DataFrame(schema=_BUILDING_SCHEMA)
    share = pl.col("win_share").cast(pl.Float64)

    def col(name: str) -> pl.Expr:
        return pl.col(name).fill_null(0) if name in names else pl.lit(0)

    per_game: list[pl.Expr] = [share.sum().alias("gshare")]
    for i, s in enumerate(slugs):
        built = col(f"built_{s}") > 0
        per_game += [
            (col(f"market_{s}").max() > 0).cast(pl.Int64).alias(f"pres{i}"),
            built.any().cast(pl.Int64).alias(f"any{i}"),
            built.sum().cast(pl.Int64).alias(f"nb{i}"),
            col(f"built_{s}").sum().cast(pl.Int64).alias(f"cp{i}"),
            pl.when(built).then(share).otherwise(0.0).sum().alias(f"wb{i}"),
            pl.when(built).then(col(f"built_round_{s}")).otherwise(0).sum()
            .cast(pl.Int64).alias(f"rd{i}"),
            col(f"act_own_{s}").sum().cast(pl.Int64).alias(f"ao{i}"),
            col(f"act_by_others_{s}").sum().cast(pl.Int64).alias(f"ab{i}"),
        ]
    totals: list[pl.Expr] = [pl.len().cast(pl.Int64).alias("games")]
    for i in range(len(slugs)):
        totals += [pl.col(f"{k}{i}").sum().alias(f"{k}{i}")
                   for k in ("pres", "any", "nb", "cp", "wb", "rd", "ao", "ab")]
        totals += [
            (pl.col(f"any{i}") * pl.col("players").cast(pl.Int64)).sum().alias(f"np{i}"),
            (pl.col(f"any{i}") * pl.col("gshare")).sum().alias(f"gs{i}"),
        ]
    # per game, then totals per player count, in slices of game ids (bounded memory)
    parts = q.by_game_slices(seats, lambda lf: (
        lf.filter(q._finished_seat()).group_by("run", "game", "players").agg(per_game)
        .group_by("players").agg(totals)))
    agg = parts.group_by("players").agg(pl.all().sum()).sort("players")
    rows = []
    for r in agg.iter_rows(named=True):
        for i, s in enumerate(slugs):
            nb, bg = int(r[f"nb{i}"]), int(r[f"any{i}"])
            wb = float(r[f"wb{i}"])
            rows.append({
                "players": r["players"], "building": NAME_OF[s], "slug": s,
                "games": int(r["games"]), "present": int(r[f"pres{i}"]), "built_games": bg,
                "copies": r[f"cp{i}"] / bg if bg else float("nan"),
                "mean_round": r[f"rd{i}"] / nb if nb else float("nan"),
                "act_own": r[f"ao{i}"] / bg if bg else float("nan"),
                "act_others": r[f"ab{i}"] / bg if bg else float("nan"),
                "fees": FEE * r[f"ab{i}"] / bg if bg else float("nan"),
                "n_with": nb, "wins_with": wb,
                "n_others": int(r[f"np{i}"]) - nb, "wins_others": float(r[f"gs{i}"]) - wb,
            })
    if not rows:
        return pl.DataFrame(schema=_BUILDING_SCHEMA)
    df = pl.DataFrame(rows)
    g, pr, bg = (df[c].to_numpy().astype(float) for c in ("games", "present", "built_games"))
    plo, phi = wilson_interval(pr, g)
    blo, bhi = wilson_interval(bg, pr)
    nw, ww, no, wo = (df[c].to_numpy().astype(float)
                      for c in ("n_with", "wins_with", "n_others", "wins_others"))
    diff, lo, hi = newcombe_difference(ww, nw, wo, no)
    df = df.with_columns(
        pl.Series("presence", rate(pr, g)), pl.Series("presence_lo", plo),
        pl.Series("presence_hi", phi), pl.Series("build_rate", rate(bg, pr)),
        pl.Series("build_lo", blo), pl.Series("build_hi", bhi),
        pl.Series("rate_with", rate(ww, nw)), pl.Series("rate_others", rate(wo, no)),
        pl.Series("diff", diff), pl.Series("lo", lo), pl.Series("hi", hi),
        pl.Series("p", _ztest_p(ww, nw, wo, no)),
    )
    df = df.select([pl.col(k).cast(t) for k, t in _BUILDING_SCHEMA.items()])
    df = df.with_columns(pl.col(pl.Float64).fill_nan(None))
    return df.sort(["players", "diff"], descending=[False, True], nulls_last=True)


# ---------------------------------------------------------------- per goal card ---------
_GOAL_SCHEMA = {
    "players": pl.Int8, "card": pl.Int64, "held": pl.Int64, "completed": pl.Int64,
    "completion": pl.Float64, "completion_lo": pl.Float64, "completion_hi": pl.Float64,
    "mean_round": pl.Float64, "wins_done": pl.Float64, "rate_done": pl.Float64,
    "n_not": pl.Int64, "wins_not": pl.Float64, "rate_not": pl.Float64, "diff": pl.Float64,
    "lo": pl.Float64, "hi": pl.Float64, "p": pl.Float64,
}


def goal_stats(seats: pl.LazyFrame) -> pl.DataFrame:
    """Per player count and goal card, over seats of finished games that held the card
    (``goal_NN`` 1 completed, 0 held and not completed, -1 not held).

    Columns: players, card, held (seat-games holding it), completed, completion =
    completed/held with Wilson interval, mean_round (mean round completed), wins_done /
    rate_done (holders who completed it), n_not / wins_not / rate_not (holders who did not),
    diff = rate_done - rate_not with Newcombe 95% lo/hi, p (pooled z-test). Cards nobody held
    are left out. Sorted by players, then diff descending.
    """
    names = set(seats.collect_schema().names())
    cards = [c for c in CARDS if f"goal_{c:02d}" in names]
    if not cards:
        return pl.DataFrame(schema=_GOAL_SCHEMA)
    share = pl.col("win_share").cast(pl.Float64)
    exprs = []
    for c in cards:
        g = pl.col(f"goal_{c:02d}").fill_null(-1)
        done = g == 1
        exprs += [
            (g >= 0).sum().cast(pl.Int64).alias(f"h{c}"),
            done.sum().cast(pl.Int64).alias(f"d{c}"),
            pl.when(done).then(share).otherwise(0.0).sum().alias(f"wd{c}"),
            pl.when(g == 0).then(share).otherwise(0.0).sum().alias(f"wn{c}"),
            pl.when(done).then(pl.col(f"goal_round_{c:02d}").fill_null(0)).otherwise(0).sum()
            .cast(pl.Int64).alias(f"r{c}"),
        ]
    agg = q._collect(seats.filter(q._finished_seat()).group_by("players").agg(exprs))
    rows = []
    for r in agg.sort("players").iter_rows(named=True):
        for c in cards:
            h, d = int(r[f"h{c}"]), int(r[f"d{c}"])
            if h == 0:
                continue
            rows.append({"players": r["players"], "card": c, "held": h, "completed": d,
                         "mean_round": r[f"r{c}"] / d if d else float("nan"),
                         "wins_done": float(r[f"wd{c}"]), "n_not": h - d,
                         "wins_not": float(r[f"wn{c}"])})
    if not rows:
        return pl.DataFrame(schema=_GOAL_SCHEMA)
    df = pl.DataFrame(rows)
    h, d, wd, nn, wn = (df[c].to_numpy().astype(float)
                        for c in ("held", "completed", "wins_done", "n_not", "wins_not"))
    clo, chi = wilson_interval(d, h)
    diff, lo, hi = newcombe_difference(wd, d, wn, nn)
    df = df.with_columns(
        pl.Series("completion", rate(d, h)), pl.Series("completion_lo", clo),
        pl.Series("completion_hi", chi), pl.Series("rate_done", rate(wd, d)),
        pl.Series("rate_not", rate(wn, nn)), pl.Series("diff", diff), pl.Series("lo", lo),
        pl.Series("hi", hi), pl.Series("p", _ztest_p(wd, d, wn, nn)),
    )
    df = df.select([pl.col(k).cast(t) for k, t in _GOAL_SCHEMA.items()])
    df = df.with_columns(pl.col(pl.Float64).fill_nan(None))
    return df.sort(["players", "diff"], descending=[False, True], nulls_last=True)


# ---------------------------------------------------------------- robustness ------------
def mark_robust(main: pl.DataFrame, others: dict[str, pl.DataFrame], key: str) -> pl.DataFrame:
    """Add ``robust`` (Boolean; null when no other bot mix measured that row) and
    ``mix_signs`` (text) to ``main``.

    A row (players, ``key``) is robust when its 95% interval excludes 0 under the main mix and
    under at least one other mix with the same sign, and under no mix with the opposite sign.
    ``others``: role -> the same statistics computed on that mix's runs.
    """
    look = {}
    for role, df in others.items():
        for r in df.iter_rows(named=True):
            look.setdefault((int(r["players"]), r[key]), []).append((role, r))
    robust, signs = [], []
    for r in main.iter_rows(named=True):
        other = look.get((int(r["players"]), r[key]), [])
        s0 = _excl0(r["lo"], r["hi"])
        txt = [f"{role}: {_pts(_f(o['diff']))} {_ci(_f(o['lo']), _f(o['hi']))}"
               for role, o in other]
        signs.append("; ".join(txt))
        if not other or r["diff"] is None:
            robust.append(None)
            continue
        ss = [_excl0(o["lo"], o["hi"]) for _, o in other]
        robust.append(bool(s0 != 0 and any(s == s0 for s in ss) and not any(s == -s0 for s in ss)))
    return main.with_columns(pl.Series("robust", robust, dtype=pl.Boolean),
                             pl.Series("mix_signs", signs, dtype=pl.Utf8))


# ---------------------------------------------------------------- setup variants --------
def setup_groups(manifests: list[dict], roles: dict[int, str]) -> dict[str, list[int]]:
    """Setup name -> run indices: every ``setup:<market>`` role, plus ``random`` = the main runs
    of the same player count with a random market (unless a ``setup:random`` role exists).
    Ordered random, beginner, draft, one-of-two, then others. Empty without setup roles."""
    groups: dict[str, list[int]] = {}
    for i in sorted(roles):
        role = roles[i]
        if role.startswith("setup:"):
            groups.setdefault(role.split(":", 1)[1], []).append(i)
    if not groups:
        return {}
    counts = [manifests[i].get("players") for idx in groups.values() for i in idx]
    players = max(set(counts), key=counts.count)
    groups = {k: [i for i in v if manifests[i].get("players") == players]
              for k, v in groups.items()}
    if "random" not in groups:
        base = [i for i in sorted(roles) if roles[i] == "main"
                and manifests[i].get("players") == players
                and (manifests[i].get("options") or {}).get("market", "random") == "random"]
        if base:
            groups["random"] = base
    order = {s: k for k, s in enumerate(SETUPS)}
    return {k: groups[k] for k in sorted(groups, key=lambda s: (order.get(s, 99), s))
            if groups[k]}


def _position_rates(games: pl.LazyFrame) -> pl.DataFrame:
    return q.turn_order_win_rates(games)


def _balance_boot(wins: np.ndarray, n: int, rng: np.random.Generator, b: int = 2000
                  ) -> np.ndarray:
    """Parametric bootstrap draws of Balance (1 - (max - min) rate) from the observed rates."""
    p = np.clip(wins / max(n, 1), 0, None)
    p = p / p.sum() if p.sum() > 0 else np.full(len(wins), 1 / len(wins))
    draws = rng.multinomial(n, p, size=b) / max(n, 1)
    return 1 - (draws.max(axis=1) - draws.min(axis=1))


def setup_comparison(games: pl.LazyFrame, seats: pl.LazyFrame, groups: dict[str, list[int]],
                     baseline: str | None = None) -> dict[str, pl.DataFrame]:
    """Compare setups (groups of runs). The baseline is ``random`` when present, else the first
    group. Returns DataFrames:

    * ``order``: setup, players, n (finished games), wins, rate, lo, hi (win rate of the seat
      moving first, Wilson), diff/dlo/dhi/p against the baseline (Newcombe, z-test),
      balance_pos (1 - spread of the turn-order positions' rates) with bootstrap
      bal_lo/bal_hi of its difference to the baseline, balance_seat and p_equal (generic,
      by seat number);
    * ``dist``: setup, measure ("winning score", "winning margin", "seat score"), n, mean, sd,
      q05..q95, mean difference to the baseline (d, dlo, dhi, dp; Welch), and the
      Brown-Forsythe spread test: mad (mean |x - median|), mad_d, mad_lo, mad_hi, mad_p;
    * ``strat``: setup, strategy, n, rate, lo, hi, diff, dlo, dhi, p (against the baseline);
    * ``picks``: setup, building, presence, n_picked, mean_pick, pick_lo, pick_hi (t interval);
      draft setups only for the pick columns;
    * ``hist``: setup, measure, value, count (frequency tables behind ``dist``).
    """
    names = list(groups)
    base = baseline or ("random" if "random" in groups else names[0])
    rng = np.random.default_rng(20240301)
    sel = {s: pl.col("run").is_in(idx) for s, idx in groups.items()}
    order_rows, boot = [], {}
    for s in names:
        g = games.filter(sel[s])
        pos = _position_rates(g)
        bal = q.balance(seats.filter(sel[s]))
        for p, gp in pos.group_by("players", maintain_order=True):
            p = int(p[0])
            first = gp.filter(pl.col("position") == 0).row(0, named=True)
            n = int(first["n"])
            w = gp.sort("position")["wins"].to_numpy()
            r = w / n if n else np.full(len(w), np.nan)
            brow = bal.filter(pl.col("players") == p)
            boot[(s, p)] = _balance_boot(w, n, rng)
            order_rows.append({
                "setup": s, "players": p, "n": n, "wins": float(first["wins"]),
                "balance_pos": float(1 - (np.nanmax(r) - np.nanmin(r))) if n else None,
                "balance_seat": float(brow["balance"][0]) if len(brow) else None,
                "p_equal": float(brow["p_equal"][0]) if len(brow) else None,
            })
    order = pl.DataFrame(order_rows)
    w, n = order["wins"].to_numpy(), order["n"].to_numpy().astype(float)
    lo, hi = wilson_interval(w, n)
    order = order.with_columns(pl.Series("rate", rate(w, n)), pl.Series("lo", lo),
                               pl.Series("hi", hi))
    extra = {"diff": [], "dlo": [], "dhi": [], "p": [], "bal_lo": [], "bal_hi": []}
    for r in order.iter_rows(named=True):
        b = order.filter((pl.col("setup") == base) & (pl.col("players") == r["players"]))
        if len(b) == 0 or r["setup"] == base:
            for k in extra:
                extra[k].append(None)
            continue
        b = b.row(0, named=True)
        d, dl, dh = newcombe_difference(r["wins"], r["n"], b["wins"], b["n"])
        extra["diff"].append(float(d[0]))
        extra["dlo"].append(float(dl[0]))
        extra["dhi"].append(float(dh[0]))
        extra["p"].append(float(_ztest_p(r["wins"], r["n"], b["wins"], b["n"])))
        bd = boot[(r["setup"], r["players"])] - boot[(base, r["players"])]
        extra["bal_lo"].append(float(np.quantile(bd, 0.025)))
        extra["bal_hi"].append(float(np.quantile(bd, 0.975)))
    order = order.with_columns([pl.Series(k, v, dtype=pl.Float64) for k, v in extra.items()])

    # winning score, winning margin and seat score distributions (frequency tables)
    fin = seats.filter(q._finished_seat())

    def top_of(lf: pl.LazyFrame) -> pl.LazyFrame:
        return (lf.group_by("run", "game")
                .agg(top=pl.col("score").max(),
                     second=pl.col("score").sort(descending=True).get(1))
                .with_columns(margin=pl.col("top") - pl.col("second")))

    hists = []
    for s in names:
        for measure, c in (("winning score", "top"), ("winning margin", "margin"),
                           ("seat score", "score")):
            if c == "score":
                f = q._collect(fin.filter(sel[s]).group_by(c).agg(
                    count=pl.len().cast(pl.Int64)))
            else:  # per game, in slices of game ids (bounded memory)
                f = q.by_game_slices(fin.filter(sel[s]), lambda lf, c=c: top_of(lf).group_by(
                    c).agg(count=pl.len().cast(pl.Int64)))
                f = f.group_by(c).agg(pl.col("count").sum())
            hists.append(pl.DataFrame({
                "setup": [s] * len(f), "measure": [measure] * len(f),
                "value": f[c].cast(pl.Int64), "count": f["count"]}))
    hist = pl.concat(hists).sort("setup", "measure", "value") if hists else pl.DataFrame()
    stats = {}
    for (s, m), g in hist.group_by("setup", "measure"):
        stats[(s, m)] = _wstats(g["value"].to_numpy(), g["count"].to_numpy())
    dist_rows = []
    for s in names:
        for m in ("winning score", "winning margin", "seat score"):
            st = stats.get((s, m))
            if st is None:
                continue
            b = stats.get((base, m))
            row = {"setup": s, "measure": m, **{k: st[k] for k in
                                                ("n", "mean", "sd", "q05", "q25", "q50",
                                                 "q75", "q95", "mad")}}
            if b is not None and s != base:
                d, dl, dh, dp = _welch(st["mean"], st["var"], st["n"], b["mean"], b["var"],
                                       b["n"])
                md, ml, mh, mp = _welch(st["mad"], st["mad_var"], st["n"], b["mad"],
                                        b["mad_var"], b["n"])
            else:
                d = dl = dh = dp = md = ml = mh = mp = None
            row.update(d=d, dlo=dl, dhi=dh, dp=dp, mad_d=md, mad_lo=ml, mad_hi=mh, mad_p=mp)
            dist_rows.append(row)
    dist_schema = {"setup": pl.Utf8, "measure": pl.Utf8, "n": pl.Int64} | {
        k: pl.Float64 for k in ("mean", "sd", "q05", "q25", "q50", "q75", "q95", "mad", "d",
                                "dlo", "dhi", "dp", "mad_d", "mad_lo", "mad_hi", "mad_p")}
    dist = pl.DataFrame(dist_rows, schema=dist_schema)

    # strategy win rates
    srows = []
    for s in names:
        st = q.strategy_win_rates(seats.filter(sel[s]))
        for r in st.iter_rows(named=True):
            srows.append({"setup": s, "players": int(r["players"]), "strategy": r["strategy"],
                          "n": int(r["n"]), "wins": float(r["wins"]),
                          "rate": _f(r["win_rate"]), "lo": _f(r["lo"]), "hi": _f(r["hi"])})
    strat = pl.DataFrame(srows)
    if len(strat):
        bmap = {(r["players"], r["strategy"]): r
                for r in strat.filter(pl.col("setup") == base).iter_rows(named=True)}
        d_, l_, h_, p_ = [], [], [], []
        for r in strat.iter_rows(named=True):
            b = bmap.get((r["players"], r["strategy"]))
            if b is None or r["setup"] == base:
                d_.append(None)
                l_.append(None)
                h_.append(None)
                p_.append(None)
                continue
            d, dl, dh = newcombe_difference(r["wins"], r["n"], b["wins"], b["n"])
            d_.append(float(d[0]))
            l_.append(float(dl[0]))
            h_.append(float(dh[0]))
            p_.append(float(_ztest_p(r["wins"], r["n"], b["wins"], b["n"])))
        strat = strat.with_columns(
            pl.Series("diff", d_, dtype=pl.Float64), pl.Series("dlo", l_, dtype=pl.Float64),
            pl.Series("dhi", h_, dtype=pl.Float64), pl.Series("p", p_, dtype=pl.Float64))

    # market presence and draft picks
    cols = set(seats.collect_schema().names())
    prows = []
    for s in names:
        lf = fin.filter(sel[s])
        exprs = []
        for b in SLUGS:
            if f"market_{b}" not in cols:
                continue
            exprs.append((pl.col(f"market_{b}").fill_null(0) > 0).cast(pl.Int64).sum()
                         .alias(f"m_{b}"))
            if f"pick_{b}" in cols:
                pk = pl.col(f"pick_{b}").fill_null(0)
                exprs += [(pk > 0).sum().cast(pl.Int64).alias(f"n_{b}"),
                          pl.when(pk > 0).then(pk).otherwise(0).sum().cast(pl.Float64)
                          .alias(f"s_{b}"),
                          pl.when(pk > 0).then(pk * pk).otherwise(0).sum().cast(pl.Float64)
                          .alias(f"ss_{b}")]
        if not exprs:
            continue
        a = q._collect(lf.group_by("players").agg(pl.len().cast(pl.Int64).alias("seatgames"),
                                                  *exprs))
        for r in a.iter_rows(named=True):
            for b in SLUGS:
                if f"m_{b}" not in r:
                    continue
                k = int(r.get(f"n_{b}") or 0)
                mean = r[f"s_{b}"] / k if k else None
                sd = (math.sqrt(max(0.0, (r[f"ss_{b}"] - k * mean * mean) / (k - 1)))
                      if k > 1 else None)
                half = (float(sps.t.ppf(0.975, k - 1)) * sd / math.sqrt(k)
                        if k > 1 and sd is not None else None)
                prows.append({
                    "setup": s, "players": int(r["players"]), "building": NAME_OF[b],
                    "presence": r[f"m_{b}"] / r["seatgames"] if r["seatgames"] else None,
                    "n_picked": k, "mean_pick": mean,
                    "pick_lo": mean - half if half is not None else None,
                    "pick_hi": mean + half if half is not None else None,
                })
    picks = pl.DataFrame(prows, schema={
        "setup": pl.Utf8, "players": pl.Int64, "building": pl.Utf8, "presence": pl.Float64,
        "n_picked": pl.Int64, "mean_pick": pl.Float64, "pick_lo": pl.Float64,
        "pick_hi": pl.Float64})
    return {"order": order, "dist": dist, "strat": strat, "picks": picks, "hist": hist,
            "baseline": pl.DataFrame({"baseline": [base]})}


# ---------------------------------------------------------------- charts ----------------
def _save(fig, path: str) -> str:
    path = os.fspath(path)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = f"{path}.tmp-{os.getpid()}.png"
    try:
        fig.tight_layout()
        fig.savefig(tmp, format="png", dpi=100)
    finally:
        plt.close(fig)
    os.replace(tmp, path)
    return path


def _balance_chart(df: pl.DataFrame, label_col: str, path: str, title: str) -> str:
    """Horizontal bars of diff with 95% whiskers, sorted, one panel per player count;
    dark = BH-significant (q < 0.05)."""
    data = df.filter(pl.col("diff").is_not_null())
    players = sorted({int(p) for p in data["players"]}) if len(data) else []
    if not players:
        fig, ax = plt.subplots(figsize=(5, 1.5))
        ax.axis("off")
        ax.text(0.5, 0.5, "no data", ha="center")
        return _save(fig, path)
    rows = max(len(data.filter(pl.col("players") == p)) for p in players)
    fig, axes = plt.subplots(1, len(players), figsize=(4.4 * len(players), 1.2 + 0.27 * rows),
                             squeeze=False)
    for ax, p in zip(axes[0], players, strict=True):
        g = data.filter(pl.col("players") == p).sort("diff")
        y = np.arange(len(g))
        d = g["diff"].to_numpy() * 100
        lo = g["lo"].to_numpy() * 100
        hi = g["hi"].to_numpy() * 100
        sig = (g["q"].fill_null(1.0).to_numpy() < 0.05) if "q" in g.columns else np.ones(len(g))
        colors = [("#2E7D32" if v >= 0 else "#C62828") if s else
                  ("#A5D6A7" if v >= 0 else "#EF9A9A") for v, s in zip(d, sig, strict=True)]
        ax.barh(y, d, color=colors, height=0.65)
        ax.errorbar(d, y, xerr=[d - lo, hi - d], fmt="none", ecolor="black", capsize=2, lw=0.9)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(y, [str(x) for x in g[label_col].to_list()], fontsize=8)
        ax.set_xlabel("win-rate difference (points)")
        ax.set_title(f"{p} players", fontsize=9)
    fig.suptitle(title + " (dark: BH q < 0.05)", fontsize=10)
    return _save(fig, path)


def _setup_chart(res: dict, path: str) -> str:
    order, dist, strat = res["order"], res["dist"], res["strat"]
    setups = order["setup"].to_list()
    x = np.arange(len(setups))
    fig, axes = plt.subplots(1, 3, figsize=(14, 3.8))
    r = order["rate"].to_numpy() * 100
    ax = axes[0]
    ax.bar(x, r, color="#4C72B0", width=0.6)
    ax.errorbar(x, r, yerr=[r - order["lo"].to_numpy() * 100, order["hi"].to_numpy() * 100 - r],
                fmt="none", ecolor="black", capsize=4)
    p = int(order["players"][0])
    ax.axhline(100 / p, ls="--", color="grey", lw=1, label=f"parity {100 / p:.3g}%")
    ax.set_xticks(x, setups)
    ax.set_ylabel("win rate of the first player (%)")
    ax.set_ylim(0, max(np.nanmax(order["hi"].to_numpy() * 100), 100 / p) * 1.25)
    ax.legend(fontsize=8)
    ax.set_title("First-player advantage (95% CI)", fontsize=9)
    ax = axes[1]
    by_setup = {(r["setup"], r["measure"]): r for r in dist.iter_rows(named=True)}

    def measure(m: str, key: str) -> np.ndarray:
        return np.array([_f(by_setup[(s, m)][key]) if (s, m) in by_setup else np.nan
                         for s in setups])

    mean = measure("winning margin", "mean")
    half = Z95 * measure("winning margin", "sd") / np.sqrt(measure("winning margin", "n"))
    ax.bar(x - 0.2, mean, width=0.4, color="#DD8452", label="mean winning margin (95% CI)")
    ax.errorbar(x - 0.2, mean, yerr=half, fmt="none", ecolor="black", capsize=3)
    ax.bar(x + 0.2, measure("winning score", "sd"), width=0.4, color="#55A868",
           label="SD of the winning score")
    ax.set_xticks(x, setups)
    ax.set_ylabel("points")
    ax.set_ylim(0, np.nanmax(np.concatenate([mean + half, measure("winning score", "sd")]))
                * 1.35)
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title("Score spread", fontsize=9)
    ax = axes[2]
    if len(strat):
        names = sorted(set(strat["strategy"]))
        width = 0.8 / max(1, len(setups))
        for k, s in enumerate(setups):
            g = {row["strategy"]: row for row in
                 strat.filter(pl.col("setup") == s).iter_rows(named=True)}
            vals = np.array([_f(g[n]["rate"]) if n in g else np.nan for n in names]) * 100
            los = np.array([_f(g[n]["lo"]) if n in g else np.nan for n in names]) * 100
            his = np.array([_f(g[n]["hi"]) if n in g else np.nan for n in names]) * 100
            xs = np.arange(len(names)) + (k - (len(setups) - 1) / 2) * width
            ax.bar(xs, vals, width=width, label=s)
            ax.errorbar(xs, vals, yerr=[vals - los, his - vals], fmt="none", ecolor="black",
                        capsize=2, lw=0.8)
        ax.set_xticks(np.arange(len(names)), names, fontsize=8)
        ax.axhline(100 / p, ls="--", color="grey", lw=1)
        ax.legend(fontsize=7)
    ax.set_ylabel("win rate (%)")
    ax.set_title("Strategy win rates by setup", fontsize=9)
    return _save(fig, path)


def _score_chart(res: dict, path: str) -> str:
    hist = res["hist"]
    setups = res["order"]["setup"].to_list()
    fig, axes = plt.subplots(1, 3, figsize=(14, 3.6))
    for ax, m in zip(axes, ("winning score", "winning margin", "seat score"), strict=True):
        for s in setups:
            g = hist.filter((pl.col("setup") == s) & (pl.col("measure") == m)).sort("value")
            if not len(g):
                continue
            v = g["value"].to_numpy()
            c = g["count"].to_numpy().astype(float)
            full = np.arange(v.min(), v.max() + 1)
            share = np.zeros(len(full))
            share[v - v.min()] = c / c.sum()
            ax.step(full, share * 100, where="mid", label=s, lw=1.2)
        ax.set_xlabel(m + " (points)")
        ax.set_ylabel("% of " + ("games" if m != "seat score" else "seat-games"))
        ax.set_title(f"{m.capitalize()} by setup", fontsize=9)
        ax.legend(fontsize=7)
    return _save(fig, path)


def _picks_chart(res: dict, path: str) -> str | None:
    picks = res["picks"].filter(pl.col("mean_pick").is_not_null())
    if not len(picks):
        return None
    setups = [s for s in res["order"]["setup"].to_list() if s in set(picks["setup"])]
    first = picks.filter(pl.col("setup") == setups[0]).sort("mean_pick", descending=True)
    order = first["building"].to_list()
    y = np.arange(len(order))
    fig, ax = plt.subplots(figsize=(6.5, 1.2 + 0.27 * len(order)))
    h = 0.8 / len(setups)
    for k, s in enumerate(setups):
        g = {r["building"]: r for r in picks.filter(pl.col("setup") == s).iter_rows(named=True)}
        m = np.array([_f(g[b]["mean_pick"]) if b in g else np.nan for b in order])
        lo = np.array([_f(g[b]["pick_lo"]) if b in g else np.nan for b in order])
        hi = np.array([_f(g[b]["pick_hi"]) if b in g else np.nan for b in order])
        ys = y + (k - (len(setups) - 1) / 2) * h
        ax.barh(ys, m, height=h, label=s)
        ax.errorbar(m, ys, xerr=[m - lo, hi - m], fmt="none", ecolor="black", capsize=2, lw=0.8)
    ax.set_yticks(y, order, fontsize=8)
    ax.set_xlabel("mean pick number (1 = first pick; 95% CI)")
    ax.legend(fontsize=8)
    ax.set_title("Draft picks: which buildings are taken first", fontsize=9)
    return _save(fig, path)


# ---------------------------------------------------------------- text helpers ----------
def _qtxt(qv) -> str:
    qv = _f(qv)
    if math.isnan(qv):
        return "n/a"
    return "< 0.0001" if qv < 1e-4 else f"{qv:.4f}"


def _rob(v) -> str:
    return "n/a" if v is None else ("**robust**" if v else "no")


def _item(label: str, r: dict) -> str:
    marks = []
    if _f(r.get("q")) < 0.05:
        marks.append("BH q " + _qtxt(r["q"]))
    else:
        marks.append("not significant after BH")
    if r.get("robust"):
        marks.append("robust")
    return f"{label} {_pts(_f(r['diff']))} {_ci(_f(r['lo']), _f(r['hi']))} ({', '.join(marks)})"


def _headline_players(df: pl.DataFrame) -> int | None:
    ps = sorted({int(p) for p in df["players"]}) if len(df) else []
    if not ps:
        return None
    return 3 if 3 in ps else ps[len(ps) // 2]


def _mix_text(ctx, idx: list[int]) -> str:
    strs = {", ".join(ctx.manifests[i].get("strategies") or ["?"]) for i in idx}
    return "; ".join(sorted(strs))


# ---------------------------------------------------------------- report sections -------
def _building_section(doc: Doc, b: pl.DataFrame, mixes: dict[str, str]) -> None:
    doc.h(2, "Buildings: use and balance")
    doc.p("Per building, over finished games of the **main** runs (random market, default bots). "
          "Presence = share of games whose market held it (Wheat Fields always); build rate = "
          "share of those games in which some seat built it; activations, fees and copies are "
          "per game in which it was built (fees = coins the owner earned from other seats' "
          "activations, 1 per activation under the default rules). **Difference** = win rate of "
          "the seat that built it minus the win rate of the other seats of the same games "
          "(17lands' IWD idea; games where nobody built it are left out), Newcombe 95% "
          "interval; q = Benjamini-Hochberg adjusted p-value over every building and goal-card "
          "test of this report (two-proportion z-tests); **robust** = the interval excludes 0 "
          "with the same sign under at least two bot mixes (" + "; ".join(
              f"{k}: {v}" for k, v in mixes.items()) + "), n/a where only one mix was run. "
          "An association, not causation: a seat that builds a tile was able to afford it.")
    for p in sorted({int(x) for x in b["players"]}):
        g = b.filter(pl.col("players") == p)
        doc.h(3, f"{p} players ({int(g['games'].max()):,} finished games)")
        rows = []
        for r in g.iter_rows(named=True):
            rows.append([
                f"**{r['building']}**",
                f"{pct(r['presence'], 0)} {_ci(r['presence_lo'], r['presence_hi'], 0)}",
                f"{pct(r['build_rate'])} {_ci(r['build_lo'], r['build_hi'])}",
                _num(r["mean_round"], 2), _num(r["act_own"], 2), _num(r["act_others"], 2),
                _num(r["fees"], 2), _count(r["n_with"]), pct(r["rate_with"]),
                _count(r["n_others"]), pct(r["rate_others"]),
                f"{_pts(_f(r['diff']))} {_ci(_f(r['lo']), _f(r['hi']))}", _qtxt(r["q"]),
                _rob(r["robust"]),
            ])
        doc.table(Table(
            ["Building", "Presence", "Build rate (when present)", "Mean round built",
             "Own act./game", "Others' act./game", "Fees earned/game", "n builder seats",
             "Win rate builder", "n other seats", "Win rate others",
             "Difference (points) [95% CI]", "q (BH)", "Robust"],
            rows, [False] + [True] * 12 + [False]))
    doc.img("building_balance.png", "Building balance: win-rate difference with 95% intervals")


def _goal_section(doc: Doc, g: pl.DataFrame) -> None:
    doc.h(2, "Goal cards")
    doc.p("Per goal card, over seats of finished main-run games that held it (after the (!) "
          "redraw). Completion = share of holders who completed it; **difference** = win rate "
          "of holders who completed it minus holders who did not, Newcombe 95% interval; q and "
          "robust as for buildings. Card 7 is unknown and left out of the deck by default.")
    for p in sorted({int(x) for x in g["players"]}):
        gg = g.filter(pl.col("players") == p)
        doc.h(3, f"{p} players")
        rows = [[
            f"**{r['card']}**", GOAL_TEXT.get(r["card"], "?"),
            str(ltd.GOALS[r["card"]][2]), _count(r["held"]),
            f"{pct(r['completion'])} {_ci(r['completion_lo'], r['completion_hi'])}",
            _num(r["mean_round"], 2), f"{pct(r['rate_done'])} (n={r['completed']:,})",
            f"{pct(r['rate_not'])} (n={r['n_not']:,})",
            f"{_pts(_f(r['diff']))} {_ci(_f(r['lo']), _f(r['hi']))}", _qtxt(r["q"]),
            _rob(r["robust"]),
        ] for r in gg.iter_rows(named=True)]
        doc.table(Table(
            ["Card", "Condition", "VP", "n holders", "Completion [95% CI]",
             "Mean round completed", "Win rate completed", "Win rate not completed",
             "Difference (points) [95% CI]", "q (BH)", "Robust"],
            rows, [False, False, True, True, True, True, True, True, True, True, False]))
    doc.img("goal_balance.png", "Goal-card balance: win-rate difference with 95% intervals")


def _robust_section(doc: Doc, b: pl.DataFrame, g: pl.DataFrame, p: int) -> None:
    doc.h(2, "Robustness across bot mixes")
    bb = b.filter((pl.col("players") == p) & pl.col("robust").is_not_null())
    gg = g.filter((pl.col("players") == p) & pl.col("robust").is_not_null())
    if not len(bb) and not len(gg):
        doc.p("Only one bot mix was run, so no finding can be marked robust.")
        return
    doc.p(f"{p} players: the difference under the main mix next to the same difference under "
          "the other mixes (runs of role `mix:*`). Robust = the interval excludes 0 with the "
          "same sign under the main mix and at least one other, and with the opposite sign "
          "under none.")
    rows = [[f"**{r['building']}**", f"{_pts(_f(r['diff']))} {_ci(_f(r['lo']), _f(r['hi']))}",
             r["mix_signs"], _rob(r["robust"])] for r in bb.iter_rows(named=True)]
    rows += [[f"**goal {r['card']}**", f"{_pts(_f(r['diff']))} {_ci(_f(r['lo']), _f(r['hi']))}",
              r["mix_signs"], _rob(r["robust"])] for r in gg.iter_rows(named=True)]
    n_rob = sum(1 for r in rows if r[3] == "**robust**")
    doc.p(f"{n_rob} of {len(rows)} findings are robust.")
    doc.table(Table(["Component", "Main mix (points) [95% CI]", "Other mixes", "Robust"], rows,
                    [False, True, False, False]))


def _setup_sections(doc: Doc, res: dict, level: int = 2) -> None:
    order, dist, strat, picks = res["order"], res["dist"], res["strat"], res["picks"]
    base = res["baseline"]["baseline"][0]
    p = int(order["players"][0])
    doc.h(level, "Setup variants")
    doc.p(f"{p} players; each setup is a run with the same bots, seeding, run seed and number of "
          f"games (so game i deals from the same seed in every setup); differences are against "
          f"the `{base}` market. Win-rate differences: Newcombe 95% interval and z-test; means: "
          "Welch (normal) interval; spread: Brown-Forsythe test = Welch comparison of the mean "
          "absolute deviation from the median; Balance: parametric-bootstrap interval "
          "(2,000 draws).")
    doc.h(level + 1, "Seat advantage and Balance")
    base_bal = _f(order.filter(pl.col("setup") == base)["balance_pos"][0])
    rows = [[f"`{r['setup']}`", _count(r["n"]), f"{pct(r['rate'])} {_ci(r['lo'], r['hi'])}",
             "-" if r["diff"] is None else f"{_pts(r['diff'])} {_ci(r['dlo'], r['dhi'])}",
             "-" if r["p"] is None else _pvalue(r["p"]),
             _num(r["balance_pos"], 3),
             "-" if r["bal_lo"] is None else
             f"{_f(r['balance_pos']) - base_bal:+.3f}"
             f" [{r['bal_lo']:+.3f}, {r['bal_hi']:+.3f}]",
             _num(r["balance_seat"], 3), _pvalue(r["p_equal"])]
            for r in order.iter_rows(named=True)]
    doc.table(Table(
        ["Setup", "n (finished games)", "First player wins [95% CI]",
         f"Difference vs {base} (points)", "p", "Balance (turn order)",
         f"Balance difference vs {base} [95% CI]", "Balance (seat number)",
         "p (all seats equal)"],
        rows, [False] + [True] * 8))
    doc.p(f"Parity is {100 / p:.1f}%. Balance (turn order) = 1 - (highest - lowest win rate of "
          "the turn-order positions); the first player is drawn at random, so Balance by seat "
          "number mostly measures noise.")
    doc.h(level + 1, "Winning score, winning margin and score spread")
    rows = []
    for r in dist.iter_rows(named=True):
        rows.append([
            f"`{r['setup']}`", r["measure"], _count(r["n"]), _num(r["mean"], 2),
            "-" if r["d"] is None else f"{r['d']:+.2f} [{r['dlo']:+.2f}, {r['dhi']:+.2f}]",
            "-" if r["dp"] is None else _pvalue(r["dp"]),
            _num(r["sd"], 2), _num(r["mad"], 2),
            "-" if r["mad_d"] is None else
            f"{r['mad_d']:+.2f} [{r['mad_lo']:+.2f}, {r['mad_hi']:+.2f}]",
            "-" if r["mad_p"] is None else _pvalue(r["mad_p"]),
            " / ".join(_num(r[c], 0) for c in ("q05", "q25", "q50", "q75", "q95")),
        ])
    doc.table(Table(
        ["Setup", "Measure", "n", "Mean", f"Mean diff vs {base} [95% CI]", "p", "SD",
         "Mean abs. dev. from median", f"Spread diff vs {base} [95% CI]", "p (Brown-Forsythe)",
         "5% / 25% / median / 75% / 95%"],
        rows, [False, False] + [True] * 9))
    doc.p("Winning margin = winner's score minus the runner-up's (0 for a shared win); seat "
          "score = every seat's final score.")
    doc.img("setup_scores.png", "Score distributions per setup")
    doc.h(level + 1, "Strategy win rates by setup")
    if len(strat):
        rows = [[f"`{r['setup']}`", f"`{r['strategy']}`", _count(r["n"]),
                 f"{pct(r['rate'])} {_ci(r['lo'], r['hi'])}",
                 "-" if r["diff"] is None else f"{_pts(r['diff'])} {_ci(r['dlo'], r['dhi'])}",
                 "-" if r["p"] is None else _pvalue(r["p"])]
                for r in strat.with_columns(_o=pl.col("setup").replace_strict(
                    {s: k for k, s in enumerate(order["setup"].to_list())},
                    return_dtype=pl.Int64)).sort("strategy", "_o").iter_rows(named=True)]
        doc.table(Table(["Setup", "Strategy", "n (seat-games)", "Win rate [95% CI]",
                         f"Difference vs {base} (points)", "p"], rows,
                        [False, False, True, True, True, True]))
    doc.img("setup_comparison.png", "Setup comparison")
    doc.h(level + 1, "Market presence and draft picks")
    drafted = [s for s in order["setup"].to_list()
               if len(picks.filter((pl.col("setup") == s) & (pl.col("n_picked") > 0)))]
    doc.p("Presence = share of games whose final market held the building. Mean pick = mean "
          "pick number (1 = the first pick of a seat) over the seats that picked it, with a t "
          "interval; a low number means drafts take it first. Bots other than `random` draft by "
          "a fixed value table (strategies/little_town.py `DEFAULT_DRAFT_TABLE`), so the order "
          "mostly reflects that table.")
    setups = order["setup"].to_list()
    by = {(r["setup"], r["building"]): r for r in picks.iter_rows(named=True)}
    sort_setup = drafted[0] if drafted else setups[0]
    names = [NAME_OF[s] for s in SLUGS[1:]]
    key = {b: _f(by[(sort_setup, b)]["mean_pick"]) if (sort_setup, b) in by else np.nan
           for b in names}
    names.sort(key=lambda b: (np.nan_to_num(key[b], nan=99.0), b))
    rows = []
    for b in names:
        row = [f"**{b}**"]
        for s in setups:
            r = by.get((s, b))
            row.append(pct(r["presence"], 0) if r else "n/a")
        for s in drafted:
            r = by.get((s, b))
            row.append("-" if not r or r["mean_pick"] is None else
                       f"{r['mean_pick']:.2f} [{_num(r['pick_lo'], 2)}, {_num(r['pick_hi'], 2)}]"
                       f" (n={r['n_picked']:,})")
        rows.append(row)
    doc.table(Table(["Building"] + [f"Presence `{s}`" for s in setups]
                    + [f"Mean pick `{s}` [95% CI]" for s in drafted], rows,
                    [False] + [True] * (len(setups) + len(drafted))))
    if drafted:
        doc.img("draft_picks.png", "Mean pick number per building")


def _setup_headline(res: dict) -> list[tuple[str, str]]:
    """Two headline bullets (seat advantage; score spread) with their summary lines."""
    order, dist = res["order"], res["dist"]
    base = res["baseline"]["baseline"][0]
    p = int(order["players"][0])
    b = order.filter(pl.col("setup") == base).row(0, named=True)
    others = order.filter(pl.col("setup") != base)
    parts = [f"the first player wins {pct(b['rate'])} {_ci(b['lo'], b['hi'])} with a "
             f"`{base}` market (parity {100 / p:.1f}%; Balance by turn order "
             f"{_num(b['balance_pos'], 3)})"]
    verdict = []
    for r in others.iter_rows(named=True):
        parts.append(f"`{r['setup']}` {pct(r['rate'])} {_ci(r['lo'], r['hi'])}, difference "
                     f"{_pts(r['diff'])} points {_ci(r['dlo'], r['dhi'])} (p {_pvalue(r['p'])}; "
                     f"Balance {_num(r['balance_pos'], 3)}, difference "
                     f"{_f(r['balance_pos']) - _f(b['balance_pos']):+.3f} "
                     f"[{r['bal_lo']:+.3f}, {r['bal_hi']:+.3f}])")
        ch = _excl0(r["dlo"], r["dhi"])
        if ch == 0:
            verdict.append(f"`{r['setup']}` does not change the first player's win rate "
                           "detectably")
        else:
            closer = abs(r["rate"] - 1 / p) < abs(b["rate"] - 1 / p)
            verdict.append(f"`{r['setup']}` {'raises' if ch > 0 else 'lowers'} the first "
                           "player's win rate "
                           f"({'closer to' if closer else 'further from'} parity)")
    n_txt = ", ".join(f"{int(r['n']):,}" for r in order.iter_rows(named=True))
    seat = (f"**Setup variants and seat advantage ({p} players, same bots, seeds and number of "
            f"games; n = {n_txt} finished games):** " + "; ".join(parts)
            + ". Compared with a random market, " + "; ".join(verdict) + ".")
    seat_sum = "Setups (first player): " + "; ".join(
        f"{r['setup']} {pct(r['rate'])} {_ci(r['lo'], r['hi'])}"
        for r in order.iter_rows(named=True))

    def get(setup: str, measure: str) -> dict | None:
        g = dist.filter((pl.col("setup") == setup) & (pl.col("measure") == measure))
        return g.row(0, named=True) if len(g) else None

    bm, bw = get(base, "winning margin"), get(base, "winning score")
    parts = [f"`{base}`: mean winning margin {_num(bm['mean'], 2)}, SD of the winning score "
             f"{_num(bw['sd'], 2)}"] if bm and bw else []
    verdict = []
    for s in others["setup"].to_list():
        m, w = get(s, "winning margin"), get(s, "winning score")
        if not (m and w and bm and bw):
            continue
        parts.append(f"`{s}`: margin {_num(m['mean'], 2)} ({m['d']:+.2f} "
                     f"[{m['dlo']:+.2f}, {m['dhi']:+.2f}]), SD {_num(w['sd'], 2)} "
                     f"(Brown-Forsythe p {_pvalue(w['mad_p'])})")
        dm = _excl0(m["dlo"], m["dhi"])
        ds = (0 if not _f(w["mad_p"]) < 0.05 else (1 if w["mad_d"] > 0 else -1))
        if dm == 0 and ds == 0:
            verdict.append(f"`{s}` does not change the spread detectably")
        else:
            bits = []
            if dm:
                bits.append(f"{'widens' if dm > 0 else 'narrows'} the winning margin")
            if ds:
                bits.append(f"{'widens' if ds > 0 else 'narrows'} the winning-score spread")
            verdict.append(f"`{s}` " + " and ".join(bits))
    spread = ("**Setup variants and score spread:** " + "; ".join(parts)
              + ". Compared with a random market, " + "; ".join(verdict) + ".")
    spread_sum = "Setups (mean winning margin): " + "; ".join(
        f"{r['setup']} {_num(r['mean'], 2)}"
        for r in dist.filter(pl.col("measure") == "winning margin").iter_rows(named=True))
    return [(seat, seat_sum), (spread, spread_sum)]


def _data_section(doc: Doc, manifests: list[dict]) -> None:
    doc.h(2, "Component data: confirmed and assumed")
    doc.p("From the spec's sections 4, 5 and 8 (shared/rules/little_town.md). Readings marked "
          "assumed are rule options; this report uses their defaults unless the run header "
          "says otherwise.")
    doc.table(Table(["Data", "Status", "Reading used"],
                    [[a, f"**{s}**" if s != "confirmed" else s, c]
                     for a, s, c in DATA_CONFIDENCE], [False, False, False]))
    status = {str(m.get("data_status", "")) for m in manifests} - {""}
    if status:
        doc.p("Engine data status (from the run manifests): " + " | ".join(sorted(status)))


def _roles_section(doc: Doc, ctx) -> None:
    doc.h(2, "Little Town runs by role")
    doc.p("The generic sections above use only the runs of role `main` (random market, default "
          "bot pool); the sections below also use the other roles: `mix:*` (a second bot mix, "
          "for the robust mark) and `setup:*` (other market setups, compared with the main run "
          "of the same player count). Runs of other roles are not pooled into the generic "
          "tables even where the header says runs share a player count.")
    rows = []
    for i, m in enumerate(ctx.manifests):
        rows.append([str(i + 1), f"`{os.path.basename(os.path.normpath(ctx.run_dirs[i]))}`",
                     f"`{ctx.roles.get(i, 'main')}`", str(m.get("players", "?")),
                     _count(m.get("n_games", 0)), ", ".join(m.get("strategies") or ["?"]),
                     str((m.get("options") or {}).get("market", "?")), str(m.get("seed", "?"))])
    doc.table(Table(["Run", "Folder", "Role", "Players", "Games", "Bots", "Market", "Seed"],
                    rows, [True, False, False, True, True, False, False, True]))


# ---------------------------------------------------------------- extension entry -------
def extend_report(ctx) -> None:
    """Little Town sections (see the module docstring)."""
    main = ctx.runs_with_role("main") or list(range(len(ctx.run_dirs)))
    mix_roles = sorted({r for r in ctx.roles.values() if r.startswith("mix:")})
    mixes = {"main": _mix_text(ctx, main)}
    mixes.update({r: _mix_text(ctx, ctx.runs_with_role(r)) for r in mix_roles})

    def sel(idx):
        return ctx.seats.filter(pl.col("run").is_in(idx))

    b = building_stats(sel(main))
    g = goal_stats(sel(main))
    qv = bh_adjust(np.concatenate([b["p"].fill_null(np.nan).to_numpy(),
                                   g["p"].fill_null(np.nan).to_numpy()]))
    b = b.with_columns(pl.Series("q", qv[:len(b)]).fill_nan(None))
    g = g.with_columns(pl.Series("q", qv[len(b):]).fill_nan(None))
    b = mark_robust(b, {r: building_stats(sel(ctx.runs_with_role(r))) for r in mix_roles},
                    "building")
    g = mark_robust(g, {r: goal_stats(sel(ctx.runs_with_role(r))) for r in mix_roles}, "card")

    out = ctx.out_dir
    ctx.add_chart("building_balance", _balance_chart(
        b, "building", os.path.join(out, "building_balance.png"),
        "Building: builder's win rate minus the other seats'"))
    gl = g.with_columns(label=pl.format("#{} {}", pl.col("card"),
                                        pl.col("card").replace_strict(GOAL_TEXT,
                                                                      return_dtype=pl.Utf8)))
    ctx.add_chart("goal_balance", _balance_chart(
        gl, "label", os.path.join(out, "goal_balance.png"),
        "Goal card: completed minus not completed (holders)"))

    hp = _headline_players(b)
    if hp is not None:
        bb = b.filter((pl.col("players") == hp) & pl.col("diff").is_not_null()).sort(
            "diff", descending=True)
        n_games = int(bb["games"].max()) if len(bb) else 0
        strong = "; ".join(_item(f"**{r['building']}**", r) for r in bb.head(3).iter_rows(
            named=True))
        weak = "; ".join(_item(f"**{r['building']}**", r) for r in bb.tail(3).reverse()
                         .iter_rows(named=True))
        sig = int((b["q"].fill_null(1.0) < 0.05).sum())
        n_tests = int(b["p"].is_not_null().sum())
        ctx.headline(
            f"**Buildings ({hp} players, default bots, random market, n = {n_games:,} "
            f"games):** strongest (builder's win rate minus the other seats', points): "
            f"{strong}. Weakest (lowest difference): {weak}. Over all player counts {sig} of "
            f"{n_tests} building tests pass Benjamini-Hochberg at 5%.",
            f"Buildings at {hp}p: strongest {', '.join(bb.head(3)['building'])}; "
            f"weakest {', '.join(bb.tail(3).reverse()['building'])}.")
        gg = g.filter((pl.col("players") == hp) & pl.col("diff").is_not_null()).sort(
            "diff", descending=True)
        strong = "; ".join(_item(f"**#{r['card']}** ({GOAL_TEXT[r['card']]}, completed "
                                 f"{pct(r['completion'], 0)})", r)
                           for r in gg.head(3).iter_rows(named=True))
        weak = "; ".join(_item(f"**#{r['card']}** ({GOAL_TEXT[r['card']]}, completed "
                               f"{pct(r['completion'], 0)})", r)
                         for r in gg.tail(3).reverse().iter_rows(named=True))
        easy = gg.sort("completion", descending=True)
        ctx.headline(
            f"**Goal cards ({hp} players):** strongest (win rate of holders who completed it "
            f"minus holders who did not): {strong}. Weakest (lowest difference): {weak}. "
            f"Easiest: "
            f"#{easy['card'][0]} completed {pct(easy['completion'][0])} "
            f"{_ci(easy['completion_lo'][0], easy['completion_hi'][0])}; hardest: "
            f"#{easy['card'][-1]} {pct(easy['completion'][-1])} "
            f"{_ci(easy['completion_lo'][-1], easy['completion_hi'][-1])}.",
            f"Goal cards at {hp}p: strongest {', '.join('#' + str(c) for c in gg.head(3)['card'])}"
            f"; weakest {', '.join('#' + str(c) for c in gg.tail(3).reverse()['card'])}.")
        nrob_b = int(b.filter(pl.col("players") == hp)["robust"].fill_null(False).sum())
        nrob_g = int(g.filter(pl.col("players") == hp)["robust"].fill_null(False).sum())
        if mix_roles:
            hb = b.filter((pl.col("players") == hp) & pl.col("robust").is_not_null())
            hg = g.filter((pl.col("players") == hp) & pl.col("robust").is_not_null())
            ctx.headline(
                f"**Robustness:** at {hp} players {nrob_b} of {hb.height} building and "
                f"{nrob_g} of {hg.height} goal-card differences keep their sign (interval "
                f"excluding 0) under a second bot mix "
                f"({'; '.join(f'{k}: {v}' for k, v in mixes.items())}).")

    groups = setup_groups(ctx.manifests, ctx.roles)
    res = None
    if len(groups) >= 2:
        res = setup_comparison(ctx.games, ctx.seats, groups)
        for text, summary in _setup_headline(res):
            ctx.headline(text, summary)
    ctx.headline("**Component data:** buildings and boards are confirmed (tile scans plus fan "
                 "code); 17 goal cards come from a single source and card 7 is unknown "
                 "(left out); the Residence, Castle, Watchtower and Cathedral effects and the "
                 "coin bank are assumed readings (see \"Component data\").")

    _roles_section(ctx.doc, ctx)
    _building_section(ctx.doc, b, mixes)
    _goal_section(ctx.doc, g)
    if hp is not None:
        _robust_section(ctx.doc, b, g, hp)
    if res is not None:
        _setup_charts(res, out, ctx.add_chart)
        _setup_sections(ctx.doc, res)
    _data_section(ctx.doc, ctx.manifests)


def _setup_charts(res: dict, out: str, add) -> None:
    add("setup_comparison", _setup_chart(res, os.path.join(out, "setup_comparison.png")))
    add("setup_scores", _score_chart(res, os.path.join(out, "setup_scores.png")))
    pk = _picks_chart(res, os.path.join(out, "draft_picks.png"))
    if pk:
        add("draft_picks", pk)


# ---------------------------------------------------------------- compare-setups --------
def write_setup_report(run_dirs: list[str], setups: list[str], out_dir: str) -> dict[str, str]:
    """Write ``report.md`` / ``report.html`` comparing the setup runs ``run_dirs`` (one per
    entry of ``setups``, in order) into ``out_dir``; returns the paths and ``summary``."""
    run_dirs = [os.fspath(r) for r in run_dirs]
    os.makedirs(out_dir, exist_ok=True)
    manifests = load_manifests(run_dirs)
    games, seats = q.scan_runs(run_dirs)
    groups: dict[str, list[int]] = {}
    for i, s in enumerate(setups):
        groups.setdefault(s, []).append(i)
    res = setup_comparison(games, seats, groups)
    paths: dict[str, str] = {}
    _setup_charts(res, out_dir, paths.__setitem__)
    doc = Doc()
    m0 = manifests[0] if manifests else {}
    doc.h(1, "Little Town: setup comparison")
    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    doc.ul([
        f"**Setups:** {', '.join(setups)}",
        f"**Players:** {m0.get('players', '?')}; **games per setup:** "
        + ", ".join(f"{int(r['n']):,}" for r in res["order"].iter_rows(named=True))
        + " finished",
        f"**Bots / seating:** {', '.join(m0.get('strategies') or ['?'])} "
        f"({m0.get('seating', '?')}); **run seed:** {m0.get('seed', '?')} (the same in every "
        "setup, so game i deals from the same seed)",
        "**Runs:** " + ", ".join(f"`{r}`" for r in run_dirs),
        f"**Date:** {now}",
    ])
    doc.h(2, "Headline answers")
    heads = _setup_headline(res)
    doc.ul([h for h, _ in heads])
    summary = "\n".join(sm for _, sm in heads)
    _setup_sections(doc, res)
    _data_section(doc, manifests)
    md = os.path.join(out_dir, "report.md")
    html_path = os.path.join(out_dir, "report.html")
    _write_atomic(md, render_markdown(doc))
    _write_atomic(html_path, render_html(doc, out_dir, "Little Town: setup comparison"))
    return {"markdown": md, "html": html_path, **paths, "summary": summary}


def compare_setups(setups, n, players, strategies, seed, jobs, out, run_simulation) -> str:
    """``boardsim compare-setups little-town``: run every setup (rule option ``market``) with
    the same bots, seed and number of games into
    ``reports/_runs/little-town/compare-<setup>-p<players>-n<n>`` (with a hash suffix if that
    folder holds a different run), write the comparison report to ``out`` (default
    ``reports/little-town-setups/``) and return a short text summary. Raises UserError on an
    unknown setup."""
    from sim.core.errors import UserError
    from sim.registry import get_game
    from sim.runner import DEFAULT_BACKEND

    game = get_game(GAME_ID)
    allowed = list(game.options.by_name["market"].allowed)
    setups = list(dict.fromkeys(setups or SETUPS))
    bad = [s for s in setups if s not in allowed]
    if bad:
        raise UserError(f"compare-setups: unknown setup {', '.join(bad)}; allowed: "
                        f"{', '.join(allowed)}")
    if len(setups) < 2:
        raise UserError("compare-setups: give at least two setups, e.g. --setups random,draft")
    if not strategies:
        plan = [e for e in game.default_plan() if e.get("role", "main") == "main"]
        strategies = list(plan[0]["strategies"]) if plan else ["greedy"]
    runs = []
    for s in setups:
        root = Path("reports") / "_runs" / GAME_ID / f"compare-{s}-p{players}-n{n}"
        args = (GAME_ID, n, players, list(strategies), seed, {"market": s}, jobs,
                min(10_000, max(1, n)))
        try:
            path = run_simulation(*args, root, "pool", DEFAULT_BACKEND, label=f"{GAME_ID} {s}")
        except UserError as e:
            if "different run" not in str(e):
                raise
            tag = hashlib.sha1(json.dumps([list(strategies), seed]).encode()).hexdigest()[:8]
            path = run_simulation(*args, root.with_name(f"{root.name}-{tag}"), "pool", DEFAULT_BACKEND,
                                  label=f"{GAME_ID} {s}")
        runs.append(str(path))
    out_dir = str(out or Path("reports") / "little-town-setups")
    res = write_setup_report(runs, setups, out_dir)
    return (f"{res['summary']}\n"
            f"report: {res['markdown']} and {os.path.join(out_dir, 'report.html')}")
