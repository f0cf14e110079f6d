"""The verdict: the screen every report opens on (issue 16).

One table answers the designer's questions, each row with its estimate, 95% interval, n and a
one-line plain-language reading: the first-player advantage per player count (by turn order),
the strongest and weakest component (by causal effect, ``effect_rows``, when the runs have
component effects, ``analysis.effects``; else an association within each bot, labelled), game
length, the rule holes the game's checks found (``ReportContext.rule_hole``); the game's own
answers (``ReportContext.headline``) follow as a short list, then two key charts.

``component_by_bot`` computes the component association split by bot: the win-rate difference
(seats that used the component minus seats that did not) within each bot, combined over the
bots with Mantel-Haenszel weights (``analysis.stats.mh_difference``), so that a strong bot
which happens to use a component more often does not make the component look strong.
"""

from __future__ import annotations

import math
import re

import numpy as np
import polars as pl

from analysis import queries as q
from analysis import stats as st
from analysis.doc import Doc, Table, ci, count, num, parity, pct, pts
from analysis.report.wording import separated

__all__ = ["wilson", "component_by_bot", "first_player_rows", "component_rows", "effect_rows",
           "length_rows", "rule_hole_rows", "verdict_section", "verdict_line", "CAUSAL_LABEL",
           "ASSOCIATION_LABEL"]

CAUSAL_LABEL = "causal (paired intervention on common seeds)"
"""The label of a verdict row from the component effects (``effect_rows``)."""

ASSOCIATION_LABEL = "association within each bot, not an effect"
"""The label of a verdict row from the with/without comparison (``component_rows``)."""

_HEAD = ["Question", "Answer", "95% interval", "n", "Reading"]
_RIGHT = [False, True, True, True, False]


def wilson(k: float, n: float) -> tuple[float, float]:
    """The 95% Wilson interval of ``k`` successes in ``n`` trials, as two floats."""
    lo, hi = st.wilson_interval(k, n)
    return float(np.asarray(lo).ravel()[0]), float(np.asarray(hi).ravel()[0])


