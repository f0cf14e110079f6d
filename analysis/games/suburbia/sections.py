"""Suburbia report sections, in report order (``extend_report`` calls them)."""

from __future__ import annotations

import os

import polars as pl

from analysis import queries as q
from analysis.doc import Table, ci, count, diff_ci, num, pct, pts, pvalue
from analysis.games.suburbia.charts import (
    archetype_chart,
    components_chart,
    goal_chart,
    market_chart,
    tile_chart,
    tips_chart,
)
from analysis.games.suburbia.data import (
    DENY,
    EARLY_ROUNDS,
    GOALS,
    INCOME_SLUGS,
    MAIN,
    MIN_N,
    MIN_RANK_N,
    NAME_OF,
    RUSH_POP,
    RUSH_ROUNDS,
    RUSH_SLUGS,
    role_labels,
)
from analysis.games.suburbia.queries import (
    TIP_TESTS,
    decided_by,
    first_seat,
    goal_balance,
    goal_clusters,
    goal_summary,
    mixes,
    offset_effect,
    pooled_main,
    robust,
    strategy_profile,
    tile_balance,
    tile_clusters,
    tile_market,
    tile_summary,
    tip_tests,
    verdict,
)
from analysis.report.wording import ranking_text, separated

__all__ = ["runs_section", "first_seat_headline", "tile_section", "goal_section",
           "tips_section", "offset_section", "archetype_section", "components_section"]


def _tile_list(df: pl.DataFrame) -> str:
    return "; ".join(
        f"**{NAME_OF[r['tile']]}** ({r['stack']}) {diff_ci(r, 'adj')}"
        + ("" if (r["q"] is not None and r["q"] < 0.05) else " (not significant after BH)")
        for r in df.iter_rows(named=True))


def runs_section(ctx, roles: list[str]) -> None:
    """How the runs of the plan are used."""
    doc = ctx.doc
    doc.h(2, "Suburbia: how the runs are used")
    mix_roles = [r for r in roles if not r.startswith("sweep:")]
    labels = role_labels(ctx.manifests, ctx.roles)
    doc.p("Every table above (seat win rates, strategies, matchups, the generic tile and "
          "investment sections) uses the **main** runs only (bots: "
          f"{labels.get(MAIN, MAIN)}; the header's note on pooling runs of one "
          "player count applies to the main runs only). The sections below also use the "
          "other runs "
          "of the plan: "
          + "; ".join(f"`{r}` = {role_labels(ctx.manifests, ctx.roles).get(r, r)}" for r in mix_roles if r != MAIN)
          + ("; " if len(mix_roles) > 1 else "")
          + "`sweep:red_line_offset=K` = the main 3-player pool and seed with that rule option. "
          "**Robust** = the finding passes Benjamini-Hochberg control at q < 0.05 in the main "
          "mix and its difference keeps its sign in at least one other bot mix. Differences "
          "are win-rate points (1 point = 1% of seat-games); intervals are 95%.")


def first_seat_headline(ctx, seats: pl.LazyFrame) -> None:
    """The first-seat advantage headline."""
    fs = first_seat(seats)
    items = []
    for r in fs.iter_rows(named=True):
        p = int(r["players"])
        items.append(f"{p}p: Seat 1 wins {pct(r['win_rate'])} {ci(r['lo'], r['hi'])} vs "
                     f"parity {100 / p:.1f}% ({pts(r['win_rate'] - 1 / p)} points), last seat "
                     f"{pct(r['last_rate'])} {ci(r['last_lo'], r['last_hi'])}; "
                     f"n = {r['n']:,}")
    if items:
        # folded only: the verdict's first-player rows answer the seat advantage
        ctx.summary.append("First seat: " + "; ".join(
            f"{r['players']}p {pct(r['win_rate'])} {ci(r['lo'], r['hi'])}"
            for r in fs.iter_rows(named=True)))
        ctx.details.append("**First-seat advantage** (Seat 1 always starts): "
                           + "; ".join(items) + ".")


