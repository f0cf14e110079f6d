"""Component tables of every registered game (balance lab, sim/core/components.py): the printed
document round-trips through the game's constructor, every table is documented, every tunable
path and impact column resolves, and every bad override is refused with the allowed keys."""

from __future__ import annotations

import json

import pytest

from sim.core.components import get_path, row_keys, slug, tunable_paths
from sim.core.errors import UserError
from sim.registry import get_game, list_games

GAMES = list_games()  # every registered game, a new one included without editing this file


def _list_tables(doc, schema):
    return [t for t, v in doc.items() if isinstance(v, list)]


def _fields(doc, schema, table):
    """(row key, field, value) of every field of every row of a list table."""
    keyf = schema.keys.get(table, "name")
    for r in doc[table]:
        for f, v in r.items():
            if f != keyf:
                yield r[keyf], f, v


@pytest.mark.parametrize("gid", GAMES)
def test_document_round_trip(gid):
    g = get_game(gid)
    doc = g.component_document()
    assert json.loads(json.dumps(doc)) == doc  # JSON-able, nothing lost
    again = g.from_document(json.loads(json.dumps(doc)))
    assert type(again) is type(g)
    assert again.component_document() == doc
    assert again is not g


@pytest.mark.parametrize("gid", GAMES)
def test_every_table_documented(gid):
    g = get_game(gid)
    doc, schema = g.component_document(), g.component_schema
    assert set(schema.docs) == set(doc)
    for t, line in schema.docs.items():
        assert len(line) > 20, t
    for t in _list_tables(doc, schema):
        keys = [slug(k) for k in row_keys(doc, schema, t)]
        assert len(set(keys)) == len(keys), f"{t}: row keys not distinct as slugs"
        assert all(keys), t


@pytest.mark.parametrize("gid", GAMES)
def test_schema_names_exist(gid):
    """Every vector / signed entry of the schema names a field of the document."""
    g = get_game(gid)
    doc, schema = g.component_document(), g.component_schema

    def field_values(tf):
        table, _, f = tf.partition(".")
        node = doc[table]
        if isinstance(node, list):
            return [r[f] for r in node if f in r]
        return [node[f]] if f in node else []

    for tf, names in schema.vectors.items():
        vals = field_values(tf)
        assert vals, tf
        assert all(isinstance(v, list) and len(v) == len(names) for v in vals), tf
        assert not any(n.isdigit() for n in names), tf
    for tf in schema.signed:
        assert field_values(tf), tf


@pytest.mark.parametrize("gid", GAMES)
def test_tunables_resolve(gid):
    g = get_game(gid)
    doc, schema = g.component_document(), g.component_schema
    for t in schema.tunables:
        assert isinstance(doc[t.table], list), t
        assert t.effect in (-1, 1) and t.lo <= t.hi, t
        found = 0
        for key in row_keys(doc, schema, t.table):
            for path, value, _effect, _lo, _hi in tunable_paths(doc, schema, t.table, key):
                assert get_path(doc, schema, path, gid) == value, path
                assert path.startswith(f"{t.table}.{slug(key)}.")
                found += 1
        assert found, f"tunable {t} names no number of any row"
    # every tunable path can be changed by one step within its range and the game builds
    for t in schema.tunables:
        for key in row_keys(doc, schema, t.table):
            for path, value, _e, lo, hi in tunable_paths(doc, schema, t.table, key):
                step = value + 1 if value + 1 <= hi else value - 1
                if not lo <= step <= hi:
                    continue
                try:
                    v = g.with_overrides({path: step})
                except UserError as e:  # a number owned by a rule option (Suburbia), or a
                    # total the kernels cannot hold (Go Town's 36 building and ? cards)
                    assert "rule option" in str(e) or "at most" in str(e), (path, e)
                    continue
                assert get_path(v.component_document(), schema, path, gid) == step


@pytest.mark.parametrize("gid", GAMES)
def test_impact_links_resolve(gid):
    """The column of every row of every linked table is a per-seat detail column."""
    g = get_game(gid)
    doc, schema = g.component_document(), g.component_schema
    cols = set(g.seat_detail)
    groups = {grp["prefix"] for grp in (g.impact_groups or [])}
    for link in schema.impact:
        assert isinstance(doc[link.table], list), link
        missing = [k for k in row_keys(doc, schema, link.table) if link.column(k) not in cols]
        assert not missing, f"{gid} {link.prefix}{link.table}: no column for {missing}"
        assert link.title
        assert link.prefix in groups or link.prefix == "goal_", link  # suburbia's goals


