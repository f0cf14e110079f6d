"""The Three Little Wolves report sections, in report order; each adds its cells to
``Study.cells`` for the sensitivity table."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from analysis.doc import Table, ci, count, is_missing, num, pct, pts, pvalue, signed
from analysis.games.three_little_wolves.charts import (
    add_chart,
    chart_components,
    chart_dummy,
    chart_seats_by_set,
    chart_sensitivity,
    chart_ties,
    chart_wolf,
)
from analysis.games.three_little_wolves.data import (
    COMPONENTS,
    SETS,
    TITLE_DUMMY,
    TITLE_SCORE,
    TITLE_SEATS,
    TITLE_SENS,
    TITLE_TIES,
    TITLE_WOLF,
)
from analysis.games.three_little_wolves.queries import (
    bet_more_less,
    house_ties,
    last_pig,
    mean_turns_by_set,
    more_vs_less,
    p_vs_parity,
    paired_effect,
    score_components,
    seat_rates_by_set,
    sensitivity_rows,
    study_pairs,
    wolf_buckets,
    wolf_by_strategy,
)
from analysis.stats import as_float

RUN_NOTE = ("they come from `boardsim run` (the default plan of this game plays them on "
            "paired seeds); a report of `boardsim simulate` runs has only pool runs")
"""Why a study section is empty (issue 16: nothing said that these sections need
``boardsim run``)."""


__all__ = ["RUN_NOTE", "last_pig_section", "Study", "seat_order_section", "score_section", "wolf_section", "ties_section",
           "dummy_section", "sensitivity_section", "fmt_unit", "per100", "per100_ci"]


@dataclass
class Study:
    """What the sections share: the runs table (``run_table``), the pool runs of each card
    set, the seats of the main runs and the per-card-set cells of the sensitivity table, which
    the sections fill as they go."""

    runs: list[dict]
    by_set: dict[str, list[int]]
    main: pl.LazyFrame
    cells: list[dict] = field(default_factory=list)


def seat_order_section(ctx, study: Study) -> pl.DataFrame:
    """Seat win rates of the pool runs under each card set; returns them."""
    doc, seats, by_set, cells = ctx.doc, ctx.seats, study.by_set, study.cells
    rates = seat_rates_by_set(seats, by_set)
    doc.h(2, TITLE_SEATS)
    doc.p("Seat win rates of the pool runs under each card set (the data are a reconstruction, "
          "spec §2.1): `cards_v1` is the default (the main runs), `cards_v0` has no floor "
          "icons, `cards_v2` gives the duplicate 9 an icon of 3. Same bot pool and seeds in "
          "every set, so the deals and seatings of game i agree; the intervals are per set "
          "(95% Wilson). Seat 1 always starts.")
    rows = []
    for (p, seat), g in rates.group_by(["players", "seat"], maintain_order=True) \
            if not rates.is_empty() else []:
        row = [str(p), f"Seat {seat + 1}"]
        for cs in SETS:
            r = g.filter(pl.col("card_set") == cs)
            row.append("-" if r.is_empty() else
                       f"{pct(r['win_rate'][0])} {ci(r['lo'][0], r['hi'][0])} "
                       f"(n={r['n'][0]:,})")
        rows.append(row)
    rows.sort(key=lambda r: (int(r[0]), r[1]))
    doc.table(Table(["Players", "Seat", *SETS], rows, [True, False, True, True, True]))
    doc.img(add_chart(ctx, "tlw_seats_by_card_set", chart_seats_by_set, rates),
            "Seat win rates under each card set")
    for r in rates.filter(pl.col("seat") == 0).iter_rows(named=True) \
            if not rates.is_empty() else []:
        par = 1.0 / r["players"]
        cells.append({"metric": "seat1", "label": "Seat 1 win rate - parity", "unit": "rate",
                      "players": int(r["players"]), "card_set": r["card_set"], "n": r["n"],
                      "est": as_float(r["win_rate"]) - par, "lo": as_float(r["lo"]) - par,
                      "hi": as_float(r["hi"]) - par,
                      "p": p_vs_parity(as_float(r["win_rate"]), r["n"], par)})
    return rates


def score_section(ctx, study: Study) -> pl.DataFrame:
    """Score components (main runs) and their shares by card set; returns
    the main-run table."""
    doc, seats, by_set, main, cells = ctx.doc, ctx.seats, study.by_set, study.main, study.cells
    comp = score_components(main)
    doc.h(2, TITLE_SCORE)
    doc.p("Mean points per seat-game of each score component (main runs: default rules and "
          "card set, all bots of the pool), with a 95% interval, and its part of the final "
          "score in points per 100 points of final score (component total / score total x "
          "100, 95% interval of the ratio; not a percentage: collapses are negative, marks can "
          "be, so the positive components can add up to more than 100). "
          "\"Winners\" is the mean among winning seats (weighted by win share).")
    doc.table(Table(
        ["Players", "Component", "n (seat-games)", "Mean points", "95% CI",
         "Points per 100 of score", "95% CI", "Winners' mean"],
        [[str(r["players"]), r["component"], count(r["n"]), num(r["mean"], 2),
          f"[{num(r['lo'], 2)}, {num(r['hi'], 2)}]", per100(r["share"]),
          per100_ci(r["share_lo"], r["share_hi"]), num(r["winner_mean"], 2)]
         for r in comp.iter_rows(named=True)],
        [True, False, True, True, True, True, True, True]))
    comp_sets = {}
    for cs, idx in by_set.items():
        comp_sets[cs] = score_components(seats.filter(pl.col("run").is_in(idx)))
    if len(comp_sets) > 1:
        doc.p("Points per 100 points of final score by card set (pool runs; 95% intervals):")
        rows = []
        for p in sorted({int(x) for c in comp_sets.values() for x in c["players"]}):
            for c in COMPONENTS:
                row = [str(p), c]
                for cs in SETS:
                    t = comp_sets.get(cs)
                    r = None if t is None else t.filter(
                        (pl.col("players") == p) & (pl.col("component") == c))
                    row.append("-" if r is None or r.is_empty() else
                               f"{per100(r['share'][0])} "
                               f"{per100_ci(r['share_lo'][0], r['share_hi'][0])}")
                rows.append(row)
        doc.table(Table(["Players", "Component", *SETS], rows, [True, False, True, True, True]))
    doc.img(add_chart(ctx, "tlw_score_components", chart_components, comp),
            "Score components: mean points per seat-game")
    for cs, t in comp_sets.items():
        for r in t.filter(pl.col("component") == "wolves").iter_rows(named=True):
            cells.append({"metric": "wolf_share",
                          "label": "wolf points per 100 points of final score",
                          "unit": "share", "players": r["players"], "card_set": cs,
                          "n": r["n"], "est": r["share"], "lo": r["share_lo"],
                          "hi": r["share_hi"], "p": None})
    return comp


def _restricted_play(ctx, study: Study) -> list[dict]:
    """The wolves allowed / forbidden study on the same seeds; returns its
    pairs."""
    doc, seats, runs, cells = ctx.doc, ctx.seats, study.runs, study.cells
    wolf_pairs = []
    for pr in study_pairs(runs, "wolf", "forbidden", "allowed"):
        focal = runs[pr["control_run"]]["focal"]
        eff = paired_effect(seats, pr["treated_run"], pr["control_run"], pr["control_run"],
                            focal)
        wolf_pairs.append(pr | eff | {"focal": focal})
    doc.h(3, "Restricted play: wolves allowed vs forbidden (same seeds)")
    doc.p("Each pair of runs plays the same games (same seeds, so the same deals and bot "
          "randomness) with all-greedy tables; in the *forbidden* arm one seat (rotating "
          "through the seats) plays `no-wolf`, the greedy bot that never takes the wolf "
          "action, and in the *allowed* arm that seat plays `greedy`. Both arms use "
          "`pure_discard_allowed` so that the restricted bot is never forced to bet. The "
          "difference is the allowed seat's win rate minus the forbidden seat's, game by game "
          "(95% normal interval of the paired differences, two-sided p with Benjamini-Hochberg "
          "q over all tests of the card-set table). *Points per wolf action* = the score "
          "gained by the seat / the extra wolf actions it took (a ratio of paired sums, "
          "linearised interval): what a card spent on a wolf is worth against the bot's next "
          "best use of it, a build or a discard.")
    rows = []
    for r in sorted(wolf_pairs, key=lambda r: (r["players"], SETS.index(r["card_set"])
                                               if r["card_set"] in SETS else 9)):
        rows.append([str(r["players"]), r["card_set"], count(r["n"]),
                     f"{pct(r['rate_t'])} {ci(r['t_lo'], r['t_hi'])}",
                     f"{pct(r['rate_c'])} {ci(r['c_lo'], r['c_hi'])}",
                     f"{pts(r['diff'])} {ci(r['lo'], r['hi'])}",
                     _signed_ci(r, "score_diff", "score_lo", "score_hi"),
                     f"{num(r['wolf_t'], 2)} / {num(r['wolf_c'], 2)}",
                     _signed_ci(r, "per_wolf", "per_wolf_lo", "per_wolf_hi"),
                     pct(r["same"], 0)])
        cells.append({"metric": "wolf_value", "label": "wolves allowed - forbidden",
                      "unit": "rate", "players": r["players"], "card_set": r["card_set"],
                      "n": r["n"], "est": r["diff"], "lo": r["lo"], "hi": r["hi"],
                      "p": r["p"]})
        cells.append({"metric": "per_wolf", "label": "points per wolf action",
                      "unit": "points", "players": r["players"], "card_set": r["card_set"],
                      "n": r["n"], "est": r["per_wolf"], "lo": r["per_wolf_lo"],
                      "hi": r["per_wolf_hi"], "p": r["p_per_wolf"]})
    if rows:
        doc.table(Table(
            ["Players", "Card set", "n (paired games)", "Win rate allowed", "Win rate forbidden",
             "Difference (points)", "Score difference", "Wolf actions allowed / forbidden",
             "Points per wolf action", "Same outcome"],
            rows, [True, False, True, True, True, True, True, True, True, True]))
    else:
        doc.p("No wolf-study runs (roles `wolf:allowed:*` / `wolf:forbidden:*`) in this "
              f"report: {RUN_NOTE}.")
    return wolf_pairs


def _bettors(ctx, study: Study, wolf_pairs: list[dict]) -> pl.DataFrame:
    """Bots that bet more against bots that bet less (main pool) and the wolf
    chart; returns the more-vs-less table."""
    doc, main = ctx.doc, study.main
    strat = wolf_by_strategy(main)
    mvl = more_vs_less(strat, seats=main)  # clustered by game
    buckets = wolf_buckets(main, "greedy")
    buckets_all = wolf_buckets(main)
    bml = bet_more_less(main)
    doc.h(3, "Bots that bet more against bots that bet less (main pool)")
    doc.p("Association, not causation: the bots differ in more than their betting. Per bot: "
          "mean wolf actions per game, mean wolf points, the share of its placed wolves that "
          "ended on standing houses, and its win rate (95% Wilson). Under the default rules "
          "`no-wolf` must still bet when a wolf is its only legal move.")
    doc.table(Table(
        ["Players", "Strategy", "n (seat-games)", "Wolf actions", "Wolf points",
         "Wolves standing", "Win rate", "95% CI"],
        [[str(r["players"]), f"`{r['strategy']}`", count(r["n"]), num(r["wolf_actions"], 2),
          num(r["wolf_points"], 2), pct(r["standing"] / r["placed"] if r["placed"] else None),
          pct(r["win_rate"]), ci(r["lo"], r["hi"])] for r in strat.iter_rows(named=True)],
        [True, False, True, True, True, True, True, True]))
    if not mvl.is_empty():
        doc.p("The bot that bets most against the one that bets least (`random` left out), "
              "difference in win rate with a 95% Newcombe interval:")
        doc.ul([f"{r['players']} players: `{r['more']}` ({num(r['wolf_more'], 2)} wolf "
                f"actions) wins {pct(r['rate_more'])}, `{r['less']}` "
                f"({num(r['wolf_less'], 2)}) {pct(r['rate_less'])}: "
                f"{pts(r['diff'])} {ci(r['lo'], r['hi'])} points "
                f"(n = {r['n_more']:,} vs {r['n_less']:,})." for r in mvl.iter_rows(named=True)])
    doc.p("Win rate by the number of wolf actions a seat took (0 to 3), greedy seats and all "
          "seats of the main pool:")
    allb = {(r["players"], r["wolf_actions"]): r for r in buckets_all.iter_rows(named=True)}
    greedy = {(r["players"], r["wolf_actions"]): r for r in buckets.iter_rows(named=True)}
    rows = []
    # every bucket of any seat (issue 16: without a greedy seat only the header was printed)
    for key in sorted(set(allb) | set(greedy)):
        r, a = greedy.get(key), allb.get(key)
        rows.append([str(key[0]), str(key[1]),
                     "-" if r is None else count(r["n"]),
                     "-" if r is None else f"{pct(r['win_rate'])} {ci(r['lo'], r['hi'])}",
                     "-" if a is None else count(a["n"]),
                     "-" if a is None else f"{pct(a['win_rate'])} {ci(a['lo'], a['hi'])}"])
    if not buckets.height:
        doc.p("No greedy seat played in the main runs: the greedy columns are empty.")
    if rows:
        doc.table(Table(["Players", "Wolf actions", "n greedy", "Win rate greedy",
                         "n all bots", "Win rate all bots"], rows, [True] * 6))
    else:
        doc.p("No finished games in the main runs.")
    if not bml.is_empty():
        doc.ul([f"{r['players']} players, greedy seats: 2 or more wolf actions win "
                f"{pct(r['w_more'] / r['n_more'] if r['n_more'] else None)} against "
                f"{pct(r['w_less'] / r['n_less'] if r['n_less'] else None)} with fewer, "
                f"{pts(r['diff'])} {ci(r['lo'], r['hi'])} points "
                f"(n = {r['n_more']:,} vs {r['n_less']:,})." for r in bml.iter_rows(named=True)])
    doc.img(add_chart(ctx, "tlw_wolf_value", chart_wolf, wolf_pairs, buckets),
            "Value of the wolf action")
    return mvl


def wolf_section(ctx, study: Study) -> tuple[list[dict], pl.DataFrame]:
    """Value of the wolf action: the restricted-play study and the bettors' comparison."""
    ctx.doc.h(2, TITLE_WOLF)
    wolf_pairs = _restricted_play(ctx, study)
    return wolf_pairs, _bettors(ctx, study, wolf_pairs)


