"""Little Town (리틀 타운): engine package. Rules: shared/rules/little_town.md; contract:
docs/games/little_town.md."""
