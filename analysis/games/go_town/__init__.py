"""Go Town report extension (issue 16): the spec's §8.3 questions and Go Town's rule holes.

Sections added to ``reports/go-town/report.md``:

* **How games end**: won, stopped at the length limit, or deadlocked (no player can ever change
  the state: the engine's end reason ``deadlock``), per player count; deadlocks are reported
  as a rule hole with the option that closes most of them (``allow_dead_plays``);
* **Game length in rounds** (player-turns / players) of the games won;
* **Kingmaking** (3-4 players): share of won games in which a seat that did not win attacked
  a lone leader 2+ floors ahead of it, who then did not win either;
* **Wrecking ball**: win rate of seats that held it (and that played it) against the others;
* **Rule options** (runs of role ``option:<name>=<value>`` from ``default_plan``, same seeds
  as the main run of their player count): the paired shift of the first player's win rate and
  of the length in rounds, the 4-floor short game among them;
* rule holes: deadlocks, games stopped at the limit, card types never played.
"""

from __future__ import annotations

import os

import polars as pl

from analysis import charts
from analysis.doc import Table, ci, count, num, pct, pct_ci, pts_ci
from analysis.games.go_town.queries import (
    OPTION_PREFIX,
    end_reasons,
    held_effect,
    kingmaking,
    never_played,
    option_effects,
    rounds,
)

__all__ = ["extend_report", "end_reasons", "rounds", "kingmaking", "held_effect",
           "option_effects", "never_played", "report_rule_holes"]

DEAD_PLAYS_FIX = ("rule option `allow_dead_plays = true` (D14: a special card without a "
                  "target may be discarded as a play) lets a seat stuck with special cards "
                  "move; a hand of unpairable numbers stays stuck, so a designer may add a rule "
                  "such as \"a player at the hand limit who cannot play discards a card\"")
DEAD_PLAYS_FIX_SHORT = ("rule option `allow_dead_plays = true`, in part (stuck special cards, not "
                        "unpairable numbers; see How games end)")
"""The fix of the deadlock rule hole in the verdict (``DEAD_PLAYS_FIX`` in full in the section
"How games end")."""


def report_rule_holes(ctx, er: pl.DataFrame, cards: pl.DataFrame) -> None:
    """Every Go Town rule-hole check, found or not (``ctx.rule_hole``), from the main runs:
    deadlocks and limit games per player count, card types never played."""
    for r in er.iter_rows(named=True):
        p = int(r["players"])
        ctx.rule_hole(
            f"{p} players: the game cannot end (deadlock)", int(r["deadlock"]), int(r["n"]),
            "games", "no player can ever act again: the engine ends it with no winner",
            DEAD_PLAYS_FIX_SHORT)
        ctx.rule_hole(
            f"{p} players: the game stopped at the length limit", int(r["limit"]),
            int(r["n"]), "games",
            "a game that goes on for ever without being frozen (the players keep undoing "
            "each other's floors)", None)
    if cards.height:
        never = cards.filter(pl.col("played") == 0)
        names = ", ".join(never["card"])
        ctx.rule_hole(
            "card types never played by any seat" + (f" ({names})" if names else ""),
            never.height, cards.height, "card types",
            "a card that no seat ever plays under the chosen options has no effect on the "
            "game (its legality rules may never be met)", None)


def _deadlock_text(er: pl.DataFrame) -> str:
    return "; ".join(
        f"{r['players']}p {pct(r['deadlock_rate'], 2)} {ci(r['deadlock_lo'], r['deadlock_hi'], 2)}"
        f" ({count(r['deadlock'])} of {count(r['n'])})" for r in er.iter_rows(named=True))


def _effects_chart(eff: pl.DataFrame, path: str) -> str:
    """Paired shift of the first player's win rate per option and player count (points)."""
    if eff.is_empty():
        return charts.empty(path, "no paired option runs")
    import matplotlib.pyplot as plt

    ps = sorted({int(p) for p in eff["players"]})
    # one panel a row: side by side, the last panel's labels ran off the figure (issue 26)
    fig, axes = charts.grid(len(ps), width=7.6, height=0.35 * (eff["option"].n_unique() + 4),
                            max_cols=1)
    for ax, p in zip(axes, ps):
        g = eff.filter(pl.col("players") == p).sort("option", descending=True)
        y = list(range(g.height))
        d = g["fp_diff"].to_numpy() * 100
        lo = g["fp_lo"].to_numpy() * 100
        hi = g["fp_hi"].to_numpy() * 100
        ax.errorbar(d, y, xerr=[d - lo, hi - d], fmt="o", color="#1f5fa0", capsize=3)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(y, list(g["option"]))
        ax.set_xlabel("first player's win rate shift (points, 95% CI)")
        ax.set_title(f"{p} players (n = {int(g['n'].min()):,}+ paired games each)")
    fig.suptitle("Rule options: paired effect on the first-player advantage")
    plt.setp(axes, xlim=None)
    return charts.save(fig, path)


