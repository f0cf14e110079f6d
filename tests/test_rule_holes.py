"""Rule holes the engines record (issue 16, item 4): the new result columns and the report rows.

Engine columns, each checked against an independent computation:
  * Little Town ``supply_out_<type>``: a replay of the same games through the public interface,
    reading the supply after every action (tiny runs of random bots);
  * Suburbia ``market_dry_round``/``market_min``/``dry_turns``/``passes``: the same replay,
    reading the market and the pile at the start of every turn; ``pop_lost_unpaid``/
    ``debt_forgiven``: the income and reputation steps on constructed seat rows (exact values);
  * Province ``triggered_end``: ``check_end`` on a constructed state, and a tiny run (one seat
    per finished game, none in a limit game).
Report rows: hand-built result frames, exact counts and intervals.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.doc import Doc
from analysis.report.context import ReportContext
from analysis.stats import wilson_interval
from sim.core.rng import seed_for
from sim.registry import get_game


def _run(game, players, n, seed, names, options=None):
    idx = np.array([[(g + p) % len(names) for p in range(players)] for g in range(n)], np.int64)
    opts = game.resolve_options(options or {})
    return idx, opts, game.run_chunk(0, n, seed, players, idx, opts, names)


def _replay(game, players, g, seed, names, idx, opts, on_state):
    """Replay game ``g`` of a run as the batch loop played it, calling ``on_state(state, a)``
    before each action (``a`` None once over)."""
    state = game.new_state(players, int(seed_for(seed, g, 0)), opts)
    rng = game.bot_rng(int(seed_for(seed, g, 1)))
    while not game.is_terminal(state):
        p = game.current_player(state)
        a = game.choose_action(state, names[idx[g, p]], rng)
        on_state(state, a)
        state = game.apply_action(state, a)
    on_state(state, None)
    return state


# ------------------------------------------------------------------------------ Little Town
def test_little_town_supply_out_matches_a_replay():
    from sim.little_town import constants as K

    game = get_game("little-town")
    names, players, seed, n = ["random"], 4, 11, 6
    idx, opts, res = _run(game, players, n, seed, names)
    cols = [f"supply_out_{r}" for r in K.RES_NAMES]
    assert all(c in game.seat_detail for c in cols)
    seen_out = 0
    for g in range(n):
        want = [0, 0, 0, 0]
        prev = {"round": None}

        def on_state(state, a, want=want, prev=prev):
            if prev["round"] is not None:  # the state after the last action
                for t in range(4):
                    if want[t] == 0 and state.meta[K.M_SUPPLY + t] == 0:
                        want[t] = prev["round"]
            prev["round"] = int(state.meta[K.M_ROUND])

        _replay(game, players, g, seed, names, idx, opts, on_state)
        for t, c in enumerate(cols):
            assert res.seat_detail[c][g].tolist() == [want[t]] * players, (g, c)
        seen_out += sum(1 for w in want if w)
    assert seen_out > 0  # the seed was chosen so that some supply runs out


# ------------------------------------------------------------------------------ Suburbia
def test_suburbia_market_and_pass_columns_match_a_replay():
    from sim.suburbia import constants as K

    game = get_game("suburbia")
    names, players, seed, n = ["random"], 4, 5, 12
    idx, opts, res = _run(game, players, n, seed, names)
    dry_games = 0
    for g in range(n):
        st = {"turn": -1, "dry_round": 0, "min": K.NSLOTS, "dry": [0] * players,
              "passes": [0] * players}

        def on_state(state, a, st=st):
            if a is None:
                return
            m = state.meta
            c = int(m[K.M_CUR])
            if int(m[K.M_TURN]) != st["turn"]:
                st["turn"] = int(m[K.M_TURN])
                k = int((state.market[:K.NSLOTS] != 0).sum())
                st["min"] = min(st["min"], k)
                if m[K.M_PILEN] == 0 and k < K.NSLOTS:
                    st["dry"][c] += 1
                    st["dry_round"] = st["dry_round"] or int(m[K.M_ROUND])
            if a == K.A_PASS:
                st["passes"][c] += 1

        _replay(game, players, g, seed, names, idx, opts, on_state)
        d = res.seat_detail
        assert d["market_dry_round"][g].tolist() == [st["dry_round"]] * players
        assert d["market_min"][g].tolist() == [st["min"]] * players
        assert d["dry_turns"][g].tolist() == st["dry"]
        assert d["passes"][g].tolist() == st["passes"]
        dry_games += st["dry_round"] > 0
    assert dry_games > 0  # the seed was chosen so that the market runs dry at least once


@pytest.mark.parametrize("rep_debt, money, income, rep, pop, want", [
    # income -5 with $2 and population 1: $3 missing, 1 population lost, $2 forgiven
    ("pay_what_you_have", 2, -5, 0, 1, dict(money=0, pop=0, unpaid=1, forgiven=2)),
    # income -3 with $5: paid in full, nothing recorded
    ("pay_what_you_have", 5, -3, 0, 4, dict(money=2, pop=4, unpaid=0, forgiven=0)),
    # income -4 with $1 and population 6: 3 population lost, nothing forgiven
    ("pay_what_you_have", 1, -4, 0, 6, dict(money=0, pop=3, unpaid=3, forgiven=0)),
    # reputation -3 at population 0 with $1: pays $1, $2 forgiven (D19 default)
    ("pay_what_you_have", 1, 0, -3, 0, dict(money=0, pop=0, unpaid=0, forgiven=2)),
    # the same under all_or_nothing: pays nothing, $3 forgiven
    ("all_or_nothing", 1, 0, -3, 0, dict(money=1, pop=0, unpaid=0, forgiven=3)),
    # reputation -3 at population 1 with $5, all_or_nothing: 2 steps below 0 paid in full
    ("all_or_nothing", 5, 0, -3, 1, dict(money=3, pop=0, unpaid=0, forgiven=0)),
])
def test_suburbia_unpaid_income_and_forgiven_debt(rep_debt, money, income, rep, pop, want):
    from sim.suburbia import constants as K
    from sim.suburbia.kernels import derived_arrays, income_rep_steps

    game = get_game("suburbia")
    s = game.new_state(2, 1, game.resolve_options({"rep_debt": rep_debt}))
    kt, pd = derived_arrays(s)
    c = 1
    s.pl[c, K.P_MONEY], s.pl[c, K.P_INC], s.pl[c, K.P_REP] = money, income, rep
    s.pl[c, K.P_POP] = pop
    s.pl[c, K.P_HIGH] = pop
    income_rep_steps(s.meta, s.opts, s.tiles, s.lines, s.consts, s.pl, s.tk, pd, c)
    got = dict(money=int(s.pl[c, K.P_MONEY]), pop=int(s.pl[c, K.P_POP]),
               unpaid=int(s.pl[c, K.P_UNPAID]), forgiven=int(s.pl[c, K.P_FORGIVEN]))
    assert got == want
    assert s.pl[0, K.P_UNPAID] == s.pl[0, K.P_FORGIVEN] == 0


def test_suburbia_columns_in_a_run_are_the_seat_rows():
    from sim.suburbia import constants as K

    game = get_game("suburbia")
    names, players, seed, n = ["random"], 3, 2, 4
    idx, opts, res = _run(game, players, n, seed, names)
    for g in range(n):
        state = _replay(game, players, g, seed, names, idx, opts, lambda s, a: None)
        assert res.seat_detail["pop_lost_unpaid"][g].tolist() == \
            state.pl[:players, K.P_UNPAID].tolist()
        assert res.seat_detail["debt_forgiven"][g].tolist() == \
            state.pl[:players, K.P_FORGIVEN].tolist()


# ------------------------------------------------------------------------------ Province
def test_province_check_end_records_the_triggering_seat():
    from sim.province import constants as K
    from sim.province.kernels import check_end

    game = get_game("province")
    s = game.new_state(2, 3, game.resolve_options({}))
    x = s.x
    x[K.M_CUR] = 1
    check_end(x)
    assert (x[K.M_TRIG], x[K.M_TSEAT]) == (K.END_NONE, 0)
    assert x[K.X_CONSTS + K.C_TOKENS] == 7
    for k in range(7):  # seat 1 owns 7 structures: all its tokens
        x[K.X_OWN + 1 * K.NS + k] = 1
    check_end(x)
    assert (x[K.M_TRIG], x[K.M_TSEAT]) == (K.END_SEVEN, 2)
    x[K.M_CUR] = 0
    check_end(x)  # the first trigger stays, and so does its seat
    assert (x[K.M_TRIG], x[K.M_TSEAT]) == (K.END_SEVEN, 2)


def test_province_triggered_end_in_a_run():
    game = get_game("province")
    names, n = ["random", "greedy"], 40
    for options in ({}, {"max_turns": 10}):
        idx, opts, res = _run(game, 2, n, 9, names, options)
        trig = res.seat_detail["triggered_end"]
        limit = res.end_reason == game.end_reasons.index("limit")
        assert set(np.unique(trig).tolist()) <= {0, 1}
        assert trig[limit].sum() == 0
        assert (trig[~limit].sum(axis=1) == 1).all()
    assert int(limit.sum()) == 39  # max_turns = 10: one game (4) reaches a trigger in time


# ------------------------------------------------------------------------------ reports
def _ctx(tmp_path, games: pl.DataFrame, seats: pl.DataFrame, manifests=None) -> ReportContext:
    return ReportContext(Doc(), games.lazy(), seats.lazy(), ["r"], manifests or [{}],
                         {0: "main"}, str(tmp_path), {}, [], [])


def _seats(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows).with_columns(pl.col("run").cast(pl.Int32))


def test_little_town_supply_rule_holes_exact(tmp_path):
    from analysis.games.little_town.holes import supply_rule_holes

    rows = []
    outs = {0: dict(wood=2), 1: {}, 2: dict(fish=4, wood=3), 3: {}}  # 3 players, 4 games
    for g, out in outs.items():
        for seat in range(3):
            rows.append(dict(run=0, game=g, players=3, seat=seat,
                             **{f"supply_out_{r}": out.get(r, 0)
                                for r in ("wood", "stone", "fish", "wheat")}))
    rows += [dict(run=0, game=9, players=2, seat=s, supply_out_wood=0, supply_out_stone=0,
                  supply_out_fish=0, supply_out_wheat=0) for s in range(2)]
    ctx = _ctx(tmp_path, pl.DataFrame(), _seats(rows))
    st = supply_rule_holes(ctx, ctx.seats)
    # issue 26: the seed rules the empty supply (spec §3): designed scarcity, not a rule hole
    # with the fix "add cubes"
    assert ctx.rule_holes == []
    assert any("designed scarcity" in b[1] for b in ctx.doc.blocks if b[0] == "p")
    r = st.filter(pl.col("players") == 3).row(0, named=True)
    assert (r["wood"], r["stone"], r["fish"], r["first_round"]) == (2, 0, 1, 2.5)
    lo, hi = wilson_interval(2, 4)
    assert (r["lo"], r["hi"]) == pytest.approx((lo.item(), hi.item()))


def test_little_town_supply_not_recorded_in_old_runs(tmp_path):
    from analysis.games.little_town.holes import supply_rule_holes

    seats = _seats([dict(run=0, game=0, players=3, seat=s, score=1) for s in range(3)])
    ctx = _ctx(tmp_path, pl.DataFrame(), seats)
    assert supply_rule_holes(ctx, ctx.seats).is_empty()
    assert ctx.rule_holes == []
    assert any("Not recorded in these runs" in b[1] for b in ctx.doc.blocks if b[0] == "p")


def test_suburbia_rule_holes_exact(tmp_path):
    from analysis.games.suburbia.holes import suburbia_rule_holes

    # 4 players, 3 games: G0 dry from round 14 (min 5 tiles; seats 2 and 3 had a dry turn),
    # seat 1 lost 2 population to unpaid income and then had $3 forgiven; G1 clean; G2 seat 0
    # passed once and lost 4 population. Plus one 2-player game, clean.
    base = dict(market_dry_round=0, market_min=7, dry_turns=0, pop_lost_unpaid=0,
                debt_forgiven=0, passes=0)
    spec = {(0, 1): dict(pop_lost_unpaid=2, debt_forgiven=3), (0, 2): dict(dry_turns=1),
            (0, 3): dict(dry_turns=1), (2, 0): dict(passes=1, pop_lost_unpaid=4)}
    game_level = {0: dict(market_dry_round=14, market_min=5)}
    rows = [dict(run=0, game=g, players=4, seat=s,
                 **{**base, **game_level.get(g, {}), **spec.get((g, s), {})})
            for g in range(3) for s in range(4)]
    rows += [dict(run=0, game=7, players=2, seat=s, **base) for s in range(2)]
    ctx = _ctx(tmp_path, pl.DataFrame(), _seats(rows))
    st = suburbia_rule_holes(ctx, ctx.seats)
    got = [(h["finding"], h["count"], h["n"]) for h in ctx.rule_holes]
    assert got == [
        ("2 players: the market ran dry", 0, 1),
        ("2 players: a player at population 0 could not pay and the debt was forgiven", 0, 1),
        ("2 players: a player had no legal action but PASS", 0, 1),
        ("4 players: the market ran dry (a turn began with the pile empty and as few as 5 of 7 "
         "tiles on offer)", 1, 3),
        ("4 players: a player at population 0 could not pay and the debt was forgiven", 1, 3),
        ("4 players: a player had no legal action but PASS", 1, 3)]
    r = st.filter(pl.col("players") == 4).row(0, named=True)
    assert (r["unpaid"], r["seat_n"], r["market_min"], r["unpaid_pop"]) == (2, 12, 5, 3.0)
    assert r["dry_seat"] == pytest.approx(2 / 12) and r["unpaid_seat"] == pytest.approx(2 / 12)
    assert 0 <= r["dry_seat_lo"] <= r["dry_seat"] <= r["dry_seat_hi"] <= 1
    r2 = st.filter(pl.col("players") == 2).row(0, named=True)
    lo, hi = wilson_interval(0, 1)  # a share of 0: the Wilson bound over the games
    assert (r2["floor_seat"], r2["floor_seat_lo"], r2["floor_seat_hi"]) == pytest.approx(
        (0.0, 0.0, hi.item()))


def test_province_trigger_rule_hole_exact(tmp_path):
    from analysis.games.province.holes import trigger_rule_holes

    # 5 games: G0-G2 seat 0 triggers (seven_structures) and wins G0, G1; G2 seat 1 wins;
    # G3 seat 1 triggers (goals) and the seats share the win; G4 stopped at the limit.
    games = pl.DataFrame(dict(
        run=[0] * 5, game=list(range(5)), first_player=[0] * 5,
        end_reason=["seven_structures"] * 3 + ["goals", "limit"])).with_columns(
        pl.col("run").cast(pl.Int32))
    trig = {0: 0, 1: 0, 2: 0, 3: 1}
    share = {0: (1.0, 0.0), 1: (1.0, 0.0), 2: (0.0, 1.0), 3: (0.5, 0.5), 4: (0.0, 0.0)}
    seats = _seats([dict(run=0, game=g, players=2, seat=s, win_share=share[g][s],
                         triggered_end=int(trig.get(g) == s)) for g in range(5) for s in range(2)])
    ctx = _ctx(tmp_path, games, seats, [{"options": {}}])
    st = trigger_rule_holes(ctx, [0])
    (h,) = ctx.rule_holes
    assert (h["count"], h["n"], h["unit"]) == (2, 4, "games")
    assert "final_turn = opponent_last_turn" in h["fix"]
    rows = {r["trigger"]: (r["n"], r["won"], r["first"]) for r in st.iter_rows(named=True)}
    assert rows == {"all": (4, 2, 3), "seven_structures": (3, 2, 3), "goals": (1, 0, 0)}
    # a run that gives the opponent its last turn has no such hole
    ctx2 = _ctx(tmp_path, games, seats, [{"options": {"final_turn": "opponent_last_turn"}}])
    trigger_rule_holes(ctx2, [0])
    assert ctx2.rule_holes == []


def test_resuming_a_run_written_before_the_columns_is_refused(tmp_path):
    from sim.core.errors import UserError
    from sim.runner import simulate

    out = tmp_path / "run"
    simulate("little-town", 40, 2, ["random"], seed=3, jobs=1, chunk_size=20, out=out)
    # make it an interrupted run of an older boardsim: chunk 1 missing, chunk 0 without the
    # rule-hole columns
    for table in ("games", "seats"):
        (out / table / "chunk-000001.parquet").unlink()
    f = out / "seats" / "chunk-000000.parquet"
    pl.read_parquet(f).drop([f"supply_out_{r}" for r in ("wood", "stone", "fish", "wheat")]) \
        .write_parquet(f)
    with pytest.raises(UserError, match="without the seat column 'supply_out_wood' "
                                        r"\(4 missing\).*new folder"):
        simulate("little-town", 40, 2, ["random"], seed=3, jobs=1, chunk_size=20, out=out)