def ties_section(ctx, study: Study) -> dict[str, pl.DataFrame]:
    """Ties that save a house, per card set; returns the tables."""
    doc, seats, by_set, cells = ctx.doc, ctx.seats, study.by_set, study.cells
    ties = {cs: house_ties(seats.filter(pl.col("run").is_in(idx))) for cs, idx in by_set.items()}
    doc.h(2, TITLE_TIES)
    doc.p("A house at its colour's minimum height stands when another house of that colour "
          "ties it (§3.12). *Saved* counts own houses of real players at the colour minimum "
          "with a tie; the dummy's houses are not counted. Rates are over built houses, over "
          "seat-games and over games (95% Wilson; houses of one game are not independent, so "
          "the first interval is approximate). *Bonus lost* = own houses at the colour maximum "
          "that share it (no bonus).")
    rows = []
    for cs in SETS:
        t = ties.get(cs)
        if t is None:
            continue
        for r in t.iter_rows(named=True):
            rows.append([cs, str(r["players"]), count(r["n"]), count(r["built"]),
                         f"{pct(r['saved_rate'])} {ci(r['saved_rate_lo'], r['saved_rate_hi'])}",
                         f"{pct(r['seat_rate'])} {ci(r['seat_rate_lo'], r['seat_rate_hi'])}",
                         f"{pct(r['game_rate'])} {ci(r['game_rate_lo'], r['game_rate_hi'])}",
                         pct(r["collapse_rate"]), num(r["bonus_lost_per_seat"], 2)])
            cells.append({"metric": "ties", "label": "built houses saved by a tie",
                          "unit": "share", "players": int(r["players"]), "card_set": cs,
                          "n": r["built"], "est": as_float(r["saved_rate"]),
                          "lo": as_float(r["saved_rate_lo"]), "hi": as_float(r["saved_rate_hi"]),
                          "p": None})
    doc.table(Table(["Card set", "Players", "n (seat-games)", "Houses built",
                     "Saved by a tie (% of built)", "Seat-games with a saved house",
                     "Games with a saved house", "Collapsed (% of built)",
                     "Bonus lost to a tie per seat-game"], rows,
                    [False] + [True] * 8))
    doc.img(add_chart(ctx, "tlw_house_ties", chart_ties, ties), "Ties that save a house")
    return ties


