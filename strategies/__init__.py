"""Scripted bots, one module per game; each module exposes ``STRATEGIES`` (name -> StrategySpec)
and a numba dispatcher ``choose(code, params, state, legal, n_legal, rng) -> action``."""
