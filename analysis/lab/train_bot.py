"""``boardsim train-bot GAME BOT``: a scripted bot's parameter row tuned by self-play (issue 27).

The bots are parameter rows (data) read by compiled kernels, so a candidate row plays without
a recompile (``Game.run_chunk(..., params=...)``).

**The objective**: the candidate's mean win share (a shared win counts 1/k) at ``players``
seats against *the field*: the game's recommended mix (``RECOMMENDED_MIX``; the bot's own
hand-set row stays in it), on **common random numbers**: every candidate plays games
``0 .. n-1`` of run ``seed``, the candidate in seat ``g mod players`` of game ``g`` and every
other seat drawn from the field (the pool seating of ``boardsim simulate``). Games stopped at
the length limit count 0 for every seat.

**The search** (optuna): seeded TPE (or CMA-ES, ``--sampler cmaes``) over the parameters that
vary among the game's named strategies (the knobs the hand-set rows turn; binary switches
left out), each in the range of its values over those rows widened by half that range on each
side (floored at 0 when every value is non-negative; a parameter with a sentinel value such as
1e9 for "never" is left out); ``--param NAME=LO..HI`` adds or overrides one. Trial 0 is the hand-set row. **Racing**: a trial plays ``n/4``, ``n/2`` then
``n`` games (the same first games each time) and is pruned after a stage when it is worse than
the median of the earlier trials there (successive halving, ``analysis.lab.tune.RacingPruner``).

**Resumable**: the study lives in ``out/study.sqlite3`` (``out`` defaults to
``reports/<game>/train-bot/<bot>-<p>p``) and the settings in ``out/setup.json``; the same
command resumes it, another command on that folder is refused.

**The check**: the best rows (``top``) and the hand-set row re-play ``4 n`` fresh games; the
best is then rated on the **ladder** (Bradley-Terry, ``analysis.lab.ladder``) together with the
field: the hand-set bot's rating ("before") and the tuned bot's ("after") on one scale, and the
difference with its 95% interval from the fit's clustered covariance. The tuned row is written
to ``out/tuned.json``; with ``install`` it is added to the bot package's ``tuned.json``
(``strategies.common.add_tuned`` loads it as the strategy ``<bot>-tuned``).
"""

from __future__ import annotations

import json
import math
import re
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from sim.core.errors import UserError
from sim.core.game import StrategySpec
from sim.core.integrity import check_int, check_seed
from sim.core.rng import seed_for
from sim.core.seating import seat_matrix

__all__ = ["search_space", "play_row", "train_bot", "rating_change"]

Z95 = 1.959963984540054
# the bot package's file of tuned rows (``strategies.common.TUNED_FILE``, which loads them; the
# lab reaches the bots only through the registry, so the name is repeated here)
TUNED_FILE = "tuned.json"


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def search_space(game, bot: str, extra: dict[str, tuple[float, float]] | None = None
                 ) -> dict[str, tuple[float, float]]:
    """The searched parameters of ``bot``'s row: name -> (low, high) (module docstring).
    Raises UserError for a bot without a parameter row or an unknown ``extra`` name."""
    spec = game.strategy(bot)
    if not spec.params or spec.search:
        raise UserError(f"train-bot: {bot!r} has no parameter row to tune; allowed: "
                        + ", ".join(n for n, s in game.strategies.items()
                                    if s.params and not s.search))
    names = list(spec.param_names)
    # the hand-set rows only: a tuned row (``<bot>-tuned``, strategies/<game>/tuned.json) would
    # move the space after each run, and a resumed study must see the same space
    rows = np.array([s.params for n, s in game.strategies.items()
                     if s.params and not s.search and tuple(s.param_names) == tuple(names)
                     and s.code == spec.code and not n.endswith("-tuned")])
    space = {}
    for j, name in enumerate(names):
        col = rows[:, j]
        lo, hi = float(col.min()), float(col.max())
        if lo == hi or set(np.unique(col).tolist()) <= {0.0, 1.0} or np.abs(col).max() >= 1e6:
            continue  # the same in every row, a switch, or a sentinel ("never": 1e9)
        w = (hi - lo) / 2.0
        a, b = lo - w, hi + w
        if lo >= 0.0:
            a = max(a, 0.0)
        space[name] = (round(a, 6), round(b, 6))
    for name, (a, b) in (extra or {}).items():
        if name not in names:
            raise UserError(f"train-bot: unknown parameter {name!r} of {bot}; allowed: "
                            + ", ".join(names))
        if not (math.isfinite(a) and math.isfinite(b) and a < b):
            raise UserError(f"train-bot: --param {name}={a}..{b}: expected LO < HI")
        space[name] = (float(a), float(b))
    if not space:
        raise UserError(f"train-bot: no parameter of {bot} varies among the game's bots; name "
                        "one with --param NAME=LO..HI")
    return space


