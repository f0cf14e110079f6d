"""Checking a results folder against this boardsim: ``verify_run(folder)`` checks that
``manifest.json`` is a boardsim manifest of the right shape (every key, every value of its type
and range, the game, bots, options and component data valid for this boardsim, the engine
version this one plays) and, for a finished run, that the chunk files are exactly the
manifest's list and that every chunk holds the run's games (``sim.core.integrity.verify_chunk``).
``verify_runs`` also refuses the same run given twice (the same folder, or two folders of the
same games). ``boardsim report``, ``replay`` and the lab tools call them before reading a run;
each problem is one ``UserError`` line naming the file and what is wrong with it.

Here rather than in ``sim/core/integrity.py`` because it needs the registry (the games, their
bots and versions): ``sim/core`` imports nothing above it.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from sim.core.errors import UserError
from sim.core.integrity import (
    MANIFEST,
    MAX_CHUNK_SIZE,
    MAX_GAMES,
    TABLES,
    _fail,
    _json_type,
    check_int,
    check_seed,
    chunk_files,
    read_manifest,
    verify_chunk,
)
from sim.core.seating import check_seating
from sim.registry import get_game, list_games


def run_identity(game_id: str, n_games: int, players: int, strategies: list[str], seating: str,
                 seed: int, options: dict[str, Any], chunk_size: int,
                 overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The arguments that define a run's results (a resumed run must match them exactly);
    ``overrides``: the canonical component-data overrides ({} = the printed data)."""
    return {
        "game": game_id, "n_games": n_games, "players": players, "strategies": strategies,
        "seating": seating, "seed": seed, "options": options, "chunk_size": chunk_size,
        "overrides": dict(overrides or {}),
    }


def check_engine_version(manifest: dict[str, Any], where: str) -> None:
    """Refuse results played by another version of the game's engine (``Game.version``, which
    changes only when the games played change): one line naming both versions."""
    gid = manifest.get("game")
    game = get_game(gid) if isinstance(gid, str) else None
    if game is None:
        raise UserError(f"{where}: {MANIFEST} names no game")
    v = manifest.get("engine_version")
    if v != game.version:
        had = f"engine version {v}" if v is not None else "no engine version (an older boardsim)"
        raise UserError(f"{where}: its {gid} games were played by {had}; this boardsim plays "
                        f"version {game.version}, and results of different engine versions "
                        "never mix: run it again")


_KEYS = {"identity": dict, "game": str, "n_games": int, "players": int, "strategies": list,
         "seating": str, "seed": int, "options": dict, "chunk_size": int,
         "engine_version": str, "n_chunks": int, "complete": bool}


