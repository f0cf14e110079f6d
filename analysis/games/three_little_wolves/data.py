"""The Three Little Wolves constants of the report: card sets, score components and the
section titles."""

from __future__ import annotations

SETS = ("cards_v0", "cards_v1", "cards_v2")


DEFAULT_SET = "cards_v1"


COMPONENTS = ("houses", "collapses", "bonuses", "pigs", "wolves", "marks")


TITLE_SEATS = "Seat order under each card set"


TITLE_SCORE = "Score components"


TITLE_WOLF = "Value of the wolf action"


TITLE_TIES = "Ties that save a house"


TITLE_DUMMY = "Two-player dummy control: neutral vs hostile"


TITLE_SENS = "Sensitivity to the card list"


TITLES = (TITLE_SEATS, TITLE_SCORE, TITLE_WOLF, TITLE_TIES, TITLE_DUMMY, TITLE_SENS)


COLORS = {"cards_v0": "#DD8452", "cards_v1": "#4C72B0", "cards_v2": "#55A868"}