def tile_section(ctx, seats: pl.LazyFrame) -> None:
    """Tile balance: pooled ranking, per player count, charts."""
    doc, out = ctx.doc, ctx.out_dir
    mk = tile_market(mixes(seats))
    bal = tile_balance(mixes(seats))
    tcl = tile_clusters(mixes(seats))  # seats of one game: intervals clustered by game
    summ = tile_summary(bal, clusters=tcl)
    main_t = robust(summ, ["players", "tile"])
    pooled = pooled_main(tile_summary(bal, pooled=True, clusters=tcl))
    doc.h(2, "Suburbia: tile balance")
    doc.p("For each tile: how often it entered the market (offered, share of games), how often "
          "some seat then placed it (taken, share of the games it was offered in), investment "
          "markers put on it (share of the seats that placed it), the mean round of a seat's "
          "first placement, and its **IWD** (17lands' idea): among the games in which some "
          "seat placed it, the win rate of the seats that placed it minus that of the other "
          "seats of those games. \"Crude\" compares all seats (Newcombe 95% interval); "
          "**bot-adjusted** compares seats of the same bot only (the six scripted bots; the "
          "`random` bot, which buys what the others leave and almost never wins, is left out) "
          "and combines the bots with Mantel-Haenszel weights (Wald 95% interval). q = "
          "Benjamini-Hochberg adjusted p-value of the bot-adjusted difference over every tile "
          "and player count of the main mix; \"Other mixes\" = signs of the bot-adjusted "
          "difference in the greedy + denier and archetype mixes. Basic tiles come from the "
          "supply (not offered). Caution: this is an association; an expensive tile that comes "
          "late (stack C) is bought by the seat that is already rich, so it looks strong "
          "partly for that reason.")
    _pooled_tiles(ctx, pooled)
    mkm = mk.filter(pl.col("role") == MAIN)
    for p in sorted(main_t["players"].unique().to_list()):
        g = (main_t.filter(pl.col("players") == p)
             .join(mkm.filter(pl.col("players") == p).drop("stack", "role"),
                   on=["players", "tile"], how="left")
             .sort("adj", descending=True, nulls_last=True))
        doc.h(3, f"Tiles at {p} players")
        doc.table(Table(
            ["Tile", "Stack", "Offered", "Taken when offered", "Invested", "Mean round",
             "n placed", "Win rate placed", "n others", "Win rate others", "Crude IWD",
             "95% CI", "Bot-adjusted IWD", "95% CI", "q (BH)", "Other mixes", "Robust"],
            [[NAME_OF[r["tile"]], r["stack"],
              "supply" if r["offered_rate"] is None else pct(r["offered_rate"]),
              "n/a" if r["take_rate"] is None else pct(r["take_rate"]),
              pct(r["invest_rate"]), num(r["mean_round"]), count(r["n1"]),
              pct(r["rate_with"]), count(r["n0"]), pct(r["rate_without"]), pts(r["diff"]),
              ci(r["lo"], r["hi"]), pts(r["adj"]), ci(r["adj_lo"], r["adj_hi"]),
              pvalue(r["q"]), r["other_signs"] or "-", "**robust**" if r["robust"] else ""]
             for r in g.iter_rows(named=True)],
            [False, False] + [True] * 13 + [False, False]))
    ctx.add_chart("suburbia_tiles", tile_chart(summ, pooled, os.path.join(
        out, "suburbia_tiles.png")))
    doc.img("suburbia_tiles.png", "Tile balance (bot-adjusted IWD) with 95% intervals")
    ctx.add_chart("suburbia_market", market_chart(mk, os.path.join(out, "suburbia_market.png")))
    doc.img("suburbia_market.png", "How often a tile is placed when it is offered")


