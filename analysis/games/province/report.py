"""Province report extension: ``extend_report`` adds the Province sections and headline
answers in their order (see the package docstring)."""

from __future__ import annotations

import dataclasses

import polars as pl

from analysis.doc import pct_ci
from analysis.games.province.data import MAIN
from analysis.games.province.holes import trigger_rule_holes
from analysis.games.province.queries import (
    game_frame,
    goal_stats,
    rates_all,
    role_runs,
    run_label,
    run_option,
    run_options,
    structure_stats,
)
from analysis.games.province.sections import (
    margins_lender_section,
    pairing_section,
    sensitivity_section,
    structure_goal_sections,
    supply_length_section,
    sweep_section,
)

__all__ = ["extend_report", "report_rule_holes", "effective_roles", "bots_label"]


def effective_roles(ctx) -> dict[int, str]:
    """The runs' roles, with a run given as ``main`` but played under non-default rule options
    moved to its own role (issue 16: a ``p2_coins=4`` run was pooled under "3 coins"):
    ``sweep:p2_coins=<c>`` when only ``p2_coins`` differs, else ``variant:<name>=<value>,...``.
    Runs under other options are shown side by side, never pooled with the default rules.
    A run the generic report made an ``arm:<label>`` (a main run whose settings differ from
    the first main run) is read like a main run here, so a ``p2_coins`` run still joins the
    coin sweep; an arm under the default options with other bots stays an arm."""
    from sim.registry import get_game

    defaults = get_game("province").resolve_options({})
    roles = {}
    for i in range(len(ctx.run_dirs)):
        role = ctx.roles.get(i, MAIN)
        if role == MAIN or role.startswith("arm:"):
            diff = {k: v for k, v in run_options(ctx.manifests[i]).items()
                    if k in defaults and defaults[k] != v}
            if set(diff) == {"p2_coins"}:
                role = f"sweep:p2_coins={diff['p2_coins']}"
            elif diff:
                role = "variant:" + ",".join(f"{k}={v}" for k, v in sorted(diff.items()))
        roles[i] = role
    return roles


def bots_label(ctx, runs: list[int]) -> str:
    """The bots and seating of ``runs`` from their manifests, e.g. "bots `greedy`, `sniper`
    (pool seating)"; several mixes are joined by "; "."""
    mixes = sorted({"bots " + ", ".join(f"`{b}`" for b in (ctx.manifests[i].get("strategies")
                                                          or ["?"]))
                    + f" ({ctx.manifests[i].get('seating', '?')} seating)" for i in runs})
    return "; ".join(mixes)


def extend_report(ctx) -> None:
    """Add the Province sections and headline answers (see the module docstring)."""
    ctx = dataclasses.replace(ctx, roles=effective_roles(ctx))
    main = role_runs(ctx, MAIN)
    sweep_runs = main + role_runs(ctx, "sweep")
    variant_runs = role_runs(ctx, "variant")
    tweak_runs = role_runs(ctx, "tweak")
    pair_runs, self_runs = role_runs(ctx, "pairing"), role_runs(ctx, "self")
    all_runs = list(range(len(ctx.run_dirs)))
    gf = game_frame(ctx.games, ctx.seats, all_runs)
    labels = {i: run_label(d) for i, d in enumerate(ctx.run_dirs)}
    gf = gf.with_columns(label=pl.col("run").replace_strict(labels, return_dtype=pl.Utf8))
    ctx.doc.h(2, "Province: first-player advantage and compensation")
    ctx.doc.p("Province seats two players; Seat 1 moves first in every run of the default plan "
              "and the second player starts with `p2_coins` coins (3 in the rules, 2 for the "
              "first player). The *first-player share* is the first player's win share over "
              "finished games (a draw counts 1/2), so parity is 50%; intervals are 95% (Wilson "
              "for rates, Newcombe for independent differences, Wald on the per-game "
              "differences for paired comparisons on the same seeds).")
    base = gf.filter(pl.col("run").is_in(main))
    one_coin = _main_headline(ctx, base)
    pairing_section(ctx, gf, pair_runs, self_runs)
    sweep = sweep_section(ctx, gf, sweep_runs, main)
    structure_goal_sections(ctx, main)
    supply_length_section(ctx, gf, main, sweep_runs, variant_runs, pair_runs, self_runs,
                          tweak_runs, base)
    sensitivity_section(ctx, gf, tweak_runs, base, one_coin, sweep)
    margins_lender_section(ctx, main)
    report_rule_holes(ctx, base, main)
    trigger_rule_holes(ctx, main)


