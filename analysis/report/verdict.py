"""The verdict: the screen every report opens on (issue 16).

One table answers the designer's questions, each row with its estimate, 95% interval, n and a
one-line plain-language reading (what every row shares, the bot mix and the component
intervention, is said once in the intro line, ``verdict_intro``; a rule hole checked at several
player counts is one row listing the rate of each): the first-player advantage per player
count (by turn order),
the strongest and weakest component by restricted play (the denial arm of the component
effects, ``effect_rows``, ``analysis.results.effects``) and each component's leverage (the one-step
nudge), or where the runs have no effects the highest and lowest association within each bot,
labelled), game
length, the rule holes the game's checks found (``ReportContext.rule_hole``); the game's own
answers (``ReportContext.headline``) follow as a short list, then two key charts. The rule
holes in full (reading, fix, each player count) are the folded section ``rule_hole_section``.

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

__all__ = ["wilson", "component_by_bot", "first_player_rows", "component_rows",
           "association_bullet", "effect_rows",
           "length_rows", "rule_hole_rows", "rule_hole_section", "verdict_intro",
           "effects_intervention", "verdict_section", "verdict_line", "CAUSAL_LABEL", "ASSOCIATION_LABEL"]

CAUSAL_LABEL = "paired intervention on common seeds"
"""The label of a verdict row from the component effects (``effect_rows``)."""

ASSOCIATION_LABEL = "association within each bot, not an effect"
"""The label of a verdict row from the with/without comparison (``component_rows``)."""

_HEAD = ["Question", "Answer", "95% CI", "n", "Reading"]
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
              "hi": pl.Float64, "n": pl.Int64, "strata": pl.Int64, "n_with": pl.Int64}
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
            rows.append((int(p), c, r["diff"], lo, hi, r["n1"] + r["n0"], r["strata"],
                         int(r["n1"])))
    comb = pl.DataFrame(rows, schema=schema, orient="row")
    return comb.sort(["players", "diff"], descending=[False, True]), per_bot


MIN_HOLDERS = 20
"""An association headline (strongest/weakest) needs at least this many holder seat-games
(the seats with the component: the n behind the estimate; issue 26: Suburbia's "weakest
tile" rested on 12). ``analysis.report.scan.MIN_HEADLINE_N`` checks it."""


def _holders(r: dict) -> str:
    """The n behind an association row: its holders (of all its seat-games)."""
    if r.get("n_with") is None:
        return f"{count(r['n'])} seat-games"
    return f"{count(r['n_with'])} holders of {count(r['n'])} seat-games"


def _sampled(unit: str) -> bool:
    """Whether a rule-hole count is over sampled units (games, seat-games, holders), which
    take a rate interval; a count over a list of types (card types, tiles offered, ...) is the
    whole list, not a sample, and takes none."""
    return unit.split(" ")[0] in ("games", "seat-games", "holders", "seats", "turns",
                                  "decisions", "paired")


def _advantage_reading(who: str, r: dict, p: int) -> str:
    par = 1.0 / p
    base = f"{who} wins {pct(r['win_rate'])} vs parity {parity(p)}: "
    if r["lo"] > par:
        return base + "an advantage."
    if r["hi"] < par:
        return base + "a disadvantage."
    half = (r["hi"] - r["lo"]) / 2 * 100
    return base + f"no advantage detectable (±{half:.1f} points)."


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
    """Verdict rows: the highest and the lowest association per player count (association
    within each bot), each compared with the runner-up by interval separation. The reading is
    one line ("Association, not an effect: above **X**."); the bot mix and what the
    association compares are said once, in the verdict's intro (``verdict_intro``), never per
    row (``mix`` is accepted for callers of the old signature and not printed)."""
    del mix  # said once in the intro line
    rows = []
    noun = grp["noun"]
    if "n_with" in comb.columns:  # a headline rests on its holders: MIN_HOLDERS at least
        comb = comb.filter(pl.col("n_with") >= MIN_HOLDERS)
    for (p,), g in comb.group_by("players", maintain_order=True):
        if len(g) < 2:
            continue
        top, nxt = g.row(0, named=True), g.row(1, named=True)
        low, prev = g.row(len(g) - 1, named=True), g.row(len(g) - 2, named=True)
        # highest/lowest association: "strongest/weakest" is kept for restricted play
        for label, r, other in (("Highest association,", top, nxt),
                                ("Lowest association,", low, prev)):
            zero = "" if r["lo"] > 0 or r["hi"] < 0 else "CI includes 0; "
            rows.append([
                f"{label} {noun}, {p}p", f"**{r['component']}** {pts(r['diff'])} points",
                ci(r["lo"], r["hi"]), _holders(r),
                f"Association, not an effect: {zero}{_versus(r, other)}."])
    return rows


def association_bullet(comb: pl.DataFrame, grp: dict) -> str:
    """The association rows of ``component_rows`` folded into one verdict bullet (issue 26:
    the verdict keeps to one screen when a report has component effects): per player count,
    the highest and the lowest association, each with its interval and holders ("" when there
    are none). The verdict's intro says once that these are associations within each bot."""
    by_p: dict[str, list[str]] = {}
    for r in component_rows(comb, grp):
        p = r[0].rsplit(", ", 1)[-1]
        ans = r[1].removesuffix(" points")
        n = r[3].split(" holders")[0] + " holders" if " holders" in r[3] else r[3]
        by_p.setdefault(p, []).append(f"{ans} {r[2]} ({n})")
    if not by_p:
        return ""
    parts = "; ".join(f"{p} " + " / ".join(v) for p, v in by_p.items())
    return (f"**Association, {grp['noun']}** (highest / lowest per player count without "
            f"component effects, at least {MIN_HOLDERS} holders; points; not an effect): "
            f"{parts}.")


def _fx_versus(r: dict, other: dict | None, tier_size: int) -> str:
    if other is None:
        return "the only component of its family"
    s = separated(r["lo"], r["hi"], other["lo"], other["hi"])
    name = f"**{other['component'].split(': ', 1)[-1]}**"
    if s == 0:
        more = f" (tier of {tier_size})" if tier_size > 2 else ""
        return f"indistinguishable from {name}{more}"
    return f"above {name}" if s > 0 else f"below {name}"


def _clip(r: dict) -> tuple[float, float]:
    """An effect's interval as proportions, clipped to [-1, 1]: shares differ by at most 100
    points, and a clustered interval on few games can pass that bound."""
    return max(r["lo"] / 100, -1.0), min(r["hi"] / 100, 1.0)


def _step_text(kind: str) -> str:
    """A step kind (``buildings.*.vp``) in words for a row label: its last named part."""
    parts = [x for x in str(kind).split(".") if x != "*"]
    return parts[-1].replace("_", " ") if len(parts) > 1 else str(kind)


def effect_rows(table: pl.DataFrame) -> list[list]:
    """Verdict rows from a component-effects table (``analysis.results.effects.effects_table``, effects
    in points).

    - **Strongest / weakest** come from the denial arm only (restricted play: one seat per
      game barred from the component, paired on common seeds): per family, the component whose
      denial costs the most and the least, with its paired 95% interval clustered by game.
    - The nudge arm gives **leverage** rows (what one step of the number does to its holders),
      per family and kind of step (only steps of one kind are ranked together): the largest
      and the smallest leverage.

    Each reading says whether the interval excludes 0, the neighbour comparison
    (``indistinguishable`` when the intervals overlap) and the BH q. A group in which no
    interval excludes 0 is one row ("none shown"). The intervention and the bot mix are said
    once in the intro (``verdict_intro``). Rows without an estimate are skipped."""
    rows = []
    if table.is_empty():
        return rows
    if "step_kind" not in table.columns:
        table = table.with_columns(step_kind=pl.lit(None, pl.Utf8))
    table = table.with_columns(pl.col("step_kind").cast(pl.Utf8).fill_null(pl.col("family")))
    for arm in ("denial", "nudge"):
        d = table.filter((pl.col("arm") == arm) & pl.col("effect").is_not_null()
                         & pl.col("lo").is_not_null() & pl.col("hi").is_not_null())
        tag = "Denial, paired" if arm == "denial" else "Leverage, paired"
        keys = d.select("family", "step_kind").unique(maintain_order=True)
        multi = {f: keys.filter(pl.col("family") == f).height > 1
                 for f in keys["family"].to_list()}
        for fam, kind in keys.iter_rows():
            g = d.filter((pl.col("family") == fam) & (pl.col("step_kind") == kind)) \
                .sort("effect", descending=True)
            p = g["players"][0]
            what = f"{fam} ({_step_text(kind)} steps)" if multi.get(fam) else fam
            shown = [r for r in g.iter_rows(named=True) if _clip(r)[0] > 0 or _clip(r)[1] < 0]
            if g.height > 1 and not shown:  # nothing to rank: one row for the group
                r = g.row(int((g["effect"].abs()).arg_max()), named=True)
                lo, hi = _clip(r)
                rows.append([
                    f"{'Strength' if arm == 'denial' else 'Leverage'}, {what}, {p}p",
                    "none shown", "",
                    f"{count(int(g['holder_seat_games'].max()))} seat-games",
                    f"{tag}: no CI of the {g.height} excludes 0; the largest, "
                    f"**{r['component'].split(': ', 1)[-1]}** {r['effect']:+.1f} "
                    f"[{pts(lo)}, {pts(hi)}]."])
                continue
            if arm == "denial":
                picks = [(f"Strongest {what}", 0, 1)]
                if g.height > 1:
                    picks.append((f"Weakest {what}", g.height - 1, g.height - 2))
            else:
                picks = [(f"Largest leverage, {what}", 0, 1)]
                if g.height > 1:
                    picks.append((f"Smallest leverage, {what}", g.height - 1, g.height - 2))
            for label, i, j in picks:
                r = g.row(i, named=True)
                other = g.row(j, named=True) if 0 <= j < g.height else None
                tier = g.filter(pl.col("tier") == r["tier"]).height
                lo, hi = _clip(r)
                zero = "" if lo > 0 or hi < 0 else "CI includes 0; "
                if r["effect"] == 0 and r["lo"] == 0 and r["hi"] == 0:
                    zero = "exactly 0, the nudge changed no game's result; "
                small = " Small sample." if r["small_sample"] else ""
                q_txt = ("n/a" if r["q"] is None else "< 1e-300" if r["q"] < 1e-300
                         else f"{r['q']:.2g}")  # a q that underflows to 0 is not "q 0"
                unit = "points" if arm == "denial" else "points per step"
                rows.append([
                    f"{label}, {p}p",
                    f"**{r['component'].split(': ', 1)[-1]}** {r['effect']:+.1f} {unit}",
                    f"[{pts(lo)}, {pts(hi)}]", f"{count(r['holder_seat_games'])} seat-games",
                    f"{tag}: {zero}{_fx_versus(r, other, tier)}; BH q {q_txt}.{small}"])
    return rows


def effects_intervention(tables: list[pl.DataFrame]) -> str:
    """What the component effects of ``tables`` did, said once for the verdict's intro: per
    arm, the intervention (with one component's nudge as the example) and the seats whose
    win rate it measures ("" when there are none)."""
    parts = []
    d = pl.concat([t.select("arm", "nudge", "measure") for t in tables if not t.is_empty()],
                  how="vertical_relaxed") if any(not t.is_empty() for t in tables) else None
    if d is None:
        return ""
    for arm in sorted(dict.fromkeys(d["arm"].to_list()), key=lambda a: a != "denial"):
        a = d.filter(pl.col("arm") == arm)
        whose = " and ".join("its holders' win rate" if m == "holders"
                             else f"the win rate of the {m}"
                             for m in dict.fromkeys(a["measure"].to_list()))
        if arm == "denial":
            parts.append("strongest/weakest: restricted play, one seat (rotated) barred from "
                         "the component, its win rate against the same games unrestricted")
        else:
            parts.append(f"leverage: each component's number one step against it (e.g. "
                         f"`{a['nudge'][0]}`), what that step does to {whose}")
    return "; ".join(parts)


def length_rows(lengths: pl.DataFrame, comp: pl.DataFrame, fixed: bool) -> list[list]:
    """Verdict rows: mean game length in player-turns with its 95% interval (normal), its
    median and 95th percentile, and the share of games stopped at the limit. Several player
    counts are one row, side by side ("Game length, 2p, 3p, 4p": "mean 26.6 / 38.0 / 53.5"
    player-turns, "≤ ±0.15": the widest half-width of the three, n the games of all counts); a game of fixed length
    (``fixed``: every finished game of a player count lasts the same) says so ("40 / 48 / 48
    player-turns", "fixed")."""
    rows = []
    recs = []
    for r in lengths.filter(pl.col("measure") == "turns").iter_rows(named=True):
        p = int(r["players"])
        recs.append((p, r, comp.filter(pl.col("players") == p).row(0, named=True)))
    limits = [f"{p}p {pct(c['limit_rate'], 2)} {ci(c['limit_lo'], c['limit_hi'], 2)} of "
              f"{count(c['n'])}" for p, _, c in recs if c["limit"]]
    if len(recs) > 1:  # one row, the player counts side by side
        which = ", ".join(f"{p}p" for p, _, _ in recs)
        total = f"{count(sum(int(r['n']) for _, r, _ in recs))} games"
        stop = f" Stopped at the length limit: {'; '.join(limits)}." if limits else ""
        if fixed:
            rows.append([f"Game length, {which}",
                         " / ".join(num(r["q50"], 0) for _, r, _ in recs) + " player-turns",
                         "fixed", total,
                         "Fixed length: every finished game lasts exactly that long." + stop])
            return rows
        halves = [st.z_value() * r["sd"] / math.sqrt(r["n"])
                  if r["n"] > 1 and r["sd"] == r["sd"] else 0.0 for _, r, _ in recs]
        rows.append([f"Game length, {which}",
                     "mean " + " / ".join(num(r["mean"], 1) for _, r, _ in recs),
                     f"≤ ±{num(max(halves), 2)}", total,
                     "Player-turns; medians " + " / ".join(num(r["q50"], 0) for _, r, _ in recs)
                     + ", 95th percentiles " + " / ".join(num(r["q95"], 0) for _, r, _ in recs)
                     + "." + stop])
        return rows
    for p, r, c in recs:
        n = int(r["n"])
        half = st.z_value() * r["sd"] / math.sqrt(n) if n > 1 and r["sd"] == r["sd"] else 0.0
        if fixed:
            reading = f"Fixed length: every finished game lasts {num(r['q50'], 0)} player-turns."
        else:
            reading = (f"Median {num(r['q50'], 0)}, middle half {num(r['q25'], 0)} to "
                       f"{num(r['q75'], 0)}, 95th percentile {num(r['q95'], 0)}.")
        if c["limit"]:
            reading += (f" {pct(c['limit_rate'], 2)} {ci(c['limit_lo'], c['limit_hi'], 2)} "
                        "stopped at the length limit.")
        rows.append([f"Game length, {p}p", f"mean {num(r['mean'], 1)} player-turns",
                     f"[{num(r['mean'] - half, 1)}, {num(r['mean'] + half, 1)}]",
                     f"{count(n)} games", reading])
    return rows


_PLAYERS = re.compile(r"^(\d+) players?: (.+)$")
_PAREN = re.compile(r"^(.+?) \((.+)\)$")


def _hole_groups(holes: list[dict]) -> dict[tuple[str, str], list[tuple[str, dict]]]:
    """The holes by check: a check made per player count ("2 players: ...") is one group
    with one (player count, hole) per count, whatever detail each count adds in parentheses
    ("... (wood in 44% of games)"); any other hole a group of its own."""
    groups: dict[tuple[str, str], list[tuple[str, dict]]] = {}
    for h in holes:
        m = _PLAYERS.match(h["finding"])
        check = m.group(2) if m else h["finding"]
        if m and (d := _PAREN.match(check)):
            check = d.group(1)
        key = (check, h["unit"])
        groups.setdefault(key, []).append((m.group(1) if m else "", h))
    return groups


def _sentence(text: str) -> str:
    """``text`` as a sentence: capital first letter, one final full stop."""
    text = text.strip().rstrip(".")
    return f"{text[:1].upper()}{text[1:]}." if text else ""


def _fix(h: dict) -> str:
    return f"Fix: {h['fix'].rstrip('.')}." if h.get("fix") else "No rule option closes it."


def rule_hole_rows(holes: list[dict]) -> list[list]:
    """Verdict rows of the rule holes (``ReportContext.rule_hole``): each hole found (count
    > 0) with its rate, Wilson interval and one-line reading; a check made per player count
    ("2 players: ...") is one row over all counts: the count with the highest rate in the
    answer columns, the others' rates and intervals listed in the reading (a finding "x
    (detail)" asks x, the detail opens the reading); the checks that
    found none in one row ("0 of n", with the interval's upper bound, the counts of one check
    said once: "... (2p, 3p, 4p): 0 of 60 games"); "no checks" when the game ran none. The
    holes in full: ``rule_hole_section``."""
    if not holes:
        return [["Rule holes", "no checks", "", "",
                 "This game's report runs no rule-hole checks yet."]]
    rows = []
    clean = []
    for (finding, unit), items in _hole_groups(holes).items():
        found = [(p, h) for p, h in items if h["count"] > 0]
        if not found:
            n = sum(h["n"] for _, h in items)
            ps = [p for p, _ in items if p]
            where = f" ({', '.join(f'{p}p' for p in ps)})" if len(ps) > 1 else (
                f" ({ps[0]} players)" if ps else "")
            clean.append(f"{finding}{where}: 0 of {count(n)} {unit}" + (
                f" (≤ {pct(wilson(0, n)[1], 2)})" if n and _sampled(unit) else
                "" if n else " (nothing to check)"))
            continue
        p, h = max(found, key=lambda x: x[1]["count"] / x[1]["n"])
        lo, hi = wilson(h["count"], h["n"])
        others = []
        for p2, h2 in items:
            if h2 is not h and h2["n"]:
                lo2, hi2 = wilson(h2["count"], h2["n"])
                others.append(f"{p2}p {pct(h2['count'] / h2['n'], 2)} {ci(lo2, hi2, 2)}")
        reading = _sentence(h["reading"])
        own = _PLAYERS.match(h["finding"])  # the detail of the count in the answer columns
        m = _PAREN.match(own.group(2) if own else finding)  # "x (detail)": x asks, detail read
        if m:
            finding, what = m.group(1), m.group(2)
            reading = f"{_sentence(what)} {reading}"
        if others:
            reading += " Other counts: " + "; ".join(others) + "."
        rows.append([f"Rule hole: {finding}",
                     pct(h["count"] / h["n"], 2) + (f" ({p}p)" if len(items) > 1 else ""),
                     ci(lo, hi, 2) if _sampled(unit) else "",
                     f"{count(h['count'])} of {count(h['n'])} {unit}",
                     f"{reading} {_fix(h)}"])
    if clean:
        rows.append(["Rule holes: none found", "0", "", "",
                     "; ".join(clean) + "."])
    return rows


def rule_hole_section(doc: Doc, holes: list[dict]) -> None:
    """The folded section "Rule holes": every check (``ReportContext.rule_hole``) per player
    count, with its count, n, rate, 95% Wilson interval, reading and fix; nothing when the
    game ran no checks."""
    if not holes:
        return
    doc.h(2, "Rule holes")
    doc.p("Every rule-hole check of this report, one row per check and player count: what "
          "was found, how often (95% Wilson interval), what it means and the rule option that "
          "closes it, if one exists. The verdict lists the holes found, one row per check.")
    rows = []
    for h in holes:  # a check over nothing (n = 0) has no rate
        lo, hi = wilson(h["count"], h["n"]) if h["n"] else (None, None)
        sampled = _sampled(h["unit"])
        rows.append([h["finding"], f"{count(h['count'])} of {count(h['n'])} {h['unit']}",
                     pct(h["count"] / h["n"], 2) if h["n"] else "n/a",
                     ci(lo, hi, 2) if h["n"] and sampled else "",
                     h["reading"].rstrip(".") + ".",
                     (h["fix"].rstrip(".") + ".") if h.get("fix") else "none"])
    doc.table(Table(["Check", "Found", "Rate", "95% CI", "Reading", "Fix"], rows,
                    [False, True, True, True, False, False]))


def verdict_intro(mix: str, causal: str = "", intervention: str = "",
                  association: bool = True) -> str:
    """The verdict's intro line: what every row shares, said once: the bot mix ``mix``, the
    intervals, and how the component rows are measured: ``causal`` names the player counts
    (e.g. "3p") whose component rows are causal effects and ``intervention`` what they did
    (``effects_intervention``); the other component rows are associations within each bot
    (``association``: whether there are any)."""
    if causal:
        comp = (f"Components ({causal}): {CAUSAL_LABEL}; {intervention}."
                + (" Association: within each bot (vs same-bot seats without it), not an "
                   "effect." if association else ""))
    else:
        comp = (f"Association: vs same-bot seats without it, an {ASSOCIATION_LABEL} (no "
                "component effects were run for these runs: `boardsim run` plays them).")
    return f"Bots: {mix}. Points = percentage points. {comp}"


def verdict_section(doc: Doc, rows: list[list], answers: list[str],
                    charts: list[tuple[str, str]], mix: str, causal: str = "",
                    intervention: str = "") -> None:
    """The verdict: the intro line (``verdict_intro``), the table of ``rows``, the game's
    ``answers`` (bullets), the key ``charts`` (file name, alt text). Rows of six cells carry
    the robustness column (``analysis.report.robustness_section.with_column``)."""
    doc.h(2, "Verdict")
    assoc = any(str(r[4]).startswith("Association") for r in rows) or any(
        str(a).startswith("**Association") for a in answers)
    doc.p(verdict_intro(mix, causal, intervention, assoc), "meta")
    if rows and all(len(r) == len(_HEAD) + 1 for r in rows):  # with the robustness column
        doc.table(Table(_HEAD + ["Robustness"], rows, _RIGHT + [False]), "verdict")
    else:
        doc.table(Table(_HEAD, rows, _RIGHT), "verdict")
    if answers:  # each bullet opens on its bold label: no heading, to keep to one screen
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
    fx = (" Components (paired): " + " ".join(effects)) if effects else ""
    return f"{title}: " + "; ".join(parts) + f". {holes_txt[0].upper() + holes_txt[1:]}.{fx}"
