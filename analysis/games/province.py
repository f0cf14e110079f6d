"""Province report sections (issue 5, section 3): the first player's advantage and the
second player's compensation, structures, goal tokens, the coin supply, game length and the
sensitivity of the seat advantage to the reconstructed structure costs.

Runs are told apart by the role ``sim.province.game.Province.default_plan`` gives them (the
numbers that matter are read from each run's manifest options, so a role only says what a run
is for):

* ``main``: the pool of scripted bots, default rules (second player 3 coins): the headline
  numbers, the structure and goal tables, and the baseline of every paired comparison;
* ``pairing``: one ordered pairing of two bots, fixed seats; both orders of a pairing share a
  seed, so game i of ``a-vs-b`` and of ``b-vs-a`` has the same goal draw and bot generators;
* ``self``: a bot against itself (the pure first-player effect of that bot);
* ``sweep:p2_coins=C``: the main pool and seed with the second player starting with C coins;
* ``variant:<option>=<value>``: the 28-coin supply, the opponent-last-turn ending, ...;
* ``tweak:<recon_tweak>``: the main pool and seed with one reconstructed cost changed by one.

Paired comparisons join two runs' games on the game seed and the seat strategies (runs with
the same run seed play game i with the same chance and bot generators), and give the mean of
the per-game differences with a normal (Wald) interval from their spread. The *first-player
share* is the first player's win share (a draw counts 1/2) over finished games, so parity is
50% and the *seat advantage* is that share minus 50%.

Seat detail columns (docs/games/province.md §11): ``built_<s>`` (1 first builder, 2 copy,
0 not built), ``turnbuilt_<s>`` (player-turn built, -1 never), ``goal_<g>`` (1 claimed by this
seat, -1 removed, 0 otherwise), ``goalin_<g>`` (1 if drawn), ``coins_dry`` (1 if the supply ran
dry in the game), ``coins_missed`` (coins not received because the supply was short).
"""

from __future__ import annotations

import json
import math
import os
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402
from scipy import stats as sps  # noqa: E402
from statsmodels.stats.multitest import multipletests  # noqa: E402

from analysis.charts import _save  # noqa: E402
from analysis.report import Table, _ci, _count, _num, _pts, pct  # noqa: E402
from analysis.stats import newcombe_difference, rate, wilson_interval  # noqa: E402

MAIN = "main"
Z95 = float(sps.norm.ppf(0.975))
LIMIT = "limit"
END_TRIGGERS = ("seven_structures", "all_types", "goals")
STRUCTURES = ("Lender", "Bank", "Camp", "Village", "Mill", "Smithy", "Union", "Harbor")
GOALS = ("Hoard", "Hard Labor", "Township", "Crew", "Landmark", "Grindstone", "Seafarer",
         "Rival", "Dynasty")
# default component data (docs/games/province.md §1.1): labor, coins, which are reconstructed
BASE_COSTS = {"Lender": (2, 2), "Bank": (3, 5), "Camp": (2, 1), "Village": (3, 3),
              "Mill": (2, 2), "Smithy": (4, 2), "Union": (2, 3), "Harbor": (3, 3)}
CONFIRMED = ("structure names and roles, the three prerequisite arrows, the Lender's cost "
             "(2 labor + 2 coins) and 1 VP, the Bank's 2 VP, grind 2 labor : 1 coin, sailor "
             "3 coins, Lender repayment 3 coins and -2 VP, 7 structure tokens, 9 goal tokens "
             "of which 5 are drawn at 1 VP each, the coin supply (35 coins, 28 in the rulebook "
             "list)")
RECONSTRUCTED = ("labor and coin costs of Bank, Camp, Village, Mill, Smithy, Union and "
                 "Harbor; the VP of Camp to Harbor; the Smithy effect; the Union rate (from a "
                 "forum example); every goal token's condition and threshold")
NOTE_ASSOC = ("An association, not a causal effect: a seat that builds or claims something "
              "first is often the seat that is already ahead (in particular the first player).")


# ------------------------------------------------------------------------ small helpers ----
def slug(name: str) -> str:
    """``"Hard Labor"`` -> ``"hard_labor"`` (the detail-column key)."""
    return name.lower().replace(" ", "_")


def _p_two_prop(w1, n1, w2, n2) -> np.ndarray:
    """Two-sided p-values of the pooled two-proportion z-test (NaN where undefined)."""
    w1, n1, w2, n2 = (np.atleast_1d(np.asarray(a, float)) for a in (w1, n1, w2, n2))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = (w1 + w2) / (n1 + n2)
        se = np.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
        z = (w1 / n1 - w2 / n2) / se
        out = 2 * sps.norm.sf(np.abs(z))
    out = np.where((se == 0) & np.isfinite(z), 1.0, out)
    return np.where((n1 > 0) & (n2 > 0) & (se > 0), out, np.nan)


