"""Go Town's rule options: every assumption of the specification is a named option
(spec and section cited). The kernels' option slots (``O_*`` in constants.py) are derived from
this list by name, never kept in order by hand."""

from sim.core.options import OptionSet, RuleOption

_C = "choice"
OPTIONS = OptionSet([
    RuleOption("target_floors", "int", 5, "§1.4, D1", "floors needed to win (4 = short game)", allowed=(4, 5)),
    RuleOption("win_check", _C, "immediate", "§3.3, D2", "win the moment a floor is added, or at end of turn", ("immediate", "end_of_turn")),
    RuleOption("hand_limit_mode", _C, "draw_only", "§3.2, D3", "what the 8-card limit does", ("draw_only", "cap_gain", "discard_to_8")),
    RuleOption("reshuffle_timing", _C, "lazy", "§3.2, D4", "reshuffle when a draw needs it, or as soon as the pile empties", ("lazy", "eager")),
    RuleOption("qm_steal_by_qm", "bool", True, "§4.3, D5", "a ? from hand may take a rival's ? (route A, seed)"),
    RuleOption("qm_steal_by_number", "bool", True, "§4.3, D5", "a number may take a rival's ? at its locked value (route B)"),
    RuleOption("dog_placement", _C, "any_own_floor", "§4.4, D6", "which own floor a dog may guard", ("any_own_floor", "top_only")),
    RuleOption("dog_moves_up", "bool", False, "§4.4, D7", "a dog rides up to each new top floor"),
    RuleOption("donut_scope", _C, "others", "§4.9, D8", "who skips after the donut truck", ("others", "all")),
    RuleOption("skip_stacking", _C, "stack", "§4.9, D9", "whether skipped turns add up", ("stack", "no_stack")),
    RuleOption("skip_means", _C, "whole_turn", "§4.9, D10", "what a skipped turn still does", ("whole_turn", "no_play_but_refill")),
    RuleOption("milk_on_self", "bool", False, "§4.9, D11", "a milkshake may target its player"),
    RuleOption("destroy_self_allowed", "bool", False, "§4.6, D11", "drill/wrecking ball may target own building"),
    RuleOption("bone_on_own", "bool", False, "§4.5, D11", "a bone may target own dog"),
    RuleOption("dog_on_others", "bool", False, "§4.4, D11", "a dog may guard another player's floor"),
    RuleOption("dogs_per_floor_max", "int", 1, "§4.4, D12", "dogs allowed on one floor", min=1, max=4),
    RuleOption("bone_target", _C, "any_floor", "§4.5, D13", "which rival dogs a bone may target", ("any_floor", "top_only")),
    RuleOption("allow_dead_plays", "bool", False, "§4, D14", "a special card without a target may be played for no effect"),
    RuleOption("milk_discard", _C, "on_consume", "§4.9, D15", "when a played milkshake reaches the discard", ("on_consume", "immediate")),
    RuleOption("max_turns", "int", 1000, "§3.3, D17", "player-turns before the game stops as 'limit'", min=10, max=100000),
    RuleOption("first_player", _C, "seat0", "§3.1, D18", "who starts", ("seat0", "random")),
])