def dummy_section(ctx, study: Study) -> list[dict]:
    """The two-player dummy control (neutral vs hostile); returns its pairs."""
    doc, seats, runs, cells = ctx.doc, ctx.seats, study.runs, study.cells
    doc.h(2, TITLE_DUMMY)
    dummy_pairs = []
    for pr in study_pairs(runs, "dummy", "neutral", "hostile"):
        focal = runs[pr["treated_run"]]["focal"]
        eff = paired_effect(seats, pr["treated_run"], pr["control_run"], pr["treated_run"],
                            focal)
        dummy_pairs.append(pr | eff | {"focal": focal})
    dummy_pairs.sort(key=lambda r: SETS.index(r["card_set"]) if r["card_set"] in SETS else 9)
    doc.p("Two players, `dummy_policy=holder_choice` (the mustache holder places the dummy's "
          "cards). Neutral arm: both seats greedy, which place the dummy's cards by the "
          "neutral rule (§3.10.5); hostile arm: the same games with one seat (alternating) "
          "playing `hostile`, greedy with hostile dummy control (§7.1.10). Difference = "
          "the hostile seat's win rate minus the same seat's in the neutral arm, paired by "
          "game (95% normal interval, BH q in the card-set table).")
    rows = []
    for r in dummy_pairs:
        rows.append([r["card_set"], count(r["n"]),
                     f"{pct(r['rate_c'])} {ci(r['c_lo'], r['c_hi'])}",
                     f"{pct(r['rate_t'])} {ci(r['t_lo'], r['t_hi'])}",
                     f"{pts(r['diff'])} {ci(r['lo'], r['hi'])}",
                     _signed_ci(r, "score_diff", "score_lo", "score_hi"),
                     pct(r["same"], 0)])
        cells.append({"metric": "dummy", "label": "dummy hostile - neutral", "unit": "rate",
                      "players": 2, "card_set": r["card_set"], "n": r["n"], "est": r["diff"],
                      "lo": r["lo"], "hi": r["hi"], "p": r["p"]})
    if rows:
        doc.table(Table(["Card set", "n (paired games)", "Win rate neutral", "Win rate hostile",
                         "Difference (points)", "Score difference", "Same outcome"], rows,
                        [False] + [True] * 6))
    else:
        doc.p("No dummy-control runs (roles `dummy:neutral:*` / `dummy:hostile:*`) here: "
              f"{RUN_NOTE}.")
    doc.img(add_chart(ctx, "tlw_dummy_control", chart_dummy, dummy_pairs),
            "Two-player dummy control")
    return dummy_pairs


