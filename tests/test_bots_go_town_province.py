"""The scripted bots of Go Town and Province avoid the blunders of issue #13 (docs/bots.md).

Each test builds a position where the bots before the fix played the blunder (noted per test)
and checks the action every bot generator seed gives now.
"""

from __future__ import annotations

import numpy as np
import pytest

import sim

GT = sim.get_game("go-town")
PV = sim.get_game("province")
SEEDS = range(12)


# ---- Go Town ------------------------------------------------------------------------------------
def _go_town(hands, buildings, current=0, n_players=2):
    """A Go Town state (seat ``current`` to play) with the given hands (name -> count) and
    buildings (floors as (card, card, dogs)); the other cards make up the draw pile."""
    d = GT.state_to_dict(GT.new_state(n_players, 1))
    left = dict(d["data"]["card_counts"])
    for h in hands:
        for k, v in h.items():
            left[k] -= v
    blds = []
    for b in buildings:
        floors = []
        for a, c, dogs in b:
            left[a] -= 1
            left[c] -= 1
            left["DOG"] -= dogs
            floors.append({"cards": [a, c], "values": [int(a), int(c)], "dogs": dogs})
        blds.append(floors)
    assert min(left.values()) >= 0
    d.update(current=current, phase="play", hands=hands, buildings=blds, discard={},
             deck=[k for k, v in left.items() for _ in range(v)])
    return GT.state_from_dict(d)


def _choices(game, state, bot):
    return {game.action_to_string(state, game.choose_action(state, bot, game.bot_rng(s)))
            for s in SEEDS}


def _action(game, state, text):
    acts = [a for a in game.legal_actions(state) if game.action_to_string(state, a) == text]
    assert acts, f"{text!r} is not legal"
    return acts[0]


def test_defender_drills_a_rival_one_floor_from_winning():
    # seat 1 has 4 floors of 5; the defender holds a DRILL and nothing that builds or steals
    # (before: attack_gap 99, the defender passed)
    st = _go_town([{"1": 2, "DRILL": 1}, {}],
                  [[("3", "6", 0)], [("1", "8", 0), ("2", "7", 0), ("4", "5", 0), ("3", "6", 0)]])
    assert _choices(GT, st, "defender") == {GT.action_to_string(st, _action(GT, st, "DRILL P1"))}


def test_greedy_bones_then_steals_without_a_drill():
    # seat 1's top floor (2, 7) is guarded; greedy holds a BONE and a 7 (takes the 2), no DRILL
    # (before: a bone only with a drill in hand, so greedy passed)
    st = _go_town([{"7": 1, "BONE": 1, "1": 1}, {}],
                  [[], [("4", "5", 0), ("2", "7", 1)]])
    bone = GT.legal_actions(st)
    bone = [a for a in bone if GT.action_to_string(st, a).startswith("BONE")]
    assert len(bone) == 1
    for bot in ("greedy", "attacker", "thief-first", "defender"):
        for s in SEEDS:
            rng = GT.bot_rng(s)
            a = GT.choose_action(st, bot, rng)
            assert a == bone[0], (bot, GT.action_to_string(st, a))
            nxt = GT.apply_action(st, a)
            b = GT.choose_action(nxt, bot, rng)
            assert GT.action_to_string(nxt, b).startswith("STEAL"), (bot, GT.action_to_string(nxt, b))


def test_attacker_steals_rather_than_drills_a_stealable_floor():
    # seat 1's top floor (2, 7) is unguarded; the attacker holds a DRILL and a 7
    # (before: drill 90 > steal 85, the floor was destroyed instead of taken)
    st = _go_town([{"7": 1, "DRILL": 1, "1": 1}, {}],
                  [[("3", "6", 0)], [("4", "5", 0), ("2", "7", 0)]])
    for a in _choices(GT, st, "attacker"):
        assert a.startswith("STEAL"), a


def test_full_hand_plays_a_card_rather_than_pass_forever():
    # greedy holds 8 cards (no draw next turn), no build, no steal; its only playable card is a
    # MILK on a rival behind it (before: milk priority -1 there, greedy passed for ever)
    st = _go_town([{"1": 3, "2": 2, "3": 2, "MILK": 1}, {}],
                  [[("4", "5", 0), ("1", "8", 0)], [("4", "5", 0)]])
    legal = {GT.action_to_string(st, a) for a in GT.legal_actions(st)}
    assert legal == {"END_TURN", "MILK P1"}, legal
    assert _choices(GT, st, "greedy") == {"MILK P1"}


def test_attacker_pairs_its_wild_with_a_duplicate():
    # the attacker holds 4, 7, 7 and a ?: ?+7 keeps a 4 and a 7 (two numbers that can still
    # pair), ?+4 would keep two 7s (qm_dup; before: either ? build at random)
    st = _go_town([{"4": 1, "7": 2, "?": 1}, {}], [[], []])
    assert _choices(GT, st, "attacker") == {"BUILD ?+7 (?=2)"}


