"""The compiled soak (sim/soak.py, strategies/soak.py) and the compiled invariants kernels
(sim/<game>/invariants.py): the kernels agree with the plain-numpy laws (each game's
``invariants``, tests/games/<package>.py) on played and corrupted states; the compiled loop plays exactly
the games ``boardsim replay`` replays; a planted violation is found and its replay command
printed."""

from __future__ import annotations

import numpy as np
import pytest

import sim
from analysis.cli import main as cli_main
from sim.core import entry
from tests import games as H

GAMES = sim.list_games()


def _run_cli(capsys, *args) -> tuple[int, str, str]:
    try:
        cli_main([str(a) for a in args])
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    out = capsys.readouterr()
    return code, out.out, out.err


def _ref_ok(gid: str, s) -> bool:
    laws = H.hooks(sim.get_game(gid)).invariants  # a game without them fails, naming the file
    try:
        laws(s)
    except (AssertionError, IndexError, ValueError):
        return False
    return True


def _played_states(g, per_game: int, seed: int) -> list:
    """States along a few random-play games of every player count."""
    out = []
    rnd = np.random.default_rng(seed)
    for n in range(g.min_players, g.max_players + 1):
        s = g.new_state(n, seed + n)
        states = [s]
        while not g.is_terminal(s):
            legal = g.legal_actions(s)
            s = g.apply_action(s, int(legal[rnd.integers(len(legal))]))
            states.append(s)
        pick = rnd.choice(len(states), size=min(per_game, len(states)), replace=False)
        out += [states[i] for i in sorted(pick)] + [states[-1]]
    return out