def sensitivity_section(ctx, study: Study) -> list[dict]:
    """Every headline metric under each card set; returns the rows."""
    doc, games, by_set, cells = ctx.doc, ctx.games, study.by_set, study.cells
    turns = mean_turns_by_set(games, by_set)
    for (cs, p), t in turns.items():
        cells.append({"metric": "length", "label": "mean player-turns", "unit": "turns",
                      "players": p, "card_set": cs, "n": t["n"], "est": t["est"],
                      "lo": t["lo"], "hi": t["hi"], "p": None})
    sens = sensitivity_rows(cells)
    for row in sens:
        first = next(iter(row["cells"].values()))
        row["label"], row["unit"] = first["label"], first["unit"]
    order = ["seat1", "wolf_value", "per_wolf", "dummy", "wolf_share", "ties", "length"]
    sens.sort(key=lambda r: (order.index(r["metric"]), r["players"]))
    doc.h(2, TITLE_SENS)
    doc.p("Every headline metric under each card set, side by side (95% intervals). For the "
          "tested effects (against parity or 0) the verdict is `+`/`-` when the "
          "Benjamini-Hochberg q over all tested cells is below 0.05 and `0` otherwise; "
          "*Same verdict* says whether the three sets agree (and if not, whether a sign flips "
          "or an effect is only significant under some sets; the alternative sets have fewer "
          "games). *Shift* is the largest change from `cards_v1` (set minus default, normal "
          "interval from the two cells; q = BH over all shifts). Win rates are in "
          "percent, their differences and shifts in percentage points; wolf points per 100 "
          "points of final score, points per wolf action and turns in their own units.")
    rows = []
    for r in sens:
        row = [r["label"], str(r["players"])]
        for cs in SETS:
            c = r["cells"].get(cs)
            row.append("-" if c is None else _sens_cell(c, r["unit"]))
        row.append({"same": "yes", "significance": "no: significant under some sets only",
                    "sign": "**no: the sign flips**",
                    None: "n/a" if r["tested"] else "descriptive"}[r["change"]])
        if r["shifts"]:
            cs, s = max(r["shifts"].items(), key=lambda kv: abs(kv[1][0])
                        if not is_missing(kv[1][0]) else -1)
            row.append(f"{cs}: {fmt_unit(s[0], r['unit'])} [{fmt_unit(s[1], r['unit'])}, "
                       f"{fmt_unit(s[2], r['unit'])}], q {pvalue(s[4])}")
        else:
            row.append("-")
        rows.append(row)
    if len(by_set) < 2:
        doc.p("Only " + (", ".join(f"`{c}`" for c in by_set) or "no card set") + " is in "
              "this report, so the table cannot compare card sets: the runs under the "
              f"alternative card sets (roles `cards:*`) are missing; {RUN_NOTE}.")
    doc.table(Table(["Metric", "Players", *SETS, "Same verdict", "Largest shift from cards_v1"],
                    rows, [False, True, True, True, True, False, False]))
    doc.img(add_chart(ctx, "tlw_card_set_sensitivity", chart_sensitivity,
                      [r for r in sens if r["unit"] in ("rate", "points")]),
            "Headline effects under each card set")
    return sens