def _pooled_tiles(ctx, pooled: pl.DataFrame) -> None:
    """The pooled tile ranking (main mix) and the tile headlines."""
    doc = ctx.doc
    top = pooled.filter(pl.col("adj").is_not_null() & (pl.col("adj_n1") >= MIN_RANK_N))
    rare = pooled.filter(pl.col("adj_n1").fill_null(0) < MIN_RANK_N)["tile"].to_list()
    if not top.is_empty():
        doc.p("**Pooled over 2-4 players** (bot-adjusted IWD, strata = bot x player count), "
              f"five highest and five lowest (an association, not strength) of the tiles placed at least {MIN_RANK_N} "
              "times by the scripted bots"
              + (f" (left out as too rare: {', '.join(NAME_OF[t] for t in rare)})"
                 if rare else "") + ":")
        doc.table(Table(
            ["Tile", "Stack", "n placed", "n others", "IWD (points)", "95% CI", "q (BH)",
             "Crude IWD", "95% CI"],
            [[NAME_OF[r["tile"]], r["stack"], count(r["adj_n1"]), count(r["adj_n0"]),
              pts(r["adj"]), ci(r["adj_lo"], r["adj_hi"]), pvalue(r["q"]), pts(r["diff"]),
              ci(r["lo"], r["hi"])]
             for r in pl.concat([top.head(5), top.tail(5)]).iter_rows(named=True)],
            [False, False, True, True, True, True, True, True, True]))
        n_tiles = int(top["adj_n1"].sum() + top["adj_n0"].sum()) // max(len(top), 1)
        # folded only: the verdict's component rows rank the tiles (causal at 3p)
        ctx.summary.append("Highest-IWD tiles (association): " + ", ".join(
            f"{NAME_OF[r['tile']]} {diff_ci(r, 'adj')}" for r in top.head(5).iter_rows(named=True)))
        ctx.details.append("**Highest-IWD tiles** (an association, not strength; bot-adjusted, pooled over 2-4 players, "
                           f"main mix, about {n_tiles:,} seat-games each): "
                           + _tile_list(top.head(5)) + ". **Lowest-IWD tiles**: "
                           + _tile_list(top.tail(5).reverse()) + ".")
        ctx.summary.append("Lowest-IWD tiles (association): " + ", ".join(
            f"{NAME_OF[r['tile']]} {diff_ci(r, 'adj')}"
            for r in top.tail(5).reverse().iter_rows(named=True)))
        parts = []
        for st in ("A", "B", "C"):
            g = top.filter(pl.col("stack") == st)
            if len(g) >= 2:
                hi_, lo_ = g.row(0, named=True), g.row(len(g) - 1, named=True)
                parts.append(f"{st}: best {NAME_OF[hi_['tile']]} {diff_ci(hi_, 'adj')}, worst "
                             f"{NAME_OF[lo_['tile']]} {diff_ci(lo_, 'adj')} (stack median "
                             f"{pts(float(g['adj'].median()))})")
        if parts:
            ctx.doc.p("**Tiles within their stack** (the IWD grows from stack A to C: "
                      "late, dear tiles are bought by the seats already ahead, so compare "
                      "a tile with its own stack): " + "; ".join(parts) + ".")


