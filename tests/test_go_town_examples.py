"""The spec's worked examples (shared/rules/go_town.md §7) run on the engine.

The position tests of tests/test_reference_go_town.py are written against the reference's API;
here the same test functions run with ``game(d)`` building an engine state instead, so every
exact value they assert (hands, floors, discard counts, skips, legal ids) holds for the engine.
"""

import pytest

import sim
import tests.test_reference_go_town as R

GAME = sim.get_game("go-town")


class EngineGoTown:
    """The engine behind the reference's small API (from_dict/to_dict/legal_actions/apply)."""

    def __init__(self, state):
        self.s = state

    @classmethod
    def from_dict(cls, d):
        return cls(GAME.position_from_dict(d))

    def to_dict(self):
        return GAME.state_to_dict(self.s)

    def legal_actions(self):
        return GAME.legal_actions(self.s).tolist()

    def apply(self, a):
        self.s = GAME.apply_action(self.s, a)  # UserError (a ValueError) if illegal

    def is_terminal(self):
        return GAME.is_terminal(self.s)

    def scores(self):
        return GAME.scores(self.s).tolist()

    def __getattr__(self, name):  # current, phase, turn, winner, end_reason
        d = self.to_dict()
        if name in d:
            return d[name]
        raise AttributeError(name)


@pytest.fixture(autouse=True)
def _run_on_engine(monkeypatch):
    monkeypatch.setitem(R.IMPL, "cls", EngineGoTown)


_POSITION_TESTS = [
    n for n in dir(R)
    if n.startswith("test_e") or n in (
        "test_steal_question_mark_routes", "test_milk_options", "test_donut_no_stack",
        "test_eager_reshuffles_when_pile_hits_zero", "test_draws_from_two_empty_piles_are_lost",
        "test_master_thief_order_and_cap_gain", "test_dogs_placement_moves_and_wreck",
        "test_discard_to_8_phase", "test_max_turns_limit", "test_deadlock_ends_the_game",
        "test_deadlock_needs_every_seat_stuck",
    )
]
for _n in _POSITION_TESTS:
    globals()[_n] = getattr(R, _n)


def test_every_position_test_is_collected():
    assert len(_POSITION_TESTS) == 24
