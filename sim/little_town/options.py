"""Little Town's rule options: every assumption of the specification is a named option
(spec and section cited). The kernels' option slots (``O_*`` in constants.py) are derived from
this list by name, never kept in order by hand."""

from sim.core.options import OptionSet, RuleOption

_C = "choice"
OPTIONS = OptionSet([
    RuleOption("market", _C, "random", "§6.1", "how the 12 market tiles are chosen",
               ("random", "beginner", "draft", "one-of-two")),
    RuleOption("board_side", _C, "A", "§2.2", "board side in play", ("A", "B")),
    RuleOption("first_player", _C, "random", "§6.1 step 8", "who starts round 1",
               ("random", "seat0")),
    RuleOption("rounds", "int", 4, "§1, A23", "rounds played", allowed=(3, 4)),
    RuleOption("three_player_tip", "bool", True, "§6.9",
               "3 players: the lowest score starts round 4"),
    RuleOption("goal7", _C, "omit", "§5, §8", "unknown goal card 7: left out, or the "
               "placeholder 'feed all workers with wheat'", ("omit", "feed_wheat")),
    RuleOption("bang_check", _C, "need_count", "§6.1 step 9, L6",
               "a (!) card is impossible when the market has fewer of its buildings than it "
               "needs (need_count) or none of them (any_listed)", ("need_count", "any_listed")),
    RuleOption("bang_redraw", _C, "repeat", "§6.1 step 9",
               "replace an impossible card until possible, or once", ("repeat", "once")),
    RuleOption("optional_gather", "bool", False, "A2", "terrain gathering may be skipped"),
    RuleOption("coin_bank", _C, "unlimited", "A4", "the coin bank (40 coins)",
               ("unlimited", "limited")),
    RuleOption("cathedral_counts_own", "bool", True, "A5",
               "the Cathedral counts its owner's workers too"),
    RuleOption("residence_gathers_terrain", "bool", False, "A6",
               "the Residence's virtual worker also gathers terrain"),
    RuleOption("residence_pays_fees", "bool", True, "A6",
               "the Residence pays 1 coin to other owners it activates"),
    RuleOption("castle_counts", _C, "own", "A7", "buildings the Castle scores",
               ("own", "all")),
    RuleOption("watchtower_workers_block", "bool", False, "A8",
               "a worker makes a grass cell not empty for the Watchtower"),
    RuleOption("pawnshop_must_differ", "bool", True, "A12",
               "the Pawnshop's output pair must differ from its input pair"),
    RuleOption("goal5_counts_pawnshop", "bool", True, "A13",
               "goal 5 counts a Pawnshop paid with two cube types"),
    RuleOption("gather_includes_buildings", "bool", False, "A14",
               "cubes from buildings count as gathered (goals 14, 17)"),
])