def per100(x) -> str:
    """A part of the final score in points per 100 points of score (a ratio x 100, one
    decimal, no % sign: a negative component such as collapses is not a percentage):
    -0.024 -> '-2.4'; 'n/a' when missing."""
    return "n/a" if is_missing(x) else f"{x * 100:.1f}"


def per100_ci(lo, hi) -> str:
    """The interval of ``per100``: '[-3.1, -1.7]'."""
    return f"[{per100(lo)}, {per100(hi)}]"


def _signed_ci(r: dict, est: str, lo: str, hi: str) -> str:
    """'+1.25 [+0.40, +2.10]': a signed estimate with its signed interval (two decimals)."""
    return f"{signed(r[est])} [{signed(r[lo])}, {signed(r[hi])}]"


def fmt_unit(x, unit: str) -> str:
    """A signed shift in its unit: percentage points (x100, one decimal) for rates, points per
    100 points of score (x100, one decimal) for shares, two decimals otherwise."""
    if is_missing(x):
        return "n/a"
    if unit in ("rate", "share"):
        return f"{x * 100:+.1f}"
    return f"{x:+.2f}"


def _sens_cell(c: dict, unit: str) -> str:
    if is_missing(c["est"]):
        return f"n/a (n={c['n']:,})"
    if unit == "rate":
        txt = f"{pts(c['est'])} {ci(c['lo'], c['hi'])}"
    elif unit == "share":
        txt = f"{per100(c['est'])} {per100_ci(c['lo'], c['hi'])}"
    else:
        txt = f"{c['est']:.2f} [{num(c['lo'], 2)}, {num(c['hi'], 2)}]"
    if c.get("verdict"):
        txt += f" `{c['verdict']}` q {pvalue(c.get('q'))}"
    return txt + f" (n={c['n']:,})"