def test_attacker_keeps_its_pair_over_a_guarded_top_floor():
    # the attacker's top floor (3 of 5) has a dog; it holds one pair (1, 8) and no DOG: building
    # it would leave an unguarded 4th floor for the rival to steal, so it waits (hold_gap)
    floors = [("4", "5", 0), ("2", "7", 0), ("3", "6", 1)]
    st = _go_town([{"1": 1, "8": 1, "3": 1}, {}], [floors, [("4", "5", 0)]])
    assert _choices(GT, st, "attacker") == {"END_TURN"}
    # ... but builds when two pairs finish the building this turn,
    st = _go_town([{"1": 1, "8": 1, "2": 1, "7": 1}, {}], [floors, [("4", "5", 0)]])
    assert _choices(GT, st, "attacker") <= {"BUILD 1+8", "BUILD 2+7"}
    # when the rival is one floor from winning (a threat: race),
    st = _go_town([{"1": 1, "8": 1, "2": 1}, {}],
                  [floors, [("4", "5", 0), ("1", "8", 0), ("2", "7", 0), ("3", "6", 0)]])
    assert _choices(GT, st, "attacker") == {"BUILD 1+8"}
    # and when it holds a DOG to guard the new floor; greedy never holds back
    st = _go_town([{"1": 1, "8": 1, "DOG": 1}, {}], [floors, [("4", "5", 0)]])
    assert _choices(GT, st, "attacker") == {"BUILD 1+8"}
    st = _go_town([{"1": 1, "8": 1, "3": 1}, {}], [floors, [("4", "5", 0)]])
    assert _choices(GT, st, "greedy") == {"BUILD 1+8"}


def test_attacker_bones_a_dog_below_an_unguarded_top_floor():
    # seat 1's floor 1 has a dog under an unguarded top floor; the attacker holds a BONE and
    # nothing else it can play: it lures the reserve dog away (bone_low; before: it passed)
    st = _go_town([{"BONE": 1, "1": 1}, {}], [[], [("4", "5", 1), ("3", "6", 0)]])
    assert _choices(GT, st, "attacker") == {"BONE on P1 floor 1"}
    assert _choices(GT, st, "greedy") == {"END_TURN"}


def test_attacker_stacks_milkshakes_and_attacks_a_rival_far_behind():
    # seat 1 (1 floor, 3 behind the attacker) already owes a skipped turn; the attacker holds a
    # MILK and numbers that neither build nor steal: a second milkshake is one more turn of its
    # own (milk_stack; before: MILK never on a skipping rival, nor on one 2+ floors behind)
    st = _go_town([{"1": 2, "MILK": 1}, {}],
                  [[("4", "5", 0), ("2", "7", 0), ("3", "6", 1), ("4", "5", 0)],
                   [("2", "7", 1)]])
    d = GT.state_to_dict(st)
    d["pending_skips"] = [0, 1]
    d["milk_in_front"] = [0, 1]
    d["hands"][1] = {"8": 1}
    d["deck"].remove("8")
    d["deck"].remove("MILK")
    st = GT.state_from_dict(d)
    assert {GT.action_to_string(st, a) for a in GT.legal_actions(st)} == {"END_TURN", "MILK P1"}
    assert _choices(GT, st, "attacker") == {"MILK P1"}
    assert _choices(GT, st, "greedy") == {"END_TURN"}
    # ... and drills a rival three floors behind it (attack_gap -5; before: -2, it passed)
    st = _go_town([{"1": 2, "DRILL": 1}, {}],
                  [[("4", "5", 0), ("2", "7", 0), ("3", "6", 1), ("4", "5", 0)],
                   [("2", "7", 0)]])
    assert _choices(GT, st, "attacker") == {"DRILL P1"}


# ---- Province -----------------------------------------------------------------------------------
def _province(p0_owned, p1_owned, first_builder, coins, labor, stack, results):
    """Seat 0 in its spending phase, owning ``p0_owned`` (names), seat 1 ``p1_owned``."""
    d = PV.state_to_dict(PV.new_state(2, 1))
    names = [s["name"] for s in d["data"]["structures"]]
    d["owned"] = [[n for n in names if n in p0_owned], [n for n in names if n in p1_owned]]
    d["first_builder"] = [first_builder.get(n, -1) for n in names]
    d["built_turn"] = [[5 if n in own else -1 for n in names] for own in (p0_owned, p1_owned)]
    d["coins"] = coins
    d["supply"] = d["options"]["coin_total"] - sum(coins)
    d["labor"] = labor
    d["phase"] = "spend"
    d["turn"] = 20
    d["ships"] = "white"
    d["workers"]["yellow"] = 1 if "Camp" in p0_owned + p1_owned else -1
    d["workers"]["orange"] = 1 if "Village" in p0_owned + p1_owned else -1
    d["goals"] = {"stack": stack, "next": len(results) - results.count(-2), "result": results}
    d["this_turn"] = {"labor_gained": labor, "moved": 3, "grinds": 0, "built": False,
                      "hired": False}
    return PV.state_from_dict(d)