def bh(pvalues) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (q), NaN kept where p is NaN."""
    p = np.asarray(pvalues, float)
    q = np.full(p.shape, np.nan)
    ok = np.isfinite(p)
    if ok.any():
        q[ok] = multipletests(p[ok], method="fdr_bh")[1]
    return q


def _wilson_cols(df: pl.DataFrame, wins: str, n: str, prefix: str) -> pl.DataFrame:
    w = df[wins].to_numpy().astype(float)
    m = df[n].to_numpy().astype(float)
    lo, hi = wilson_interval(w, m)
    return df.with_columns(
        pl.Series(f"{prefix}_rate", rate(w, m)).fill_nan(None),
        pl.Series(f"{prefix}_lo", lo).fill_nan(None),
        pl.Series(f"{prefix}_hi", hi).fill_nan(None),
    )


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


def _opt(ctx, i: int, name: str, default):
    return run_options(ctx.manifests[i]).get(name, default)


def _runs(ctx, prefix: str) -> list[int]:
    """Run indices whose role is ``prefix`` or starts with ``prefix:``."""
    return [i for i in range(len(ctx.run_dirs))
            if (ctx.roles.get(i, MAIN) == prefix
                or ctx.roles.get(i, MAIN).startswith(prefix + ":"))]


# ------------------------------------------------------------------------- the queries ----
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
    fin = (pl.col("end_reason") != LIMIT).fill_null(True)
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
        df = _wilson_cols(df, col, "n", pre)
    return df


def paired_difference(base: pl.DataFrame, other: pl.DataFrame, col: str = "fp_share") -> dict:
    """Mean of ``other[col] - base[col]`` over games present and finished in both, joined on
    (seed, strategies); Wald 95% interval and two-sided p from the per-game differences.
    Returns n, diff, lo, hi, p, changed (share of pairs whose value differs)."""
    keys = ["seed", "strategies"]
    b = base.filter(pl.col("finished")).unique(keys, keep="first").select(*keys, b=col)
    o = other.filter(pl.col("finished")).unique(keys, keep="first").select(*keys, o=col)
    d = o.join(b, on=keys).select(d=(pl.col("o") - pl.col("b")).cast(pl.Float64))["d"]
    n = len(d)
    if n == 0:
        return {"n": 0, "diff": math.nan, "lo": math.nan, "hi": math.nan, "p": math.nan,
                "changed": math.nan}
    x = d.to_numpy()
    mean = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    if se == 0.0:
        p = 1.0 if mean == 0.0 else 0.0
    elif math.isnan(se):
        p = math.nan
    else:
        p = float(2 * sps.norm.sf(abs(mean / se)))
    return {"n": n, "diff": mean, "lo": mean - Z95 * se, "hi": mean + Z95 * se, "p": p,
            "changed": float((x != 0).mean())}


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


def _seat_rows(games: pl.LazyFrame, seats: pl.LazyFrame, runs: list[int]) -> pl.LazyFrame:
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
    rate_with, rate_without, diff/lo/hi (Newcombe 95%), p (two-proportion z-test)."""
    s = _seat_rows(games, seats, runs)
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
    df = _wilson_cols(df, "built", "games", "built")
    df = _wilson_cols(df, "fp_first", "built", "fp_first")
    df = df.with_columns(copy_rate=pl.Series(rate(df["copies"], df["games"])).fill_nan(None))
    return _with_diff(df)


def _with_diff(df: pl.DataFrame) -> pl.DataFrame:
    ww, nw = df["wins_with"].to_numpy(), df["n_with"].to_numpy().astype(float)
    wo, no = df["wins_without"].to_numpy(), df["n_without"].to_numpy().astype(float)
    d, lo, hi = newcombe_difference(ww, nw, wo, no)
    return df.with_columns(
        pl.Series("rate_with", rate(ww, nw)).fill_nan(None),
        pl.Series("rate_without", rate(wo, no)).fill_nan(None),
        pl.Series("diff", d).fill_nan(None), pl.Series("lo", lo).fill_nan(None),
        pl.Series("hi", hi).fill_nan(None),
        pl.Series("p", _p_two_prop(ww, nw, wo, no)).fill_nan(None),
    )


