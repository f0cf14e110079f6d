"""The "Headline answers" section: first-player advantage, the strategies with the highest
and lowest win rate, the component most associated with winning and game length, with the
sample-size warnings."""

from __future__ import annotations

import polars as pl

from analysis.doc import Doc, ci, num, parity, pct, pts
from analysis.report.sample_size import direction_warning, short_warning
from analysis.report.sections import CAUTION
from analysis.report.wording import order_text, separated

__all__ = ["headlines", "first_phrase"]


def first_phrase(p: int, firsts: dict[int, list[int]]) -> str:
    """Who moves first at ``p`` players: "Seat k" when always the same seat, else "The first
    player"."""
    f = firsts.get(p, [0])
    if len(f) == 1:
        return f"Seat {f[0] + 1}"
    return "The first player"


def headlines(doc: Doc, order_rates, firsts, strat, impact, lengths, comp, bal,
              grp: dict, ss: dict) -> list[str]:
    """The "Headline answers" section; returns the summary lines (terminal and summary.json)."""
    doc.h(2, "Headline answers")
    doc.p("The verdict's answers in full sentences, with their sample-size warnings.")
    lines: list[str] = []
    _first_player(doc, lines, order_rates, firsts, ss)
    _best_strategy(doc, lines, strat, ss)
    _top_component(doc, lines, impact, grp, ss)
    _game_length(doc, lengths, comp)
    for r in bal.iter_rows(named=True):
        lines.append(f"{r['players']} players: balance {r['balance']:.3f}.")
    return lines


def _first_player(doc: Doc, lines: list[str], order_rates, firsts, ss: dict) -> None:
    """The first-player advantage per player count (bullets and summary lines)."""
    items = []
    doc.p("**First-player advantage** (win rate of the seat that moves first, 95% interval, "
          "games stopped at the limit excluded):")
    for r in order_rates.filter(pl.col("position") == 0).iter_rows(named=True):
        p = int(r["players"])
        who = first_phrase(p, firsts)
        if not r["n"]:
            items.append(f"No finished {p}-player games: every game stopped at the limit.")
            continue
        par = 1.0 / p
        if r["lo"] > par:
            verdict = (f"an advantage of {pts(r['win_rate'] - par)} points "
                       f"({pts(r['lo'] - par)} to {pts(r['hi'] - par)}; the interval "
                       "excludes parity)")
        elif r["hi"] < par:
            verdict = (f"a disadvantage of {pts(r['win_rate'] - par)} points "
                       f"({pts(r['lo'] - par)} to {pts(r['hi'] - par)}; the interval "
                       "excludes parity)")
        else:
            verdict = "consistent with parity: no first-player advantage detectable at this n"
        extra = "the first seat varied from game to game; " if who == "The first player" else ""
        text = (f"{who} wins {pct(r['win_rate'])} {ci(r['lo'], r['hi'])} of {p}-player games "
                f"against a parity of {parity(p)}")
        need = ss["first"].get(p)
        warn = short_warning(need) if need else ""
        if warn and r["lo"] <= par <= r["hi"]:
            warn = warn[:-1] + ", so an advantage or disadvantage smaller than that cannot be " \
                "ruled out."
        items.append(f"{text}: {verdict}; {extra}n = {r['n']:,} finished games.{warn}")
        lines.append(f"{text} (n = {r['n']:,})." + (" [too few games for ±1 point]"
                                                    if warn else ""))
    doc.ul(items)


