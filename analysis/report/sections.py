"""The generic report sections: seat win rates, balance and completion, strategies and
matchups, scores and length, component impact and the notes on method."""

from __future__ import annotations

import polars as pl

from analysis.doc import Table, ci, count, num, parity, pct, pts, pvalue, wins

__all__ = ["CAUTION", "seat_section", "rate_table", "balance_section", "strategy_section",
           "dist_row", "length_section", "component_section", "method_section"]

CAUTION = (
    "This is an association, not causation: seats that use a component differ in other ways "
    "(they held it, the game lasted longer, they were leading or trailing), so the difference "
    "does not say what the component would do if given to a random seat."
)


def seat_section(doc, seat_rates, order_rates, firsts, varied, comp=None) -> None:
    """Seat win rates (and by turn order when the first seat varied). ``comp``
    (``queries.completion``) splits the excluded games into limit and deadlock games."""
    doc.h(2, "Seat win rates")
    dead = _has_deadlocks(comp)
    doc.p("Win rate of each seat over finished games (a k-way shared win counts 1/k), with its "
          "95% Wilson interval; parity is 1/players. Games stopped at the limit"
          + (" or ended in a deadlock (no player could ever change the state) are left out and "
             "counted in the last two columns." if dead else
             " are left out and counted in the last column."))
    seat0 = sorted(p for p, f in firsts.items() if f == [0])
    if seat0:
        doc.p("Seat 1 = first player: Seat 1 moved first in every "
              + " and ".join(f"{p}-player" for p in seat0) + " game.")
    doc.table(rate_table(seat_rates, "seat", "Seat", comp))
    doc.img("seat_win_rates.png", "Seat win rates with 95% intervals")
    if varied:
        doc.h(3, "By turn order")
        doc.p("The first seat varied between games, so seat numbers do not measure the "
              "first-player advantage; this table counts turn-order positions instead "
              "(position 1 = the player who moved first in that game).")
        doc.table(rate_table(order_rates, "position", "Position", comp))
        doc.img("turn_order_win_rates.png", "Win rate by turn-order position")


def _has_deadlocks(comp) -> bool:
    """True when ``comp`` (``queries.completion`` or None) counts at least one deadlock."""
    return (comp is not None and "deadlock" in comp.columns
            and int(comp["deadlock"].fill_null(0).sum()) > 0)


def rate_table(df: pl.DataFrame, col: str, label: str, comp: pl.DataFrame | None = None
               ) -> Table:
    """A win-rate table by seat or turn-order position (``col``, shown as ``label``). The
    games left out (``n_limit``: every unfinished game) are one column "Limit games
    (excluded)", or, when ``comp`` (``queries.completion``) counts a deadlock, two: "Limit
    games (excluded)" and "Deadlock games (excluded)" of that player count."""
    dead = _has_deadlocks(comp)
    by_p = ({int(r["players"]): r for r in comp.iter_rows(named=True)} if dead else {})
    rows = []
    for r in df.iter_rows(named=True):
        row = [str(r["players"]), f"{label} {r[col] + 1}", count(r["n"]), wins(r["wins"]),
               pct(r["win_rate"]), ci(r["lo"], r["hi"]), parity(int(r["players"]))]
        if dead:
            c = by_p.get(int(r["players"]), {"limit": 0, "deadlock": 0})
            row += [count(c["limit"]), count(c["deadlock"])]
        else:
            row.append(count(r["n_limit"]))
        rows.append(row)
    head = ["Players", label, "n (finished games)", "Wins", "Win rate", "95% CI", "Parity",
            "Limit games (excluded)"] + (["Deadlock games (excluded)"] if dead else [])
    return Table(head, rows, [True, False] + [True] * (len(head) - 2))


