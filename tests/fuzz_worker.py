"""Fuzz worker, run in a child process by tests/test_fuzz.py (a crash fails the test, not the
suite): ``python -m tests.fuzz_worker GAME MODES EXAMPLES SEED CURRENT_FILE``.

MODE ``state``: a mid-game state dict (random play from a few seeds and player counts) with one
to three fields mutated (every leaf and every list of the dict: boundary and out-of-range
integers, wrong types, lists made longer, shorter or emptied, other names). ``state_from_dict``
must refuse the mutant with ``UserError`` or return a state that plays to the end (random legal
actions) with ``check_invariants`` holding after every decision, within ``max_game_length``.

MODE ``override``: one or two component-data override paths of the game (every number of
``component_document``) set to boundary and out-of-range values, as ``--set`` text or as TOML
values. ``get_game(id, overrides)`` must refuse with ``UserError`` or give a game whose batch
loop plays a few games of every player count and whose interface plays one game to the end with
its invariants holding.

MODE ``extremes``: every numeric override path alone at a few values inside and at the edges
of its stated range (deterministic).

MODE ``bots``: multi-field mutants (2 to 5 fields of a mid-game state dict changed at once,
drawn by ``random.Random(SEED)``, no shrinking: fast enough for the benchmark's 100,000 per
game). ``state_from_dict`` must refuse with ``UserError`` or accept; on an accepted mutant
``choose_action`` of every bot of the game (the search bot ``mcts`` included) must return a legal
action (or refuse with ``UserError``) within ``BOARDSIM_FUZZ_DECISION_SECONDS`` (default 60)
of wall time, a watchdog (SIGALRM) that ends the process on a hang; any other exception is a
failure. Prints the counts, the slowest decision's CPU time and the decisions over 5 s of CPU
(each decision over 1 s is printed with its mutant, and its whole state dict appended to
``CURRENT_FILE`` with the suffix ``.slow.jsonl``), and the mutant loop's wall and CPU time.
``BOARDSIM_FUZZ_BUDGET``: the search bots' playouts per decision (default: each bot's own);
``BOARDSIM_FUZZ_SECONDS`` / ``BOARDSIM_FUZZ_STOP_AT`` (epoch seconds): end the loop early
(the counts say how many mutants were made).

Before each example the mutant is written to CURRENT_FILE (JSON), so the parent can name the
mutant that crashed the process (emptied at a clean end). Prints ``fuzz GAME MODE: N examples, R refused, P played`` and
exits 0, or prints the failures and exits 1. Examples are chosen by hypothesis, seeded with
SEED (the same examples each run for a given SEED).
"""

from __future__ import annotations

import copy
import json
import random
import signal
import sys
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hseed
from hypothesis import strategies as st

import sim
from sim.core.errors import UserError

I32, I64 = 2**31, 2**63
# a kernel caught in an endless loop never returns to Python: SIGALRM without a handler then
# ends the process (the parent names the mutant from CURRENT_FILE)
EXAMPLE_SECONDS = 120
INTS = (-1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 14, 15, 17, 18, 19, 24, 25, 26, 31, 32, 40,
        50, 51, 52, 53, 54, 55, 64, 99, 100, 127, 128, 255, 256, 1000, 10**6, I32 - 1, I32,
        -I32, I64 - 1, I64, -I64, 2**64, -(2**64), 10**30, -2, -3, -100)
ODD = (None, "x", "", 1.5, float("nan"), float("inf"), True, False, [], {}, [1], {"a": 1},
       "0x", "-1", "1e9", "9" * 40)


def _paths(node, prefix=()):
    """Every path into ``node``: leaves, and lists/dicts themselves."""
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


def _strings(node, acc):
    if isinstance(node, str):
        acc.add(node)
    elif isinstance(node, dict):
        for k, v in node.items():
            acc.add(str(k))
            _strings(v, acc)
    elif isinstance(node, list):
        for v in node:
            _strings(v, acc)
    return acc


def _get(d, path):
    for p in path:
        d = d[p]
    return d


