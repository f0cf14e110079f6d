"""The declared state schemas (sim/core/schema.py): every game declares its whole state, the
dict form generated from the declaration round-trips exactly, and the checks generated from
it refuse a wrong type, shape or range with one line naming the field."""

import dataclasses
import json

import numpy as np
import pytest

import sim
from sim.core.errors import UserError
from sim.core.schema import Field, StateSchema

GAMES = sim.list_games()


def _replace(schema: StateSchema, fields) -> StateSchema:
    return StateSchema(fields, data=schema.data, derived=schema.derived, unsaved=schema.unsaved,
                       views=schema._views,
                       start=schema.start, check=schema.check, finish=schema.finish,
                       n_of=schema.n_of)


def _positions(g, n: int, seed: int, every: int = 7):
    """Positions of one random game: the start, every ``every``-th decision, the end."""
    s = g.new_state(n, seed)
    rnd = np.random.default_rng(seed)
    k = 0
    while True:
        if k % every == 0 or g.is_terminal(s):
            yield s
        if g.is_terminal(s):
            return
        legal = g.legal_actions(s)
        s = g.apply_action(s, int(legal[rnd.integers(len(legal))]))
        k += 1


@pytest.mark.parametrize("game_id", GAMES)
def test_every_state_array_is_declared(game_id):
    g = sim.get_game(game_id)
    sch = g.state_schema
    assert isinstance(sch, StateSchema), f"{game_id} declares no state_schema"
    assert sch.coverage(g.new_state(g.min_players, 1)) == []
    # the declaration of what the game hides is the schema's hidden fields
    assert bool(sch.hidden_keys()) == (g.information == "imperfect")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_planted_undeclared_or_missing_field_fails(game_id):
    """Dropping the fields of one state array leaves that array undeclared; declaring a field
    on an array the state does not have is a declared field missing from the state. Both are
    reported, and the registry's declaration check refuses the second's hidden mismatch."""
    g = sim.get_game(game_id)
    sch = g.state_schema
    s = g.new_state(g.min_players, 1)
    own = [a for a in sorted({f.array for f in sch.fields if f.array} - set(sch.data))
           if all(f.arrays() == {a} for f in sch.fields if a in f.arrays())]
    arr = own[0]  # an array only its own fields touch
    dropped = _replace(sch, [f for f in sch.fields if arr not in f.arrays()])
    assert dropped.coverage(s) == [f"state array {arr!r} is not declared"]
    extra = _replace(sch, [*sch.fields, Field("planted", ("no_such_array", 0))])
    assert extra.coverage(s) == ["declared array 'no_such_array' is not in the state"]


def test_a_planted_hidden_mismatch_is_refused_at_registration():
    g = sim.get_game("go-town")
    sch = g.state_schema
    shown = _replace(sch, [dataclasses.replace(f, hidden=False) for f in sch.fields])
    bad = type(g).__new__(type(g))
    bad.__dict__.update(g.__dict__)
    bad.state_schema = shown
    with pytest.raises(ValueError, match="hidden fields"):
        bad.check_declaration()