def second_first_builds(games: pl.LazyFrame, seats: pl.LazyFrame, run_key: dict[int, int],
                        names=STRUCTURES) -> pl.DataFrame:
    """Per key (``run_key`` maps run -> key, e.g. the second player's coins) and structure:
    games (finished), sp_first (games in which the second player built it first) and
    sp_first_rate/lo/hi (Wilson)."""
    s = _seat_rows(games, seats, list(run_key)).with_columns(
        key=pl.col("run").replace_strict(run_key, return_dtype=pl.Int64))
    exprs = [pl.len().cast(pl.Int64).alias("seat_n")] + [
        ((pl.col(f"built_{slug(n)}") == 1) & ~pl.col("first")).sum().cast(pl.Int64).alias(
            f"s{k}") for k, n in enumerate(names)]
    agg = s.group_by("key").agg(exprs).sort("key").collect(engine="streaming")
    rows = [{"key": r["key"], "structure": n, "games": r["seat_n"] // 2, "sp_first": r[f"s{k}"]}
            for r in agg.iter_rows(named=True) for k, n in enumerate(names)]
    df = pl.DataFrame(rows, schema={"key": pl.Int64, "structure": pl.Utf8, "games": pl.Int64,
                                    "sp_first": pl.Int64})
    return _wilson_cols(df, "sp_first", "games", "sp_first")


def goal_stats(games: pl.LazyFrame, seats: pl.LazyFrame, runs: list[int],
               names=GOALS) -> pl.DataFrame:
    """Per goal token over the finished games of ``runs``: games, drawn (games where the token
    was in the stack) and drawn_rate, claimed (games where a seat claimed it) and
    claim_rate/lo/hi (of drawn), removed (both seats met it at its reveal) and
    removal_rate/lo/hi, unresolved (still in play at the end), fp_claims (claims by the first
    player) and fp_claim_rate/lo/hi (of claimed), and the claimant's win rate against every
    other seat of the games where it was drawn: n_with, ..., diff/lo/hi (Newcombe), p."""
    s = _seat_rows(games, seats, runs)
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
    df = _wilson_cols(df, "claimed", "drawn", "claim")
    df = _wilson_cols(df, "removed", "drawn", "removal")
    df = _wilson_cols(df, "fp_claims", "claimed", "fp_claim")
    return _with_diff(df)


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
    df = _wilson_cols(df, "dry", "games", "dry")
    return df.with_columns(
        [(pl.col(f"end_{e}") / pl.col("n_finished")).alias(f"share_{e}") for e in END_TRIGGERS])


# --------------------------------------------------------------------------- formatting ----
def _fmt_rate(r, lo, hi, digits=1) -> str:
    return f"{pct(r, digits)} {_ci(lo, hi, digits)}"


def _fmt_diff(d: dict) -> str:
    return f"{_pts(d['diff'])} {_ci(d['lo'], d['hi'])}"


def _fmt_p(p) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "n/a"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


def _tweak_text(t: str) -> str:
    """``"Camp.coins+1"`` -> ``"Camp coins 1 -> 2"``."""
    m = re.fullmatch(r"(\w+)\.(labor|coins)([+-]1)", t)
    if not m:
        return t
    name, field, d = m.group(1), m.group(2), int(m.group(3))
    base = BASE_COSTS.get(name)
    if base is None:
        return t
    v = base[0 if field == "labor" else 1]
    return f"{name} {field} {v} -> {max(0, v + d)}"


def _excludes(lo, hi, x=0.0) -> bool:
    return lo is not None and hi is not None and (lo > x or hi < x)


def _chart(ctx, name: str, fig) -> str:
    path = _save(fig, os.path.join(ctx.out_dir, f"{name}.png"))
    ctx.add_chart(name, path)
    return os.path.basename(path)


def _errbars(v, lo, hi):
    v, lo, hi = (np.asarray(a, float) for a in (v, lo, hi))
    return v, [np.maximum(v - lo, 0), np.maximum(hi - v, 0)]


# ------------------------------------------------------------------------------ sections ----
def extend_report(ctx) -> None:
    """Add the Province sections and headline answers (see the module docstring)."""
    main = _runs(ctx, MAIN)
    sweep_runs = main + _runs(ctx, "sweep")
    variant_runs = _runs(ctx, "variant")
    tweak_runs = _runs(ctx, "tweak")
    pair_runs, self_runs = _runs(ctx, "pairing"), _runs(ctx, "self")
    all_runs = list(range(len(ctx.run_dirs)))
    gf = game_frame(ctx.games, ctx.seats, all_runs)
    labels = {i: run_label(d) for i, d in enumerate(ctx.run_dirs)}
    gf = gf.with_columns(label=pl.col("run").replace_strict(labels, return_dtype=pl.Utf8))
    ctx.doc.h(2, "Province: first-player advantage and compensation")
    ctx.doc.p("Province seats two players; Seat 1 moves first in every run of the default plan "
              "and the second player starts with `p2_coins` coins (3 in the rules, 2 for the "
              "first player). The *first-player share* is the first player's win share over "
              "finished games (a draw counts 1/2), so parity is 50%; intervals are 95% (Wilson "
              "for rates, Newcombe for independent differences, Wald on the per-game "
              "differences for paired comparisons on the same seeds).")
    base = gf.filter(pl.col("run").is_in(main))
    one_coin = _main_headline(ctx, base)
    _pairing_section(ctx, gf, pair_runs, self_runs)
    sweep = _sweep_section(ctx, gf, sweep_runs, main)
    _structure_goal_sections(ctx, main)
    _supply_length_section(ctx, gf, main, sweep_runs, variant_runs, pair_runs, self_runs,
                           tweak_runs, base)
    _sensitivity_section(ctx, gf, tweak_runs, base, one_coin, sweep)


def _main_headline(ctx, base: pl.DataFrame) -> dict | None:
    if base.is_empty():
        return None
    r = _rates_all(base)
    if not r["n"]:
        return None
    verdict = ("**no**: the first player still wins clearly more often"
               if r["share_lo"] > 0.5 else
               "**more than enough**: the second player now has the edge"
               if r["share_hi"] < 0.5 else
               "**yes**: the seats are consistent with parity at this n")
    ctx.headline(
        f"Is one extra coin enough for the second player? {verdict}. Under the default bots "
        f"(pool of scripted bots, default rules, second player 3 coins vs 2), the first player "
        f"wins {_fmt_rate(r['fp_rate'], r['fp_lo'], r['fp_hi'])} of finished games, the second "
        f"{_fmt_rate(r['sp_rate'], r['sp_lo'], r['sp_hi'])}, draws "
        f"{_fmt_rate(r['draw_rate'], r['draw_lo'], r['draw_hi'])}; first-player share "
        f"{_fmt_rate(r['share_rate'], r['share_lo'], r['share_hi'])} (n = {r['n']:,}).",
        f"Province: one extra coin -> first-player share "
        f"{_fmt_rate(r['share_rate'], r['share_lo'], r['share_hi'])} (n = {r['n']:,}).")
    return r


def _rates_all(gf: pl.DataFrame) -> dict:
    return order_rates(gf.with_columns(_all=pl.lit(1)), ["_all"]).row(0, named=True)


def _pairing_section(ctx, gf, pair_runs, self_runs) -> None:
    doc = ctx.doc
    doc.h(2, "Bot pairings: first and second seat")
    if not pair_runs and not self_runs:
        doc.p("No pairing runs (role `pairing`/`self`) in this report.")
        return
    pg = gf.filter(pl.col("run").is_in(pair_runs + self_runs))
    rates = order_rates(pg, ["strategies"])
    by = {r["strategies"]: r for r in rates.iter_rows(named=True)}
    names: list[str] = []
    for i in pair_runs + self_runs:
        for s in ctx.manifests[i].get("strategies", []):
            if s not in names:
                names.append(s)
    for key in by:
        for s in key.split(","):
            if s not in names:
                names.append(s)
    doc.p("Each pairing is played in both seat orders (fixed seats, Seat 1 moves first) on the "
          "same seeds: game i of `a` first and of `b` first has the same goal draw and the same "
          "bot generators. Rows: first-seat win, second-seat win and draw rates over finished "
          "games. *Pair mean first-player share* averages the two orders game by game (seat "
          "effect with bot strength cancelled); *share of the first-named bot* averages its "
          "share over both seats (strength with the seat effect cancelled). Their Wilson "
          "intervals treat the n paired means as n trials (conservative).")
    rows, pairs = [], []
    for ia, a in enumerate(names):
        for b in names[ia + 1:]:
            ab, ba = by.get(f"{a},{b}"), by.get(f"{b},{a}")
            if ab is None and ba is None:
                continue
            ps = pair_summary(pg, a, b) if ab is not None and ba is not None else None
            if ps is not None and ps["n"]:
                pairs.append((a, b, ps))
            for first, r in ((a, ab), (b, ba)):
                if r is None:
                    continue
                other = b if first == a else a
                summ = ["", ""]
                if ps is not None and first == a:
                    summ = [_fmt_rate(ps["first"], ps["first_lo"], ps["first_hi"]) +
                            f" (n={ps['n']:,})",
                            f"`{a}` " + _fmt_rate(ps["a_share"], ps["a_lo"], ps["a_hi"])]
                rows.append([f"`{first}` vs `{other}`", _count(r["n"]),
                             _fmt_rate(r["fp_rate"], r["fp_lo"], r["fp_hi"]),
                             _fmt_rate(r["sp_rate"], r["sp_lo"], r["sp_hi"]),
                             _fmt_rate(r["draw_rate"], r["draw_lo"], r["draw_hi"]),
                             _count(r["n_limit"]), *summ])
    if rows:
        doc.table(Table(["First seat vs second seat", "n (finished)", "First seat wins",
                         "Second seat wins", "Draws", "Limit games", "Pair mean first-player "
                         "share", "Share of the first-named bot (both orders)"], rows,
                        [False, True, True, True, True, True, True, True]))
    selfs = [(s, by[f"{s},{s}"]) for s in names if f"{s},{s}" in by]
    if selfs:
        doc.p("Self-play (a bot against itself, Seat 1 first): the first-player effect of each "
              "bot on its own.")
        doc.table(Table(["Bot", "n (finished)", "First seat wins", "Second seat wins", "Draws",
                         "First-player share"],
                        [[f"`{s}`", _count(r["n"]), _fmt_rate(r["fp_rate"], r["fp_lo"],
                                                              r["fp_hi"]),
                          _fmt_rate(r["sp_rate"], r["sp_lo"], r["sp_hi"]),
                          _fmt_rate(r["draw_rate"], r["draw_lo"], r["draw_hi"]),
                          _fmt_rate(r["share_rate"], r["share_lo"], r["share_hi"])]
                         for s, r in selfs],
                        [False, True, True, True, True, True]))
    _pairing_headline(ctx, pairs, [(x, r) for x, r in selfs if r["n"]])
    # chart: heat map, row = first seat, column = second seat, first-seat share
    k = len(names)
    grid = np.full((k, k), np.nan)
    for key, r in by.items():
        a, b = key.split(",")
        if r["n"]:
            grid[names.index(a), names.index(b)] = r["share_rate"]
    side = max(3.8, 1.2 + 0.9 * k)
    fig, ax = plt.subplots(figsize=(side + 1.2, side))
    im = ax.imshow(np.ma.masked_invalid(grid), cmap="RdBu_r",
                   norm=TwoSlopeNorm(vmin=0.0, vcenter=0.5, vmax=1.0))
    for i in range(k):
        for j in range(k):
            if np.isfinite(grid[i, j]):
                ax.text(j, i, f"{grid[i, j] * 100:.0f}%", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(k), names, rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(k), names, fontsize=8)
    ax.set_xlabel("second seat")
    ax.set_ylabel("first seat")
    ax.set_title("First-seat win share by pairing (diagonal: self-play)", fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="first-seat share")
    doc.img(_chart(ctx, "province_pairings", fig), "First-seat win share per bot pairing")


def _pairing_headline(ctx, pairs, selfs) -> None:
    parts = []
    if pairs:
        # a pairing says something about the seat only if neither bot wins (almost) always
        info = [(a, b, p) for a, b, p in pairs if 0.05 < p["a_share"] < 0.95]
        ahead = [f"{a}/{b}" for a, b, p in info if p["first_lo"] > 0.5]
        behind = [f"{a}/{b}" for a, b, p in info if p["first_hi"] < 0.5]
        parts.append(
            f"over both seat orders on the same seeds, the first player's share is above 50% "
            f"in {len(ahead)} and below in {len(behind)} of the {len(info)} pairings where "
            f"neither bot wins 95% of its games (the other {len(pairs) - len(info)} are "
            "decided by the bots, not the seat)")
        if info:
            a, b, p = max(info, key=lambda x: x[2]["first"])
            parts.append(f"largest: `{a}`/`{b}` "
                         f"{_fmt_rate(p['first'], p['first_lo'], p['first_hi'])}")
    if selfs:
        lo_s, lo_r = min(selfs, key=lambda x: x[1]["share_rate"])
        hi_s, hi_r = max(selfs, key=lambda x: x[1]["share_rate"])
        ahead = sum(1 for _, r in selfs if r["share_lo"] > 0.5)
        behind = sum(1 for _, r in selfs if r["share_hi"] < 0.5)
        parts.append(
            f"in self-play the first seat's share runs from "
            f"{_fmt_rate(lo_r['share_rate'], lo_r['share_lo'], lo_r['share_hi'])} (`{lo_s}`) to "
            f"{_fmt_rate(hi_r['share_rate'], hi_r['share_lo'], hi_r['share_hi'])} (`{hi_s}`), "
            f"ahead for {ahead} of {len(selfs)} bots and behind for {behind}")
    if parts:
        ctx.headline("Bot pairings (intervals excluding 50%): " + "; ".join(parts) + ". The "
                     "size, and for some bots the sign, of the seat advantage depends on how "
                     "the bots play.")


def _sweep_section(ctx, gf, sweep_runs, main) -> pl.DataFrame | None:
    doc = ctx.doc
    doc.h(2, "Second player's starting coins")
    if not sweep_runs:
        doc.p("No sweep runs (role `main`/`sweep:*`) in this report.")
        return None
    key = {i: int(_opt(ctx, i, "p2_coins", 3)) for i in sweep_runs}
    sg = gf.filter(pl.col("run").is_in(sweep_runs)).with_columns(
        p2=pl.col("run").replace_strict(key, return_dtype=pl.Int64))
    rates = order_rates(sg, ["p2"])
    base_c = int(_opt(ctx, main[0], "p2_coins", 3)) if main else None
    base = sg.filter(pl.col("p2") == base_c) if base_c is not None else None
    diffs = {}
    for c in rates["p2"]:
        if base is not None and c != base_c:
            diffs[c] = paired_difference(base, sg.filter(pl.col("p2") == c))
    rates = rates.with_columns(gap=(pl.col("share_rate") - 0.5).abs())
    doc.p("The main pool of scripted bots and the main seed, changing only the second "
          f"player's starting coins (the first player keeps 2). Paired shift: the change of the "
          f"first-player share against {base_c} coins on the same games.")
    rows = []
    for r in rates.iter_rows(named=True):
        d = diffs.get(r["p2"])
        rows.append([str(r["p2"]) + (" (rules)" if r["p2"] == base_c else ""), _count(r["n"]),
                     _fmt_rate(r["fp_rate"], r["fp_lo"], r["fp_hi"]),
                     _fmt_rate(r["sp_rate"], r["sp_lo"], r["sp_hi"]),
                     _fmt_rate(r["draw_rate"], r["draw_lo"], r["draw_hi"]),
                     _fmt_rate(r["share_rate"], r["share_lo"], r["share_hi"]),
                     "-" if d is None else _fmt_diff(d) + f" (n={d['n']:,})"])
    doc.table(Table(["Second player's coins", "n (finished)", "First seat wins",
                     "Second seat wins", "Draws", "First-player share",
                     "Paired shift vs rules (points)"], rows,
                    [False, True, True, True, True, True, True]))
    sfb = second_first_builds(ctx.games, ctx.seats, key)
    keys = sorted(set(sfb["key"]))
    cell = {(r["key"], r["structure"]): r for r in sfb.iter_rows(named=True)}
    doc.p("Which structures the second player builds first, by its starting coins (share of "
          "finished games, 95% Wilson interval):")
    doc.table(Table(["Structure"] + [f"{c} coins" for c in keys],
                    [[n] + [_fmt_rate(cell[(c, n)]["sp_first_rate"], cell[(c, n)]["sp_first_lo"],
                                      cell[(c, n)]["sp_first_hi"]) for c in keys]
                     for n in STRUCTURES], [False] + [True] * len(keys)))
    valid = rates.filter(pl.col("n") > 0).sort("gap")
    if not valid.is_empty():
        best = valid.row(0, named=True)
        mono = rates.filter(pl.col("n") > 0).sort("p2")["share_rate"].to_numpy()
        monotone = bool(np.all(np.diff(mono) <= 0))
        parity = not _excludes(best["share_lo"], best["share_hi"], 0.5)
        extra = ""
        if len(valid) > 1:
            nxt = valid.row(1, named=True)
            bg = sg.filter(pl.col("p2") == best["p2"])
            d = paired_difference(bg, sg.filter(pl.col("p2") == nxt["p2"]))
            extra = (f"; the next closest, {nxt['p2']} coins, gives "
                     f"{_fmt_rate(nxt['share_rate'], nxt['share_lo'], nxt['share_hi'])} "
                     f"(paired shift {_fmt_diff(d)} points)")
        listing = ", ".join(f"{r['p2']}: {pct(r['share_rate'])}"
                            for r in rates.filter(pl.col("n") > 0).iter_rows(named=True))
        ctx.headline(
            f"Closest to parity among {', '.join(str(c) for c in rates['p2'])} starting coins "
            f"for the second player: **{best['p2']} coins**, first-player share "
            f"{_fmt_rate(best['share_rate'], best['share_lo'], best['share_hi'])} "
            f"({'consistent with parity' if parity else 'the interval excludes parity'}; "
            f"n = {best['n']:,}){extra}. The share is "
            f"{'monotone' if monotone else '**not monotone**'} in the coins ({listing}): "
            + ("more coins help the second player steadily." if monotone else
               "the bots' plans depend on the exact coins in hand, so more coins can change "
               "what the second player builds first and hurt it" + _shift_text(
                   cell, best["p2"], keys) + "."),
            f"Province: coins closest to parity {best['p2']} -> "
            f"{_fmt_rate(best['share_rate'], best['share_lo'], best['share_hi'])}.")
    # chart
    fig, ax = plt.subplots(figsize=(5.6, 3.6))
    r = rates.filter(pl.col("n") > 0)
    for col, lab, colr in (("share", "first-player share", "#4C72B0"),
                           ("fp", "first seat wins", "#55A868"),
                           ("sp", "second seat wins", "#C44E52")):
        v, err = _errbars(r[f"{col}_rate"].to_numpy() * 100, r[f"{col}_lo"].to_numpy() * 100,
                          r[f"{col}_hi"].to_numpy() * 100)
        ax.errorbar(r["p2"].to_numpy(), v, yerr=err, marker="o", capsize=4, label=lab,
                    color=colr, lw=1.2)
    ax.axhline(50, ls="--", color="grey", lw=1, label="parity")
    ax.set_xticks(r["p2"].to_numpy())
    ax.set_xlabel("second player's starting coins (first player: 2)")
    ax.set_ylabel("% of finished games")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8)
    ax.set_title("Starting-coin sweep (95% intervals)", fontsize=9)
    doc.img(_chart(ctx, "province_p2_coins", fig), "First-player share by second player's coins")
    return rates