SIX = ["Lender", "Camp", "Village", "Mill", "Union", "Harbor"]
STACK = ["Township", "Landmark", "Crew", "Hoard", "Rival"]


@pytest.mark.parametrize("bot", ["greedy", "denial", "engine", "lender", "sniper"])
def test_province_never_ends_the_game_with_a_losing_build(bot):
    # seat 0 owns 6 copies (0 VP); the Bank (2 VP) would be its 7th structure and end the game
    # 2 VP to 10 (before: every planner built it and lost at once)
    st = _province(SIX, SIX, {n: 1 for n in SIX}, [5, 3], 3, STACK, [1, 1, -1, -1, -2])
    bank = _action(PV, st, "BUILD Bank")
    assert PV.scores(st).tolist() == [0, 10]
    assert bank in PV.legal_actions(st)
    for s in SEEDS:  # seat 0's whole turn: it must not end the game (a 7th structure)
        rng = PV.bot_rng(s)
        x = st
        while PV.current_player(x) == 0 and not PV.is_terminal(x):
            x = PV.apply_action(x, PV.choose_action(x, bot, rng))
        assert not PV.is_terminal(x), (bot, s)
    # control: when a 7th structure leaves seat 0 ahead, it builds one and wins at once
    st2 = _province(SIX, SIX, {n: 0 for n in SIX}, [5, 3], 3, STACK, [1, 1, -1, -1, -2])
    assert PV.scores(st2).tolist() == [8, 2]
    for s in SEEDS:
        rng = PV.bot_rng(s)
        x = st2
        while PV.current_player(x) == 0 and not PV.is_terminal(x):
            x = PV.apply_action(x, PV.choose_action(x, bot, rng))
        assert PV.is_terminal(x) and PV.winners(x) == [0]


def test_province_greedy_mirrors_are_samples_not_replays():
    # a regression guard (the old bots pass it too: the goal draw and the Harbor flips vary
    # the outcomes; the audit counts distinct action sequences: 0.8% before, 96.8% after)
    n = 400
    seats = np.zeros((n, 2), np.int64)
    res = PV.run_chunk(0, n, 1, 2, seats, {}, ["greedy"])
    # the goal columns are left out: they differ with the goal draw whatever the bots do
    rows = np.column_stack([res.turns, res.decisions, res.score]
                           + [v for k, v in res.seat_detail.items() if not k.startswith("goal")])
    distinct = len(np.unique(rows, axis=0))
    assert distinct >= n // 2, distinct


def test_province_planner_divides_by_multiplying_exactly():
    # best_plan's divisions (Union labor, Grind labor and coins) are a multiplication and a
    # shift where exact (0 <= a < 2**20, divisor 1..4095) and Python's // elsewhere
    from numba import njit

    from strategies.province.bots import _div, _recip

    @njit
    def diffs(ds, lo, hi):
        bad = 0
        for d in ds:
            m = _recip(d)
            for a in range(lo, hi):
                if _div(a, d, m) != a // d:
                    bad += 1
        return bad

    ds = np.array([1, 2, 3, 5, 7, 10, 255, 1000, 4095, 4096, 5000], np.int64)
    assert diffs(ds, -50, 1 << 16) == 0
    assert diffs(ds, (1 << 20) - 70000, (1 << 20) + 50) == 0
    assert _recip(4096) == 0 and _recip(0) == 0 and _recip(1) == (1 << 32) + 1


def test_province_end_check_plays_out_on_a_stack_copy():
    # ends_losing plays BUILD Bank then END_TURN on a copy of the state made on the stack:
    # the state and the generator it is given are left as they were
    from strategies.province.bots import ends_losing

    st = _province(SIX, SIX, {n: 1 for n in SIX}, [5, 3], 3, STACK, [1, 1, -1, -1, -2])
    x0, r0 = st.x.copy(), st.rng.copy()
    bank = _action(PV, st, "BUILD Bank")
    assert ends_losing(st.x, st.rng, bank)  # 2 VP to 10: the 7th structure loses
    assert not ends_losing(st.x, st.rng, 0)  # END_TURN alone does not end it
    assert np.array_equal(st.x, x0) and np.array_equal(st.rng, r0)
    st2 = _province(SIX, SIX, {n: 0 for n in SIX}, [5, 3], 3, STACK, [1, 1, -1, -1, -2])
    assert not ends_losing(st2.x, st2.rng, _action(PV, st2, "BUILD Bank"))  # 8 + 2 to 2: wins