def goal_section(ctx, seats: pl.LazyFrame) -> None:
    """Goal balance, per player count and pooled."""
    doc, out = ctx.doc, ctx.out_dir
    gb = goal_balance(mixes(seats))
    gcl = goal_clusters(mixes(seats))
    gs = goal_summary(gb, clusters=gcl)
    main_g = robust(gs, ["players", "goal", "kind"])
    gnames = {s: n for _, n, s, _ in GOALS}
    doc.h(2, "Suburbia: goals")
    doc.p("Seats for which the goal was in play only (`goal_*` = -1, not in play, is left "
          "out). A public goal is in play for every seat of the games it was dealt in; its "
          "achievement rate is the share of those games in which one seat was strictly best "
          "(and scored it). A private goal is in play for its owner only; its rate is the "
          "share of owners who scored it, and n in play = how often it was kept. Win-rate "
          "difference = achievers minus the other in-play seats: crude (all seats, Newcombe "
          "95%) and bot-adjusted (same bot, random left out, Mantel-Haenszel, Wald 95%); "
          "q = BH of the bot-adjusted difference over every goal, type and player count of "
          "the main mix.")
    doc.table(Table(
        ["Players", "Goal", "Type", "Bonus", "n in play", "Achieved", "Win rate achievers",
         "Win rate others", "Crude (points)", "95% CI", "Bot-adjusted (points)", "95% CI",
         "q (BH)", "Other mixes", "Robust"],
        [[str(r["players"]), gnames[r["goal"]], r["kind"], str(r["bonus"]),
          count(r["in_play"]), pct(r["achieve_rate"]), pct(r["rate_with"]),
          pct(r["rate_without"]), pts(r["diff"]), ci(r["lo"], r["hi"]), pts(r["adj"]),
          ci(r["adj_lo"], r["adj_hi"]), pvalue(r["q"]), r["other_signs"] or "-",
          "**robust**" if r["robust"] else ""]
         for r in main_g.sort("players", "kind", "adj", descending=[False, True, True],
                              nulls_last=True).iter_rows(named=True)],
        [True, False, False] + [True] * 10 + [False, False]))
    items, short = [], []
    pooled_g = goal_summary(gb, pooled=True, clusters=gcl)
    for kind in ("public", "private"):
        pg = pooled_main(pooled_g.filter(pl.col("kind") == kind)).filter(
            pl.col("adj").is_not_null() & (pl.col("adj_n1") >= MIN_RANK_N))
        if pg.is_empty():
            continue
        b, w = pg.row(0, named=True), pg.row(len(pg) - 1, named=True)
        short.append(f"{kind} **{gnames[b['goal']]}** {diff_ci(b, 'adj')} to "
                     f"**{gnames[w['goal']]}** {diff_ci(w, 'adj')}")
        items.append(
            f"{kind}: highest **{gnames[b['goal']]}** {diff_ci(b, 'adj')} (scored in "
            f"{pct(b['achieve_rate'])} of {'games' if kind == 'public' else 'owners'}, "
            f"q {pvalue(b['q'])}), lowest **{gnames[w['goal']]}** {diff_ci(w, 'adj')} (scored in "
            f"{pct(w['achieve_rate'])}, q {pvalue(w['q'])})")
        doc.p(f"**{kind.capitalize()} goals pooled over 2-4 players** (bot-adjusted, strata = "
              f"bot x player count; goals scored at least {MIN_RANK_N} times by the scripted "
              "bots):")
        doc.table(Table(
            ["Goal", "Bonus", "n in play", "Achieved", "n achievers", "n others",
             "Difference (points)", "95% CI", "q (BH)"],
            [[gnames[r["goal"]], str(r["bonus"]), count(r["in_play"]),
              pct(r["achieve_rate"]), count(r["adj_n1"]), count(r["adj_n0"]),
              pts(r["adj"]), ci(r["adj_lo"], r["adj_hi"]), pvalue(r["q"])]
             for r in pg.iter_rows(named=True)],
            [False, True, True, True, True, True, True, True, True]))
    if items:
        ctx.headline("**Goals** (scorer minus others, an association, highest to lowest): "
                     + "; ".join(short) + ".",
                     "Goals: " + "; ".join(i.replace("**", "") for i in items),
                     "**Goals** (win-rate difference of the seat that scored it vs the other "
                     "in-play seats, bot-adjusted, pooled over 2-4 players): "
                     + "; ".join(items) + ".")
    ctx.add_chart("suburbia_goals", goal_chart(gs, os.path.join(out, "suburbia_goals.png")))
    doc.img("suburbia_goals.png", "Goal balance (bot-adjusted) with 95% intervals")


