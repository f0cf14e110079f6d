"""Bots, one package per game (``strategies/<package>/``, paired with ``sim/<package>/`` by the
registry). Each exposes ``STRATEGIES`` (name -> StrategySpec), ``PARAM_NAMES``/``N_PARAMS``,
``params_matrix(names)``, the compiled bot entry point ``choose(code, params, k, state, legal,
n_legal, rng) -> action`` and ``run_games``, the compiled loop in which its bots play a chunk of
games. ``common`` holds the plumbing written once (parameter vectors and matrices)."""