def _shift_text(cell: dict, best: int, keys: list[int]) -> str:
    """``" (with 4 coins instead of 3 it first-builds the Union in 52% of games, not 43%)"``:
    the structure whose second-player first-build rate changes most from ``best`` coins to the
    next value."""
    nxt = [c for c in keys if c > best]
    if not nxt:
        return ""
    c = nxt[0]
    ch = [(abs(cell[(c, n)]["sp_first_rate"] - cell[(best, n)]["sp_first_rate"]), n)
          for n in STRUCTURES if (c, n) in cell and (best, n) in cell
          and cell[(c, n)]["sp_first_rate"] is not None
          and cell[(best, n)]["sp_first_rate"] is not None]
    if not ch:
        return ""
    _, n = max(ch)
    return (f" (with {c} coins instead of {best} it first-builds the {n} in "
            f"{pct(cell[(c, n)]['sp_first_rate'])} of games, not "
            f"{pct(cell[(best, n)]['sp_first_rate'])})")


def _structure_goal_sections(ctx, main) -> None:
    doc = ctx.doc
    doc.h(2, "Structures: who builds first, when, and does it win")
    if not main:
        doc.p("No main run in this report.")
        return
    st = structure_stats(ctx.games, ctx.seats, main)
    gs = goal_stats(ctx.games, ctx.seats, main)
    q = bh(np.concatenate([st["p"].fill_null(np.nan).to_numpy(),
                           gs["p"].fill_null(np.nan).to_numpy()]))
    st = st.with_columns(pl.Series("q", q[:len(st)]).fill_nan(None))
    gs = gs.with_columns(pl.Series("q", q[len(st):]).fill_nan(None))
    doc.p("Main runs (default rules, pool of scripted bots), finished games. *First builder*: "
          "the seat that built the structure before the other (it scores the VP; a later copy "
          "scores 0). *Win-rate difference*: seats that first-built it minus all other seats, "
          "Newcombe 95% interval; q = Benjamini-Hochberg adjusted p over the 17 structure and "
          "goal-token tests. " + NOTE_ASSOC)
    doc.table(Table(
        ["Structure", "Built in (games)", "First player builds it first", "Copies per game",
         "Mean player-turn of first build", "Win rate first builder", "Win rate others",
         "Difference (points)", "q (BH)"],
        [[f"**{r['structure']}**", _fmt_rate(r["built_rate"], r["built_lo"], r["built_hi"]) +
          f" (n={r['games']:,})",
          _fmt_rate(r["fp_first_rate"], r["fp_first_lo"], r["fp_first_hi"]),
          _num(r["copy_rate"], 2),
          f"{_num(r['turn_mean'], 2)} [{_num(r['turn_lo'], 2)}, {_num(r['turn_hi'], 2)}]",
          pct(r["rate_with"]), pct(r["rate_without"]),
          f"{_pts(r['diff'])} {_ci(r['lo'], r['hi'])}", _fmt_p(r["q"])]
         for r in st.iter_rows(named=True)],
        [False] + [True] * 8))
    _impact_chart(ctx, st, "structure", "province_structures",
                  "Structures: first builder's win rate minus others' (points)",
                  st["built_rate"], "built in % of games")
    doc.h(2, "Goal tokens: claims, removals and the claimant's win rate")
    doc.p("Main runs, finished games in which the token was drawn (5 of the 9 each game). "
          "*Claimed*: a seat met it while face up (1 VP); *removed*: both seats met it when it "
          "was revealed; *unresolved*: still face up or stacked at the end. Difference: "
          "claimant seats minus the other seats of the games where it was drawn. Every goal "
          "condition and threshold is reconstructed. " + NOTE_ASSOC)
    doc.table(Table(
        ["Goal token", "Drawn (games)", "Claimed", "Removed", "Unresolved",
         "First player's share of claims", "Win rate claimant", "Win rate others",
         "Difference (points)", "q (BH)"],
        [[f"**{r['goal']}**", f"{_count(r['drawn'])} ({pct(r['drawn_rate'])})",
          _fmt_rate(r["claim_rate"], r["claim_lo"], r["claim_hi"]),
          _fmt_rate(r["removal_rate"], r["removal_lo"], r["removal_hi"]),
          pct(rate(r["unresolved"], r["drawn"])[0]),
          _fmt_rate(r["fp_claim_rate"], r["fp_claim_lo"], r["fp_claim_hi"]),
          pct(r["rate_with"]), pct(r["rate_without"]),
          f"{_pts(r['diff'])} {_ci(r['lo'], r['hi'])}", _fmt_p(r["q"])]
         for r in gs.iter_rows(named=True)],
        [False] + [True] * 9))
    _impact_chart(ctx, gs, "goal", "province_goals",
                  "Goal tokens: claimant's win rate minus others' (points)",
                  gs["claim_rate"], "claimed in % of games drawn")
    # headline: which structures and goal tokens decide games
    parts = []
    for df, col, what in ((st, "structure", "structures"), (gs, "goal", "goal tokens")):
        sig = df.filter(pl.col("q").is_not_null() & (pl.col("q") < 0.05)).with_columns(
            a=pl.col("diff").abs()).sort("a", descending=True)
        if sig.is_empty():
            parts.append(f"no {what[:-1]} passes the BH control")
            continue
        top = [f"**{r[col]}** {_pts(r['diff'])} {_ci(r['lo'], r['hi'])}"
               for r in sig.head(3).iter_rows(named=True)]
        neg = sig.filter(pl.col("diff") < 0)
        tail = ""
        if not neg.is_empty() and neg.row(0, named=True)[col] not in [
                r[col] for r in sig.head(3).iter_rows(named=True)]:
            r = neg.row(0, named=True)
            tail = f"; the most negative is **{r[col]}** {_pts(r['diff'])}"
        parts.append(f"{what}: " + ", ".join(top) + tail)
    fpst = st.sort("fp_first_rate", descending=True).row(0, named=True)
    ctx.headline(
        "What decides games (main runs, win rate of the first builder / claimant minus other "
        "seats, points, BH q < 0.05): " + "; ".join(parts) + ". The first player is the first "
        f"builder of **{fpst['structure']}** in "
        f"{_fmt_rate(fpst['fp_first_rate'], fpst['fp_first_lo'], fpst['fp_first_hi'])} of the "
        "games in which it is built. These are associations, not effects.",
        "Province: deciding components: " + "; ".join(p.replace("**", "") for p in parts) + ".")