# ---- bad input ------------------------------------------------------------------------------
def _pick(gid):
    """A list table, a row key, an unsigned whole-number field of it, and a vector field."""
    g = get_game(gid)
    doc, schema = g.component_document(), g.component_schema
    scalar = vector = None
    for t in _list_tables(doc, schema):
        for key, f, v in _fields(doc, schema, t):
            if scalar is None and type(v) is int and f"{t}.{f}" not in schema.signed:
                scalar = (t, key, f, v)
            if vector is None and isinstance(v, list) and f"{t}.{f}" in schema.vectors:
                vector = (t, key, f)
    if vector is None:
        for t, node in doc.items():
            if isinstance(node, dict):
                for f, v in node.items():
                    if isinstance(v, list) and f"{t}.{f}" in schema.vectors:
                        vector = (t, None, f)
                        break
    return g, doc, schema, scalar, vector


def _refused(g, overrides, *must_name):
    with pytest.raises(UserError) as e:
        g.with_overrides(overrides)
    msg = str(e.value)
    for word in must_name:
        assert str(word) in msg, (msg, word)
    return msg


@pytest.mark.parametrize("gid", GAMES)
def test_bad_overrides_name_the_allowed_keys(gid):
    g, doc, schema, scalar, vector = _pick(gid)
    if scalar is None:  # no list table with a whole-number field: test_dict_table_errors covers it
        assert not any(type(v) is int for t in _list_tables(doc, schema)
                       for _, _, v in _fields(doc, schema, t))
        return
    t, key, f, v = scalar
    row = slug(key)
    other_table = list(doc)[-1]
    _refused(g, {"no_such_table.x.y": 1}, "allowed:", t, other_table)
    keys = row_keys(doc, schema, t)
    _refused(g, {f"{t}.no_such_row.{f}": 1}, "allowed:", row, slug(keys[min(1, len(keys) - 1)]))
    _refused(g, {f"{t}.{row}.no_such_field": 1}, "allowed:", f)
    _refused(g, {f"{t}.{row}.{f}": "lots"}, "whole number")
    _refused(g, {f"{t}.{row}.{f}": 1.5}, "whole number")
    _refused(g, {f"{t}.{row}.{f}": -1}, "0 or more")
    _refused(g, {f"{t}.{row}": 1}, "allowed:", f)
    if vector is not None:
        vt, vkey, vf = vector
        base = f"{vt}.{slug(vkey)}.{vf}" if vkey is not None else f"{vt}.{vf}"
        names = schema.vectors[f"{vt}.{vf}"]
        _refused(g, {f"{base}.no_such_part": 1}, "allowed:", names[0], names[-1])


@pytest.mark.parametrize("gid", GAMES)
def test_dict_table_errors(gid):
    g = get_game(gid)
    doc = g.component_document()
    t = next(t for t, v in doc.items() if isinstance(v, dict))
    first = next(iter(doc[t]))
    _refused(g, {f"{t}.no_such_entry": 1}, "allowed:", first)


@pytest.mark.parametrize("gid", GAMES)
def test_override_canonicalises_and_changes_the_data(gid):
    g, doc, schema, scalar, _ = _pick(gid)
    if scalar is None:  # no list table with a whole-number field (see the test above)
        return
    t, key, f, v = scalar
    printed = str(key).upper() if str(key).upper() != str(key) else str(key)
    spelled = f"{t}.{printed.replace('_', ' ')}.{f}"
    new = v - 1 if v > 1 else v + 1
    var = get_game(gid, {spelled: str(new)})
    canon = f"{t}.{slug(key)}.{f}"
    assert var.overrides == {canon: new}
    assert get_path(var.component_document(), schema, canon, gid) == new
    assert get_path(g.component_document(), schema, canon, gid) == v  # the base is untouched
    # the same override spelled canonically gives the same data
    assert get_game(gid, {canon: new}).component_document() == var.component_document()


def test_little_town_canonical_example():
    var = get_game("little-town", {"buildings.Church.vp": 7})
    assert var.overrides == {"buildings.church.vp": 7}


@pytest.mark.parametrize("gid", GAMES)
def test_signed_fields_take_negative_values(gid):
    g = get_game(gid)
    doc, schema = g.component_document(), g.component_schema
    for tf in schema.signed:
        table, _, f = tf.partition(".")
        node = doc[table]
        if isinstance(node, list):
            keyf = schema.keys.get(table, "name")
            r = node[0]
            path = f"{table}.{slug(r[keyf])}.{f}"
            cur = r[f]
        else:
            path, cur = tf, node[f]
        if isinstance(cur, list):
            names = schema.vectors.get(tf, ())
            path += "." + (names[0] if names else "0")
        _, canon = __import__("sim.core.components", fromlist=["x"]).apply_to_document(
            doc, schema, {path: -1}, gid)
        assert list(canon.values()) == [-1]


@pytest.mark.parametrize("gid", GAMES)
def test_text_fields_refuse_numbers(gid):
    g = get_game(gid)
    doc, schema = g.component_document(), g.component_schema
    for t in _list_tables(doc, schema):
        for key, f, v in _fields(doc, schema, t):
            if isinstance(v, str):
                _refused(g, {f"{t}.{slug(key)}.{f}": 5}, "expected text")
                return  # one text field is enough; a game whose rows hold no text has none
