"""Pig, a toy game for tests/test_toy_game.py (tests/toy/README.md)."""
