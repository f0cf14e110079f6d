"""Province constants: the run roles, component names and the data-status texts of the
report (docs/games/province.md)."""

from __future__ import annotations

MAIN = "main"


LIMIT = "limit"


END_TRIGGERS = ("seven_structures", "all_types", "goals")


STRUCTURES = ("Lender", "Bank", "Camp", "Village", "Mill", "Smithy", "Union", "Harbor")


GOALS = ("Hoard", "Hard Labor", "Township", "Crew", "Landmark", "Grindstone", "Seafarer",
         "Rival", "Dynasty")

# default component data (docs/games/province.md §1.1): labor, coins, which are reconstructed
BASE_COSTS = {"Lender": (2, 2), "Bank": (3, 5), "Camp": (2, 1), "Village": (3, 3),
              "Mill": (2, 2), "Smithy": (4, 2), "Union": (2, 3), "Harbor": (3, 3)}


CONFIRMED = ("structure names and roles, the three prerequisite arrows, the Lender's cost "
             "(2 labor + 2 coins) and 1 VP, the Bank's 2 VP, grind 2 labor : 1 coin, sailor "
             "3 coins, Lender repayment 3 coins and -2 VP, 7 structure tokens, 9 goal tokens "
             "of which 5 are drawn at 1 VP each, the coin supply (35 coins, 28 in the rulebook "
             "list)")


RECONSTRUCTED = ("labor and coin costs of Bank, Camp, Village, Mill, Smithy, Union and "
                 "Harbor; the VP of Camp to Harbor; the Smithy effect; the Union rate (from a "
                 "forum example); every goal token's condition and threshold")


NOTE_ASSOC = ("An association, not a causal effect: a seat that builds or claims something "
              "first is often the seat that is already ahead (in particular the first player).")