def _best_strategy(doc: Doc, lines: list[str], strat, ss: dict) -> None:
    """Which strategy wins, with the direction warning of the best-minus-worst difference."""
    items = []
    for (p,), g in strat.group_by("players", maintain_order=True):
        g = g.filter(pl.col("n") > 0).sort("win_rate", descending=True)
        if len(g) < 2:
            if len(g) == 1:
                items.append(f"{p} players: every seat played `{g['strategy'][0]}` (mirror "
                             "matches), so no strategy comparison.")
            continue
        b, w = g.row(0, named=True), g.row(len(g) - 1, named=True)
        warn = ""
        if p in ss["pair"]:
            need, d = ss["pair"][p]
            warn = (direction_warning(
                d["lo"], d["hi"],
                f"the difference `{b['strategy']}` minus `{w['strategy']}`, "
                f"{pts(d['diff'])} {ci(d['lo'], d['hi'])} points,", need)
                    or short_warning(need))
        cmp = order_text(f"`{b['strategy']}`", b["lo"], b["hi"], f"`{w['strategy']}`",
                         w["lo"], w["hi"])
        items.append(
            f"{p} players: `{b['strategy']}` wins {pct(b['win_rate'])} {ci(b['lo'], b['hi'])} "
            f"of its seats (n = {b['n']:,}), `{w['strategy']}` the least, "
            f"{pct(w['win_rate'])} {ci(w['lo'], w['hi'])} (n = {w['n']:,}); "
            f"parity {parity(p)}; {cmp}.{warn}"
        )
        lead = ("Best strategy" if separated(b["lo"], b["hi"], w["lo"], w["hi"]) > 0
                else "Highest win rate (indistinguishable from the lowest)")
        lines.append(f"{lead} at {p} players: {b['strategy']} "
                     f"{pct(b['win_rate'])} {ci(b['lo'], b['hi'])}."
                     + (" [too few games to tell best from worst]" if "Direction" in warn
                        else " [too few games for ±1 point]" if warn else ""))
    if items:
        doc.p("**Which strategy wins** (an ordering only where the intervals separate):")
        doc.ul(items)


def _top_component(doc: Doc, lines: list[str], impact, grp: dict, ss: dict) -> None:
    """The component most associated with winning, per player count."""
    items = []
    top = impact.filter(pl.col("diff").is_not_null())
    for (p,), g in top.group_by("players", maintain_order=True):
        r = g.row(0, named=True)
        sign = "higher" if r["diff"] >= 0 else "lower"
        excl = "the interval excludes 0" if r["lo"] > 0 or r["hi"] < 0 else \
            "the interval includes 0"
        text = (f"{p} players: seats that {grp['verb']} **{r['component']}** win "
                f"{pct(r['rate_with'])} vs {pct(r['rate_without'])} for seats that did not, "
                f"{pts(abs(r['diff']))[1:]} points {sign} "
                f"(difference {pts(r['diff'])} {ci(r['lo'], r['hi'])}; {excl}; "
                f"n = {r['n_with']:,} vs {r['n_without']:,} seat-games).")
        need = ss["top"].get(p)
        warn = (direction_warning(r["lo"], r["hi"], "the difference", need)
                or short_warning(need)) if need else ""
        items.append(text + warn)
        lines.append(f"{grp['noun'].capitalize()} most associated with winning at {p} players: "
                     f"{r['component']} "
                     f"{pts(r['diff'])} points {ci(r['lo'], r['hi'])}."
                     + (" [direction not established]" if "Direction" in warn
                        else " [too few games for ±1 point]" if warn else ""))
    if items:
        doc.p(f"**Which {grp['noun']} is most associated with winning** (largest difference "
              f"in win rate between seats that {grp['verb']} it and seats that did not; "
              "pooled over the bots, see the verdict for the split by bot):")
        doc.ul(items)
        doc.p(f"**Caution:** {CAUTION}")


def _game_length(doc: Doc, lengths, comp) -> None:
    """How long games last, and how many stopped at the limit."""
    items = []
    for r in lengths.filter(pl.col("measure") == "turns").iter_rows(named=True):
        p = int(r["players"])
        c = comp.filter(pl.col("players") == p).row(0, named=True)
        items.append(
            f"{p}-player games last a median of {num(r['q50'], 0)} player-turns (middle half "
            f"{num(r['q25'], 0)} to {num(r['q75'], 0)}, 95th percentile {num(r['q95'], 0)}; "
            f"n = {r['n']:,} finished games); {pct(c['limit_rate'], 2)} "
            f"{ci(c['limit_lo'], c['limit_hi'], 2)} of {c['n']:,} games stopped at the limit."
        )
    for r in comp.iter_rows(named=True):
        if not r["finished"]:
            items.append(f"{r['players']}-player games: all {r['n']:,} stopped at the limit.")
    if items:
        doc.p("**How long games last:**")
        doc.ul(items)