def tips_section(ctx, seats: pl.LazyFrame, comp: pl.DataFrame) -> None:
    """The rulebook's tips as tests, with their headlines."""
    doc, out = ctx.doc, ctx.out_dir
    tips = tip_tests(seats)
    doc.h(2, "Suburbia: the rulebook's tips as claims")
    doc.p("Each tip is turned into a comparison of win rates, stratified by bot (and by player "
          "count in the \"all\" rows; Mantel-Haenszel weights, Wald 95% interval) so that a "
          "bot's style does not pass for the tip's effect; \"crude\" is the unstratified "
          "difference. q = BH over the five main-mix pooled tests. Definitions: "
          f"**income-first** = at least 2 distinct income-raising tiles (a tile with an "
          f"immediate or conditional +Income: {len(INCOME_SLUGS)} kinds, Heavy Factory "
          f"included) first placed in rounds 1-{EARLY_ROUNDS}; **early population rush** = a "
          f"tile worth +{RUSH_POP} or more Population at once ("
          + ", ".join(NAME_OF[s] for s in RUSH_SLUGS) + f") placed in rounds 1-{RUSH_ROUNDS}; "
          "**fell back below a red line** = population dropped back across a red line at "
          "least once (negative reputation or unpaid income), so that line is paid for again "
          "on the way up; **deny**: the `denier` bot is `greedy` except that after a basic "
          "tile or an investment it discards the tile the next seat values most (the tip), "
          "instead of the cheapest; its victims are the seats right after it. These are "
          "associations for the detail-column tests (a seat with a good early market both "
          "raises income and wins); the deny test compares two bots that differ only in the "
          "tip, so it is an experiment.")
    items = []
    tipnames = {"income": "Income early", "red lines": "Watch the red lines",
                "deny": "Deny the next player"}
    words: list[str] = []
    details: list[str] = []
    for tip in ("income", "red lines", "deny"):
        parts, short, verdicts = [], [], []
        for test, (t, _, role) in TIP_TESTS.items():
            sub = tips.filter((pl.col("test") == test) & (pl.col("players") == "all"))
            row = sub.filter(pl.col("role") == role)
            if t != tip or row.is_empty():
                continue
            r = row.row(0, named=True)
            others = sub.filter((pl.col("role") != role) & (pl.col("n1") >= MIN_N)
                                & (pl.col("n0") >= MIN_N)).to_dicts()
            v = verdict(test, r, others)
            parts.append(
                f"*{test}* ({role_labels(ctx.manifests, ctx.roles).get(role, role)}, 2-4 players): {diff_ci(r)} "
                f"(n = {r['n1']:,} vs {r['n0']:,}; crude {pts(r['crude'])}; q {pvalue(r['q'])}) "
                f"— **{v}**")
            short.append(f"{test} {diff_ci(r)} {v}")
            verdicts.append(v)
        if parts:
            items.append(f"**{tipnames[tip]}**: " + "; ".join(parts))
            words.append(f"{tipnames[tip]}: " + " / ".join(dict.fromkeys(
                w.removesuffix(", robust") for w in verdicts)))
            details.append(f"Rulebook tip — {items[-1]}.")
            ctx.summary.append(f"Tip '{tipnames[tip]}': " + "; ".join(short))
    if words:  # folded only (the verdict's screen): each tip in full
        ctx.details.append("**Rulebook tips** (2-4 players): " + "; ".join(words) + ".")
        ctx.details.extend(details)
    doc.ul(items)
    doc.table(Table(
        ["Test", "Bot mix", "Players", "n exposed", "n others", "Difference (points)",
         "95% CI", "Crude (points)", "p", "q (BH)"],
        [[r["test"], role_labels(ctx.manifests, ctx.roles).get(r["role"], r["role"]), r["players"], count(r["n1"]),
          count(r["n0"]), pts(r["diff"]), ci(r["lo"], r["hi"]), pts(r["crude"]),
          pvalue(r["p"]), pvalue(r["q"])]
         for r in tips.iter_rows(named=True)],
        [False, False, True, True, True, True, True, True, True, True]))
    rl = comp.filter(pl.col("role") == MAIN)
    doc.p("**Red-line crossings** (main mix, mean upward crossings per seat, winners vs "
          "others): " + "; ".join(
              f"{r['players']}p {'winners' if r['winner'] else 'others'} "
              f"{num(r['redlines_up'], 2)}" for r in rl.iter_rows(named=True)) + ".")
    ctx.add_chart("suburbia_tips", tips_chart(tips, os.path.join(out, "suburbia_tips.png"),
                                              role_labels(ctx.manifests, ctx.roles)))
    doc.img("suburbia_tips.png", "Tip tests: stratified win-rate differences")


