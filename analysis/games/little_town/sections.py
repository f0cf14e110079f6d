"""Little Town report sections: buildings, goal cards, robustness, setup variants, the
component data and the runs by role; the setup headline bullets."""

from __future__ import annotations

import os

import numpy as np
import polars as pl

from analysis.doc import Doc, Table, ci, count, diff_ci, num, pct, pts, pvalue
from analysis.games.little_town.data import DATA_CONFIDENCE, GOAL_TEXT, NAME_OF, SLUGS
from analysis.games.little_town.queries import interval_sign
from analysis.stats import as_float
from sim.little_town import data as ltd

__all__ = ["building_section", "goal_section", "robust_section", "setup_sections",
           "setup_headline", "setup_short", "data_section", "roles_section", "item", "robust_text",
           "headline_players", "mix_text"]


def robust_text(v) -> str:
    """The Robust cell: '**robust**', 'no', or 'n/a' (only one bot mix)."""
    return "n/a" if v is None else ("**robust**" if v else "no")


def item(label: str, r: dict) -> str:
    """A headline item: ``label`` with its difference, interval and BH / robust marks."""
    marks = []
    if as_float(r.get("q")) < 0.05:
        marks.append("BH q " + pvalue(r["q"]))
    else:
        marks.append("not significant after BH")
    if r.get("robust"):
        marks.append("robust")
    return f"{label} {diff_ci(r)} ({', '.join(marks)})"


def headline_players(df: pl.DataFrame) -> int | None:
    """The player count of the headlines: 3 when present, else the middle one (None
    without rows)."""
    ps = sorted({int(p) for p in df["players"]}) if len(df) else []
    if not ps:
        return None
    return 3 if 3 in ps else ps[len(ps) // 2]


def mix_text(ctx, idx: list[int]) -> str:
    """The bot mixes of runs ``idx`` (strategies comma-joined; mixes joined by '; ')."""
    strs = {", ".join(ctx.manifests[i].get("strategies") or ["?"]) for i in idx}
    return "; ".join(sorted(strs))


def building_section(doc: Doc, b: pl.DataFrame, mixes: dict[str, str]) -> None:
    """The "Buildings: use and balance" section, one table per player count."""
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
                f"{pct(r['presence'])} {ci(r['presence_lo'], r['presence_hi'])}",
                f"{pct(r['build_rate'])} {ci(r['build_lo'], r['build_hi'])}",
                num(r["mean_round"], 2), num(r["act_own"], 2), num(r["act_others"], 2),
                num(r["fees"], 2), count(r["n_with"]), pct(r["rate_with"]),
                count(r["n_others"]), pct(r["rate_others"]),
                diff_ci(r), pvalue(r["q"]),
                robust_text(r["robust"]),
            ])
        doc.table(Table(
            ["Building", "Presence", "Build rate (when present)", "Mean round built",
             "Own act./game", "Others' act./game", "Fees earned/game", "n builder seats",
             "Win rate builder", "n other seats", "Win rate others",
             "Difference (points) [95% CI]", "q (BH)", "Robust"],
            rows, [False] + [True] * 12 + [False]))
    doc.img("building_balance.png", "Building balance: win-rate difference with 95% intervals")


def goal_section(doc: Doc, g: pl.DataFrame) -> None:
    """The "Goal cards" section, one table per player count."""
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
            str(ltd.GOALS[r["card"]][2]), count(r["held"]),
            f"{pct(r['completion'])} {ci(r['completion_lo'], r['completion_hi'])}",
            num(r["mean_round"], 2), f"{pct(r['rate_done'])} (n={r['completed']:,})",
            f"{pct(r['rate_not'])} (n={r['n_not']:,})",
            diff_ci(r), pvalue(r["q"]),
            robust_text(r["robust"]),
        ] for r in gg.iter_rows(named=True)]
        doc.table(Table(
            ["Card", "Condition", "VP", "n holders", "Completion [95% CI]",
             "Mean round completed", "Win rate completed", "Win rate not completed",
             "Difference (points) [95% CI]", "q (BH)", "Robust"],
            rows, [False, False, True, True, True, True, True, True, True, True, False]))
    doc.img("goal_balance.png", "Goal-card balance: win-rate difference with 95% intervals")


