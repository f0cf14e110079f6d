"""Province report sections (issue 5, section 3): the first player's advantage and the
second player's compensation, structures, goal tokens, the coin supply, game length and the
sensitivity of the seat advantage to the reconstructed structure costs.

Runs are told apart by the role ``sim.province.game.Province.default_plan`` gives them (the
numbers that matter are read from each run's manifest options, so a role only says what a run
is for):

* ``main``: the pool of scripted bots, default rules (second player 3 coins): the headline
  numbers, the structure and goal tables, and the baseline of every paired comparison;
* ``pairing``: one ordered pairing of two bots, fixed seats; both orders of a pairing share a
  seed, so game i of ``a-vs-b`` and of ``b-vs-a`` has the same goal draw and bot generators;
* ``self``: a bot against itself (the pure first-player effect of that bot);
* ``sweep:p2_coins=C``: the main pool and seed with the second player starting with C coins;
* ``variant:<option>=<value>``: the 28-coin supply, the opponent-last-turn ending, ...;
* ``tweak:<recon_tweak>``: the main pool and seed with one reconstructed cost changed by one.

Paired comparisons join two runs' games on the game seed and the seat strategies (runs with
the same run seed play game i with the same chance and bot generators), and give the mean of
the per-game differences with a normal (Wald) interval from their spread. The *first-player
share* is the first player's win share (a draw counts 1/2) over finished games, so parity is
50% and the *seat advantage* is that share minus 50%.

Seat detail columns (docs/games/province.md §11): ``built_<s>`` (1 first builder, 2 copy,
0 not built), ``turnbuilt_<s>`` (player-turn built, -1 never), ``goal_<g>`` (1 claimed by this
seat, -1 removed, 0 otherwise), ``goalin_<g>`` (1 if drawn), ``coins_dry`` (1 if the supply ran
dry in the game), ``coins_missed`` (coins not received because the supply was short).
"""

from analysis.games.province.data import (
    BASE_COSTS,
    CONFIRMED,
    END_TRIGGERS,
    GOALS,
    LIMIT,
    MAIN,
    NOTE_ASSOC,
    RECONSTRUCTED,
    STRUCTURES,
)
from analysis.games.province.queries import (
    SANITY_TURNS,
    game_frame,
    goal_stats,
    margin_lender,
    one_coin_base,
    order_rates,
    pair_summary,
    paired_difference,
    rates_all,
    role_runs,
    run_label,
    run_option,
    run_options,
    seat_rows,
    second_first_builds,
    structure_stats,
    supply_length,
)
from analysis.games.province.report import bots_label, effective_roles, extend_report
from analysis.games.province.sections import tweak_text
from sim.core.components import slug

__all__ = [
    "extend_report", "MAIN", "LIMIT", "END_TRIGGERS", "STRUCTURES", "GOALS", "BASE_COSTS",
    "CONFIRMED", "RECONSTRUCTED", "NOTE_ASSOC", "slug", "run_label", "run_options",
    "run_option", "role_runs", "one_coin_base", "game_frame", "order_rates", "rates_all",
    "paired_difference", "pair_summary", "seat_rows", "structure_stats",
    "second_first_builds", "goal_stats", "supply_length", "tweak_text", "SANITY_TURNS",
    "margin_lender", "effective_roles", "bots_label",
]
