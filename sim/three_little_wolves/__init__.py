"""The Three Little Wolves (아기늑대 삼형제): engine package (docs/games/three_little_wolves.md)."""