def _set(d, path, value):
    _get(d, path[:-1])[path[-1]] = value


def _new_value(draw, old, strings):
    """A replacement for ``old``: near it, a boundary int, an odd type or another name."""
    kind = draw(st.integers(0, 9))
    if isinstance(old, list) and kind < 6:
        op = draw(st.integers(0, 5))
        new = list(old)
        if op == 0:
            return []
        if op == 1 and new:
            new.pop(draw(st.integers(0, len(new) - 1)))
            return new
        if op == 2 and new:
            return new + [copy.deepcopy(new[draw(st.integers(0, len(new) - 1))])]
        if op == 3:
            return new + [draw(st.sampled_from(INTS))]
        if op == 4:
            return new * draw(st.sampled_from((2, 3, 50)))
        return [copy.deepcopy(new[0]) if new else 0] * draw(st.sampled_from((1, 60, 300)))
    if isinstance(old, dict) and kind < 5:
        new = dict(old)
        if new and draw(st.booleans()):
            new.pop(draw(st.sampled_from(sorted(new, key=str))))
        else:
            new[draw(st.sampled_from(sorted(strings)))] = draw(st.sampled_from(INTS))
        return new
    if isinstance(old, bool) and kind < 5:
        return not old
    if isinstance(old, int) and not isinstance(old, bool) and kind < 8:
        if kind < 4:
            return old + draw(st.sampled_from((-3, -2, -1, 1, 2, 3, 10, 100)))
        return draw(st.sampled_from(INTS))
    if isinstance(old, str) and kind < 7:
        return draw(st.sampled_from(sorted(strings)))
    if kind == 9:
        return draw(st.sampled_from(ODD))
    return draw(st.sampled_from(INTS))


def _play_checked(game, s, limit: int, rnd: random.Random) -> str | None:
    """Random legal play to the end with the invariants after every decision; a message on a
    failure (an exception other than a refusal, an invariant, or no end within ``limit``)."""
    steps = 0
    while not game.is_terminal(s):
        legal = game.legal_actions(s)
        if len(legal) == 0:
            return "no legal action in a running game"
        s = game.apply_action(s, int(legal[rnd.randrange(len(legal))]))
        game.check_invariants(s)
        steps += 1
        if steps > limit:
            return f"no end within {limit} decisions"
    return None


def _batch_and_play(game, strategies: list[str], seed: int, n_games: int,
                    players: int) -> tuple[bool, str | None]:
    """An accepted game's checks: ``n_games`` games of its batch loop at every player count
    (``strategies`` rotated over the seats), then one game of ``players`` players played by
    ``_play_checked``. Returns (refused, failure): refused if a step raised ``UserError``; the
    failure is any other exception's type and text or ``_play_checked``'s message (None if
    none)."""
    try:
        for n in range(game.min_players, game.max_players + 1):
            idx = np.arange(n_games * n, dtype=np.int64).reshape(n_games, n) % len(strategies)
            game.run_chunk(0, n_games, seed, n, idx, {}, strategies)
        s = game.new_state(players, seed)
        game.check_invariants(s)
        return False, _play_checked(game, s, game.max_game_length() + 10, random.Random(seed))
    except UserError:
        return True, None
    except Exception as e:  # noqa: BLE001
        return False, f"{type(e).__name__}: {e}"


def _base_states(game, count: int, seed: int) -> list[dict]:
    """Mid-game state dicts: random play for a few player counts and lengths."""
    out = []
    rnd = random.Random(seed)
    for i in range(count):
        n = game.min_players + i % (game.max_players - game.min_players + 1)
        s = game.new_state(n, 1000 + seed + i)
        stop = rnd.randrange(1, 400)
        k = 0
        while not game.is_terminal(s) and k < stop:
            legal = game.legal_actions(s)
            s = game.apply_action(s, int(legal[rnd.randrange(len(legal))]))
            k += 1
        if game.is_terminal(s):  # keep a running game
            s = game.new_state(n, 2000 + seed + i)
        out.append(json.loads(json.dumps(game.state_to_dict(s))))
    return out