def parse_param(text: str) -> tuple[str, tuple[float, float]]:
    """``NAME=LO..HI`` -> (NAME, (LO, HI)). Raises UserError."""
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*=\s*(-?[\d.]+(?:e-?\d+)?)\s*\.\.\s*"
                     r"(-?[\d.]+(?:e-?\d+)?)\s*", text)
    if not m:
        raise UserError(f"--param {text!r}: expected NAME=LO..HI, e.g. food_reserve=2..12")
    return m.group(1), (float(m.group(2)), float(m.group(3)))


def field_of(game, bot: str, field: list[str] | None) -> list[str]:
    """The field: ``field`` or the game's recommended mix, the hand-set ``bot`` included."""
    names = list(field or getattr(game.bots, "RECOMMENDED_MIX", ()) or [])
    if not names:
        raise UserError(f"train-bot: {game.id} declares no recommended mix; give --field")
    for n in names:
        game.strategy(n)
    return names


def seats_for(n: int, players: int, n_field: int, seed: int, first: int = 0) -> np.ndarray:
    """``int64[n, players]``: the field's seats (pool seating of ``seed``) with index
    ``n_field`` (the candidate) in seat ``g mod players`` of game ``g``."""
    idx = seat_matrix("pool", seed, first, n, players, n_field)
    g = np.arange(first, first + n)
    idx[np.arange(n), g % players] = n_field
    return idx


def play_row(game, players: int, field: list[str], bot: str, row: np.ndarray, first: int,
             n: int, seed: int, options: dict | None = None) -> np.ndarray:
    """The candidate's win share in each of games ``first .. first+n-1`` (float64[n]):
    ``row`` plays as ``bot`` in seat ``g mod players``, the field in the others."""
    names = [*field, bot]
    idx = seats_for(n, players, len(field), seed, first)
    _codes, rows = game.bots.params_matrix(names)
    rows = rows[:len(names)].copy()
    rows[len(field)] = row
    res = game.run_chunk(first, n, seed, players, idx, game.resolve_options(options), names,
                         params=rows)
    ws = np.asarray(res.win_share, np.float64)
    return ws[np.arange(n), np.arange(first, first + n) % players]


def row_of(spec: StrategySpec, values: dict[str, float]) -> np.ndarray:
    """``spec``'s row with ``values`` (name -> number) overlaid."""
    row = np.array(spec.params, np.float64)
    names = list(spec.param_names)
    for k, v in values.items():
        row[names.index(k)] = v
    return row


def rating_change(ratings, base: str, tuned: str) -> dict[str, float]:
    """The tuned bot's rating minus the hand-set bot's (logits) with its 95% Wald interval from
    the fit's covariance: {"before", "after", "diff", "lo", "hi"}."""
    i, j = ratings.names.index(base), ratings.names.index(tuned)
    tab = {r["strategy"]: r["rating"] for r in ratings.table.iter_rows(named=True)}
    c = ratings.cov
    d = tab[tuned] - tab[base]
    se = math.sqrt(max(0.0, c[i, i] + c[j, j] - 2 * c[i, j]))
    return {"before": tab[base], "after": tab[tuned], "diff": d, "lo": d - Z95 * se,
            "hi": d + Z95 * se}


