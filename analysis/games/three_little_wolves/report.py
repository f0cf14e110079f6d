"""The Three Little Wolves report extension: ``extend_report`` runs the sections in order and
adds the headline bullets."""

from __future__ import annotations

import polars as pl

from analysis import queries as q
from analysis.doc import ci, is_missing, num, pct, pts, signed
from analysis.games.three_little_wolves.data import COMPONENTS, DEFAULT_SET
from analysis.games.three_little_wolves.queries import fill_players, pool_runs, run_table
from analysis.games.three_little_wolves.sections import (
    Study,
    dummy_section,
    fmt_unit,
    last_pig_section,
    per100,
    score_section,
    seat_order_section,
    sensitivity_section,
    ties_section,
    wolf_section,
)
from analysis.stats import as_float

__all__ = ["extend_report", "headlines", "report_rule_holes"]


def extend_report(ctx) -> None:
    """Add the Three Little Wolves sections, charts and headline bullets (see module doc)."""
    runs = run_table(ctx.manifests, ctx.roles)
    fill_players(runs, ctx.games)
    by_set = pool_runs(runs)
    main_idx = [r["run"] for r in runs if r["role"] == "main"] or by_set.get(DEFAULT_SET, [])
    study = Study(runs, by_set, ctx.seats.filter(pl.col("run").is_in(main_idx)))
    rates = seat_order_section(ctx, study)
    comp = score_section(ctx, study)
    wolf_pairs, mvl = wolf_section(ctx, study)
    ties = ties_section(ctx, study)
    dummy_pairs = dummy_section(ctx, study)
    sens = sensitivity_section(ctx, study)
    pig = last_pig_section(ctx, study)
    report_rule_holes(ctx, main_idx)
    headlines(ctx, rates, comp, wolf_pairs, mvl, ties, dummy_pairs, sens)
    if not pig.is_empty():
        ctx.doc.p("**Cards under the last pig** (main runs): " + "; ".join(
            f"{p}p " + ", ".join(f"{r['under']}: {pct(r['share'])}"
                                 for r in g.sort("under").iter_rows(named=True))
            for (p,), g in pig.group_by("players", maintain_order=True)) + ".")