def check_manifest(m: dict[str, Any], where: str):
    """Check a manifest's shape and values; return the game instance it names (with its
    component-data overrides). Raises UserError naming the key and the problem."""
    if not isinstance(m.get("game"), str):
        raise _fail(where, "key 'game' missing or not text; not a boardsim manifest")
    if m["game"] not in list_games():
        raise _fail(where, f"unknown game {m['game']!r}; allowed: {', '.join(list_games())}")
    check_engine_version(m, where)
    for k, t in _KEYS.items():
        if k not in m:
            raise _fail(where, f"key {k!r} missing; not a complete boardsim manifest")
        v = m[k]
        if t is int and (isinstance(v, bool) or not isinstance(v, int)):
            raise _fail(where, f"{k} must be a whole number, got {v!r}"[:200])
        if t is not int and not isinstance(v, t):
            raise _fail(where, f"{k} must be a {t.__name__}, got {_json_type(v)}")
    overrides = m.get("overrides")  # absent in a manifest of the printed data
    if overrides is not None and not isinstance(overrides, dict):
        raise _fail(where, f"overrides must be a dict, got {_json_type(overrides)}")
    try:
        game = get_game(m["game"], overrides or None)
        check_int("n_games", m["n_games"], 1, MAX_GAMES)
        check_int("chunk_size", m["chunk_size"], 1, MAX_CHUNK_SIZE)
        game.check_players(m["players"])
        check_seed(m["seed"], "seed")
        if not m["strategies"] or not all(isinstance(s, str) for s in m["strategies"]):
            raise UserError("strategies must be a list of bot names")
        for s in m["strategies"]:
            game.strategy(s)
        check_seating(m["seating"], len(m["strategies"]), m["players"])
        resolved = game.resolve_options(m["options"])
    except UserError as e:
        raise _fail(where, str(e)) from None
    if resolved != m["options"]:
        raise _fail(where, "options must list every rule option with a valid value")
    if m["n_chunks"] != math.ceil(m["n_games"] / m["chunk_size"]):
        raise _fail(where, f"n_chunks {m['n_chunks']} does not match n_games {m['n_games']} "
                           f"in chunks of {m['chunk_size']}")
    ident = run_identity(m["game"], m["n_games"], m["players"], m["strategies"], m["seating"],
                         m["seed"], m["options"], m["chunk_size"], game.overrides)
    had = {"overrides": {}, **m["identity"]}
    if had != ident:
        diff = sorted(k for k in set(ident) | set(had) if had.get(k) != ident.get(k))
        raise _fail(where, f"its identity disagrees with its fields ({', '.join(diff)}); "
                           "the manifest was edited")
    return game


def verify_run(run_dir: str | os.PathLike, need_complete: bool = True,
               chunks: bool = True) -> dict[str, Any]:
    """Check a results folder before it is read (see the module docstring); return its
    manifest. ``need_complete``: refuse an unfinished run. Raises UserError (one line naming
    the file and the problem)."""
    root = Path(run_dir)
    m = read_manifest(root)
    where = str(root / MANIFEST)
    game = check_manifest(m, where)
    if need_complete and not m["complete"]:
        raise UserError(f"{root}: unfinished run; rerun its simulate command to finish it")
    if not chunks:
        return m
    files = {t: chunk_files(root, t) for t in TABLES}
    n = m["n_chunks"]
    for t in TABLES:
        extra = sorted(k for k in files[t] if k >= n)
        if extra:
            raise UserError(f"{files[t][extra[0]]}: not a chunk of this run (it has "
                            f"{n} chunks, 000000..{n - 1:06d}); remove it")
        if m["complete"]:
            missing = [k for k in range(n) if k not in files[t]]
            if missing:
                raise UserError(f"{root / t / f'chunk-{missing[0]:06d}.parquet'}: missing "
                                f"({len(missing)} of {n} chunks missing); rerun the run's "
                                "simulate command to play them again")
    for k in range(n):
        if k in files["games"] and k in files["seats"]:
            verify_chunk(m, game, k, files["games"][k], files["seats"][k])
    return m


def verify_runs(run_dirs: list[str | os.PathLike], need_complete: bool = True
                ) -> list[dict[str, Any]]:
    """``verify_run`` each folder, then refuse the same games twice: the same folder given
    twice, or two folders of one run (the same game, seed, players, bots, seating, options and
    data, whatever their length). Raises UserError."""
    manifests = [verify_run(r, need_complete) for r in run_dirs]
    seen_path: dict[str, str] = {}
    seen_games: dict[str, str] = {}
    for r, m in zip(run_dirs, manifests):
        real = os.path.realpath(r)
        if real in seen_path:
            raise UserError(f"{r}: given twice (same folder as {seen_path[real]}); each game "
                            "would count twice")
        seen_path[real] = str(r)
        key = json.dumps({k: v for k, v in {"overrides": {}, **m["identity"]}.items()
                          if k not in ("n_games", "chunk_size")}, sort_keys=True)
        if key in seen_games:
            raise UserError(f"{r}: plays the same games as {seen_games[key]} (same game, "
                            "seed, players, bots, seating, options and data); each game would "
                            "count twice")
        seen_games[key] = str(r)
    return manifests