def component_by_bot(seats: pl.LazyFrame, prefix: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``(combined, per_bot)``: the association of each ``prefix`` component with winning,
    within each bot.

    ``per_bot``: players, strategy, component, n_with, n_without, rate_with, rate_without,
    diff, lo, hi (``queries.component_impact`` over that bot's seats). ``combined``: players,
    component, diff, lo, hi (Mantel-Haenszel over the bots, Wald 95%), n (seat-games), strata
    (bots with both groups), sorted by players then diff descending; components no bot both
    used and left unused are dropped. Proportions in [0, 1]."""
    strategies = q.collect(seats.select(pl.col("strategy").unique()))["strategy"].to_list()
    parts = []
    for s in sorted(strategies):
        imp = q.component_impact(seats.filter(pl.col("strategy") == s), detail_prefix=prefix)
        if not imp.is_empty():
            parts.append(imp.with_columns(strategy=pl.lit(s)))
    schema = {"players": pl.Int8, "component": pl.Utf8, "diff": pl.Float64, "lo": pl.Float64,
              "hi": pl.Float64, "n": pl.Int64, "strata": pl.Int64}
    if not parts:
        return pl.DataFrame(schema=schema), pl.DataFrame()
    per_bot = pl.concat(parts).select("players", "strategy", "component", "n_with",
                                      "n_without", "wins_with", "wins_without", "rate_with",
                                      "rate_without", "diff", "lo", "hi")
    rows = []
    for (p, c), g in per_bot.group_by("players", "component", maintain_order=True):
        r = st.mh_difference(g["wins_with"].to_numpy(), g["n_with"].to_numpy(),
                             g["wins_without"].to_numpy(), g["n_without"].to_numpy())
        if r["strata"] and not math.isnan(r["diff"]):
            lo, hi = max(r["lo"], -1.0), min(r["hi"], 1.0)
            rows.append((int(p), c, r["diff"], lo, hi, r["n1"] + r["n0"], r["strata"]))
    comb = pl.DataFrame(rows, schema=schema, orient="row")
    return comb.sort(["players", "diff"], descending=[False, True]), per_bot


def _advantage_reading(who: str, r: dict, p: int) -> str:
    par = 1.0 / p
    base = f"{who} wins {pct(r['win_rate'])} vs parity {parity(p)}: "
    if r["lo"] > par:
        return base + "an advantage."
    if r["hi"] < par:
        return base + "a disadvantage."
    half = (r["hi"] - r["lo"]) / 2 * 100
    return base + f"no advantage detectable (this run resolves ±{half:.1f} points)."


def first_player_rows(order_rates: pl.DataFrame, firsts: dict[int, list[int]]) -> list[list]:
    """Verdict rows: the first player's win rate minus parity, per player count (by turn
    order when the first seat varied)."""
    rows = []
    for r in order_rates.filter(pl.col("position") == 0).iter_rows(named=True):
        p = int(r["players"])
        varied = len(firsts.get(p, [0])) > 1
        who = "The first player" if varied else f"Seat {firsts.get(p, [0])[0] + 1}"
        q_ = f"First player, {p}p" + (" (turn order)" if varied else "")
        if not r["n"]:
            rows.append([q_, "n/a", "", "0 games", "Every game stopped at the limit."])
            continue
        par = 1.0 / p
        rows.append([q_, f"{pts(r['win_rate'] - par)} points",
                     f"[{pts(r['lo'] - par)}, {pts(r['hi'] - par)}]",
                     f"{count(r['n'])} games", _advantage_reading(who, r, p)])
    return rows


def _versus(r: dict, other: dict) -> str:
    """"above X" / "below X" when the intervals separate, else "indistinguishable from X"."""
    s = separated(r["lo"], r["hi"], other["lo"], other["hi"])
    name = f"**{other['component']}**"
    return (f"above {name}" if s > 0 else f"below {name}" if s < 0
            else f"indistinguishable from {name}")


def component_rows(comb: pl.DataFrame, grp: dict, mix: str = "") -> list[list]:
    """Verdict rows: the strongest and the weakest component per player count (association
    within each bot, labelled ``ASSOCIATION_LABEL`` with the bot mix ``mix``), each compared
    with the runner-up by interval separation."""
    rows = []
    bots = f" (bots: {mix})" if mix else ""
    noun = grp["noun"]
    for (p,), g in comb.group_by("players", maintain_order=True):
        if len(g) < 2:
            continue
        top, nxt = g.row(0, named=True), g.row(1, named=True)
        low, prev = g.row(len(g) - 1, named=True), g.row(len(g) - 2, named=True)
        for label, r, other in (("Strongest", top, nxt), ("Weakest", low, prev)):
            zero = ("excludes 0" if r["lo"] > 0 or r["hi"] < 0
                    else "includes 0: no association shown")
            rows.append([
                f"{label} {noun}, {p}p", f"**{r['component']}** {pts(r['diff'])} points",
                ci(r["lo"], r["hi"]), f"{count(r['n'])} seat-games",
                f"{ASSOCIATION_LABEL[0].upper()}{ASSOCIATION_LABEL[1:]}{bots}: win rate vs "
                f"same-bot seats without it; interval {zero}; {_versus(r, other)}."])
    return rows


def _fx_versus(r: dict, other: dict | None, tier_size: int) -> str:
    if other is None:
        return "the only component of its family"
    s = separated(r["lo"], r["hi"], other["lo"], other["hi"])
    name = f"**{other['component'].split(': ', 1)[-1]}**"
    if s == 0:
        more = f" (tier of {tier_size})" if tier_size > 2 else ""
        return f"indistinguishable from {name}{more}"
    return f"above {name}" if s > 0 else f"below {name}"


def effect_rows(table: pl.DataFrame) -> list[list]:
    """Verdict rows from a component-effects table (``analysis.effects.effects_table``, effects
    in points): per arm and family, the strongest (largest effect) and the weakest (smallest)
    component with its 95% interval clustered by game, holder seat-games, BH q, its tier
    wording (``indistinguishable`` from the neighbour when the intervals overlap) and the bot
    mix and player count the effect holds for, labelled ``CAUSAL_LABEL``. Rows without an
    estimate are skipped; a family with one component gives one row."""
    rows = []
    if table.is_empty():
        return rows
    for arm in dict.fromkeys(table["arm"].to_list()):
        d = table.filter((pl.col("arm") == arm) & pl.col("effect").is_not_null()
                         & pl.col("lo").is_not_null() & pl.col("hi").is_not_null())
        for fam in dict.fromkeys(d["family"].to_list()):
            g = d.filter(pl.col("family") == fam).sort("effect", descending=True)
            picks = [("Strongest", 0, 1)]
            if g.height > 1:
                picks.append(("Weakest", g.height - 1, g.height - 2))
            for label, i, j in picks:
                r = g.row(i, named=True)
                other = g.row(j, named=True) if 0 <= j < g.height else None
                tier = g.filter(pl.col("tier") == r["tier"]).height
                lo, hi = max(r["lo"] / 100, -1.0), min(r["hi"] / 100, 1.0)  # shares differ
                # by at most 100 points: a clustered interval on few games can pass the bound
                zero = ("excludes 0" if lo > 0 or hi < 0 else "includes 0: no effect shown")
                if r["effect"] == 0 and r["lo"] == 0 and r["hi"] == 0:
                    zero = ("is exactly 0: the nudge changed no game's result (the component "
                            "never mattered in these games)")
                small = (" Small sample (< 1,000 seat-games): no headline."
                         if r["small_sample"] else "")
                what = ("one seat (rotated) barred from it, effect on that seat" if arm ==
                        "denial" else f"nudge {r['nudge']}, effect on the {r['measure']}")
                q_txt = "n/a" if r["q"] is None else f"{r['q']:.2g}"
                rows.append([
                    f"{label} {fam} (causal{'' if arm == 'nudge' else ', ' + arm}), "
                    f"{r['players']}p",
                    f"**{r['component'].split(': ', 1)[-1]}** {r['effect']:+.1f} points",
                    f"[{pts(lo)}, {pts(hi)}]",
                    f"{count(r['holder_seat_games'])} seat-games, BH q {q_txt}",
                    f"{CAUSAL_LABEL[0].upper()}{CAUSAL_LABEL[1:]}: {what}; bots "
                    f"{r['bot_mix']}, {r['players']} players; interval {zero}; "
                    f"{_fx_versus(r, other, tier)}.{small}"])
    return rows


def length_rows(lengths: pl.DataFrame, comp: pl.DataFrame, fixed: bool) -> list[list]:
    """Verdict rows: mean game length in player-turns with its 95% interval, per player
    count, and the share of games stopped at the limit."""
    rows = []
    for r in lengths.filter(pl.col("measure") == "turns").iter_rows(named=True):
        p = int(r["players"])
        c = comp.filter(pl.col("players") == p).row(0, named=True)
        n = int(r["n"])
        half = st.z_value() * r["sd"] / math.sqrt(n) if n > 1 and r["sd"] == r["sd"] else 0.0
        if fixed:
            reading = f"Fixed length: every finished game lasts {num(r['q50'], 0)} player-turns."
        else:
            reading = (f"Median {num(r['q50'], 0)}, middle half {num(r['q25'], 0)} to "
                       f"{num(r['q75'], 0)}, 95th percentile {num(r['q95'], 0)} player-turns.")
        if c["limit"]:
            reading += (f" {pct(c['limit_rate'], 2)} {ci(c['limit_lo'], c['limit_hi'], 2)} of "
                        f"{count(c['n'])} games stopped at the length limit.")
        rows.append([f"Game length, {p}p", f"mean {num(r['mean'], 1)} player-turns",
                     f"[{num(r['mean'] - half, 1)}, {num(r['mean'] + half, 1)}]",
                     f"{count(n)} games", reading])
    return rows


_PLAYERS = re.compile(r"^(\d+) players?: (.+)$")


def rule_hole_rows(holes: list[dict]) -> list[list]:
    """Verdict rows of the rule holes (``ReportContext.rule_hole``): each hole found (count
    > 0) with its rate and Wilson interval; the checks that found none in one row ("0 of n",
    with the interval's upper bound), one check made per player count ("2 players: ...")
    said once over all of them ("... (2p, 3p, 4p): 0 of 60 games"); "no checks" when the
    game ran none."""
    if not holes:
        return [["Rule holes", "no checks", "", "",
                 "This game's report runs no rule-hole checks yet."]]
    rows = []
    none: dict[tuple[str, str], list] = {}  # checks that found nothing, over player counts
    for h in holes:
        lo, hi = wilson(h["count"], h["n"])
        if h["count"] > 0:
            fix = f" Fix: {h['fix']}." if h.get("fix") else " No rule option closes it."
            rows.append([f"Rule hole: {h['finding']}", pct(h["count"] / h["n"], 2),
                         ci(lo, hi, 2), f"{count(h['count'])} of {count(h['n'])} {h['unit']}",
                         h["reading"].rstrip(".") + "." + fix])
        else:
            m = _PLAYERS.match(h["finding"])
            key = (m.group(2) if m else h["finding"], h["unit"])
            none.setdefault(key, [0, []])
            none[key][0] += h["n"]
            if m:
                none[key][1].append(m.group(1))
    clean = []
    for (finding, unit), (n, ps) in none.items():
        where = f" ({', '.join(f'{p}p' for p in ps)})" if len(ps) > 1 else (
            f" ({ps[0]} players)" if ps else "")
        clean.append(f"{finding}{where}: 0 of {count(n)} {unit} (at most "
                     f"{pct(wilson(0, n)[1], 2)})")
    if clean:
        rows.append(["Rule holes checked, none found", "0", "", "",
                     "; ".join(clean) + "."])
    return rows


def verdict_section(doc: Doc, rows: list[list], answers: list[str],
                    charts: list[tuple[str, str]], mix: str, causal: str = "") -> None:
    """The verdict: the table of ``rows``, the game's ``answers`` (bullets), the key
    ``charts`` (file name, alt text). ``causal``: the player counts (e.g. "3p") whose
    strongest and weakest components come from the component effects (``effect_rows``);
    empty when every component row is an association."""
    doc.h(2, "Verdict")
    if causal:
        comp = (f"Strongest and weakest components ({causal}): the causal effect of a one-step "
                "nudge of the component's number on the win rate of the seats that hold it "
                "(baseline - nudged: positive when the nudge against it costs its holders, "
                f"negative when it helps them), {CAUSAL_LABEL}, 95% interval clustered by game, "
                "Benjamini-Hochberg q across the components. Rows marked association (other player counts, if any): "
                "win-rate difference to seats of the same bot without the component, not an "
                "effect.")
    else:
        comp = ("Strongest and weakest components: win-rate difference to seats of the same "
                "bot without the component, an association, not an effect (no component "
                "effects were run for these runs: `boardsim run` plays them).")
    doc.p(f"Bots: {mix}. 95% intervals; points = percentage points. {comp} Details, tables "
          "and methods are folded below.", "meta")
    doc.table(Table(_HEAD, rows, _RIGHT), "verdict")
    if answers:
        doc.p("**Game-specific answers:**")
        doc.ul(answers, "answers")
    doc.charts(charts)


def verdict_line(title: str, order_rates: pl.DataFrame, holes: list[dict],
                 effects: list[str] | None = None) -> str:
    """One line for the cross-game index: the first player's advantage per player count, the
    rule holes found and ``effects`` (the component-effects headlines, each naming its player
    count; appended after "Component effects (causal):")."""
    parts = []
    for r in order_rates.filter((pl.col("position") == 0) & (pl.col("n") > 0)) \
            .iter_rows(named=True):
        par = 1.0 / int(r["players"])
        tag = ("advantage" if r["lo"] > par else "disadvantage" if r["hi"] < par
               else "no advantage detectable")
        parts.append(f"{r['players']}p first player {pts(r['win_rate'] - par)} "
                     f"[{pts(r['lo'] - par)}, {pts(r['hi'] - par)}] points ({tag})")
    found = [h for h in holes if h["count"] > 0]
    holes_txt = ("no rule-hole checks" if not holes else
                 f"{len(found)} rule hole{'s' if len(found) != 1 else ''} found"
                 + (": " + "; ".join(h["finding"] for h in found) if found else ""))
    fx = (" Component effects (causal): " + " ".join(effects)) if effects else ""
    return f"{title}: " + "; ".join(parts) + f". {holes_txt[0].upper() + holes_txt[1:]}.{fx}"
