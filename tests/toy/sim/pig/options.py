"""Pig's rule options."""

from sim.core.options import OptionSet, RuleOption

OPTIONS = OptionSet([
    RuleOption("target", "int", 50, "rules", "points to win", allowed=(20, 50, 100)),
    RuleOption("max_turns", "int", 400, "rules", "turns before a game stops at the limit",
               allowed=(100, 400)),
])