def offset_section(ctx, seats: pl.LazyFrame, games: pl.LazyFrame) -> None:
    """The red-line offset option (3 players), when swept."""
    doc = ctx.doc
    off = offset_effect(seats, games)
    if not off.is_empty():
        doc.h(3, "The red-line offset option (3 players)")
        doc.p("Option `red_line_offset` shifts every red line (rule D1; -1 = the FastAPI "
              "convention). Each sweep run replays the first games of the main 3-player run "
              "(same deals, same bots in the same seats) under the shifted lines, so the "
              "difference in mean final population per seat is paired game by game (t "
              "interval); \"same winner\" = share of games won by the same seat(s).")
        doc.table(Table(
            ["Offset", "Games", "Mean population per seat", "95% CI",
             "Red lines crossed per seat", "Seat 1 win rate", "95% CI",
             "Paired difference vs 0", "95% CI", "Same winner as offset 0"],
            [[f"{r['offset']:+d}" if r["offset"] else "0 (main)", count(r["games"]),
              num(r["mean_pop"], 2), f"[{num(r['lo'], 2)}, {num(r['hi'], 2)}]",
              num(r["redlines"], 2), pct(r["seat1"]), ci(r["lo1"], r["hi1"]),
              "-" if r["paired_diff"] is None else f"{r['paired_diff']:+.2f}",
              "-" if r["p_lo"] is None else f"[{r['p_lo']:+.2f}, {r['p_hi']:+.2f}]",
              "-" if r["same_winner"] is None else pct(r["same_winner"])]
             for r in off.iter_rows(named=True)],
            [False] + [True] * 9))


def archetype_section(ctx, seats: pl.LazyFrame, roles: list[str]) -> None:
    """Strategy archetypes: per bot and mix."""
    doc, out = ctx.doc, ctx.out_dir
    prof = strategy_profile(seats)
    doc.h(2, "Suburbia: strategy archetypes")
    doc.p("Per bot: win rate (Wilson 95%), its difference from `greedy` in the same mix "
          "(Newcombe 95%), and what its boroughs look like at the end (means per seat-game: "
          "final population and its parts, income, reputation, red lines crossed, "
          "investments, Lakes, tiles of each type). The three archetypes are greedy with "
          "class affinities (spec §9); the archetype-only mix pits them against each other.")
    for role in [r for r in (MAIN, "mix:archetypes", DENY) if r in roles]:
        g = prof.filter(pl.col("role") == role)
        doc.p(f"**{role_labels(ctx.manifests, ctx.roles).get(role, role)}:**")
        doc.table(Table(
            ["Players", "Bot", "n", "Win rate", "95% CI", "vs greedy (points)", "95% CI",
             "Population", "Track", "Goals", "Money", "Income", "Reputation", "Red lines",
             "Invest.", "Lakes", "R/C/I/V tiles"],
            [[str(r["players"]), f"`{r['strategy']}`", count(r["n"]), pct(r["win_rate"]),
              ci(r["lo"], r["hi"]), "-" if r["d_greedy"] is None else pts(r["d_greedy"]),
              "-" if r["d_greedy"] is None else ci(r["d_lo"], r["d_hi"]),
              num(r.get("mean_score")), num(r.get("mean_track_pop")),
              num(r.get("mean_goals_pop")), num(r.get("mean_money_pop")),
              num(r.get("mean_final_income")), num(r.get("mean_final_reputation")),
              num(r.get("mean_redlines_up")), num(r.get("mean_investments")),
              num(r.get("mean_lakes")),
              "/".join(num(r.get(f"mean_n_{t}")) for t in "RCIV")]
             for r in g.iter_rows(named=True)],
            [True, False] + [True] * 15))
    arche = prof.filter((pl.col("role") == MAIN) & pl.col("strategy").is_in(
        ["residential-civic", "industrial-airports", "commercial"]))
    if not arche.is_empty():
        parts, short, tops = [], [], []
        for (p,), g in arche.group_by("players", maintain_order=True):
            g = g.sort("win_rate", descending=True)
            parts.append(f"{p}p " + ranking_text(
                [(f"`{r['strategy']}`", f"{pct(r['win_rate'])} {ci(r['lo'], r['hi'])}",
                  r["lo"], r["hi"]) for r in g.iter_rows(named=True)]))
            top = g.row(0, named=True)
            below = [r["strategy"] for r in g.iter_rows(named=True)
                     if separated(top["lo"], top["hi"], r["lo"], r["hi"]) > 0]
            tops.append(top["strategy"])
            short.append(f"{p}p {{}}{pct(top['win_rate'])} {ci(top['lo'], top['hi'])}" + (
                " (above both others)" if len(below) == 2 == g.height - 1 else
                f" (above {', '.join(below)})" if below else " (no other below it)"))
        one = len(set(tops)) == 1  # the same archetype on top everywhere: named once
        short = [x.format("" if one else f"{t} ") for x, t in zip(short, tops)]
        ctx.headline("**Archetypes** (highest win rate" + (f": {tops[0]}" if one else "")
                     + "): " + "; ".join(short) + ".",
                     None, "**Archetypes** (main mix win rates): " + "; ".join(parts) + ".")
    ctx.add_chart("suburbia_archetypes", archetype_chart(
        prof, os.path.join(out, "suburbia_archetypes.png"),
        role_labels(ctx.manifests, ctx.roles)))
    doc.img("suburbia_archetypes.png", "Win rate per bot and mix")