def balance_section(doc, bal, comp) -> None:
    """Balance (Ludii) with the equal-seats test, and completion."""
    doc.h(2, "Balance and completion")
    doc.p("Balance by turn order (position 1 moved first; never by seat number). Balance "
          "(2-player definition, Ludii) = 1 - (highest - lowest win rate of the turn-order "
          "positions); Balance (ranks) = Ludii's definition for more than 2 players, the same "
          "spread of each position's mean rank-based partial win, (players - rank) / "
          "(players - 1). 1 means every position does equally well. The p-value tests \"all "
          "positions win equally often\" (chi-square on their win counts).")
    doc.table(Table(
        ["Players", "n (finished games)", "Balance (2-player)", "Balance (ranks)",
         "Best position", "Worst position", "p (all positions equal)"],
        [[str(r["players"]), count(r["n"]), f"{r['balance']:.3f}",
          f"{r['balance_rank']:.3f}",
          f"Position {r['best_position'] + 1} ({pct(r['best_rate'])})",
          f"Position {r['worst_position'] + 1} ({pct(r['worst_rate'])})", pvalue(r["p_equal"])]
         for r in bal.iter_rows(named=True)],
        [True, True, True, True, False, False, True]))
    doc.p("Completion: a game stopped at the maximum length (\"limit\") or ended in a deadlock "
          "(no player could ever change the state again) is neither a win nor a draw; such "
          "games are reported here and left out of every win rate.")
    doc.table(Table(
        ["Players", "Games", "Finished", "No winner", "Shared win (tie)", "Stopped at limit",
         "Limit rate", "95% CI", "Deadlock"],
        [[str(r["players"]), count(r["n"]), count(r["finished"]), count(r["draws"]),
          count(r.get("shared") or 0), count(r["limit"]), pct(r["limit_rate"], 2),
          ci(r["limit_lo"], r["limit_hi"], 2), count(r.get("deadlock") or 0)]
         for r in comp.iter_rows(named=True)],
        [True] * 9))
    doc.p("A finished game with no winner and one won jointly by two or more seats (a tie the "
          "rules leave standing) are counted apart: a game-specific \"draw\" may be either.")


def strategy_section(doc, strat, matchups) -> None:
    """Strategy win rates and the matchup tables."""
    doc.h(2, "Strategies and matchups")
    doc.p("Win rate of each bot over the seats it played in finished games (n = seat-games; "
          "parity = 1/players is the rate of a bot as strong as the average seat). When one "
          "game has two seats of the same bot, both count; as they cannot both win, the "
          "interval is then a little wider than it needs to be.")
    doc.table(Table(
        ["Players", "Strategy", "n (seat-games)", "Wins", "Win rate", "95% CI", "Parity"],
        [[str(r["players"]), f"`{r['strategy']}`", count(r["n"]), wins(r["wins"]),
          pct(r["win_rate"]), ci(r["lo"], r["hi"]), parity(int(r["players"]))]
         for r in strat.iter_rows(named=True)],
        [True, False, True, True, True, True, True]))
    doc.p("Matchups: for 2 players, the row bot's win rate against the column bot (the "
          "diagonal is the mirror match, 50% by construction when there are no shared wins); "
          "for more players, the row bot's win rate in games "
          "where at least one other seat plays the column bot. Cells: win rate [95% CI] (n "
          "seat-games of the row bot).")
    for (p,), g in matchups.group_by("players", maintain_order=True):
        names = sorted(set(g["strategy"]) | set(g["opponent"]))
        cell = {(r["strategy"], r["opponent"]): r for r in g.iter_rows(named=True)}
        rows = []
        for a in names:
            row = [f"`{a}`"]
            for b in names:
                r = cell.get((a, b))
                row.append("-" if r is None else
                           f"{pct(r['win_rate'])} {ci(r['lo'], r['hi'])} (n={r['n']:,})")
            rows.append(row)
        doc.p(f"**{p} players:**")
        doc.table(Table([f"{p}p: row vs column"] + [f"`{b}`" for b in names], rows,
                        [False] + [True] * len(names)))
    doc.img("matchups.png", "Matchup win rates")


def dist_row(r: dict) -> list[str]:
    """The n, mean, sd and quantile cells of a distribution row."""
    return [count(r["n"]), num(r["mean"], 2), num(r["sd"], 2)] + [
        num(r[c], 1) for c in ("q05", "q25", "q50", "q75", "q95")]


def length_section(doc, scores, lengths, unit: str = "points", fixed: bool = False) -> None:
    """Scores (in ``unit``: "points", Go Town "floors built") and game length; a game of
    ``fixed`` length shows the score distribution instead of a one-bar length histogram."""
    doc.h(2, "Scores and game length")
    doc.p(f"Final score of a seat ({unit}) in finished games; quantiles are "
          "linearly interpolated.")
    qs = ["5%", "25%", "Median", "75%", "95%"]
    doc.table(Table(
        ["Players", "n (seat-games)", "Mean", "SD", *qs],
        [[str(r["players"]), *dist_row(r)] for r in scores.iter_rows(named=True)],
        [True] * 9))
    doc.p("Game length of finished games: player-turns (one player's turn) and decisions "
          "(bot choices). Games stopped at the limit are not included (see Completion).")
    doc.table(Table(
        ["Players", "Measure", "n (games)", "Mean", "SD", *qs],
        [[str(r["players"]), r["measure"], *dist_row(r)] for r in lengths.iter_rows(named=True)],
        [True, False] + [True] * 8))
    if fixed:
        doc.p("Every finished game has the same length, so the chart shows the distribution "
              f"of a seat's final score ({unit}) instead of a one-bar length histogram.")
        doc.img("game_length.png", "Score distribution")
    else:
        doc.img("game_length.png", "Game length histogram")