def _same(a, b, path="d"):
    """``a == b`` with the same types and key order at every depth (None when they are)."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path}: keys {list(a)} vs {list(b)}"
        return next((r for k in a if (r := _same(a[k], b[k], f"{path}.{k}"))), None)
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: lengths {len(a)} vs {len(b)}"
        return next((r for i, (x, y) in enumerate(zip(a, b))
                     if (r := _same(x, y, f"{path}[{i}]"))), None)
    return None if a == b else f"{path}: {a!r} vs {b!r}"


@pytest.mark.parametrize("game_id", GAMES)
def test_generated_to_dict_code_reads_every_row_as_the_rows_say(game_id):
    """``to_dict`` runs code generated once per schema; it gives the dict of the row-by-row
    reading (``to_dict_by_rows``): the same keys in the same order, values and types, at every
    player count from the start to the end."""
    g = sim.get_game(game_id)
    sch = g.state_schema
    count = 0
    for n in range(g.min_players, g.max_players + 1):
        for s in _positions(g, n, 200 + n, every=3):
            assert _same(sch.to_dict(g, s), sch.to_dict_by_rows(g, s)) is None, (n, count)
            count += 1
    assert count >= 3 * (g.max_players - g.min_players + 1)
    bad = _same({"a": [1, {"b": 2}]}, {"a": [1, {"b": np.int64(2)}]})
    assert bad == "d.a[1].b: int vs int64"  # the comparison itself can fail


@pytest.mark.parametrize("game_id", GAMES)
def test_generated_dict_round_trips_exactly(game_id):
    """Every player count, positions from the start to the end: dict -> JSON -> state -> dict
    gives the same dict, and the same state arrays (``live``: but the declared derived slots
    and a pile's storage past its height). It found that Suburbia's dict does not carry two
    recorded-only counters (``unsaved``: a resumed game counts them from 0)."""
    g = sim.get_game(game_id)
    sch = g.state_schema
    count = 0
    for n in range(g.min_players, g.max_players + 1):
        for s in _positions(g, n, 100 + n):
            d = g.state_to_dict(s)
            s2 = g.state_from_dict(json.loads(json.dumps(d)))
            assert g.state_to_dict(s2) == d
            a, a2 = sch.live(s), sch.live(s2)
            assert set(a) == set(a2) and a
            for name in a:
                assert np.array_equal(a[name], a2[name]), (n, name)
            count += 1
    assert count >= 3 * (g.max_players - g.min_players + 1)


@pytest.mark.parametrize("game_id", GAMES)
def test_generated_checks_are_one_line_per_field(game_id):
    """For each declared plain whole-number field: a string, a value above the range and a
    list where a number belongs are each refused with one line naming the field."""
    g = sim.get_game(game_id)
    d0 = g.state_to_dict(g.new_state(g.max_players, 3))
    tried = 0
    for f in g.state_schema.fields:
        if f.kind != "int" or "[]" in f.key:
            continue
        for bad in ("x", 10**9, [1]):
            d = json.loads(json.dumps(d0))
            box = d
            parts = f.key.split(".")
            for k in parts[:-1]:
                box = box[k]
            box[parts[-1]] = bad
            with pytest.raises(UserError) as e:
                g.state_from_dict(d)
            msg = str(e.value)
            assert "\n" not in msg and f"{game_id} state dict: {f.key}" in msg, msg
            tried += 1
    assert tried >= 6


def test_little_town_state_dict_with_a_free_buy_price_is_refused():
    """The 100,000-mutant soak's Little Town find (session 9): a state dict whose data block
    sets ``consts.buy_price`` to 0 was accepted, and every bot then divided by it
    (ZeroDivisionError). The price divides, so 0 is out of range, in a state dict and as an
    override, with one line naming the field and the allowed values."""
    import pytest

    import sim
    from sim.core.errors import UserError

    g = sim.get_game("little-town")
    s = g.new_state(2, seed=1)
    for _ in range(5):
        s = g.apply_action(s, int(g.legal_actions(s)[0]))
    d = g.state_to_dict(s)
    d["data"]["consts"]["buy_price"] = 0
    with pytest.raises(UserError, match=r"consts\.buy_price = 0: out of range; allowed 1\.\.999"):
        g.state_from_dict(d)
    with pytest.raises(UserError, match=r"consts\.buy_price = 0: out of range; allowed 1\.\.999"):
        sim.get_game("little-town", {"consts.buy_price": 0})
    d["data"]["consts"]["buy_price"] = 1
    g.state_from_dict(d)  # the smallest price is fine


def test_wolves_state_dict_reads_a_pig_effect_in_any_case():
    """The 100,000-mutant soak's Wolves find (session 9): ``data.pig_effects`` with a
    lower-case name (``'none'``) passed the check, which upper-cases, and then failed the data
    table's lookup with a ValueError (not a UserError). Read as written, in any case; an
    unknown name is one UserError line."""
    import pytest

    import sim
    from sim.core.errors import UserError

    g = sim.get_game("three-little-wolves")
    s = g.new_state(2, seed=1)
    for _ in range(3):
        s = g.apply_action(s, int(g.legal_actions(s)[0]))
    d = g.state_to_dict(s)
    d["data"]["pig_effects"][1] = "none"
    assert g.state_to_dict(g.state_from_dict(d))["data"]["pig_effects"][1] == "NONE"
    d["data"]["pig_effects"][1] = "sideways"
    with pytest.raises(UserError, match=r"data\.pig_effects\[1\].*allowed: NONE, LEFT"):
        g.state_from_dict(d)


def test_the_memoised_data_header_is_per_game_instance_and_a_copy():
    """The ``data`` header is memoised by the data arrays' bytes (sim/core/schema.py): a game
    instance whose names differ on the same arrays gets its own header, and a caller changing
    the dict it got does not change the next one."""
    from types import SimpleNamespace

    calls = []

    def data_get(g, s, v, n):
        calls.append(g.label)
        return {"label": g.label, "rows": [int(x) for x in v.consts]}

    schema = StateSchema([Field("data", kind="header", get=data_get)], data=("consts",))
    state = SimpleNamespace(consts=np.arange(3, dtype=np.int64))
    a = SimpleNamespace(id="toy", min_players=2, label="a")
    b = SimpleNamespace(id="toy", min_players=2, label="b")
    first = schema.to_dict(a, state)
    assert first == {"data": {"label": "a", "rows": [0, 1, 2]}}
    first["data"]["rows"].append(99)
    assert schema.to_dict(a, state) == {"data": {"label": "a", "rows": [0, 1, 2]}}
    assert schema.to_dict(b, state)["data"]["label"] == "b"
    state.consts[0] = 7
    assert schema.to_dict(a, state)["data"]["rows"] == [7, 1, 2]
    assert calls == ["a", "b", "a"]