def _impact_chart(ctx, df, col, name, title, side, side_label) -> None:
    d = df.filter(pl.col("diff").is_not_null())
    if d.is_empty():
        return
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(9, 1.4 + 0.32 * len(df)),
                                  gridspec_kw={"width_ratios": [3, 2]})
    g = df.reverse()
    y = np.arange(len(g))
    v, err = _errbars(g["diff"].fill_null(np.nan).to_numpy() * 100,
                      g["lo"].fill_null(np.nan).to_numpy() * 100,
                      g["hi"].fill_null(np.nan).to_numpy() * 100)
    ax.barh(y, np.nan_to_num(v), color=np.where(v >= 0, "#55A868", "#C44E52"), height=0.6)
    ax.errorbar(v, y, xerr=err, fmt="none", ecolor="black", capsize=3, lw=1)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y, g[col].to_list(), fontsize=8)
    ax.set_xlabel("win-rate difference (points)")
    ax.set_title(title, fontsize=9)
    s = side.reverse().fill_null(np.nan).to_numpy() * 100
    ax2.barh(y, s, color="#4C72B0", height=0.6)
    ax2.set_yticks(y, [])
    ax2.set_xlim(0, 100)
    ax2.set_xlabel(side_label)
    ctx.doc.img(_chart(ctx, name, fig), title)