def report_rule_holes(ctx, base: pl.DataFrame, main: list[int]) -> None:
    """Every Province rule-hole check (issue 16), found or not, over the main runs: games
    stopped at the length limit, the coin supply running dry, structures never built, goal
    tokens drawn but never claimed."""
    n = base.height
    lim = int((~base["finished"]).sum()) if n else 0
    ctx.rule_hole("the game stopped at the length limit without ending", lim, n, "games",
                  "a game no end trigger ends (neither 7 structures, every type nor the goal "
                  "stack)", None)
    dry = int((base["dry"] > 0).sum()) if n else 0
    ctx.rule_hole("the coin supply ran dry (a gain cut short: no coin left)", dry, n, "games",
                  "the rules say nothing about a gain the supply cannot pay; the engine cuts "
                  "it short (the runs' own `coin_total`; the 28-coin variant runs dry more "
                  "often, see Coin supply and game length)", None)
    if not main:
        return
    st = structure_stats(ctx.games, ctx.seats, main)
    never = st.filter(pl.col("built") == 0)["structure"].to_list() if st.height else []
    ctx.rule_hole("structures never built" + (f" ({', '.join(never)})" if never else ""),
                  len(never), st.height, "structures",
                  "a structure no seat ever builds adds nothing to the game (too dear, or "
                  "never worth it to these bots)", None)
    gs = goal_stats(ctx.games, ctx.seats, main).filter(pl.col("drawn") > 0)
    never = gs.filter(pl.col("claimed") == 0)["goal"].to_list() if gs.height else []
    ctx.rule_hole("goal tokens drawn but never claimed" + (
        f" ({', '.join(never)})" if never else ""), len(never), gs.height, "goal tokens drawn",
        "a goal token that is never claimed can never score: its condition may be out of reach "
        "under these rules", None)


def _main_headline(ctx, base: pl.DataFrame) -> dict | None:
    if base.is_empty():
        return None
    r = rates_all(base)
    if not r["n"]:
        return None
    main = sorted({int(x) for x in base["run"].unique()})
    bots = {b for i in main for b in (ctx.manifests[i].get("strategies") or [])}
    verdict = ("**no**: the first player still wins clearly more often"
               if r["share_lo"] > 0.5 else
               "**more than enough**: the second player now has the edge"
               if r["share_hi"] < 0.5 else
               "**yes**: the seats are consistent with parity at this n")
    if bots == {"random"}:
        verdict = ("**not answered**: the main runs play only `random` (uniform over the legal "
                   "moves), which says nothing about players who plan")
    p2 = int(run_option(ctx, main[0], "p2_coins", 3))
    ctx.headline(
        "**Is one extra coin enough for the second player?** "
        + (f"{verdict} ({bots_label(ctx, main)})" if bots == {"random"}
           else verdict.split(":")[0])
        + f": first-player share {pct_ci(r['share_rate'], r['share_lo'], r['share_hi'])} "
        f"(n = {r['n']:,}; second player {p2} coins vs 2).",
        f"Province: one extra coin -> first-player share "
        f"{pct_ci(r['share_rate'], r['share_lo'], r['share_hi'])} (n = {r['n']:,}).",
        f"Is one extra coin enough for the second player? {verdict}. Under "
        f"{bots_label(ctx, main)}, default rules, second player {p2} coins vs 2, the first "
        f"player "
        f"wins {pct_ci(r['fp_rate'], r['fp_lo'], r['fp_hi'])} of finished games, the second "
        f"{pct_ci(r['sp_rate'], r['sp_lo'], r['sp_hi'])}, ties (both seats share the win; "
        f"not counted as draws by the generic completion table, which counts games without "
        f"a winner) {pct_ci(r['draw_rate'], r['draw_lo'], r['draw_hi'])}; first-player share "
        f"{pct_ci(r['share_rate'], r['share_lo'], r['share_hi'])} (n = {r['n']:,}).")
    return r