def extend_report(ctx) -> None:
    """Go Town sections (see the module docstring)."""
    main = ctx.runs_with_role("main") or list(range(len(ctx.run_dirs)))
    games = ctx.games.filter(pl.col("run").is_in(main))
    seats = ctx.seats.filter(pl.col("run").is_in(main))
    er = end_reasons(games)
    rd = rounds(games)
    km = kingmaking(seats)
    wr = held_effect(seats, "WRECK")
    cards = never_played(seats)
    eff = option_effects(ctx.games, ctx.roles, ctx.manifests)
    report_rule_holes(ctx, er, cards)

    # ---- headlines: one line each in the verdict, the full answer folded (detail=); the
    # deadlocks are the verdict's rule-hole row, so their answer is folded only
    if er.height:
        ctx.summary.append(f"Go Town deadlocks: {_deadlock_text(er)}")
        ctx.details.append(
            f"**Deadlocks (a rule hole):** {_deadlock_text(er)} of games freeze with no player "
            "able to act (ended by the engine as `deadlock`, left out of win rates and "
            "lengths).")
    if rd.height:
        txt = "; ".join(f"{r['players']}p median {num(r['q50'], 1)} rounds (mean "
                        f"{num(r['mean'], 1)}, 90% of games {num(r['q05'], 1)}-"
                        f"{num(r['q95'], 1)}, n = {count(r['n'])})"
                        for r in rd.iter_rows(named=True))
        short = "; ".join(f"{r['players']}p {num(r['q50'], 1)} (90% of games "
                          f"{num(r['q05'], 1)}-{num(r['q95'], 1)})"
                          for r in rd.iter_rows(named=True))
        ctx.headline(f"**Length in rounds** (median, games won): {short}.", None,
                     f"**Length in rounds** (player-turns / players, games won): {txt}.")
    kk = km.filter(pl.col("players") >= 3) if km.height else km
    if kk.height:
        per = "; ".join(f"{r['players']}p {pct_ci(r['rate'], r['lo'], r['hi'])} "
                        f"(n = {count(r['n'])})" for r in kk.iter_rows(named=True))
        ctx.headline(
            f"**Kingmaking pattern** (won games in which a trailing seat attacked the "
            f"near-winner and a third seat won; a count, not a counterfactual): {per}.", None,
            "**Kingmaking pattern** (won games in which a seat 2+ floors behind attacked the "
            "lone leader one floor from the win, and a third seat won; a count of the pattern, "
            f"not a counterfactual: it does not show that the attack changed the winner): {per}.")
    wh = wr.filter(pl.col("split") == "held") if wr.height else wr
    if wh.height:
        ctx.headline(
            "**Wrecking ball** (held it minus never held; association): " + "; ".join(
                f"{r['players']}p {pts_ci(r['diff'], r['lo'], r['hi'])}"
                for r in wh.iter_rows(named=True)) + " points.", None,
            "**Wrecking ball** (win rate of seats that held it minus seats that never did; "
            "an association): " + "; ".join(
                f"{r['players']}p {pts_ci(r['diff'], r['lo'], r['hi'])} points "
                f"(held by {count(r['n1'])} of {count(r['n1'] + r['n0'])} seats)"
                for r in wh.iter_rows(named=True)) + ".")
    short = eff.filter(pl.col("option") == "target_floors=4") if eff.height else eff
    if short.height:
        fp = "; ".join(f"{r['players']}p {pts_ci(r['fp_diff'], r['fp_lo'], r['fp_hi'])}"
                       for r in short.iter_rows(named=True))
        ln = "; ".join(f"{r['players']}p {num(r['r_diff'], 2)} [{num(r['r_lo'], 2)}, "
                       f"{num(r['r_hi'], 2)}]" for r in short.iter_rows(named=True))
        ctx.headline(
            f"**4 floors vs 5** (paired, same seeds): first player {fp} points; rounds {ln}.",
            None,
            "**4 floors vs 5** (paired, same seeds): first player's win rate shifts "
            + "; ".join(f"{r['players']}p {pts_ci(r['fp_diff'], r['fp_lo'], r['fp_hi'])} "
                        f"points ({pct(r['fp_base'])} -> {pct(r['fp_var'])})"
                        for r in short.iter_rows(named=True))
            + f"; length {ln.replace(' [', ' rounds [')}.")

    # ---- sections
    doc = ctx.doc
    doc.h(2, "How games end")
    doc.p("Main runs. A game ends when a player reaches the target floors (won), at the "
          "length limit (`max_turns` player-turns), or in a **deadlock**: no player can ever "
          "change the state again (e.g. two players each hold 8 cards, the hand limit, so "
          "neither draws, and none of them can be played). The engine ends a deadlocked game "
          "at once (end reason `deadlock`, engine version 2); it is neither a win, a draw nor "
          "a length, and is left out of every win rate, like a limit game. What closes it: "
          f"{DEAD_PLAYS_FIX}.")
    doc.table(Table(
        ["Players", "Games", "Won", "Limit", "Deadlock", "Deadlock rate [95% CI]"],
        [[str(r["players"]), count(r["n"]), count(r["target"]), count(r["limit"]),
          count(r["deadlock"]),
          f"{pct(r['deadlock_rate'], 2)} {ci(r['deadlock_lo'], r['deadlock_hi'], 2)}"]
         for r in er.iter_rows(named=True)], [True] * 6))
    doc.h(2, "Game length in rounds")
    doc.p("Rounds = player-turns / players (skipped turns count), games won only.")
    doc.table(Table(
        ["Players", "n (games won)", "Mean", "SD", "5%", "25%", "Median", "75%", "95%"],
        [[str(r["players"]), count(r["n"]), num(r["mean"], 2), num(r["sd"], 2),
          *[num(r[c], 1) for c in ("q05", "q25", "q50", "q75", "q95")]]
         for r in rd.iter_rows(named=True)], [True] * 9))
    doc.h(2, "Kingmaking")
    doc.p("Spec §8.3: \"share of wins decided by a third party's attack\". Counted: won games "
          "in which a seat that could not win (at least 2 floors behind) attacked (STEAL, "
          "BONE, DRILL, WRECK, MILK or THIEF aimed at it) the lone leader while the leader "
          "was one floor or less from the target, and neither of them won: the attack on the "
          "player about to win handed the game to a third seat. Two players cannot have a "
          "kingmaker (0 by definition).")
    if km.height:
        doc.table(Table(["Players", "n (games won)", "Kingmade", "Share [95% CI]"],
                        [[str(r["players"]), count(r["n"]), count(r["kingmade"]),
                          pct_ci(r["rate"], r["lo"], r["hi"])]
                         for r in km.iter_rows(named=True)], [True] * 4))
    else:
        doc.p("The runs have no `kingmaker` seat detail (made before engine version 2).")
    doc.h(2, "Wrecking ball")
    doc.p("Spec §8.3: the wrecking ball is the only answer to a dog; \"measure win rate "
          "conditional on holding it\". Win rate of seats that held it at some point (or "
          "played it) minus the other seats, finished games, Newcombe 95% interval. An "
          "association, not causation: seats that hold more cards over a longer game are "
          "likelier to have held it.")
    if wr.height:
        doc.table(Table(
            ["Players", "Seats", "n", "Win rate", "n others", "Win rate others",
             "Difference (points) [95% CI]"],
            [[str(r["players"]), f"{r['split']} it", count(r["n1"]), pct(r["rate_with"]),
              count(r["n0"]), pct(r["rate_without"]), pts_ci(r["diff"], r["lo"], r["hi"])]
             for r in wr.iter_rows(named=True)], [True, False] + [True] * 5))
    else:
        doc.p("The runs have no `held_WRECK` seat detail (made before engine version 2).")
    doc.h(2, "Rule options (paired runs)")
    doc.p("Each option run changes one rule option from its default and plays the same seeds "
          "and seatings as the main run of its player count, so game i of both is the same "
          "deal: the difference is paired game by game (games won in both arms; 95% normal "
          "interval of the mean per-game difference). \"First player\" = seat 1, who moves "
          "first in every game. Deadlock columns: share of all paired games.")
    if eff.height:
        png = _effects_chart(eff, os.path.join(ctx.out_dir, "option_effects.png"))
        ctx.add_chart("option_effects", png)
        doc.table(Table(
            ["Option", "Players", "n pairs", "First player: default -> option",
             "Shift (points) [95% CI]", "Rounds: default -> option", "Shift (rounds) [95% CI]",
             "Deadlocks: default -> option"],
            [[f"`{r['option']}`", str(r["players"]), count(r["n"]),
              f"{pct(r['fp_base'])} -> {pct(r['fp_var'])}",
              pts_ci(r["fp_diff"], r["fp_lo"], r["fp_hi"]),
              f"{num(r['r_base'], 2)} -> {num(r['r_var'], 2)}",
              f"{num(r['r_diff'], 2)} [{num(r['r_lo'], 2)}, {num(r['r_hi'], 2)}]",
              f"{pct(r['dead_base'], 2)} -> {pct(r['dead_var'], 2)}"]
             for r in eff.sort("option", "players").iter_rows(named=True)],
            [False, True, True, True, True, True, True, True]))
        doc.img("option_effects.png", "Rule options: paired shift of the first-player win rate")
    else:
        n_opt = sum(1 for r in ctx.roles.values() if r.startswith(OPTION_PREFIX))
        doc.p("No paired option runs in this report" + (
            f" ({n_opt} option runs had no main run with the same players, bots and seed)"
            if n_opt else "") + ": they come from `boardsim run` (the default plan), which "
            "plays each option of spec §8.3 on the main runs' seeds.")