def _supply_length_section(ctx, gf, main, sweep_runs, variant_runs, pair_runs, self_runs,
                           tweak_runs, base) -> None:
    doc = ctx.doc
    doc.h(2, "Coin supply and game length")
    groups: dict[int, str] = {}
    for i in main + [r for r in sweep_runs if r not in main] + variant_runs + self_runs:
        total = _opt(ctx, i, "coin_total", 35)
        groups[i] = f"{run_label(ctx.run_dirs[i])} ({ctx.roles.get(i, MAIN)}, {total} coins)"
    for i in pair_runs:
        groups[i] = f"all {len(pair_runs)} pairing runs (35 coins)"
    for i in tweak_runs:
        groups[i] = f"all {len(tweak_runs)} cost-tweak runs (35 coins)"
    if not groups:
        doc.p("No runs.")
        return
    order = list(dict.fromkeys(groups.values()))
    sg = gf.filter(pl.col("run").is_in(list(groups))).with_columns(
        group=pl.col("run").replace_strict(groups, return_dtype=pl.Utf8))
    sl = supply_length(sg.sort(pl.col("group").replace_strict(
        {g: i for i, g in enumerate(order)}, return_dtype=pl.Int64), "run", "game"))
    doc.p("How often the coin supply runs dry (a gain is cut short because no coin is left), "
          "coins not received per game (both seats), and game length in player-turns over "
          "finished games, with the share of games ended by each trigger (7 structures, every "
          "type built, goal stack empty).")
    doc.table(Table(
        ["Runs", "Games", "Supply ran dry", "Coins missed per game", "Mean turns",
         "Median [IQR]", "Ended by 7 structures", "By all types", "By goals", "Limit"],
        [[r["group"], _count(r["games"]), _fmt_rate(r["dry_rate"], r["dry_lo"], r["dry_hi"], 2),
          _num(r["missed_mean"], 3), _num(r["turn_mean"], 1),
          f"{_num(r['turn_q50'], 0)} [{_num(r['turn_q25'], 0)}, {_num(r['turn_q75'], 0)}]",
          pct(r["share_seven_structures"]), pct(r["share_all_types"]), pct(r["share_goals"]),
          _count(r["n_limit"])] for r in sl.iter_rows(named=True)],
        [False] + [True] * 9))
    # paired comparison of the variants against the main games
    vrows = []
    # a variant replays the games of the default-rules run with its seed and seats
    ref = gf.filter(pl.col("run").is_in(main + self_runs + pair_runs))
    for i in variant_runs:
        other = gf.filter(pl.col("run") == i)
        d = paired_difference(ref, other)
        if d["n"]:
            t = paired_difference(ref, other, "turns")
            vrows.append([run_label(ctx.run_dirs[i]), f"`{ctx.roles.get(i)}`", _count(d["n"]),
                          _fmt_diff(d), pct(d["changed"]),
                          f"{t['diff']:+.2f} [{t['lo']:+.2f}, {t['hi']:+.2f}]"])
    if vrows:
        doc.p("Rule variants paired game by game with the default-rules run of the same seed "
              "and seats (the main run, or the self-play run for the random bot): shift of the "
              "first-player share and of the length.")
        doc.table(Table(["Run", "Role", "Paired games", "First-player share shift (points)",
                         "Games with another result", "Turns shift"], vrows,
                        [False, False, True, True, True, True]))
    # headline
    has_random = {i: "random" in ctx.manifests[i].get("strategies", []) for i in groups}
    dry = gf.filter(pl.col("run").is_in(list(groups))).with_columns(
        rnd=pl.col("run").replace_strict(has_random, return_dtype=pl.Boolean),
        total=pl.col("run").replace_strict(
            {i: int(_opt(ctx, i, "coin_total", 35)) for i in groups}, return_dtype=pl.Int64),
    ).group_by("rnd", "total").agg(games=pl.len(), dry=pl.col("dry").gt(0).sum()).sort(
        "rnd", "total")
    dry = _wilson_cols(dry, "dry", "games", "dry")
    parts = []
    for r in dry.iter_rows(named=True):
        who = "runs with the random bot" if r["rnd"] else "scripted bots only"
        parts.append(f"{who}, {r['total']} coins: {r['dry']:,} of {r['games']:,} games "
                     f"({_fmt_rate(r['dry_rate'], r['dry_lo'], r['dry_hi'], 2)})")
    text = "How often the coin supply runs dry: " + "; ".join(parts) + "."
    c28 = [i for i in variant_runs if int(_opt(ctx, i, "coin_total", 35)) == 28
           and not has_random.get(i, False)]
    if c28 and not base.is_empty():
        d = paired_difference(base, gf.filter(pl.col("run").is_in(c28)))
        if d["n"]:
            text += (f" With the 28-coin supply {pct(d['changed'], 2)} of {d['n']:,} main games "
                     f"end differently (first-player share shift {_fmt_diff(d)} points)"
                     + (", so the supply size does not matter to the scripted bots."
                        if d["changed"] == 0 else "."))
    mr = sl.filter(pl.col("group") == groups[main[0]]).row(0, named=True) if main else None
    if mr is not None:
        text += (f" Game length: main games last {_num(mr['turn_mean'], 1)} player-turns on "
                 f"average (median {_num(mr['turn_q50'], 0)}, middle half "
                 f"{_num(mr['turn_q25'], 0)}-{_num(mr['turn_q75'], 0)}); they end by 7 "
                 f"structures {pct(mr['share_seven_structures'])}, every type built "
                 f"{pct(mr['share_all_types'])}, goal stack empty {pct(mr['share_goals'])}; "
                 f"{_count(mr['n_limit'])} stopped at the limit.")
    tot = dry.select(pl.col("dry").sum(), pl.col("games").sum()).row(0)
    ctx.headline(text, f"Province: supply ran dry in {tot[0]:,} of {tot[1]:,} games.")
    # charts: dry rate and length/end triggers
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 1.6 + 0.38 * len(sl)))
    y = np.arange(len(sl))[::-1]
    v, err = _errbars(sl["dry_rate"].fill_null(np.nan).to_numpy() * 100,
                      sl["dry_lo"].fill_null(np.nan).to_numpy() * 100,
                      sl["dry_hi"].fill_null(np.nan).to_numpy() * 100)
    ax1.barh(y, v, color="#8172B2", height=0.6)
    ax1.errorbar(v, y, xerr=err, fmt="none", ecolor="black", capsize=3, lw=1)
    ax1.set_yticks(y, sl["group"].to_list(), fontsize=7)
    ax1.set_xlabel("% of games in which the supply ran dry")
    ax1.set_xlim(0, max(1.0, float(np.nanmax(v + err[1])) * 1.2 if len(v) else 1.0))
    left = np.zeros(len(sl))
    mean_t = sl["turn_mean"].fill_null(np.nan).to_numpy()
    for e, colr in zip(END_TRIGGERS, ("#4C72B0", "#55A868", "#DD8452"), strict=True):
        w = sl[f"share_{e}"].fill_null(0).to_numpy() * mean_t
        ax2.barh(y, w, left=left, color=colr, height=0.6, label=f"ended by {e}")
        left += np.nan_to_num(w)
    ax2.set_yticks(y, [])
    ax2.set_xlabel("mean player-turns (bar split by end trigger share)")
    ax2.legend(fontsize=7, loc="lower right")
    fig.suptitle("Coin supply and game length per run group", fontsize=9)
    doc.img(_chart(ctx, "province_supply_length", fig), "Coin supply and game length")


