"""The Three Little Wolves's rule options: every assumption of the specification is a named option
(spec and section cited). The kernels' option slots (``O_*`` in constants.py) are derived from
this list by name, never kept in order by hand."""

from sim.core.options import OptionSet, RuleOption

_C = "choice"
OPTIONS = OptionSet([
    RuleOption("card_set", _C, "cards_v1", "§2.1", "building-card data (reconstruction): v1 the spec's table, v0 no floor icons, v2 icon 3 on the duplicate 9", ("cards_v0", "cards_v1", "cards_v2")),
    RuleOption("variant_kids", "bool", False, "§1.2", "children's variant: wolves only on own houses, no pig effects"),
    RuleOption("kids_pig_tokens", "bool", True, "§1.2", "pig tokens are still placed in the children's variant"),
    RuleOption("hand_size", "int", 5, "§3.2, 4.21", "cards dealt and held", allowed=(4, 5)),
    RuleOption("wolf_order_free", "bool", True, "§3.6, 4.14", "any unused wolf may be placed (false: lowest first)"),
    RuleOption("wolf_two_slot_rule", _C, "B3", "§3.6, 4.15", "which houses hold two wolves", ("B3", "any_basement")),
    RuleOption("b3_same_player", "bool", True, "§3.6, 4.16", "one player may fill both wolf slots of a house"),
    RuleOption("coloured_basement_unassigned", "bool", False, "§3.5, 4.5", "a coloured basement may go under an all-white house"),
    RuleOption("pure_discard_allowed", "bool", False, "§3.4, 4.17", "a card may be discarded for nothing even when a build or wolf is legal"),
    RuleOption("pig_tie_drawer_first", "bool", True, "§3.7, 4.8", "pig-token ties go to the drawer first (false: the drawer last)"),
    RuleOption("pig_same_owner_tie", _C, "owner_chooses", "§3.7, 4.9", "tie between houses of one owner", ("owner_chooses", "colour_order")),
    RuleOption("unplaced_pig_token", _C, "lost", "§3.7, 4.10", "a pig token with no eligible house", ("lost", "kept")),
    RuleOption("dummy_gets_pig_tokens", "bool", True, "§3.10, 4.19", "the 2p dummy's houses can receive pig tokens"),
    RuleOption("dummy_policy", _C, "neutral", "§3.10.5, 4.18", "2p dummy placement: the neutral rule, or the mustache holder's decision", ("neutral", "holder_choice")),
    RuleOption("final2p_white_pass", "bool", False, "§3.10.4", "in the 2p end a white dummy card also passes the mustache"),
    RuleOption("height_rule", _C, "icon_top", "§3.9, 4.1, 4.2", "height: top card counts its floor icon, or plain card count", ("icon_top", "card_count")),
    RuleOption("lone_house_collapses", "bool", False, "§3.12, 4.12", "the only house of a colour collapses (literal reading)"),
    RuleOption("lone_house_bonus", "bool", True, "§3.12, 4.12", "the only house of a colour wins its bonus"),
    RuleOption("marks_on_collapsed", "bool", True, "§3.12, 4.13", "top-card marks count on collapsed houses too"),
    RuleOption("tiebreak_wolf_net", "bool", True, "§3.12, 4.22", "tie-break on net wolf points (false: points of standing wolves)"),
])