def _sampler(kind: str, seed: int):
    import optuna

    s = int(seed_for(seed, 0, 7) % 2**31)
    if kind == "tpe":
        return optuna.samplers.TPESampler(seed=s, n_startup_trials=8, multivariate=True)
    if kind == "cmaes":
        return optuna.samplers.CmaEsSampler(seed=s, n_startup_trials=4)
    if kind == "random":
        return optuna.samplers.RandomSampler(seed=s)
    raise UserError(f"--sampler {kind!r}; allowed: tpe, cmaes, random")


def train_bot(game_id: str, bot: str, players: int = 2, budget: float = 600.0,
              trials: int | None = None, n: int = 2000, seed: int = 1,
              field: list[str] | None = None, extra: dict | None = None,
              sampler: str = "tpe", top: int = 3, ladder_games: int | None = None,
              out: str | Path | None = None, install: bool = False,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Tune ``bot``'s row (module docstring); returns {"tuned", "values", "check", "ladder",
    "paths", "summary"}. ``budget``: seconds for the search (``trials`` overrides it);
    ``n``: games per trial at the last racing stage; ``ladder_games``: games per ladder table
    (default ``2 n``). Raises UserError on bad input."""
    import optuna

    from analysis.lab.ladder import ladder_tables, play_ladder, rate
    from analysis.lab.tune import RacingPruner
    from sim.registry import get_game

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    say = progress or (lambda s: None)
    game = get_game(game_id)
    players = game.check_players(players)
    check_int("-n (games per trial)", n, 8, 10**7)
    check_seed(seed)
    if trials is not None:
        check_int("--trials", trials, 1, 100_000)
    space = search_space(game, bot, extra)
    flds = field_of(game, bot, field)
    spec = game.strategy(bot)
    root = Path(out) if out is not None else Path("reports") / game.id / "train-bot" / (
        f"{bot}-{players}p")
    if root.exists() and not root.is_dir():
        raise UserError(f"--out {root} exists and is not a folder")
    root.mkdir(parents=True, exist_ok=True)
    setup = {"game": game.id, "bot": bot, "players": players, "n": n, "seed": seed,
             "field": flds, "space": {k: list(v) for k, v in space.items()},
             "sampler": sampler, "row": list(spec.params)}
    sf = root / "setup.json"
    if sf.exists():
        if json.loads(sf.read_text()) != json.loads(json.dumps(setup)):
            raise UserError(f"--out {root} holds another train-bot ({sf}); use a new folder or "
                            "the same command")
    elif any(root.iterdir()):
        raise UserError(f"--out {root} is not empty and holds no train-bot; use a new folder")
    else:
        _write_atomic(sf, json.dumps(setup, indent=2))
    stages = sorted({max(4, n // 4), max(4, n // 2), n})
    hand = {k: float(spec.params[list(spec.param_names).index(k)]) for k in space}

    def objective(trial):
        vals = {k: trial.suggest_float(k, a, b) for k, (a, b) in space.items()}
        row = row_of(spec, vals)
        done = 0
        shares = np.zeros(0)
        for i, m in enumerate(stages):
            shares = np.concatenate([shares, play_row(game, players, flds, bot, row, done,
                                                      m - done, seed)])
            done = m
            v = 1.0 - float(shares.mean())
            if i < len(stages) - 1:
                trial.report(v, m)
                if trial.should_prune():
                    raise optuna.TrialPruned()
        trial.set_user_attr("win_share", float(shares.mean()))
        return v

    storage = f"sqlite:///{(root / 'study.sqlite3').resolve()}"
    study = optuna.create_study(storage=storage, study_name="train-bot", direction="minimize",
                                load_if_exists=True, sampler=_sampler(sampler, seed),
                                pruner=RacingPruner())
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        study._storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)
    if not study.trials:
        study.enqueue_trial(hand)
    spent = float(study.user_attrs.get("search_seconds", 0.0))
    t0 = time.monotonic()
    fin = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    while True:
        done = len(study.get_trials(deepcopy=False, states=fin))
        if trials is not None and done >= trials:
            break
        if trials is None and spent + time.monotonic() - t0 >= budget:
            break
        study.optimize(objective, n_trials=1, catch=())
        study.set_user_attr("search_seconds", spent + time.monotonic() - t0)
        best = study.best_trial
        say(f"trial {done}: best win share {1 - best.value:.3f} (trial {best.number})")
    complete = sorted(study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)),
                      key=lambda t: t.value)
    cands = [dict(t.params) for t in complete if t.params != hand][:top]
    # the fresh-seed check: the hand-set row and the best candidates on games n .. 5n-1
    fresh = 4 * n
    check = []
    base_ws = play_row(game, players, flds, bot, row_of(spec, hand), n, fresh, seed)
    check.append({"values": hand, "win_share": float(base_ws.mean()), "paired_diff": 0.0,
                  "lo": 0.0, "hi": 0.0})
    for c in cands:
        ws = play_row(game, players, flds, bot, row_of(spec, c), n, fresh, seed)
        d = ws - base_ws
        se = float(d.std(ddof=1) / math.sqrt(len(d)))
        check.append({"values": c, "win_share": float(ws.mean()), "paired_diff": float(d.mean()),
                      "lo": float(d.mean() - Z95 * se), "hi": float(d.mean() + Z95 * se)})
    best = max(check[1:], key=lambda r: r["paired_diff"]) if len(check) > 1 else check[0]
    tuned_name = f"{bot}-tuned"
    tuned_vals = {k: round(v, 4) for k, v in best["values"].items()}
    # the ladder: the field, the hand-set bot and the tuned one, on one scale
    game.strategies[tuned_name] = StrategySpec(
        tuned_name, spec.code, f"{bot} tuned by train-bot", tuple(row_of(spec, tuned_vals)),
        spec.param_names)
    names = list(dict.fromkeys([*flds, bot, tuned_name]))
    ladder = None
    if len(names) >= players:
        per = ladder_games or max(1, math.ceil(2 * n * 4 / len(ladder_tables(len(names),
                                                                            players))))
        lg = play_ladder(game, players, names, per, seed + 1)
        r, facts = rate(lg)
        ladder = {**rating_change(r, bot, tuned_name), "games": facts["games"],
                  "table": r.table.select("strategy", "rating", "lo", "hi").to_dicts()}
    entry = {"base": bot, "players": players, "params": tuned_vals,
             "check": {"games": fresh, "hand_set": check[0]["win_share"],
                       "tuned": best["win_share"], "paired_diff": best["paired_diff"],
                       "lo": best["lo"], "hi": best["hi"]},
             "ladder": {k: ladder[k] for k in ("before", "after", "diff", "lo", "hi", "games",
                                                "table")} if ladder else None,
             "trials": len(study.trials), "seed": seed, "n": n, "field": flds}
    _write_atomic(root / "tuned.json", json.dumps({tuned_name: entry}, indent=2))
    paths = {"tuned": str(root / "tuned.json"), "study": str(root / "study.sqlite3")}
    if install:
        pkg = Path(game.bots.__file__).parent / TUNED_FILE
        cur = json.loads(pkg.read_text()) if pkg.exists() else {}
        cur[tuned_name] = entry
        _write_atomic(pkg, json.dumps(cur, indent=2) + "\n")
        paths["installed"] = str(pkg)
    lines = [f"{game.id} {players}p {bot}: {len(study.trials)} trials; fresh check "
             f"({fresh:,} games): hand-set {check[0]['win_share']:.3f}, tuned "
             f"{best['win_share']:.3f} (paired {best['paired_diff']:+.3f} "
             f"[{best['lo']:+.3f}, {best['hi']:+.3f}])"]
    if ladder:
        lines.append(f"ladder ({ladder['games']:,} games): {bot} {ladder['before']:+.3f} -> "
                     f"{tuned_name} {ladder['after']:+.3f} logits, difference "
                     f"{ladder['diff']:+.3f} [{ladder['lo']:+.3f}, {ladder['hi']:+.3f}]")
    lines.append("tuned row: " + ", ".join(f"{k}={v:g}" for k, v in tuned_vals.items()))
    return {"tuned": tuned_name, "values": tuned_vals, "check": check, "ladder": ladder,
            "paths": paths, "summary": "\n".join(lines)}