def headlines(ctx, rates, comp, wolf_pairs, mvl, ties, dummy_pairs, sens) -> None:
    """The headline bullets: seat order, the wolf action, the card list, ties, score
    components and the dummy control."""
    by = {(r["metric"], r["players"]): r for r in sens}
    # seat order
    d = rates.filter(pl.col("card_set") == DEFAULT_SET) if not rates.is_empty() else rates
    parts, short = [], []
    for (p,), g in (d.group_by("players", maintain_order=True) if not d.is_empty() else []):
        g = g.sort("seat")
        par = 1.0 / p
        f, last = g.row(0, named=True), g.row(len(g) - 1, named=True)
        spread = g["win_rate"].max() - g["win_rate"].min()
        parts.append(f"{p}p: Seat 1 {pts(as_float(f['win_rate']) - par)} "
                     f"{ci(as_float(f['lo']) - par, as_float(f['hi']) - par)}, last seat "
                     f"{pts(as_float(last['win_rate']) - par)} "
                     f"{ci(as_float(last['lo']) - par, as_float(last['hi']) - par)}, spread "
                     f"{num(spread * 100, 1)} points (n = {f['n']:,})")
        short.append(f"{p}p {pts(as_float(f['win_rate']) - par)}")
    if parts:
        # folded only: the verdict's first-player rows answer the seat advantage
        ctx.summary.append("Seat 1 vs parity: " + ", ".join(short) + " points.")
        ctx.details.append(
            "**How much seat order matters** (win rate minus parity, percentage points, "
            "default card set, 95% intervals): " + "; ".join(parts) + ". Under the other card "
            "sets: " + robust_text(by, "seat1") + ".")
    # wolf action
    wv = sorted((r for r in wolf_pairs if r["card_set"] == DEFAULT_SET and r["n"]),
                key=lambda r: r["players"])
    if wv:
        txt = "; ".join(f"{r['players']}p {pts(r['diff'])} {ci(r['lo'], r['hi'])} "
                        f"(n = {r['n']:,})" for r in wv)
        ns = (f"{wv[0]['n']:,} each" if len({r["n"] for r in wv}) == 1
              else " / ".join(f"{r['n']:,}" for r in wv))
        pw = "; ".join(f"{r['players']}p {signed(r['per_wolf'])} [{signed(r['per_wolf_lo'])}, "
                       f"{signed(r['per_wolf_hi'])}]" for r in wv)
        extra = ""
        if not mvl.is_empty():
            extra = " In the main pool the heaviest bettor against the lightest (an " \
                    "association): " + "; ".join(
                        f"{r['players']}p `{r['more']}` - `{r['less']}` {pts(r['diff'])} "
                        f"{ci(r['lo'], r['hi'])}" for r in mvl.iter_rows(named=True)) + "."
        ctx.headline(
            "**Is the wolf action worth a card?** A greedy seat allowed minus forbidden "
            "wolves (same seeds, points): " + "; ".join(
                f"{r['players']}p {pts(r['diff'])} {ci(r['lo'], r['hi'])}" for r in wv)
            + f" (n = {ns}).", None,
            "**Is the wolf action worth a card?** Forbidding wolves to one greedy seat on the "
            "same seeds changes its win rate by (allowed - forbidden, points): " + txt
            + f". Each wolf action is worth, in final points against the card's other use: "
            f"{pw}. Under the other card sets: {robust_text(by, 'wolf_value')}; points per wolf "
            f"action: {robust_text(by, 'per_wolf')}." + extra)
        ctx.summary.append("Wolves allowed - forbidden: " + ", ".join(
            f"{r['players']}p {pts(r['diff'])} {ci(r['lo'], r['hi'])}" for r in wv) + " points.")
    # card list
    tested = [r for r in sens if r["tested"] and r["same"] is not None]
    if tested:
        changed = [f"{r['label']} ({r['players']}p: {r['change']})" for r in tested
                   if not r["same"]]
        flips = [r for r in tested if r["change"] == "sign"]
        big = []
        for r in tested:
            for cs, s in r["shifts"].items():
                if not is_missing(s[4]) and s[4] < 0.05:
                    big.append(f"{r['label']} {r['players']}p under {cs}: "
                               f"{fmt_unit(s[0], r['unit'])} [{fmt_unit(s[1], r['unit'])}, "
                               f"{fmt_unit(s[2], r['unit'])}]")
        ctx.headline(
            f"**Card list uncertainty:** {len(tested) - len(changed)} of {len(tested)} tested "
            "findings keep their verdict under `cards_v0`, `cards_v1` and `cards_v2`; "
            + ("none reverses its sign." if not flips else
               f"{len(flips)} reverse{'s' if len(flips) == 1 else ''} their sign."), None,
            f"**Do the results survive the uncertainty about the card list?** "
            f"{len(tested) - len(changed)} of {len(tested)} tested findings keep their verdict "
            "(sign at BH 5%) under `cards_v0`, `cards_v1` and `cards_v2`"
            + (f"; changed: {', '.join(changed)}" if changed else "")
            + ("; none reverses its sign" if not flips else
               f"; {len(flips)} reverse{'s' if len(flips) == 1 else ''} their sign")
            + ". Shifts of tested effects from the default set with BH q < 0.05: "
            + ("; ".join(big[:6]) + ("; ..." if len(big) > 6 else "") if big else "none")
            + ".")
        ctx.summary.append(f"Card-set sensitivity: {len(tested) - len(changed)}/{len(tested)} "
                           "verdicts unchanged.")
    # ties
    t = ties.get(DEFAULT_SET)
    if t is not None and not t.is_empty():
        ctx.headline(
            "**Ties that save a house** (share of built houses): "
            + "; ".join(f"{r['players']}p {pct(r['saved_rate'])} "
                        f"{ci(r['saved_rate_lo'], r['saved_rate_hi'])}"
                        for r in t.iter_rows(named=True)) + ".", None,
            "**Ties that save a house** (default card set): "
            + "; ".join(f"{r['players']}p {pct(r['saved_rate'])} "
                        f"{ci(r['saved_rate_lo'], r['saved_rate_hi'])} of built houses, in "
                        f"{pct(r['game_rate'])} of games" for r in t.iter_rows(named=True))
            + ".")
    # score components
    if not comp.is_empty():
        parts = []
        for (p,), g in comp.group_by("players", maintain_order=True):
            m = {r["component"]: r for r in g.iter_rows(named=True)}
            parts.append(f"{p}p: " + ", ".join(
                f"{c} {per100(m[c]['share'])}" for c in COMPONENTS if c in m))
        # descriptive, not a balance answer: folded only (the verdict fits one screen)
        ctx.details.append("**Score components** (points per 100 points of final score, main "
                           "runs): " + "; ".join(parts) + ".")
    # dummy
    dd = [r for r in dummy_pairs if r["n"]]
    if dd:
        ctx.details.append(  # a control of the method: folded only (the verdict's screen)
            "**Two-player dummy control** (win rate of a hostile controller minus the same "
            "seat with neutral control, same seeds): "
            + "; ".join(f"{r['card_set']} {pts(r['diff'])} {ci(r['lo'], r['hi'])} points "
                        f"(n = {r['n']:,})" for r in dd)
            + f"; across card sets: {robust_text(by, 'dummy')}.")


def robust_text(by: dict, metric: str) -> str:
    """'same verdict at 3p, 4p; significant under some sets only at 2p (cards_v1 +, ...)'."""
    groups: dict[str, list[str]] = {}
    for (m, p), r in sorted(by.items(), key=lambda kv: kv[0][1]):
        if m != metric or r.get("change") is None:
            continue
        if r["change"] == "same":
            groups.setdefault("same verdict", []).append(f"{p}p")
        else:
            v = ", ".join(f"{cs} `{c.get('verdict', 'n/a')}`" for cs, c in
                          sorted(r["cells"].items()))
            key = ("significant under some sets only" if r["change"] == "significance"
                   else "**the sign flips**")
            groups.setdefault(key, []).append(f"{p}p ({v})")
    if not groups:
        return "not available"
    return "; ".join(f"{k} at {', '.join(v)}" for k, v in groups.items())


def report_rule_holes(ctx, main_idx: list[int]) -> None:
    """Every Three Little Wolves rule-hole check (issue 16), found or not, over the main
    runs: games stopped at the length limit, score components no seat ever scored."""
    g = ctx.games.filter(pl.col("run").is_in(main_idx))
    n, lim = q.collect(g.select(pl.len(), (~q.finished_game()).sum())).row(0)
    ctx.rule_hole("the game stopped at the length limit", int(lim), int(n),
                  "games", "a game in which the last pig never comes out", None)
    s = ctx.seats.filter(pl.col("run").is_in(main_idx))
    cols = [f"pts_{c}" for c in COMPONENTS if f"pts_{c}" in s.collect_schema().names()]
    if cols:
        agg = q.collect(s.select(*[(pl.col(c) != 0).sum().alias(c) for c in cols])).row(
            0, named=True)
        never = [c[len("pts_"):] for c in cols if agg[c] == 0]
        ctx.rule_hole("score components that no seat ever scored" + (
            f" ({', '.join(never)})" if never else ""), len(never), len(cols),
            "score components", "a way to score that never pays under these rules and bots "
            "adds nothing to the game", None)

