"""The search bots at a small budget for a test that plays every bot (``list(game.strategies)``):
at their default budgets (hundreds to thousands of playouts per decision) such a test spent most
of its time searching (tests/test_report_go_town.py's 300 three-player games: 125 s), while what
it checks (the batch loop against the interface, the report columns) does not depend on the
budget. Every path reads the bot's row from the registry (``Game.strategies``), so the batch
loop, ``choose_action`` and ``params_matrix`` all play the same small budget."""

from __future__ import annotations

import dataclasses

SMALL_BUDGET = 8
"""Playouts per decision of every search bot in a test that uses ``small_search_budget``."""


def small_search_budget(monkeypatch, game, budget: int = SMALL_BUDGET) -> list[str]:
    """Set every search bot of ``game`` to ``budget`` playouts per decision for the test
    (undone by ``monkeypatch``); returns their names."""
    names = []
    for name, spec in list(game.strategies.items()):
        if spec.search and "budget" in spec.param_names:
            params = list(spec.params)
            params[spec.param_names.index("budget")] = float(budget)
            monkeypatch.setitem(game.strategies, name,
                                dataclasses.replace(spec, params=tuple(params)))
            names.append(name)
    return names