def robust_section(doc: Doc, b: pl.DataFrame, g: pl.DataFrame, p: int) -> None:
    """The "Robustness across bot mixes" section at ``p`` players."""
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
    rows = [[f"**{r['building']}**", diff_ci(r),
             r["mix_signs"], robust_text(r["robust"])] for r in bb.iter_rows(named=True)]
    rows += [[f"**goal {r['card']}**", diff_ci(r),
              r["mix_signs"], robust_text(r["robust"])] for r in gg.iter_rows(named=True)]
    n_rob = sum(1 for r in rows if r[3] == "**robust**")
    doc.p(f"{n_rob} of {len(rows)} findings are robust.")
    doc.table(Table(["Component", "Main mix (points) [95% CI]", "Other mixes", "Robust"], rows,
                    [False, True, False, False]))


def setup_sections(doc: Doc, res: dict, level: int = 2) -> None:
    """The setup-variant sections (seat advantage and Balance, score spread,
    strategies, market presence and draft picks) at heading ``level``."""
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
    base_bal = as_float(order.filter(pl.col("setup") == base)["balance_pos"][0])
    rows = [[f"`{r['setup']}`", count(r["n"]), f"{pct(r['rate'])} {ci(r['lo'], r['hi'])}",
             "-" if r["diff"] is None else f"{pts(r['diff'])} {ci(r['dlo'], r['dhi'])}",
             "-" if r["p"] is None else pvalue(r["p"]),
             num(r["balance_pos"], 3),
             "-" if r["bal_lo"] is None else
             f"{as_float(r['balance_pos']) - base_bal:+.3f}"
             f" [{r['bal_lo']:+.3f}, {r['bal_hi']:+.3f}]",
             num(r["balance_seat"], 3), pvalue(r["p_equal"])]
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
            f"`{r['setup']}`", r["measure"], count(r["n"]), num(r["mean"], 2),
            "-" if r["d"] is None else f"{r['d']:+.2f} [{r['dlo']:+.2f}, {r['dhi']:+.2f}]",
            "-" if r["dp"] is None else pvalue(r["dp"]),
            num(r["sd"], 2), num(r["mad"], 2),
            "-" if r["mad_d"] is None else
            f"{r['mad_d']:+.2f} [{r['mad_lo']:+.2f}, {r['mad_hi']:+.2f}]",
            "-" if r["mad_p"] is None else pvalue(r["mad_p"]),
            " / ".join(num(r[c], 0) for c in ("q05", "q25", "q50", "q75", "q95")),
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
        rows = [[f"`{r['setup']}`", f"`{r['strategy']}`", count(r["n"]),
                 f"{pct(r['rate'])} {ci(r['lo'], r['hi'])}",
                 "-" if r["diff"] is None else f"{pts(r['diff'])} {ci(r['dlo'], r['dhi'])}",
                 "-" if r["p"] is None else pvalue(r["p"])]
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
    key = {b: as_float(by[(sort_setup, b)]["mean_pick"]) if (sort_setup, b) in by else np.nan
           for b in names}
    names.sort(key=lambda b: (np.nan_to_num(key[b], nan=99.0), b))
    rows = []
    for b in names:
        row = [f"**{b}**"]
        for s in setups:
            r = by.get((s, b))
            row.append(pct(r["presence"]) if r else "n/a")
        for s in drafted:
            r = by.get((s, b))
            row.append("-" if not r or r["mean_pick"] is None else
                       f"{r['mean_pick']:.2f} [{num(r['pick_lo'], 2)}, {num(r['pick_hi'], 2)}]"
                       f" (n={r['n_picked']:,})")
        rows.append(row)
    doc.table(Table(["Building"] + [f"Presence `{s}`" for s in setups]
                    + [f"Mean pick `{s}` [95% CI]" for s in drafted], rows,
                    [False] + [True] * (len(setups) + len(drafted))))
    if drafted:
        doc.img("draft_picks.png", "Mean pick number per building")


def setup_headline(res: dict) -> list[tuple[str, str]]:
    """Two headline bullets (seat advantage; score spread) with their summary lines."""
    order, dist = res["order"], res["dist"]
    base = res["baseline"]["baseline"][0]
    p = int(order["players"][0])
    b = order.filter(pl.col("setup") == base).row(0, named=True)
    others = order.filter(pl.col("setup") != base)
    parts = [f"the first player wins {pct(b['rate'])} {ci(b['lo'], b['hi'])} with a "
             f"`{base}` market (parity {100 / p:.1f}%; Balance by turn order "
             f"{num(b['balance_pos'], 3)})"]
    verdict = []
    for r in others.iter_rows(named=True):
        parts.append(f"`{r['setup']}` {pct(r['rate'])} {ci(r['lo'], r['hi'])}, difference "
                     f"{pts(r['diff'])} points {ci(r['dlo'], r['dhi'])} (p {pvalue(r['p'])}; "
                     f"Balance {num(r['balance_pos'], 3)}, difference "
                     f"{as_float(r['balance_pos']) - as_float(b['balance_pos']):+.3f} "
                     f"[{r['bal_lo']:+.3f}, {r['bal_hi']:+.3f}])")
        ch = interval_sign(r["dlo"], r["dhi"])
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
        f"{r['setup']} {pct(r['rate'])} {ci(r['lo'], r['hi'])}"
        for r in order.iter_rows(named=True))

    def get(setup: str, measure: str) -> dict | None:
        g = dist.filter((pl.col("setup") == setup) & (pl.col("measure") == measure))
        return g.row(0, named=True) if len(g) else None

    bm, bw = get(base, "winning margin"), get(base, "winning score")
    parts = [f"`{base}`: mean winning margin {num(bm['mean'], 2)}, SD of the winning score "
             f"{num(bw['sd'], 2)}"] if bm and bw else []
    verdict = []
    for s in others["setup"].to_list():
        m, w = get(s, "winning margin"), get(s, "winning score")
        if not (m and w and bm and bw):
            continue
        parts.append(f"`{s}`: margin {num(m['mean'], 2)} ({m['d']:+.2f} "
                     f"[{m['dlo']:+.2f}, {m['dhi']:+.2f}]), SD {num(w['sd'], 2)} "
                     f"(Brown-Forsythe p {pvalue(w['mad_p'])})")
        dm = interval_sign(m["dlo"], m["dhi"])
        ds = (0 if not as_float(w["mad_p"]) < 0.05 else (1 if w["mad_d"] > 0 else -1))
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
        f"{r['setup']} {num(r['mean'], 2)}"
        for r in dist.filter(pl.col("measure") == "winning margin").iter_rows(named=True))
    return [(seat, seat_sum), (spread, spread_sum)]