def _sensitivity_section(ctx, gf, tweak_runs, base, one_coin, sweep) -> None:
    doc = ctx.doc
    doc.h(2, "Sensitivity to the reconstructed structure costs")
    doc.p(f"**Confirmed data:** {CONFIRMED}. **Reconstructed (RECON):** {RECONSTRUCTED}.")
    if not tweak_runs or base.is_empty():
        doc.p("No cost-tweak runs (role `tweak:*`) or no main run in this report.")
        return
    rows = []
    for i in tweak_runs:
        t = str(_opt(ctx, i, "recon_tweak", ctx.roles.get(i, "").split(":", 1)[-1]))
        other = gf.filter(pl.col("run") == i)
        d = paired_difference(base, other)
        r = _rates_all(other)
        rows.append({"tweak": t, "label": _tweak_text(t), **d, "share": r["share_rate"],
                     "share_lo": r["share_lo"], "share_hi": r["share_hi"]})
    q = bh([r["p"] for r in rows])
    for r, qq in zip(rows, q, strict=True):
        r["q"] = qq
    rows.sort(key=lambda r: -abs(r["diff"]) if not math.isnan(r["diff"]) else 0)
    ref = None
    if sweep is not None and one_coin is not None:
        two = sweep.filter(pl.col("p2") == int(one_coin_base(ctx) - 1))
        if not two.is_empty() and two.row(0, named=True)["n"]:
            ref = float(two.row(0, named=True)["share_rate"] - one_coin["share_rate"])
    doc.p("Each run changes one reconstructed cost by one (floored at 0) and replays the main "
          "games (same seeds and seats). *Shift*: first-player share of the tweaked games "
          "minus that of the same games with the default costs, points, with a Wald interval "
          "from the paired games; q = Benjamini-Hochberg over the tweaks. Sorted by the size "
          "of the shift." + (f" For scale: taking the second player's extra coin away (3 -> 2 "
                             f"coins) shifts the share by {_pts(ref)} points." if ref else ""))
    doc.table(Table(
        ["Change", "Paired games", "First-player share (tweaked)", "Shift (points)",
         "Games with another result", "q (BH)"],
        [[f"**{r['label']}**", _count(r["n"]), _fmt_rate(r["share"], r["share_lo"],
                                                          r["share_hi"]),
          _fmt_diff(r), pct(r["changed"]), _fmt_p(r["q"])] for r in rows],
        [False, True, True, True, True, True]))
    # per structure: the largest |shift| of its four tweaks
    per: dict[str, float] = {}
    for r in rows:
        name = r["tweak"].split(".")[0]
        per[name] = max(per.get(name, 0.0), abs(r["diff"]) if not math.isnan(r["diff"]) else 0)
    doc.p("Largest shift per structure (any of its four changes): " + ", ".join(
        f"{k} {v * 100:.1f}" for k, v in sorted(per.items(), key=lambda x: -x[1])) + " points.")
    # chart
    fig, ax = plt.subplots(figsize=(7, 1.4 + 0.28 * len(rows)))
    rr = rows[::-1]
    y = np.arange(len(rr))
    v, err = _errbars([r["diff"] * 100 for r in rr], [r["lo"] * 100 for r in rr],
                      [r["hi"] * 100 for r in rr])
    ax.barh(y, v, color=np.where(v >= 0, "#C44E52", "#4C72B0"), height=0.6)
    ax.errorbar(v, y, xerr=err, fmt="none", ecolor="black", capsize=2, lw=1)
    ax.axvline(0, color="grey", lw=1)
    if ref:
        for x in (ref * 100, -ref * 100):
            ax.axvline(x, color="grey", ls=":", lw=1)
        ax.text(ref * 100, len(rr) - 0.4, " one coin", fontsize=7, color="grey")
    ax.set_yticks(y, [r["label"] for r in rr], fontsize=7)
    ax.set_xlabel("shift of the first-player share vs default costs (points)")
    ax.set_title("Sensitivity of the seat advantage to each reconstructed cost (+-1)",
                 fontsize=9)
    doc.img(_chart(ctx, "province_sensitivity", fig), "Sensitivity of the seat advantage")
    # headline
    valid = [r for r in rows if r["n"]]
    if not valid:
        return
    sig = [r for r in valid if r["q"] is not None and r["q"] < 0.05]
    top = ", ".join(f"**{r['label']}** {_fmt_diff(r)}" for r in valid[:3])
    ahead = sum(1 for r in valid if r["share_lo"] is not None and r["share_lo"] > 0.5)
    lo_r = min(valid, key=lambda r: r["share"])
    hi_r = max(valid, key=lambda r: r["share"])
    big = sum(1 for r in valid if ref and abs(r["diff"]) >= abs(ref) / 2)
    text = (f"Dependence on the reconstructed data: the seat advantage is most sensitive to "
            f"{top} points; {len(sig)} of {len(valid)} single-cost changes move it (BH q < "
            f"0.05)")
    if ref:
        text += (f", {big} by at least half as much as the second player's extra coin "
                 f"does ({_pts(abs(ref))[1:]} points); the largest is "
                 f"{abs(valid[0]['diff']) / abs(ref):.0%} of that effect")
    text += (f". Across the changes the first player's share ranges from "
             f"{_fmt_rate(lo_r['share'], lo_r['share_lo'], lo_r['share_hi'])} "
             f"({lo_r['label']}) to {_fmt_rate(hi_r['share'], hi_r['share_lo'], hi_r['share_hi'])}"
             f" ({hi_r['label']}) and stays above 50% (interval excluding it) in {ahead} of "
             f"{len(valid)}: ")
    text += ("the answer 'one coin is not enough' survives every single change, but its size "
             "does not." if ahead == len(valid) else
             "the answer to 'is one coin enough' itself depends on the reconstructed costs.")
    text += (" Confirmed: the Lender's cost and VP, the Bank's VP, the prerequisite arrows, "
             "grind, sailor, repayment and penalty numbers, the token counts and the supply "
             "sizes; reconstructed and not swept here: the VP of Camp to Harbor and every goal "
             "condition and threshold.")
    ctx.headline(text, "Province: most sensitive cost: " + valid[0]["label"] + " "
                 + _fmt_diff(valid[0]) + " points.")


def one_coin_base(ctx) -> int:
    main = _runs(ctx, MAIN)
    return int(_opt(ctx, main[0], "p2_coins", 3)) if main else 3
