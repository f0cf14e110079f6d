"""Sample size: how many games a run would need to resolve 1 percentage point (win rates) or
1 score point (the mean score), the "Sample size" section and the headline warnings."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from analysis import stats as st
from analysis.doc import Doc, Table, ci, count, num, pct, pts
from analysis.report.wording import rare_text

__all__ = ["RESOLVE", "RESOLVE_SCORE", "Need", "plan_p", "rate_need", "difference_need",
           "design_effect", "sample_sizes", "resolution_text", "short_warning", "direction_warning",
           "share_text", "sample_size_section"]

RESOLVE = 0.01  # the difference to resolve for win rates: 1 percentage point
RESOLVE_SCORE = 1.0  # and for the mean score: 1 score point


def plan_p(p, parity: float) -> float:
    """The rate used to size a run: the observed rate, or parity when it is missing, 0 or 1
    (a degenerate observed rate would claim that no games are needed)."""
    if p is None or math.isnan(p) or p <= 0.0 or p >= 1.0:
        return parity
    return float(p)


def _scalar(x) -> float:
    """The first element of an array (or a scalar) as a Python float."""
    return float(np.asarray(x).ravel()[0])


@dataclass
class Need:
    """One metric's sample-size requirement (see the "Sample size" section).

    ``n``/``need``: units in the run / needed for ±1 point (``unit``: "finished games" or
    "seat-games"); ``games``/``games_need``: finished games of that player count in the run /
    needed; ``hw``: the current 95% half-width (proportion, or score points for the mean);
    ``deff``: the design effect applied (clustered variance / independent-seats variance; NaN
    when the figure assumes independent units)."""

    players: int
    metric: str
    estimate: str
    unit: str
    n: float
    need: float
    games: float
    games_need: float
    hw: float
    deff: float = math.nan

    @property
    def enough(self) -> bool:
        """True when the run has at least the finished games the metric needs, or when its
        current resolution is 1 point at the precision the report prints (``resolution_text``
        "±1.0" / "±1.00"): a run of 10,000 games that needs 10,004 resolves ±1.0 points, and a
        "too few games" warning beside it would contradict the figure printed."""
        if math.isnan(self.games_need):
            return False
        if self.games >= self.games_need:
            return True
        return _printed_resolution(self) <= (RESOLVE_SCORE if self.metric.startswith(
            "Mean score") else RESOLVE * 100)


def rate_need(players: int, metric: str, estimate: str, p, n: float, games: float,
              unit: str = "finished games") -> Need:
    """Requirement for a rate measured over ``n`` units in ``games`` finished games."""
    pp = plan_p(p, 1.0 / players)
    need = _scalar(st.n_for_rate(pp, RESOLVE))
    return Need(players, metric, estimate, unit, n, need, games,
                _scalar(st.games_for_units(need, n, games)), _scalar(st.rate_half_width(pp, n)))


def design_effect(clustered_hw, independent_hw) -> float:
    """The design effect of a clustered interval: ``(clustered_hw / independent_hw)^2``, the
    factor by which clustering by game multiplies the variance (and so the units needed) of
    an estimate computed as if its units were independent. NaN when either half-width is
    missing, not finite or the independent one is 0. Example: 0.12 vs 0.10 -> 1.44."""
    c, i = float(clustered_hw), float(independent_hw)
    if not (math.isfinite(c) and math.isfinite(i)) or i <= 0.0 or c < 0.0:
        return math.nan
    return (c / i) ** 2


def difference_need(players: int, metric: str, estimate: str, p1, n1: float, p2, n2: float,
                    games: float, clustered_hw: float | None = None) -> Need:
    """Requirement for a difference of two seat-game rates (groups ``n1`` and ``n2``).

    Computed as if the seat-games were independent, unless ``clustered_hw`` (the 95%
    half-width of the printed interval, clustered by game) is given: then the current
    resolution is that half-width and the units needed are scaled by the design effect
    (``design_effect`` of the clustered half-width against the independent one of the same
    observed rates ``p1``, ``p2``), so the table agrees with the interval beside it. The
    planning rates stay as above (parity for a rate of 0 or 1)."""
    par = 1.0 / players
    a, b = plan_p(p1, par), plan_p(p2, par)
    need = _scalar(st.n_for_difference(a, n1, b, n2, RESOLVE))
    hw = _scalar(st.difference_half_width(a, n1, b, n2))
    deff = math.nan
    if clustered_hw is not None and all(x is not None and 0.0 <= x <= 1.0 for x in (p1, p2)):
        # clustered vs independent variance of the same observed rates
        deff = design_effect(clustered_hw, _scalar(st.difference_half_width(p1, n1, p2, n2)))
        if not math.isnan(deff):
            need, hw = float(math.ceil(need * deff)), float(clustered_hw)
    unit = ("seat-games" if math.isnan(deff) else
            f"seat-games, clustered by game (design effect {deff:.2f})")
    return Need(players, metric, estimate, unit, n1 + n2, need, games,
                _scalar(st.games_for_units(need, n1 + n2, games)), hw, deff)


def _clustered_hw(r: dict) -> float | None:
    """The half-width of a component row's clustered interval (the larger side: a bound
    clipped to [-1, 1] shortens only its own side); None when a bound is missing."""
    if any(r.get(k) is None or (isinstance(r[k], float) and math.isnan(r[k]))
           for k in ("diff", "lo", "hi")):
        return None
    return max(r["diff"] - r["lo"], r["hi"] - r["diff"])


def sample_sizes(seat_rates, order_rates, firsts, strat, impact, scores, comp,
                 grp: dict) -> dict:
    """Every requirement the "Sample size" section and the headline warnings use."""
    fin = {int(r["players"]): float(r["finished"]) for r in comp.iter_rows(named=True)}
    rows: list[Need] = []
    first: dict[int, Need] = {}
    pair: dict[int, tuple[Need, dict]] = {}
    top: dict[int, Need] = {}
    comps: dict[int, list[tuple[Need, dict]]] = {}
    for p in sorted(fin):
        games = fin[p]
        if not games:
            continue
        for r in seat_rates.filter(pl.col("players") == p).iter_rows(named=True):
            rows.append(rate_need(p, f"Seat {r['seat'] + 1} win rate",
                                  f"{pct(r['win_rate'])} {ci(r['lo'], r['hi'])}",
                                  r["win_rate"], r["n"], games))
        o = order_rates.filter((pl.col("players") == p) & (pl.col("position") == 0))
        if len(o):
            r = o.row(0, named=True)
            first[p] = rate_need(p, "First player's win rate (turn order)",
                                 f"{pct(r['win_rate'])} {ci(r['lo'], r['hi'])}",
                                 r["win_rate"], r["n"], games)
            if len(firsts.get(p, [0])) > 1:
                rows.append(first[p])
            else:  # the same figure as Seat 1's row
                first[p].metric = "Seat 1 win rate"
        g = strat.filter((pl.col("players") == p) & (pl.col("n") > 0))
        for r in g.iter_rows(named=True):
            rows.append(rate_need(p, f"`{r['strategy']}` win rate",
                                  f"{pct(r['win_rate'])} {ci(r['lo'], r['hi'])}",
                                  r["win_rate"], r["n"], games, unit="seat-games"))
        if len(g) >= 2:
            g = g.sort("win_rate", descending=True)
            b, w = g.row(0, named=True), g.row(len(g) - 1, named=True)
            d, lo, hi = (_scalar(x) for x in st.newcombe_difference(b["wins"], b["n"],
                                                                    w["wins"], w["n"]))
            need = difference_need(
                p, f"`{b['strategy']}` minus `{w['strategy']}`",
                f"{pts(d)} {ci(lo, hi)}", b["win_rate"], b["n"], w["win_rate"], w["n"], games)
            rows.append(need)
            pair[p] = (need, {"diff": d, "lo": lo, "hi": hi})
        items = []
        for r in impact.filter((pl.col("players") == p) & pl.col("diff").is_not_null()) \
                .iter_rows(named=True):
            items.append((difference_need(
                p, f"**{r['component']}**: {grp['verb']} minus not",
                f"{pts(r['diff'])} {ci(r['lo'], r['hi'])}", r["rate_with"], r["n_with"],
                r["rate_without"], r["n_without"], games, _clustered_hw(r)), r))
        if items:
            comps[p] = items
            top[p] = items[0][0]
            rows.append(items[0][0])
        sc = scores.filter(pl.col("players") == p)
        if len(sc) and sc["n"][0]:
            r = sc.row(0, named=True)
            need = _scalar(st.n_for_mean(r["sd"], RESOLVE_SCORE))
            hw = st.z_value() * r["sd"] / math.sqrt(r["n"]) if r["n"] > 1 else math.nan
            rows.append(Need(p, "Mean score (score points)",
                             f"{num(r['mean'], 2)} (sd {num(r['sd'], 2)})", "seat-games",
                             r["n"], need, games,
                             _scalar(st.games_for_units(need, r["n"], games)), hw))
    return {"finished": fin, "rows": rows, "first": first, "pair": pair, "top": top,
            "comps": comps}


def _printed_resolution(n: Need) -> float:
    """The current half-width as ``resolution_text`` prints it (points rounded to 0.1, score
    points to 0.01); NaN when unknown."""
    if n.hw is None or math.isnan(n.hw):
        return math.nan
    return round(n.hw, 2) if n.metric.startswith("Mean score") else round(n.hw * 100, 1)


def resolution_text(n: Need) -> str:
    """The current half-width: '±9.3' points (rates) or '±0.21' (score points)."""
    if n.hw is None or math.isnan(n.hw):
        return "n/a"
    return f"±{n.hw:.2f}" if n.metric.startswith("Mean score") else f"±{n.hw * 100:.1f}"


def short_warning(n: Need) -> str:
    """' ⚠ ...' when the run is below the 1-point requirement (empty when it is not)."""
    if n.enough or math.isnan(n.games_need):
        return ""
    unit = "score point" if n.metric.startswith("Mean score") else "point"
    return (f" ⚠ **Too few games for 1-{unit} resolution:** this run resolves "
            f"{resolution_text(n)} {unit}s; ±1 {unit} needs about {count(n.games_need)} finished "
            f"{n.players}-player games ({count(n.games)} in the run).")


def direction_warning(lo, hi, what: str, n: Need) -> str:
    """' ⚠ ...' for a claim that names a direction while its interval includes 0."""
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi) or lo > 0 or hi < 0:
        return ""
    return (f" ⚠ **Direction not established at this sample size:** the interval of {what} "
            f"includes 0, so this run cannot say which way it goes; ±1 point needs about "
            f"{count(n.games_need)} finished {n.players}-player games "
            f"({count(n.games)} in the run).")


def share_text(have: float, need: float) -> str:
    """have / need: '0.03% of it' (two decimals below 1%), '48.0% of it', '99.96% of it' (as
    many decimals as keep a share below 1 from printing as 100%), '2.1 times it' when the run
    has more than needed (a share is never printed above 100%); 'all of it' if need = 0 or
    have = need."""
    if not need:
        return "all of it"
    x = have / need
    if x > 1:
        return f"{x:,.1f} times it"
    if x == 1:
        return "all of it"
    digits = 2 if x < 0.01 else 1
    while digits < 4 and pct(x, digits).startswith("100."):  # 9,996 of 10,000: not "100.0%"
        digits += 1
    return pct(x, digits) + " of it"


def sample_size_section(doc: Doc, ss: dict, grp: dict) -> None:
    """The "Sample size" section: per player count the largest requirement, the table
    of every metric and the component differences."""
    doc.h(2, "Sample size")
    doc.p("How many games this run would need to resolve a difference of **1 percentage "
          "point** (win rates) or **1 score point** (mean score) at 95% confidence, for the "
          "metrics of the tables above. \"Resolution now\" is the current 95% half-width "
          "(1.96 × standard error); a metric is resolved when it is at most 1 point, i.e. when "
          "an estimate 1 point from parity (or a difference of 1 point) would have an interval "
          "that excludes parity (or 0). Formulas under Notes on method. A ⚠ marks each headline "
          "claim that the run is too small to support. Seat and turn-order rates count "
          "games, which are independent. Bot win rates and the best-minus-worst bot difference "
          "count seat-games as if they were independent, like their intervals. Component "
          "differences are printed with intervals clustered by game (the seats of one game are "
          "not independent), so their rows use that interval's half-width and scale the "
          "seat-games needed by its design effect (clustered variance / independent-seats "
          "variance, shown in \"Counted in\").")
    rows = ss["rows"]
    if not rows:
        doc.p("No finished games, so no sample-size figures.")
        return
    items = []
    for p in sorted({n.players for n in rows}):
        mine = [n for n in rows if n.players == p and not math.isnan(n.games_need)]
        if not mine:
            continue
        worst = max(mine, key=lambda n: n.games_need)
        have = ss["finished"][p]
        short = [n for n in mine if not n.enough]
        verdict = ("enough for all of them" if not short else
                   f"{len(short)} of the {len(mine)} metrics below are not resolved to 1 point")
        items.append(f"{p} players: the largest requirement is **{count(worst.games_need)}** "
                     f"finished games ({worst.metric}); the run has {count(have)} "
                     f"({share_text(have, worst.games_need)}):"
                     f" {verdict}.")
    doc.ul(items)
    doc.table(Table(
        ["Players", "Metric", "Estimate [95% CI]", "Counted in", "n in run",
         "n for ±1 point", "Resolution now (±)", "Finished games for ±1 point",
         "Finished games in run", "Enough?"],
        [[str(n.players), n.metric, n.estimate, n.unit, count(n.n),
          "n/a" if math.isnan(n.need) else count(n.need), resolution_text(n),
          "n/a" if math.isnan(n.games_need) else count(n.games_need), count(n.games),
          "yes" if n.enough else "**no**"]
         for n in rows],
        [True, False, True, False, True, True, True, True, True, False]))
    items = []
    for p, comp in sorted(ss["comps"].items()):
        needs = sorted(n.games_need for n, _ in comp)
        ok = sum(n.enough for n, _ in comp)
        big_n, big_r = max(comp, key=lambda x: x[0].games_need)
        share = big_r["n_with"] / (big_r["n_with"] + big_r["n_without"])
        why = rare_text(share, grp["noun"], grp["verb"])
        items.append(
            f"{p} players: {ok} of {len(comp)} {grp['noun']} differences are resolved to 1 "
            f"point with this run's {count(ss['finished'][p])} finished games; the median "
            f"{grp['noun']} needs {count(float(np.median(needs)))}, the largest "
            f"{count(big_n.games_need)} (**{big_r['component']}**, {grp['verb']} in "
            f"{pct(share)} of seat-games" + (f": {why})." if why else ")."))
    if items:
        doc.p(f"**{grp['title']}** (every {grp['noun']} with a difference; the table above "
              f"shows the one of the headline):")
        doc.ul(items)