def components_section(ctx, seats: pl.LazyFrame, comp: pl.DataFrame) -> None:
    """Score components and the games decided by goals."""
    doc, out = ctx.doc, ctx.out_dir
    dec = decided_by(mixes(seats))
    doc.h(2, "Suburbia: score components")
    doc.p("Final population = the track (tiles, reputation, red lines) + goal bonuses + "
          "money converted at $5 per person. Means per seat-game, winners vs the other seats; "
          "\"decided by goals\" = games in which, before the goal bonuses, some losing seat was "
          "strictly ahead of every winner (likewise before the money conversion).")
    doc.table(Table(
        ["Bot mix", "Players", "Seats", "n", "Population", "Track", "Goals", "Money",
         "Goals share"],
        [[role_labels(ctx.manifests, ctx.roles).get(r["role"], r["role"]), str(r["players"]),
          "winners" if r["winner"] else "others", count(r["n"]), num(r["score"]),
          num(r["track_pop"]), num(r["goals_pop"]), num(r["money_pop"]),
          pct(r["goals_pop"] / r["score"] if r["score"] else None)]
         for r in comp.iter_rows(named=True)],
        [False, True, False] + [True] * 6))
    doc.table(Table(
        ["Bot mix", "Players", "Games", "Decided by goals", "95% CI", "Decided by money",
         "95% CI"],
        [[role_labels(ctx.manifests, ctx.roles).get(r["role"], r["role"]), str(r["players"]), count(r["games"]),
          pct(r["by_goals_rate"]), ci(r["by_goals_lo"], r["by_goals_hi"]),
          pct(r["by_money_rate"]), ci(r["by_money_lo"], r["by_money_hi"])]
         for r in dec.iter_rows(named=True)],
        [False, True, True, True, True, True, True]))
    dm = dec.filter(pl.col("role") == MAIN)
    if not dm.is_empty():
        changed = "; ".join(
            f"{r['players']}p {pct(r['by_goals_rate'])} {ci(r['by_goals_lo'], r['by_goals_hi'])}"
            for r in dm.iter_rows(named=True))
        ctx.headline(f"**Goals change the winner** in {changed} of games (main mix).", None,
                     f"**Goals change the winner** in {changed} of games (main mix; winners' "
                     "goal share "
                     + ", ".join(f"{r['players']}p {pct(r['goals_pop'] / r['score'])}"
                                 for r in comp.filter((pl.col("role") == MAIN) & pl.col("winner"))
                                 .iter_rows(named=True)) + ").")
    pops = q.collect(seats.filter(q.finished_seat() & (pl.col("role") == MAIN))
                     .with_columns(winner=pl.col("win_share") > 0)
                     .group_by("players", "winner", "score").agg(count=pl.len())
                      ).sort("players", "winner", "score", descending=[False, True, False])
    ctx.add_chart("suburbia_score_components", components_chart(
        comp, pops, os.path.join(out, "suburbia_score_components.png")))
    doc.img("suburbia_score_components.png", "Score components and final population")
    doc.p("Not shown: population-track trajectories over the game (the results table keeps "
          "end-of-game values only). The population lost to unpaid income (bankruptcy) is in "
          "the section \"Market, bankruptcy and the population floor\".")