@pytest.mark.parametrize("gid", GAMES)
def test_compiled_and_numpy_invariants_agree(gid):
    """On 60+ played states per game (both hold), and on each of them corrupted at one int
    element by +-1 (the kernel says broken exactly where the numpy laws do)."""
    g = sim.get_game(gid)
    states = _played_states(g, 60 // (g.max_players - g.min_players + 1), 5)
    assert len(states) >= 60
    rnd = np.random.default_rng(11)
    broken = agree = 0
    for s in states:
        assert entry.invariants(s) == 0
        assert _ref_ok(gid, s)
        g.check_invariants(s)
        for _ in range(3):
            c = g.copy_state(s)
            fields = [f for f in c._fields if f != "rng" and getattr(c, f).size]
            arr = getattr(c, fields[rnd.integers(len(fields))]).reshape(-1)
            j = int(rnd.integers(arr.size))
            arr[j] += 1 if rnd.integers(2) else -1
            code = int(entry.invariants(c))
            assert code >= 0
            assert (code == 0) == _ref_ok(gid, c), (gid, j, code)
            broken += code != 0
            agree += 1
    assert broken > 0 and agree >= 180


def test_check_invariants_names_the_law():
    g = sim.get_game("go-town")
    s = g.new_state(3, 4)
    s.discard[1] += 1
    with pytest.raises(AssertionError, match=r"cards not conserved .* \(invariant code 2\)"):
        g.check_invariants(s)
    s = g.new_state(3, 4)
    s.meta[0] = 9  # 9 players: a field out of range, never read out of bounds
    with pytest.raises(AssertionError, match=r"a field out of range .*invariant code 1\)"):
        g.check_invariants(s)


@pytest.mark.parametrize("gid", GAMES)
def test_compiled_soak_plays_the_replayed_games(gid, n=5):
    """The compiled loop and the Python interface (``play_checked``, what ``boardsim replay``
    plays) take exactly as many decisions in every game, default rotation and named bots."""
    from sim.soak import soak, soak_python

    for kw in ({}, {"strategies": [sim.get_game(gid).pool_strategies[-1]]}):
        a = soak(gid, n, seed=7, first=3, chunk=5, **kw)
        b = soak_python(gid, n, seed=7, first=3, **kw)
        assert (a.games, a.violations) == (n, []) and (b.games, b.violations) == (n, [])
        assert a.decisions == b.decisions
        per_game = [soak(gid, 1, seed=7, first=i, **kw).decisions for i in range(3, 3 + n)]
        assert sum(per_game) == a.decisions


def test_soak_results_do_not_depend_on_chunks_or_jobs():
    from sim.soak import soak

    a = soak("province", 40, seed=1, chunk=40)
    b = soak("province", 40, seed=1, chunk=7, jobs=2)
    assert (a.games, a.decisions) == (b.games, b.decisions) == (40, a.decisions)


def test_planted_violation_found_with_its_replay_command(capsys, monkeypatch):
    """A test build of Go Town whose fresh states count one card of the unused type 0: every
    game breaks card conservation after its set-up; the soak names each game and the command
    that replays it (which, on the real game, plays cleanly)."""
    g = sim.get_game("go-town")
    cls = type(g)
    real_alloc = cls._alloc

    def broken_alloc(self, resolved):
        s = real_alloc(self, resolved)
        s.counts[0] = 1
        return s

    monkeypatch.setattr(cls, "_alloc", broken_alloc)
    code, out, err = _run_cli(capsys, "soak", "go-town", "-n", "3", "--seed", "4", "--first",
                              "10", "-q")
    assert code == 1, err
    lines = out.splitlines()
    assert lines[0].startswith("soak go-town: 3 games, 0 decisions checked") and \
        lines[0].endswith("3 violation(s)")
    assert lines[1] == ("game 10: invariant broken after decision 0: cards not conserved "
                        "(deck + discard + hands + floors + dogs + milkshakes != the counts) "
                        "(invariant code 2)")
    assert lines[2].startswith("  replay: boardsim replay go-town -p 3 -s ") and \
        lines[2].endswith(" --seed 4 --index 10")
    monkeypatch.undo()
    cmd = lines[2].split("replay: ")[1].split()[1:]
    code, out, err = _run_cli(capsys, *cmd, "-q")
    assert code == 0, err


@pytest.mark.parametrize("gid", GAMES)
def test_planted_endless_game_found_mid_game(monkeypatch, gid):
    """A game longer than its declared maximum (the maximum lowered to 5 in a test build) is
    a violation after decision 6, with the replay command of that game (each game's loop,
    its own in ``strategies/<game>/batch.py`` or the generic one, ``soak_chunk``)."""
    from sim.soak import play_checked, soak

    g = sim.get_game(gid)
    p1 = g.min_players + 1 % (g.max_players - g.min_players + 1)  # game 1's players (sim/soak.py)
    monkeypatch.setattr(type(g), "max_game_length", lambda self, options=None: 5)
    res = soak(gid, 2, seed=5)
    assert [(i, m) for i, m, _ in res.violations] == [
        (0, "no end within max_game_length (after decision 6)"),
        (1, "no end within max_game_length (after decision 6)")]
    assert (res.games, res.decisions) == (2, 12)
    cmd = res.violations[1][2]
    assert cmd.startswith(f"boardsim replay {gid} -p {p1} -s ") and cmd.endswith("--index 1")
    names = cmd.split(" -s ")[1].split(" ")[0].split(",")
    steps, err = play_checked(g, p1, names, 5, 1, g.resolve_options({}))
    assert (steps, err) == (6, "no end within max_game_length 5")


def test_planted_violation_found_by_a_batch_kernel_loop(monkeypatch):
    """Province's own soak loop (strategies/province/batch.py) with a test build whose
    ``coin_total`` is 0: the seats' starting coins break the coin law right after the set-up
    in every game, and the loop stops at ``max_violations``."""
    from sim.province import constants as K
    from sim.soak import soak

    g = sim.get_game("province")
    cls = type(g)
    real_alloc = cls._alloc

    def broken_alloc(self, resolved):
        s = real_alloc(self, resolved)
        s.x[K.X_OPTS + K.O_COIN_TOTAL] = 0
        return s

    monkeypatch.setattr(cls, "_alloc", broken_alloc)
    res = soak("province", 10, seed=3, first=4, max_violations=3)
    msg = ("invariant broken after decision 0: coins negative or more than coin_total in play "
           "(invariant code 1)")
    assert [(i, m) for i, m, _ in res.violations] == [(4, msg), (5, msg), (6, msg)]
    assert (res.games, res.decisions) == (3, 0)
    assert res.violations[2][2].endswith("--seed 3 --index 6")


def test_soak_command_inputs(capsys):
    code, out, err = _run_cli(capsys, "soak", "province", "-n", "4", "--seed", "1", "-q")
    assert code == 0, err
    assert out.startswith("soak province: 4 games, ") and "0 violation(s)" in out
    for args, text in ((["-n", "0"], "-n (games) must be in"), (["--seed", "-3"], "--seed"),
                       (["--jobs", "0"], "--jobs must be"), (["-p", "3"], "players"),
                       (["-s", "nobody"], "nobody"), (["-s", "random,random,random"], "players")):
        code, out, err = _run_cli(capsys, "soak", "province", *args)
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (args, err)
        assert text in lines[0], lines[0]