def last_pig_section(ctx, study: Study) -> pl.DataFrame:
    """The distribution of the cards under the last pig (spec §8: "the distribution of cards
    under the last pig (0-5)"), per player count, finished games of the main runs; returns
    players, under (cards left in the deck when the third pig was revealed), n, share and its
    Wilson interval (lo, hi)."""
    doc = ctx.doc
    doc.h(2, "Cards under the last pig")
    dist = last_pig(study.main)
    doc.p("Main runs, finished games: how many cards were left in the deck when the third pig "
          "was revealed (the game ends after it). The spec asks for this distribution (0-5 in "
          "a 3-4 player game); a game in which the last pig was never revealed is left out.")
    if dist.is_empty():
        doc.p("The runs have no `cards_under_last_pig` column.")
        return dist
    doc.table(Table(
        ["Players", "Cards under the last pig", "Games", "Share [95% CI]"],
        [[str(r["players"]), str(r["under"]), count(r["n"]),
          f"{pct(r['share'])} {ci(r['lo'], r['hi'])}"] for r in dist.iter_rows(named=True)],
        [True] * 4))
    per = {p: g.sort("under").select("under", "n").rows()
           for (p,), g in dist.group_by("players", maintain_order=True)}
    same = len(per) > 1 and len({tuple(v) for v in per.values()}) == 1
    doc.p("The count is the place of the last pig in the 6-card bottom packet (spec §3.2, "
          "step 3), which the setup's shuffle alone decides: 1 in 6 for each of 0-5, whatever "
          "the player count and however the game is played."
          + (" The counts are identical at every player count because the main runs share "
             "their seeds and the setup draws the same random numbers before and while it "
             "shuffles the packet at every player count (dealing 5 cards a player takes none), "
             "so game i has the same packet at 2, 3 and 4 players: true, not a query error."
             if same else ""))
    return dist

