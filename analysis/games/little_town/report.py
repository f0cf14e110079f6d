"""Little Town report extension (``extend_report``), the setup comparison report
(``write_setup_report``) and ``boardsim compare-setups little-town`` (``compare_setups``)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import polars as pl

from analysis import queries as q
from analysis.doc import (
    Doc,
    ci,
    now_utc,
    pct,
    render_html,
    render_markdown,
    write_atomic,
)
from analysis.games.little_town.charts import balance_chart, setup_charts
from analysis.games.little_town.data import GAME_ID, GOAL_TEXT, SETUPS
from analysis.games.little_town.feeding import bank_dry, feeding_section, feeding_stats
from analysis.games.little_town.holes import supply_rule_holes
from analysis.games.little_town.queries import building_stats, goal_stats, mark_robust
from analysis.games.little_town.sections import (
    building_section,
    data_section,
    goal_section,
    headline_players,
    item,
    mix_text,
    robust_section,
    roles_section,
    setup_headline,
    setup_sections,
    setup_short,
)
from analysis.games.little_town.setups import setup_comparison, setup_groups
from analysis.report.manifests import load_manifests
from analysis.stats import bh_adjust

__all__ = ["extend_report", "write_setup_report", "compare_setups"]


def extend_report(ctx) -> None:
    """Little Town sections (see the module docstring)."""
    main = ctx.runs_with_role("main") or list(range(len(ctx.run_dirs)))
    mix_roles = sorted({r for r in ctx.roles.values() if r.startswith("mix:")})
    mixes = {"main": mix_text(ctx, main)}
    mixes.update({r: mix_text(ctx, ctx.runs_with_role(r)) for r in mix_roles})

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
    ctx.add_chart("building_balance", balance_chart(
        b, "building", os.path.join(out, "building_balance.png"),
        "Building: builder's win rate minus the other seats'"))
    gl = g.with_columns(label=pl.format("#{} {}", pl.col("card"),
                                        pl.col("card").replace_strict(GOAL_TEXT,
                                                                      return_dtype=pl.Utf8)))
    ctx.add_chart("goal_balance", balance_chart(
        gl, "label", os.path.join(out, "goal_balance.png"),
        "Goal card: completed minus not completed (holders)",
        missing="never completed: no difference"))
    goal_rule_holes(ctx, g)
    building_rule_holes(ctx, b)
    n, lim = q.collect(ctx.games.filter(pl.col("run").is_in(main)).select(
        pl.len(), (~q.finished_game()).sum())).row(0)
    ctx.rule_hole("the game stopped at the length limit without ending", int(lim), int(n),
                  "games", "a game that never reaches the end of its last round", None)
    dry, n_all = bank_dry(ctx.games.filter(pl.col("run").is_in(main)), sel(main))
    ctx.rule_hole("the coin bank ran out (its lowest level reached 0)", dry, n_all, "games",
                  "a payment the bank cannot make is cut short by the engine (assumed coin "
                  "bank, spec section 8)", None)
    supply_rule_holes(ctx, sel(main))
    fs = feeding_stats(sel(main))
    if not fs.is_empty():
        ctx.headline("**Feeding** (seat-games with an unfed worker): " + "; ".join(
            f"{r['players']}p {pct(r['starve_rate'])} {ci(r['starve_lo'], r['starve_hi'])}"
            for r in fs.iter_rows(named=True)) + ".", None,
            "**Feeding** (main runs, seat-games with an unfed worker): " + "; ".join(
            f"{r['players']}p {pct(r['starve_rate'])} {ci(r['starve_lo'], r['starve_hi'])} "
            f"(mean {r['vp_lost']:.2f} points lost, n = {r['n']:,})"
            for r in fs.iter_rows(named=True)) + ".")

    hp = headline_players(b)
    if hp is not None:
        bb = b.filter((pl.col("players") == hp) & pl.col("diff").is_not_null()).sort(
            "diff", descending=True)
        n_games = int(bb["games"].max()) if len(bb) else 0
        strong = "; ".join(item(f"**{r['building']}**", r) for r in bb.head(3).iter_rows(
            named=True))
        weak = "; ".join(item(f"**{r['building']}**", r) for r in bb.tail(3).reverse()
                         .iter_rows(named=True))
        sig = int((b["q"].fill_null(1.0) < 0.05).sum())
        n_tests = int(b["p"].is_not_null().sum())
        # folded only: the verdict's component rows rank the buildings (causal at 3p)
        ctx.summary.append(f"Buildings at {hp}p, builders' win-rate difference (an "
                           f"association): highest {', '.join(bb.head(3)['building'])}"
                           f"; lowest {', '.join(bb.tail(3).reverse()['building'])}.")
        ctx.details.append(
            f"**Buildings ({hp} players, default bots, random market, n = {n_games:,} "
            f"games; an association, not strength, which the verdict ranks):** highest "
            f"difference (builder's win rate minus the other seats', "
            f"points): {strong}. Lowest difference: {weak}. Over all player counts {sig} of "
            f"{n_tests} building tests pass Benjamini-Hochberg at 5%.")
        gg = g.filter((pl.col("players") == hp) & pl.col("diff").is_not_null()).sort(
            "diff", descending=True)
        strong = "; ".join(item(f"**#{r['card']}** ({GOAL_TEXT[r['card']]}, completed "
                                f"{pct(r['completion'])})", r)
                           for r in gg.head(3).iter_rows(named=True))
        weak = "; ".join(item(f"**#{r['card']}** ({GOAL_TEXT[r['card']]}, completed "
                              f"{pct(r['completion'])})", r)
                         for r in gg.tail(3).reverse().iter_rows(named=True))
        # easiest / hardest over every card held, those never completed included (issue 16)
        easy = g.filter(pl.col("players") == hp).sort(["completion", "card"],
                                                      descending=[True, False])
        ease = (f"Easiest: #{easy['card'][0]} completed {pct(easy['completion'][0])} "
                f"{ci(easy['completion_lo'][0], easy['completion_hi'][0])}; hardest: "
                f"#{easy['card'][-1]} {pct(easy['completion'][-1])} "
                f"{ci(easy['completion_lo'][-1], easy['completion_hi'][-1])}.")
        # folded only, like the buildings
        ctx.summary.append(
            f"Goal cards at {hp}p, completers' win-rate difference (an association): highest "
            f"{', '.join('#' + str(c) for c in gg.head(3)['card'])}"
            f"; lowest {', '.join('#' + str(c) for c in gg.tail(3).reverse()['card'])}.")
        ctx.details.append(
            f"**Goal cards ({hp} players; an association, not strength):** highest difference "
            f"(win rate of holders who completed it minus holders who did not): {strong}. "
            f"Lowest difference: {weak}. "
            + ease)
        nrob_b = int(b.filter(pl.col("players") == hp)["robust"].fill_null(False).sum())
        nrob_g = int(g.filter(pl.col("players") == hp)["robust"].fill_null(False).sum())
        if mix_roles:
            hb = b.filter((pl.col("players") == hp) & pl.col("robust").is_not_null())
            hg = g.filter((pl.col("players") == hp) & pl.col("robust").is_not_null())
            ctx.details.append(  # of the folded building and goal-card answers
                f"**Robustness:** at {hp} players {nrob_b} of {hb.height} building and "
                f"{nrob_g} of {hg.height} goal-card differences keep their sign (interval "
                f"excluding 0) under a second bot mix "
                f"({'; '.join(f'{k}: {v}' for k, v in mixes.items())}).")

    groups = setup_groups(ctx.manifests, ctx.roles)
    res = None
    if len(groups) >= 2:
        res = setup_comparison(ctx.games, ctx.seats, groups)
        for (text, summary), short in zip(setup_headline(res), setup_short(res),
                                          strict=True):
            ctx.headline(short, summary, text)
    ctx.details.append(  # folded only (the verdict's screen; also in the runs line)
                 "**Component data:** buildings and boards are confirmed (tile scans plus fan "
                 "code); 17 goal cards come from a single source and card 7 is unknown "
                 "(left out); the Residence, Castle, Watchtower and Cathedral effects and the "
                 "coin bank are assumed readings (see \"Component data\").")

    roles_section(ctx.doc, ctx)
    building_section(ctx.doc, b, mixes)
    goal_section(ctx.doc, g)
    feeding_section(ctx.doc, sel(main))
    if hp is not None:
        robust_section(ctx.doc, b, g, hp)
    if res is not None:
        setup_charts(res, out, ctx.add_chart)
        setup_sections(ctx.doc, res)
    data_section(ctx.doc, ctx.manifests)


def goal_rule_holes(ctx, g: pl.DataFrame) -> None:
    """Rule hole (issue 16): goal cards that no holder completed in the main runs (over every
    player count), e.g. card #17 under the default reading. Reported whether found or not."""
    per = g.group_by("card").agg(pl.col("held").sum(), pl.col("completed").sum()).sort("card")
    never = per.filter(pl.col("completed") == 0)
    what = "; ".join(f"#{r['card']} ({GOAL_TEXT.get(r['card'], '?')}): 0 of "
                     f"{r['held']:,} holders" for r in never.iter_rows(named=True))
    ctx.rule_hole(
        "goal cards that no holder ever completed" + (f" ({what})" if what else ""),
        never.height, per.height, "goal cards held",
        "a dead draw: its points can never be scored",
        "another reading (`goals` table, `--data`) or out of the deck" if never.height
        else None)


