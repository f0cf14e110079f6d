"""Province's rule options: every assumption of the specification is a named option
(spec and section cited). The kernels' option slots (``O_*`` in constants.py) are derived from
this list by name, never kept in order by hand."""

from sim.core.options import OptionSet, RuleOption

# the reconstructed costs a sensitivity run may move by one (spec §7, §9.2)
RECON_COST_STRUCTURES = ("Bank", "Camp", "Village", "Mill", "Smithy", "Union", "Harbor")
TWEAKS = ("none",) + tuple(
    f"{n}.{f}{d}" for n in RECON_COST_STRUCTURES for f in ("labor", "coins") for d in ("+1", "-1")
)

_C = "choice"
OPTIONS = OptionSet([
    RuleOption("coin_total", "int", 35, "§2.3, §6.5a", "coins in the game (35 Kickstarter list, 28 rulebook list)", allowed=(35, 28)),
    RuleOption("p1_coins", "int", 2, "§5.1", "starting coins of the first player", min=0, max=10),
    RuleOption("p2_coins", "int", 3, "§5.1, §9.2", "starting coins of the second player (the compensation)", min=0, max=10),
    RuleOption("first_player", _C, "seat0", "§5.1", "who starts (the runner's seating already randomises seats)", ("seat0", "random")),
    RuleOption("entry_space", _C, "labor_a", "§2.1, §6.5k", "the 'topmost labor space' where new workers enter", ("labor_a", "labor_b")),
    RuleOption("lender_steal", "bool", True, "§6.3", "the Lender token may be taken from an opponent who holds it (the debt moves)"),
    RuleOption("borrowed_prereq", "bool", False, "§5.3, §6.5h", "a borrowed structure satisfies a prerequisite"),
    RuleOption("borrow_harbor_union", "bool", True, "§5.6, §7", "the Harbor and the Union can be borrowed with the Lender"),
    RuleOption("harbor_benefit", _C, "all_owners", "§5.7, §6.5e", "who gets the ship-flip benefit", ("all_owners", "master_only")),
    RuleOption("sailor_needs_mixed", "bool", True, "§5.7, §6.5g", "hiring a sailor needs a mixed (white/black) flip"),
    RuleOption("income_on_build_turn", "bool", False, "§6.5d", "a Mill pays its labor on the turn it is built"),
    RuleOption("smithy_effect", _C, "double_labor", "§3.1, §7", "RECON Smithy effect: 2 labor per own worker landing on labor, or +1 labor per turn", ("double_labor", "turn_labor")),
    RuleOption("all_types_trigger", "bool", True, "§5.9, §6.4", "the game ends once every structure type has been built"),
    RuleOption("final_turn", _C, "finish_turn", "§5.9, §6.5j, §9.2", "after the trigger: end with the triggering turn, or give the opponent one last turn", ("finish_turn", "opponent_last_turn")),
    RuleOption("worker_tiebreak", "bool", True, "§5.10", "second tie-break on workers (own access)"),
    RuleOption("max_turns", "int", 200, "docs §4", "player-turns before the game stops as 'limit'", min=10, max=10000),
    RuleOption("recon_tweak", _C, "none", "§7, §9.2", "sensitivity: one reconstructed cost changed by one", TWEAKS),
])