def setup_short(res: dict) -> list[str]:
    """The two setup answers in one short line each, for the verdict (``setup_headline`` has
    them in full): each other market's difference from the random market in the first
    player's win rate, then in the mean winning margin, with intervals, n and the reading."""
    order, dist = res["order"], res["dist"]
    base = res["baseline"]["baseline"][0]
    p = int(order["players"][0])
    others = order.filter(pl.col("setup") != base)
    ns = [int(r["n"]) for r in order.iter_rows(named=True)]
    n_txt = (f"{ns[0]:,} games each" if len(set(ns)) == 1 and len(ns) > 1
             else "/".join(f"{n:,}" for n in ns) + " games")
    seat = [f"{r['setup']} {pts(r['diff'])} {ci(r['dlo'], r['dhi'])}"
            for r in others.iter_rows(named=True)]
    moved = [r["setup"] for r in others.iter_rows(named=True)
             if interval_sign(r["dlo"], r["dhi"]) != 0]
    verdict = ("each changes it" if moved and len(moved) == others.height else
               f"changed by {', '.join(moved)}" if moved else "none changes it detectably")
    out = [f"**Setups vs a `{base}` market, first player's win rate** ({p}p, n = {n_txt}, "
           "points): " + ", ".join(seat) + f"; {verdict}."]
    margin = dist.filter((pl.col("measure") == "winning margin") & (pl.col("setup") != base))
    if len(margin):
        items = [f"{r['setup']} {r['d']:+.2f} [{r['dlo']:+.2f}, {r['dhi']:+.2f}]" + (
            (" widens it" if r["dlo"] > 0 else " narrows it")
            if interval_sign(r["dlo"], r["dhi"]) != 0 else " no detectable change")
                 for r in margin.iter_rows(named=True)]
        out.append(f"**Setups vs `{base}`, mean winning margin** (score points): "
                   + ", ".join(items) + ".")
    return out


def data_section(doc: Doc, manifests: list[dict]) -> None:
    """The "Component data: confirmed and assumed" section."""
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


def roles_section(doc: Doc, ctx) -> None:
    """The table of the Little Town runs by role."""
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
                     count(m.get("n_games", 0)), ", ".join(m.get("strategies") or ["?"]),
                     str((m.get("options") or {}).get("market", "?")), str(m.get("seed", "?"))])
    doc.table(Table(["Run", "Folder", "Role", "Players", "Games", "Bots", "Market", "Seed"],
                    rows, [True, False, False, True, True, False, False, True]))
