"""Little Town setup variants: which runs form each setup, and their comparison with the
baseline setup (seat advantage, Balance, score spread, strategies, draft picks)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from analysis import queries as q
from analysis.games.little_town.data import NAME_OF, SETUPS, SLUGS
from analysis.games.little_town.queries import weighted_summary
from analysis.stats import (
    as_float,
    equal_rates_pvalue,
    newcombe_difference,
    rate,
    t_value,
    two_proportion_pvalue,
    welch_difference,
    wilson_interval,
)

__all__ = ["setup_groups", "setup_comparison"]


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


def _order_table(games: pl.LazyFrame, seats: pl.LazyFrame, names: list[str],
                 sel: dict[str, pl.Expr], rng: np.random.Generator
                 ) -> tuple[pl.DataFrame, dict[tuple, np.ndarray]]:
    """The seat-advantage rows of every setup and player count (first player's wins and
    Wilson interval, Balance by turn order and by seat), and the Balance bootstrap draws."""
    order_rows, boot = [], {}
    for s in names:
        g = games.filter(sel[s])
        pos = _position_rates(g)
        # Balance by seat NUMBER (not turn order: q.balance is by turn order; issue 26)
        by_seat = q.seat_win_rates(seats.filter(sel[s]))
        for p, gp in pos.group_by("players", maintain_order=True):
            p = int(p[0])
            first = gp.filter(pl.col("position") == 0).row(0, named=True)
            n = int(first["n"])
            w = gp.sort("position")["wins"].to_numpy()
            r = w / n if n else np.full(len(w), np.nan)
            srow = by_seat.filter(pl.col("players") == p).sort("seat")
            sr = srow["win_rate"].to_numpy().astype(float)
            boot[(s, p)] = _balance_boot(w, n, rng)
            order_rows.append({
                "setup": s, "players": p, "n": n, "wins": float(first["wins"]),
                "balance_pos": float(1 - (np.nanmax(r) - np.nanmin(r))) if n else None,
                "balance_seat": float(1 - (np.nanmax(sr) - np.nanmin(sr)))
                if len(sr) and not np.isnan(sr).all() else None,
                "p_equal": equal_rates_pvalue(srow["wins"].to_numpy(),
                                              float(srow["n"].max())) if len(srow) else None,
            })
    order = pl.DataFrame(order_rows)
    w, n = order["wins"].to_numpy(), order["n"].to_numpy().astype(float)
    lo, hi = wilson_interval(w, n)
    order = order.with_columns(pl.Series("rate", rate(w, n)), pl.Series("lo", lo),
                               pl.Series("hi", hi))
    return order, boot


def _order_differences(order: pl.DataFrame, base: str, boot: dict) -> pl.DataFrame:
    """``order`` with each setup's difference to ``base``: first player's win rate
    (diff/dlo/dhi Newcombe, p z-test) and Balance (bootstrap bal_lo/bal_hi)."""
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
        extra["p"].append(float(two_proportion_pvalue(r["wins"], r["n"], b["wins"], b["n"])[0]))
        bd = boot[(r["setup"], r["players"])] - boot[(base, r["players"])]
        extra["bal_lo"].append(float(np.quantile(bd, 0.025)))
        extra["bal_hi"].append(float(np.quantile(bd, 0.975)))
    order = order.with_columns([pl.Series(k, v, dtype=pl.Float64) for k, v in extra.items()])
    return order


def _score_histograms(seats: pl.LazyFrame, names: list[str], sel: dict[str, pl.Expr]
                      ) -> pl.DataFrame:
    """Frequency tables (setup, measure, value, count) of the winning score, the winning
    margin and the seat score, finished games."""
    fin = seats.filter(q.finished_seat())

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
                f = q.collect(fin.filter(sel[s]).group_by(c).agg(
                    count=pl.len().cast(pl.Int64)))
            else:  # per game, in slices of game ids (bounded memory)
                f = q.by_game_slices(fin.filter(sel[s]), lambda lf, c=c: top_of(lf).group_by(
                    c).agg(count=pl.len().cast(pl.Int64)))
                f = f.group_by(c).agg(pl.col("count").sum())
            hists.append(pl.DataFrame({
                "setup": [s] * len(f), "measure": [measure] * len(f),
                "value": f[c].cast(pl.Int64), "count": f["count"]}))
    hist = pl.concat(hists).sort("setup", "measure", "value") if hists else pl.DataFrame()
    return hist


def _score_distributions(hist: pl.DataFrame, names: list[str], base: str) -> pl.DataFrame:
    """Summary of each frequency table of ``hist`` and its difference to ``base``: the mean
    (Welch) and the spread (Brown-Forsythe: mean absolute deviation from the median)."""
    stats = {}
    for (s, m), g in hist.group_by("setup", "measure"):
        stats[(s, m)] = weighted_summary(g["value"].to_numpy(), g["count"].to_numpy())
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
                d, dl, dh, dp = welch_difference(st["mean"], st["var"], st["n"], b["mean"],
                                                 b["var"], b["n"])
                md, ml, mh, mp = welch_difference(st["mad"], st["mad_var"], st["n"], b["mad"],
                                                  b["mad_var"], b["n"])
            else:
                d = dl = dh = dp = md = ml = mh = mp = None
            row.update(d=d, dlo=dl, dhi=dh, dp=dp, mad_d=md, mad_lo=ml, mad_hi=mh, mad_p=mp)
            dist_rows.append(row)
    dist_schema = {"setup": pl.Utf8, "measure": pl.Utf8, "n": pl.Int64} | {
        k: pl.Float64 for k in ("mean", "sd", "q05", "q25", "q50", "q75", "q95", "mad", "d",
                                "dlo", "dhi", "dp", "mad_d", "mad_lo", "mad_hi", "mad_p")}
    dist = pl.DataFrame(dist_rows, schema=dist_schema)

    return dist


def _strategy_table(seats: pl.LazyFrame, names: list[str], sel: dict[str, pl.Expr],
                    base: str) -> pl.DataFrame:
    """Strategy win rates per setup and their difference to ``base`` (Newcombe, z-test)."""
    srows = []
    for s in names:
        st = q.strategy_win_rates(seats.filter(sel[s]))
        for r in st.iter_rows(named=True):
            srows.append({"setup": s, "players": int(r["players"]), "strategy": r["strategy"],
                          "n": int(r["n"]), "wins": float(r["wins"]),
                          "rate": as_float(r["win_rate"]), "lo": as_float(r["lo"]),
                          "hi": as_float(r["hi"])})
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
            p_.append(float(two_proportion_pvalue(r["wins"], r["n"], b["wins"], b["n"])[0]))
        strat = strat.with_columns(
            pl.Series("diff", d_, dtype=pl.Float64), pl.Series("dlo", l_, dtype=pl.Float64),
            pl.Series("dhi", h_, dtype=pl.Float64), pl.Series("p", p_, dtype=pl.Float64))

    return strat


def _pick_table(seats: pl.LazyFrame, names: list[str], sel: dict[str, pl.Expr]
                ) -> pl.DataFrame:
    """Market presence and draft picks per setup and building (mean pick, t interval)."""
    fin = seats.filter(q.finished_seat())
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
        a = q.collect(lf.group_by("players").agg(pl.len().cast(pl.Int64).alias("seatgames"),
                                                 *exprs))
        for r in a.iter_rows(named=True):
            for b in SLUGS:
                if f"m_{b}" not in r:
                    continue
                k = int(r.get(f"n_{b}") or 0)
                mean = r[f"s_{b}"] / k if k else None
                sd = (math.sqrt(max(0.0, (r[f"ss_{b}"] - k * mean * mean) / (k - 1)))
                      if k > 1 else None)
                half = (t_value(k - 1) * sd / math.sqrt(k)
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
    return picks


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
    order, boot = _order_table(games, seats, names, sel, rng)
    order = _order_differences(order, base, boot)
    hist = _score_histograms(seats, names, sel)
    dist = _score_distributions(hist, names, base)
    strat = _strategy_table(seats, names, sel, base)
    picks = _pick_table(seats, names, sel)
    return {"order": order, "dist": dist, "strat": strat, "picks": picks, "hist": hist,
            "baseline": pl.DataFrame({"baseline": [base]})}