def building_rule_holes(ctx, b: pl.DataFrame) -> None:
    """Rule hole (issue 16): buildings in the market that no seat ever built (main runs, every
    player count together). Reported whether found or not."""
    per = b.group_by("building").agg(pl.col("present").sum(), pl.col("built_games").sum())
    per = per.filter(pl.col("present") > 0).sort("building")
    never = per.filter(pl.col("built_games") == 0)
    ctx.rule_hole(
        "buildings offered in the market but never built" + (
            f" ({', '.join(never['building'])})" if never.height else ""),
        never.height, per.height, "buildings offered",
        "a building no seat ever builds adds nothing to the game (too expensive, or its "
        "effect never pays under these bots)", None)


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
    setup_charts(res, out_dir, paths.__setitem__)
    doc = Doc()
    m0 = manifests[0] if manifests else {}
    doc.h(1, "Little Town: setup comparison")
    now = now_utc()
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
    heads = setup_headline(res)
    doc.ul([h for h, _ in heads])
    summary = "\n".join(sm for _, sm in heads)
    setup_sections(doc, res)
    data_section(doc, manifests)
    md = os.path.join(out_dir, "report.md")
    html_path = os.path.join(out_dir, "report.html")
    write_atomic(md, render_markdown(doc))
    write_atomic(html_path, render_html(doc, out_dir, "Little Town: setup comparison"))
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
            path = run_simulation(*args, root.with_name(f"{root.name}-{tag}"), "pool",
                                  DEFAULT_BACKEND, label=f"{GAME_ID} {s}")
        runs.append(str(path))
    out_dir = str(out or Path("reports") / "little-town-setups")
    res = write_setup_report(runs, setups, out_dir)
    return (f"{res['summary']}\n"
            f"report: {res['markdown']} and {os.path.join(out_dir, 'report.html')}")
