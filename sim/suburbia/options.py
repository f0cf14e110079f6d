"""Suburbia's rule options: every assumption of the specification is a named option
(spec and section cited). The kernels' option slots (``O_*`` in constants.py) are derived from
this list by name, never kept in order by hand."""

from sim.core.options import OptionSet, RuleOption

_C = "choice"
OPTIONS = OptionSet([
    RuleOption("red_line_offset", "int", 0, "§2, D1", "shift of every red line (-1 = the FastAPI convention: reaching 14 crosses)", allowed=(-1, 0, 1)),
    RuleOption("red_line_down", "bool", True, "§5.5, D2", "falling below a red line gives +1 Income/+1 Reputation back (false: never, lines crossed once)"),
    RuleOption("tile_reactions", "bool", True, "§5.3, D3", "other tiles react to a placement (steps 4-6); false = the seed example's literal listing"),
    RuleOption("hoa_price", "int", 6, "§3 A7, D4", "price of the Homeowners Association", allowed=(5, 6)),
    RuleOption("office_building_target", _C, "commercial", "§3 A12, D5", "Office Building: +1 Income per adjacent Commercial or per adjacent office", ("commercial", "office")),
    RuleOption("parking_lot_immediate", _C, "income", "§3 A13, D6", "Parking Lot immediate: +1 Income or +1 Population", ("income", "population")),
    RuleOption("b_stack_counts", _C, "standard", "§3 B, D7", "B counts: standard (36), one Casino, or two Domestic Airports (35)", ("standard", "casino_1", "domestic_airport_2")),
    RuleOption("after_scope", _C, "any_borough", "§3, D8", "'built after this one' counts tiles of any borough or only the owner's", ("any_borough", "own_borough")),
    RuleOption("waterfront", _C, "pairs", "§5.6, D9", "Waterfront Realty one-off: per (Lake, tile) pair, per tile next to a Lake, or none", ("pairs", "tiles", "future_only")),
    RuleOption("counts_itself", "bool", True, "§5.4, D10", "'own'/'every' counts include the tile itself"),
    RuleOption("private_goal_ties", _C, "strict", "§4, D11", "a private goal tied for best: not achieved, or scores", ("strict", "tie_scores")),
    RuleOption("invest_replay", "bool", True, "§5.6, D12", "investing replays the tile's effects once (false: only doubles later firings)"),
    RuleOption("clamp_timing", _C, "each_change", "§5.5, D13", "clamp Income/Reputation after every change or at the end of the resolution", ("each_change", "end_of_resolution")),
    RuleOption("redline_tiles_down", _C, "nothing", "§5.5, D14", "Casino/PR Firm when falling below a red line: nothing or the reverse", ("nothing", "reverse")),
    RuleOption("borough_width", "int", 0, "§2, D16", "hexes of borough width (0 = unlimited)", allowed=(0, 7)),
    RuleOption("tie_break", _C, "rep_inc_money", "§5.7, D17", "tie-break after population", ("rep_inc_money", "rep_inc")),
    RuleOption("rep_debt", _C, "pay_what_you_have", "§5.2, D19", "negative Reputation at population 0 without enough money", ("pay_what_you_have", "all_or_nothing")),
    RuleOption("pop_max", "int", 0, "§2, §7", "top of the population track (0 = unbounded)", allowed=(0, 150)),
    RuleOption("invest_on_lake", "bool", True, "§5.2 D, §7", "an investment marker may go on a Lake"),
    RuleOption("postal_service_immediate", _C, "none", "§3 B11, §7", "Postal Service immediate effect", ("none", "income")),
    RuleOption("recycling_plant_rep", "int", 1, "§3 C13, §7", "Recycling Plant immediate Reputation", allowed=(1, 2)),
    RuleOption("solo_redline_penalty", "int", 2, "§1 solo, §7", "Income and Reputation lost per red line in the Lone Architect", allowed=(1, 2)),
    RuleOption("omr_replacement", "bool", True, "§5.2, §7", "a replacement is drawn when the 1 More Round tile comes up"),
])