def component_section(doc, impact, grp: dict, png: str, by_bot=None) -> None:
    """One component-impact section (``grp``: prefix, title, noun, verb); ``by_bot``: the
    association within each bot (``verdict.component_by_bot``), shown after the pooled
    table."""
    doc.h(2, grp["title"])
    doc.p(f"For each {grp['noun']}: win rate of seats that {grp['verb']} it at least once minus "
          f"win rate of seats that did not, in finished games, with a 95% interval clustered by "
          "game (cluster-robust: the seats of one game are not independent); an association, "
          "not a causal effect (`boardsim effects` measures those); "
          "sorted by the size of the difference. " + grp.get("caution", CAUTION))
    if impact.is_empty():
        doc.p(f"The runs have no per-seat detail columns (`{grp['prefix']}*`), so there is "
              "nothing to show here.")
        return
    rows = [
        [str(r["players"]), f"**{r['component']}**", count(r["n_with"]), pct(r["rate_with"]),
         count(r["n_without"]), pct(r["rate_without"]), pts(r["diff"]),
         ci(r["lo"], r["hi"])]
        for r in impact.iter_rows(named=True)
    ]
    doc.table(Table(
        ["Players", grp["noun"].capitalize(), f"n {grp['verb']}", f"Win rate {grp['verb']}",
         f"n not {grp['verb']}", f"Win rate not {grp['verb']}", "Difference (points)",
         "95% CI"],
        rows, [True, False, True, True, True, True, True, True]))
    doc.img(png, grp["title"])
    if by_bot is not None and not by_bot.is_empty():
        doc.h(3, "Within each bot")
        doc.p("The same difference measured within each bot and combined over the bots "
              "(Mantel-Haenszel weights, Wald 95% interval), so that a bot that both wins more "
              "and uses a component more does not make the component look strong. The "
              "verdict's strongest and weakest come from this table. Still an association, "
              "not an effect.")
        doc.table(Table(
            ["Players", grp["noun"].capitalize(), "Difference (points)", "95% CI",
             "n (seat-games)", "Bots with both groups"],
            [[str(r["players"]), f"**{r['component']}**", pts(r["diff"]), ci(r["lo"], r["hi"]),
              count(r["n"]), str(r["strata"])] for r in by_bot.iter_rows(named=True)],
            [True, False, True, True, True, True]))


def method_section(doc) -> None:
    """Notes on method (intervals, shared wins, independence, sample size)."""
    doc.h(2, "Notes on method")
    doc.ul([
        "Intervals are 95% and per cell; with many cells, a few will miss by chance "
        "(no correction for multiple comparisons).",
        "A k-way shared win counts 1/k for each winner and is treated as that many successes in "
        "the binomial intervals, an approximation that matters only when shared wins are common.",
        "Seats of one game are not independent (at most one wins outright). Intervals that "
        "count seat-games (strategies, matchups, components) assume independence and are "
        "approximate: a little too wide when two seats of one group share a game, possibly a "
        "little too narrow for a difference between groups that share games.",
        "Games stopped at the length limit are excluded from win rates, scores and lengths and "
        "reported under Completion.",
        "Seats are 1-based in the text and tables (Seat 1 = seat 0 in the data files).",
        "Sample size (normal approximation, z = 1.96 for 95%): a difference of d = 1 "
        "percentage point is resolvable when the interval's half-width is at most d. For a rate "
        "p over n trials the half-width is 1.96·√(p(1−p)/n), so the run needs "
        "n = ⌈1.96²·p(1−p)/d²⌉ trials (9,604 at p = 50%, 7,203 at p = 25%); p is the observed "
        "rate, or parity (1/players) when the observed rate is 0% or 100%. For the difference "
        "of two rates over groups of n₁ and n₂ seat-games (a component's users and non-users, "
        "the best and the worst strategy) the half-width is 1.96·√(p₁(1−p₁)/n₁ + p₂(1−p₂)/n₂); "
        "keeping the run's split r = n₁/(n₁+n₂), the two groups together need "
        "N = ⌈1.96²·(p₁(1−p₁)/r + p₂(1−p₂)/(1−r))/d²⌉ seat-games. A component difference is "
        "printed with an interval clustered by game, so its row multiplies N by the design "
        "effect D = (h_c/h)², h_c the clustered half-width and h the independent one of the "
        "same rates, and shows h_c as its resolution. For the mean score (standard "
        "deviation s, d = 1 score point) n = ⌈(1.96·s/d)²⌉ seat-games. Seat-games are turned "
        "into finished games at the run's own number of such seat-games per finished game. "
        "At this n an observed 1-point difference just excludes 0; to detect a true 1-point "
        "difference 80% of the time, about twice as many games are needed "
        "((1.96 + 0.84)²/1.96² = 2.04).",
    ])