def run_state(gid: str, examples: int, seed: int, current: Path) -> tuple[dict, list[str]]:
    game = sim.get_game(gid)
    bases = _base_states(game, 6, seed)
    for b in bases:  # every state of real play is accepted
        game.state_from_dict(copy.deepcopy(b))
    per_base = [(_paths(b), sorted(_strings(b, set()))) for b in bases]
    limit = game.max_game_length() + 10
    stats = {"examples": 0, "refused": 0, "played": 0}
    failures: list[str] = []

    @hseed(seed)
    @settings(max_examples=examples, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(st.data())
    def prop(data):
        b = data.draw(st.integers(0, len(bases) - 1))
        d = copy.deepcopy(bases[b])
        paths, strings = per_base[b]
        muts = []
        for _ in range(data.draw(st.sampled_from((1, 1, 1, 2, 3)))):
            paths_now = _paths(d)
            path = data.draw(st.sampled_from(paths_now if paths_now else paths))
            try:
                old = _get(d, path)
            except (KeyError, IndexError, TypeError):
                continue
            new = copy.deepcopy(_new_value(data.draw, old, strings))  # never share ODD's lists
            _set(d, path, new)
            muts.append([list(path), repr(new)[:80]])
        current.write_text(json.dumps({"game": gid, "mode": "state", "base": b,
                                       "mutations": muts}, default=repr))
        signal.alarm(EXAMPLE_SECONDS)
        stats["examples"] += 1
        try:
            s = game.state_from_dict(d)
        except UserError as e:
            msg = str(e)
            assert "\n" not in msg, f"multi-line UserError: {msg!r}"
            stats["refused"] += 1
            return
        except Exception as e:  # noqa: BLE001 - the fuzz reports any other exception
            failures.append(f"{muts}: state_from_dict raised {type(e).__name__}: {e}")
            return
        try:
            err = _play_checked(game, s, limit, random.Random(seed))
        except Exception as e:  # noqa: BLE001
            err = f"{type(e).__name__}: {e}"
        if err:
            failures.append(f"{muts}: accepted, then {err}")
        stats["played"] += 1

    prop()
    return stats, failures


def _warm_up(game, strategies: list[str], seed: int) -> None:
    """Compile the batch loop before the per-example watchdog starts (a first compile under
    load, or under NUMBA_BOUNDSCHECK, takes minutes)."""
    for n in range(game.min_players, game.max_players + 1):
        idx = np.arange(n, dtype=np.int64).reshape(1, n) % len(strategies)
        game.run_chunk(0, 1, seed, n, idx, {}, strategies)


def _override_values(old) -> list:
    if isinstance(old, bool):
        return [not old, "maybe", 2]
    if isinstance(old, int):
        return [old + 1, old - 1, old * 2, 0, -1, 1] + list(INTS) + ["abc", "1.5", 1.5, ""]
    if isinstance(old, float):
        return [0.0, -1.0, 1e300, float("nan"), float("inf"), "x"]
    if isinstance(old, str):
        return ["", "none", "x" * 300, "$\\frac{1}{2}$", "<b>", "1", old.upper()]
    if isinstance(old, list):
        return [[], old + old, [0] * 500, "1,2", [-1] * len(old), [I64] * len(old),
                [10**6] * len(old), list(reversed(old))]
    return [None, 0, "x"]


def run_override(gid: str, examples: int, seed: int, current: Path) -> tuple[dict, list[str]]:
    from sim.core.components import slug

    base = sim.get_game(gid)
    doc = base.component_document()
    schema = base.component_schema
    leaves = []  # (path text, old value)
    for table, node in doc.items():
        if isinstance(node, list):
            keyf = schema.keys.get(table, "name")
            for r in node:
                for f, v in r.items():
                    if f == keyf:
                        continue
                    p = f"{table}.{slug(r[keyf])}.{f}"
                    leaves.append((p, v))
                    if isinstance(v, list):
                        leaves += [(f"{p}.{i}", x) for i, x in enumerate(v)]
        elif isinstance(node, dict):
            for f, v in node.items():
                leaves.append((f"{table}.{f}", v))
                if isinstance(v, list):
                    leaves += [(f"{table}.{f}.{i}", x) for i, x in enumerate(v)]
    stats = {"examples": 0, "refused": 0, "played": 0}
    failures: list[str] = []
    strategies = base.pool_strategies
    _warm_up(base, strategies, seed)

    @hseed(seed)
    @settings(max_examples=examples, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(st.data())
    def prop(data):
        ov = {}
        for _ in range(data.draw(st.sampled_from((1, 1, 2)))):
            path, old = data.draw(st.sampled_from(leaves))
            v = data.draw(st.sampled_from(_override_values(old)))
            if data.draw(st.booleans()) and not isinstance(v, str):
                v = json.dumps(v) if isinstance(v, (list, bool)) else str(v)  # --set text
            ov[path] = v
        current.write_text(json.dumps({"game": gid, "mode": "override", "overrides": ov},
                                      default=repr))
        signal.alarm(EXAMPLE_SECONDS)
        stats["examples"] += 1
        try:
            game = sim.get_game(gid, ov)
        except UserError as e:
            assert "\n" not in str(e), f"multi-line UserError: {e!r}"
            stats["refused"] += 1
            return
        except Exception as e:  # noqa: BLE001
            failures.append(f"{ov}: get_game raised {type(e).__name__}: {e}")
            return
        refused, err = _batch_and_play(game, strategies, seed, 3, game.min_players)
        if refused:
            stats["refused"] += 1
            return
        if err:
            failures.append(f"{ov}: accepted, then {err}")
        stats["played"] += 1

    prop()
    return stats, failures


def run_extremes(gid: str, examples: int, seed: int, current: Path) -> tuple[dict, list[str]]:
    """Every numeric override path alone at each of a few values inside and at the edges of
    its allowed range (deterministic; ``examples`` is ignored)."""
    from sim.core.components import DEFAULT_LIMIT, DEFAULT_SIGNED_LIMIT, slug

    base = sim.get_game(gid)
    doc = base.component_document()
    schema = base.component_schema
    cases = []
    for table, node in doc.items():
        rows = ([(f"{table}.{slug(r[schema.keys.get(table, 'name')])}", r) for r in node]
                if isinstance(node, list) else [(table, node)])
        for prefix, r in rows:
            for f, v in r.items():
                tf = f"{table}.{f}"
                lo, hi = schema.limits.get(tf) or (
                    DEFAULT_SIGNED_LIMIT if tf in schema.signed else DEFAULT_LIMIT)
                vals = sorted({lo, hi, 0, 1, 2, 5, 10, 20, 50, 100, hi - 1} & set(
                    range(lo, hi + 1)))
                items = [(f"{prefix}.{f}", x) for x in v] if isinstance(v, list) else \
                    [(f"{prefix}.{f}", v)]
                for i, (p, x) in enumerate(items):
                    if isinstance(x, bool) or not isinstance(x, int):
                        continue
                    pp = f"{p}.{i}" if isinstance(v, list) else p
                    cases += [(pp, str(y)) for y in vals]
    stats = {"examples": 0, "refused": 0, "played": 0}
    failures: list[str] = []
    strategies = base.pool_strategies
    _warm_up(base, strategies, seed)
    import os

    skip_file = os.environ.get("FUZZ_SKIP_PATHS")
    skip = set(Path(skip_file).read_text().split()) if skip_file and Path(skip_file).exists() \
        else set()
    for path, val in cases:
        if path in skip:
            continue
        ov = {path: val}
        current.write_text(json.dumps({"game": gid, "mode": "extremes", "overrides": ov}))
        signal.alarm(EXAMPLE_SECONDS)
        stats["examples"] += 1
        try:
            game = sim.get_game(gid, ov)
        except UserError:
            stats["refused"] += 1
            continue
        refused, err = _batch_and_play(game, strategies, seed, 2, game.max_players)
        if refused:
            stats["refused"] += 1
            continue
        if err:
            failures.append(f"{ov}: accepted, then {err}"[:300])
        stats["played"] += 1
    return stats, failures


class _RandomDraw:
    """``draw(strategy)`` for ``_new_value`` from ``random.Random`` instead of hypothesis: it
    reads the bounds of the few strategies used there (integers, sampled_from, booleans)."""

    def __init__(self, rnd: random.Random):
        self.rnd = rnd

    def __call__(self, strat):
        text = repr(strat)
        if text.startswith("integers("):
            lo, hi = (int(x.split("=")[-1]) for x in text[9:-1].split(","))
            return self.rnd.randint(lo, hi)
        if text.startswith("booleans("):
            return self.rnd.random() < 0.5
        elts = getattr(strat, "elements", None)
        if elts is None:
            elts = getattr(getattr(strat, "wrapped_strategy", None), "elements", None)
        if elts is None:
            raise AssertionError(f"no random draw for {text}")
        return self.rnd.choice(list(elts))


DECISION_SECONDS = 60
SLOW_DECISION = 5.0  # CPU seconds: the benchmark's bound per decision (issue 29)
NOTE_DECISION = 1.0  # CPU seconds: a decision this slow is printed with its mutant


def run_bots(gid: str, examples: int, seed: int, current: Path) -> tuple[dict, list[str]]:
    """Multi-field mutants (2..5 fields), every bot's decision on each accepted one."""
    import os
    import time

    secs = int(os.environ.get("BOARDSIM_FUZZ_DECISION_SECONDS", DECISION_SECONDS))
    budget = os.environ.get("BOARDSIM_FUZZ_BUDGET")  # search bots' playouts (default: theirs)
    stop_at = float(os.environ.get("BOARDSIM_FUZZ_STOP_AT", "inf"))  # epoch s: stop early
    game = sim.get_game(gid)
    bases = _base_states(game, 6, seed)
    per_base = [(_paths(b), sorted(_strings(b, set()))) for b in bases]
    bots = list(game.strategies)
    stats = {"examples": 0, "refused": 0, "played": 0, "decisions": 0, "bot_refused": 0,
             "slow": 0, "max_cpu": 0.0, "max_cpu_bot": ""}
    failures: list[str] = []
    rnd = random.Random(seed)
    draw = _RandomDraw(rnd)
    choose = _chooser(game, int(budget) if budget else None)
    s0 = game.state_from_dict(copy.deepcopy(bases[0]))
    for bot in bots:  # compile every bot before the watchdog starts
        signal.alarm(0)
        choose(s0, bot, game.bot_rng(seed))
    w0, c0 = time.time(), time.process_time()
    stop_at = min(stop_at, w0 + float(os.environ.get("BOARDSIM_FUZZ_SECONDS", "inf")))
    for i in range(examples):
        if time.time() >= stop_at:
            break
        b = rnd.randrange(len(bases))
        d = copy.deepcopy(bases[b])
        paths, strings = per_base[b]
        muts = []
        for _ in range(rnd.randint(2, 5)):
            paths_now = _paths(d) or paths
            path = rnd.choice(paths_now)
            try:
                old = _get(d, path)
            except (KeyError, IndexError, TypeError):
                continue
            new = copy.deepcopy(_new_value(draw, old, strings))
            _set(d, path, new)
            muts.append([list(path), repr(new)[:80]])
        stats["examples"] += 1
        signal.alarm(secs)
        try:
            s = game.state_from_dict(d)
        except UserError as e:
            if "\n" in str(e):
                failures.append(f"{muts}: multi-line UserError {str(e)[:200]!r}")
            stats["refused"] += 1
            continue
        except Exception as e:  # noqa: BLE001 - the fuzz reports any other exception
            failures.append(f"{muts}: state_from_dict raised {type(e).__name__}: {e}"[:400])
            continue
        stats["played"] += 1
        for k, bot in enumerate(bots):
            current.write_text(json.dumps({"game": gid, "mode": "bots", "example": i,
                                           "base": b, "mutations": muts, "bot": bot},
                                          default=repr))
            signal.alarm(secs)
            t0 = time.thread_time()
            try:
                choose(s, bot, game.bot_rng(seed + 7 * i + k))
            except UserError:
                stats["bot_refused"] += 1
            except Exception as e:  # noqa: BLE001
                failures.append(f"{muts}: {bot} raised {type(e).__name__}: {e}"[:400])
            dt = time.thread_time() - t0
            stats["decisions"] += 1
            if dt > stats["max_cpu"]:
                stats["max_cpu"], stats["max_cpu_bot"] = dt, bot
            if dt > NOTE_DECISION:  # named, so a slow mutant can be replayed
                print(f"  slow: {bot} {dt:.2f} s of CPU on example {i}: {muts}"[:600],
                      flush=True)
                with open(current.with_suffix(".slow.jsonl"), "a") as f:
                    f.write(json.dumps({"bot": bot, "cpu": dt, "state": d}, default=repr)
                            + "\n")
            if dt > SLOW_DECISION:
                stats["slow"] += 1
                failures.append(f"{muts}: {bot} took {dt:.1f} s of CPU for one decision")
        if (i + 1) % 10000 == 0:
            print(f"  {gid} bots: {i + 1:,} mutants, {stats['played']:,} accepted, "
                  f"{len(failures)} failures, slowest decision {stats['max_cpu']:.2f} s "
                  f"({stats['max_cpu_bot']})", flush=True)
    signal.alarm(0)
    stats["wall"], stats["cpu"] = time.time() - w0, time.process_time() - c0
    return stats, failures


def _chooser(game, budget: int | None):
    """``game.choose_action``, with the search bots' ``budget`` (playouts per decision) set
    when given (the suite's short run; the benchmark keeps every bot's own budget)."""
    if budget is None:
        return game.choose_action
    from sim.core.game import set_search_budget

    def choose(state, bot, rng):
        spec = game.strategy(bot)
        legal = game.legal_actions(state)
        if len(legal) == 0:
            raise UserError(f"{game.id}: the game is over; there is no action to choose")
        codes, params = game.bots.params_matrix([spec.name])
        set_search_budget(game, [spec.name], params, budget)
        a = int(game.bots.choose(codes[0], params, 0, game.copy_state(state), legal,
                                 len(legal), game._check_bot_rng(rng)))
        if a not in set(legal.tolist()):
            raise RuntimeError(f"{game.id}: bot {bot!r} chose the illegal action {a}")
        return a

    return choose


MODES = {"state": run_state, "override": run_override, "extremes": run_extremes,
         "bots": run_bots}


def main(argv: list[str]) -> int:
    """``GAME MODES EXAMPLES SEED CURRENT_FILE``: MODES comma-separated (``state``,
    ``override``, ``extremes``); EXAMPLES per mode (``override`` gets a fifth of them)."""
    gid, modes, examples, seed, current = argv[0], argv[1], int(argv[2]), int(argv[3]), \
        Path(argv[4])
    bad = 0
    for mode in modes.split(","):
        k = examples if mode in ("state", "bots") else max(1, examples // 5)
        stats, failures = MODES[mode](gid, k, seed, current)
        print(f"fuzz {gid} {mode}: {stats['examples']} examples, {stats['refused']} refused, "
              f"{stats['played']} played, {len(failures)} failures", flush=True)
        if mode == "bots":
            print(f"fuzz {gid} bots: {stats['decisions']} decisions ({stats['bot_refused']} "
                  f"refused), {stats['slow']} over {SLOW_DECISION:g} s of CPU, slowest "
                  f"{stats['max_cpu']:.3f} s ({stats['max_cpu_bot']}); mutants' loop "
                  f"{stats['wall']:.1f} s wall, {stats['cpu']:.1f} s CPU", flush=True)
        for f in failures[:30]:
            print("FAIL", f)
        bad += len(failures)
    signal.alarm(0)
    current.write_text("")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
