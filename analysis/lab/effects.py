"""Causal component effects by intervention (``boardsim effects``; method: docs/effects.md).

For every component of a game's families (Little Town buildings and goal cards, Go Town card
types, Wolves card marks, floor icons and scoring numbers, Province structures and goal
tokens, Suburbia tiles and goals) the same games (seeds and seatings: common random numbers)
are played twice: in the **baseline** arm (the data as printed) and in the component's **nudge**
arm, where the component's main number moves one step against it (a building's VP - 1, a card
type one copy fewer, a goal's threshold + 1, ...) through the component-data overrides
(``sim/core/components.py``); the rules are untouched.

The **effect** of a component is ``baseline - nudged`` of the mean win share of its
**holders**: the seats that took it in the baseline game (built it, played it, scored it) or
were dealt it (Little Town goal cards). The holder set is read from the baseline arm only, so
it does not depend on the intervention, and the paired difference is a causal effect: what
one step of the component's number is worth to the seats that use it, in win-rate points.
Families without a per-seat column (the Wolves' cards are nobody's) are measured on the seat
that moved first. Every effect has a 95% interval clustered by game (``analysis.stats.
cluster_ratio``), a Benjamini-Hochberg q-value across all components of the run, the limit-game
rate of each arm with its Wilson interval, and the first seat's share difference. Rates are
over games finished in both arms (a game stopped at the length limit is neither a win nor a
loss).

Outputs (``--out``, default ``reports/<game>/effects/``): ``effects.csv`` (one row per
component), ``effects.md``, ``effects.png`` (forest plot), ``effects.json`` (the setup) and
``arms/<arm>.npz`` (per-game results of each arm; a rerun of the same command reuses them).
``effects_table(folder)`` reads the table back for the reports.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.doc import md_table, slug, write_atomic
from analysis.results.effects import (  # the read side, for the reports
    ARM_NAMES,
    EFFECTS_DIR,
    MIN_SEAT_GAMES,
    RUN_KEYS,
    _cell,
    _share,
    effects_for_run,
    effects_table,
    headline,
    placebo_summary,
    run_fields,
    verdict_lines,
)
from analysis.stats import bh_adjust, cluster_ratio, wilson_interval
from sim.core.components import get_path
from sim.core.ending import finished_mask
from sim.core.errors import UserError
from sim.core.io import atomic_path

__all__ = ["Family", "Component", "FAMILIES", "MIN_SEAT_GAMES", "components_for",
           "run_effects", "effects_table", "EFFECT_COLUMNS"]


ARMS = ("nudge", "denial", "both")
"""Values of ``--arm``: the nudge arm (every game), the denial arm (``DENIAL_GAMES``), both."""

EFFECT_COLUMNS = ("arm", "component", "family", "nudge", "step_kind", "effect", "lo", "hi", "p",
                  "q", "n_games", "holder_seat_games", "measure", "first_seat_diff",
                  "first_seat_lo", "first_seat_hi", "limit_rate_base", "limit_lo_base",
                  "limit_hi_base", "limit_rate_arm", "limit_lo_arm", "limit_hi_arm",
                  "balance_base", "balance_arm", "pairing_share", "pairing_n",
                  "identical_share", "placebo", "placebo_lo", "placebo_hi", "vs_placebo",
                  "vs_placebo_lo", "vs_placebo_hi", "small_sample", "rank", "tier", "bot_mix",
                  "players", "deadlock_rate_base", "deadlock_rate_arm")

ARM_FORMAT = 3
"""Version of the per-game arrays of ``arms/<arm>.npz``: arms saved by an older format are
played again."""

"""Columns of ``effects.csv`` (and of ``effects_table``): see ``effects_table``."""


# ---- what is nudged ------------------------------------------------------------------------
@dataclass(frozen=True)
class Family:
    """A family of components: the rows of one data table.

    ``table``: the data table (``"{card_set}"`` is replaced by the rule option of that name);
    ``steps``: candidate ``(field, step)`` nudges in order of preference; the first that the
    row can take (a non-zero part of a vector field, a value the game accepts) is used.
    ``toward_zero``: the step moves a signed number one towards 0 instead (``step`` unused).
    ``rows``: ``None`` for every row, or the names of the fields of which one must be non-zero
    for the row to count (Wolves: marks, icons). ``holder``: detail column template of the
    seats holding the component (``{slug}`` = the row's key as a slug, ``{key}`` = as
    written, ``{num:02d}`` = as a number) or None (measured on the first seat);
    ``holder_min``: a seat holds it when the column is at least this; ``holder_text``: who
    the holders are, in words. ``scalars``: for a dict table, the value names (``name`` or
    ``name.part``) that are components.
    """

    name: str
    table: str
    steps: tuple[tuple[str, int], ...]
    holder: str | None = None
    holder_min: int = 1
    holder_text: str = "the first seat"
    rows: tuple[str, ...] | None = None
    toward_zero: bool = False
    scalars: tuple[str, ...] = ()
    holder_map: dict[str, str] = field(default_factory=dict)
    holder_abs: bool = False  # a seat holds it when |column| >= holder_min (signed points)
    scalar_holders: dict[str, str] = field(default_factory=dict)  # scalar -> holder column


_WOLF_SCALARS = ("house_points", "bonus_points", "pig_tokens.first", "pig_tokens.second",
                 "pig_tokens.third", "wolf_values.wolf1", "wolf_values.wolf2",
                 "wolf_values.wolf3")

FAMILIES: dict[str, tuple[Family, ...]] = {
    "little-town": (
        Family("buildings", "buildings", (("vp", -1), ("cost", +1), ("cost_coins", +1)),
               "built_{slug}", 1, "seats that built it"),
        Family("goal cards", "goals", (("vp", -1),), "goal_{num:02d}", 0,
               "seats dealt the card"),
    ),
    "go-town": (
        # one copy fewer, taken out of the shuffled deck (``removed``): the other cards keep
        # their draw order, so the deal is the baseline's until the removed copy is drawn
        Family("card types", "cards", (("removed", +1),), "played_{key}", 1,
               "seats that played one", holder_map={"question_mark": "?"}),
    ),
    "three-little-wolves": (
        Family("card marks", "{card_set}", (("mark", 0),), "pts_marks", 1,
               "seats that scored card marks", toward_zero=True, rows=("mark",),
               holder_abs=True),
        Family("floor icons", "{card_set}", (("icon", -1),), "houses_built", 1,
               "seats that built a house", rows=("icon",)),
        Family("scoring numbers", "components", ((".", -1),), None, 1,
               "seats that scored that kind of points", scalars=_WOLF_SCALARS,
               scalar_holders={"house_points": "pts_houses", "bonus_points": "pts_bonuses",
                               "pig_tokens.first": "pts_pigs",
                               "pig_tokens.second": "pts_pigs",
                               "pig_tokens.third": "pts_pigs",
                               "wolf_values.wolf1": "pts_wolves",
                               "wolf_values.wolf2": "pts_wolves",
                               "wolf_values.wolf3": "pts_wolves"},
               holder_abs=True),
    ),
    "province": (
        Family("structures", "structures", (("vp_first", -1), ("labor", +1)), "built_{slug}",
               1, "seats that built it"),
        Family("goal tokens", "goals", (("threshold", +1),), "goal_{slug}", 1,
               "seats that claimed it"),
    ),
    "suburbia": (
        Family("tiles", "tiles", (("price", +1),), "tile_{slug}", 1, "seats that placed one"),
        Family("goals", "goals", (("bonus", -1),), "goal_{slug}", 1, "seats that scored it"),
    ),
}
"""The component families of each game and how each is nudged (docs/effects.md)."""


DENIAL_GAMES = ("go-town",)
"""Games with a denial arm (one seat per game, rotated, barred from the component in the bot
loop): Go Town's card types (strategies/go_town/deny.py). The others have the nudge arm only."""


def _deny_arg(game_id: str, family: str, key: str) -> int | None:
    if game_id == "go-town" and family == "card types":
        from sim.go_town.constants import CARD_NAMES

        name = {"question_mark": "?"}.get(key, key)
        return CARD_NAMES.index(name) if name in CARD_NAMES else None
    return None


@dataclass(frozen=True)
class Component:
    """One component and its nudge: ``family``, ``key`` (row key or value name), ``path``
    (the data path changed), ``old``/``new`` values, ``holder`` (detail column or None) and
    ``holder_min``."""

    family: str
    key: str
    path: str
    old: Any
    new: Any
    holder: str | None
    holder_min: int
    deny: int | None = None  # the denial arm's argument (Go Town: the card type), or None
    holder_abs: bool = False  # |holder column| >= holder_min

    @property
    def step_kind(self) -> str:
        """The kind of step (the data path without the row key): only steps of one kind are
        ranked together (a VP against a VP, never a VP against a stone of cost)."""
        parts = self.path.split(".")
        if len(parts) >= 3 and slug(self.key) == parts[1]:
            parts[1] = "*"
        elif len(parts) == 3:  # a scalar group: components.pig_tokens.first
            parts[2] = "*"
        return ".".join(parts)

    @property
    def label(self) -> str:
        return f"{self.family}: {self.key}"

    @property
    def arm(self) -> str:
        return slug(f"{self.path}-{self.new}")


def _holder_column(fam: Family, key: Any) -> str | None:
    if fam.holder is None:
        return None
    text = str(key)
    num = int(text) if text.isdigit() else 0
    return fam.holder.format(slug=slug(key), key=fam.holder_map.get(text, text), num=num)


def _try(game, path: str, new: Any) -> bool:
    try:
        game.with_overrides({path: new})
    except UserError:
        return False
    return True


def components_for(game, options: dict[str, Any] | None = None,
                   step: int = 1) -> list[Component]:
    """Every component of ``game``'s families with the nudge it gets (``step`` times the
    family's step; 1 by default). A component none of whose candidate numbers the game
    accepts after the step (a value at its bound) is left out. Raises UserError for a game
    without families."""
    fams = FAMILIES.get(game.id)
    if not fams:
        raise UserError(f"effects: no component families for {game.id}; games with families: "
                        f"{', '.join(FAMILIES)}")
    opts = game.resolve_options(options or {})
    doc = game.component_document()
    schema = game.component_schema
    out: list[Component] = []
    for fam in fams:
        table = fam.table.format(**{k: v for k, v in opts.items() if isinstance(v, str)})
        node = doc[table]
        if fam.scalars:
            for name in fam.scalars:
                path = f"{table}.{name}"
                old = get_path(doc, schema, path, game.id)
                new = old + fam.steps[0][1] * step
                if _try(game, path, new):
                    col = fam.scalar_holders.get(name)
                    out.append(Component(fam.name, name, path, old, new, col,
                                         fam.holder_min if col else 0,
                                         holder_abs=fam.holder_abs))
            continue
        keyf = schema.keys.get(table, "name")
        for row in node:
            key = row[keyf]
            if fam.rows is not None and not any(row.get(f) for f in fam.rows):
                continue
            for fname, st in fam.steps:
                v = row.get(fname)
                if isinstance(v, list):
                    names = schema.vectors.get(f"{table}.{fname}", ())
                    part = next((i for i, x in enumerate(v) if x), None)
                    if part is None:
                        continue
                    pname = names[part] if part < len(names) else str(part)
                    path, old = f"{table}.{slug(key)}.{fname}.{pname}", v[part]
                elif isinstance(v, (int, float)) and not isinstance(v, bool):
                    path, old = f"{table}.{slug(key)}.{fname}", v
                else:
                    continue
                if fam.toward_zero:
                    if old == 0:
                        continue
                    new = old - step if old > 0 else old + step
                    if (old > 0) != (new > 0) and new != 0:
                        new = 0
                else:
                    new = old + st * step
                if _try(game, path, new):
                    out.append(Component(fam.name, str(key), path, old, new,
                                         _holder_column(fam, key), fam.holder_min,
                                         _deny_arg(game.id, fam.name, str(key)),
                                         fam.holder_abs))
                    break
    return out


# ---- playing the arms ----------------------------------------------------------------------
def _arm_file(out: Path, name: str) -> Path:
    return out / "arms" / f"{name}.npz"


PLACEBO_SEED_SHIFT = 0x9E3779B97F4A7C15
"""The re-deal placebo arm plays game i on the run seed + this (mod 2^64): a new deal and new
chance draws (and bot generators), on the same seats with the same bots and data."""


def play_arm(game_id: str, overrides: dict[str, Any], n: int, players: int,
             strategies: list[str], seating: str, seed: int, options: dict[str, Any],
             holders: list[str], jobs: int, chunk_size: int,
             tick: Callable[[int], None] | None = None,
             deny: int | None = None, placebo: bool = False,
             reach: bool = False) -> dict[str, np.ndarray]:
    """Play games ``0 .. n-1`` of run ``seed`` with the data changed by ``overrides``: per-game
    arrays win_share ``float64[n, players]``, finished ``bool[n]`` (ended with a result: not at
    the length limit, not deadlocked), first_player ``int64[n]``, turns ``int64[n]``,
    action_hash ``uint64[n]`` and decisions ``int64[n]`` (a game replayed exactly has both of
    the baseline's), for each name of ``holders`` that detail column ``int16[n, players]``, and
    for games whose bot package reports it (Go Town) ``held`` ``int64[n, players]`` (bit k: the
    seat held a card of type k at some point). Game i is the same game as game i of every other
    arm when the change leaves it alike (same chance and bot seeds, same seating).

    ``deny``: play the denial arm instead (games in ``DENIAL_GAMES``): in game i the seat
    ``i mod players`` may not play the component (``denied int64[n]`` is returned too).
    ``placebo``: the re-deal placebo: the same seats (``seat_matrix`` of ``seed``) but chance
    and bot seeds of run ``seed + PLACEBO_SEED_SHIFT``. ``reach`` (Go Town's removal nudge):
    ``reached int64[n]`` too, the seat the removed copy reaches first in game i (the seat that
    draws its slot in the baseline; ``analysis.lab.pairing.first_reached``; -1: never)."""
    from joblib import Parallel, delayed

    from sim.core.seating import seat_matrix
    from sim.registry import get_game

    game = get_game(game_id, overrides or None)
    play_seed = (int(seed) + PLACEBO_SEED_SHIFT) % 2**64 if placebo else int(seed)
    starts = list(range(0, n, chunk_size))
    own_loop = getattr(game.bots, "play_chunk_denied", None)

    def one(first: int):
        count = min(chunk_size, n - first)
        idx = seat_matrix(seating, seed, first, count, players, len(strategies))
        if own_loop is None:
            if deny is not None:
                raise UserError(f"effects: {game.id} has no denial arm")
            res = game.run_chunk(first, count, play_seed, players, idx, options, strategies)
            res = _Chunk(res.win_share, res.end_reason, res.first_player, res.turns,
                         res.decisions, res.action_hash, res.seat_detail)
        else:  # one loop for every arm: it reports what each seat held (the pairing share)
            if deny is None:
                denied = np.full(count, -1, np.int64)
            else:
                denied = np.arange(first, first + count, dtype=np.int64) % players
            res = _Chunk(**own_loop(game, first, count, play_seed, players, idx, options,
                                    strategies, deny or 0, denied))
        if reach:  # the seat the removed copy reaches first (the leverage row's seat)
            from analysis.lab.pairing import first_reached

            res.reached = first_reached(get_game(game_id), game, first, count, play_seed,
                                        players, idx, strategies, options)
        if tick is not None:
            tick(count)
        return res

    parts = Parallel(n_jobs=jobs, backend="threading")(delayed(one)(f) for f in starts)
    out = {
        "win_share": np.concatenate([r.win_share for r in parts]).astype(np.float64),
        # one definition of a finished game (sim.core.ending): limit and deadlock games apart
        "finished": finished_mask(game, np.concatenate([np.asarray(r.end_reason)
                                                        for r in parts])),
        "deadlock": np.concatenate([np.asarray(r.end_reason) for r in parts])
        == (game.end_reasons.index("deadlock") if "deadlock" in game.end_reasons else -1),
        "first_player": np.concatenate([r.first_player for r in parts]).astype(np.int64),
        "turns": np.concatenate([r.turns for r in parts]).astype(np.int64),
        "decisions": np.concatenate([r.decisions for r in parts]).astype(np.int64),
        "action_hash": np.concatenate([r.action_hash for r in parts]).astype(np.uint64),
    }
    if all(r.held is not None for r in parts):
        out["held"] = np.concatenate([r.held for r in parts]).astype(np.int64)
    for h in holders:
        out["h:" + h] = np.concatenate([r.seat_detail[h] for r in parts]).astype(np.int16)
    if deny is not None:
        out["denied"] = np.arange(n, dtype=np.int64) % players
    if reach:
        out["reached"] = np.concatenate([r.reached for r in parts]).astype(np.int64)
    return out


@dataclass
class _Chunk:
    win_share: np.ndarray
    end_reason: np.ndarray
    first_player: np.ndarray
    turns: np.ndarray
    decisions: np.ndarray
    action_hash: np.ndarray
    seat_detail: dict = field(default_factory=dict)
    held: np.ndarray | None = None
    reached: np.ndarray | None = None


def _load_arm(path: Path, identity: str) -> dict[str, np.ndarray] | None:
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            if str(z["identity"]) != identity or "deadlock" not in z.files:
                return None  # another arm, or one saved before deadlocks were told apart
            return {k: z[k] for k in z.files if k != "identity"}
    except (OSError, ValueError, KeyError):
        return None  # a damaged file is played again


def _save_arm(path: Path, identity: str, arrays: dict[str, np.ndarray]) -> None:
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, identity=np.array(identity), **arrays)


# ---- measuring -----------------------------------------------------------------------------
def _balance(ws: np.ndarray, first: np.ndarray, keep: np.ndarray) -> float:
    """Ludii's 2-player Balance by turn order: 1 - (best - worst turn-order win rate)."""
    if not keep.any():
        return math.nan
    p = ws.shape[1]
    pos = (np.arange(p)[None, :] - first[:, None]) % p
    rates = [ws[keep][pos[keep] == k].mean() for k in range(p)]
    return float(1.0 - (max(rates) - min(rates)))


def _involved(base: dict[str, np.ndarray], comp: Component) -> np.ndarray | None:
    """``bool[n]``: the component came into play in the baseline game: a seat held a card of
    the type (Go Town), else a seat is among its holders; None when the arm has no way to
    tell (no holder column)."""
    if "held" in base and comp.deny is not None:
        return ((base["held"] >> comp.deny) & 1).any(axis=1)
    if comp.holder is None or "h:" + comp.holder not in base:
        return None
    col = base["h:" + comp.holder]
    col = np.abs(col) if comp.holder_abs else col
    return (col >= comp.holder_min).any(axis=1)


def _identical(base: dict[str, np.ndarray], arm: dict[str, np.ndarray]) -> np.ndarray:
    """``bool[n]``: game i of the arm replays the baseline's (same action sequence)."""
    return (base["action_hash"] == arm["action_hash"]) & (base["decisions"] == arm["decisions"])


def _holders(base: dict[str, np.ndarray], arm: dict[str, np.ndarray], comp: Component,
             fin: np.ndarray) -> tuple[np.ndarray | None, str]:
    if "denied" in arm:
        hold = (np.arange(arm["win_share"].shape[1])[None, :] == arm["denied"][:, None])
        return hold & fin[:, None], "denied seat"
    if "reached" in arm:  # Go Town's removal: the seat that draws the removed copy's slot
        hold = (np.arange(arm["win_share"].shape[1])[None, :] == arm["reached"][:, None])
        return hold & fin[:, None], "seat drawing the removed copy"
    if comp.holder is not None:
        col = base["h:" + comp.holder]
        col = np.abs(col) if comp.holder_abs else col
        return (col >= comp.holder_min) & fin[:, None], "holders"
    return None, "first seat"


def measure(base: dict[str, np.ndarray], arm: dict[str, np.ndarray],
            comp: Component, placebo: dict[str, np.ndarray] | None = None) -> dict[str, Any]:
    """The effect of one component from the per-game arrays of the baseline and of its arm
    (``play_arm``): effect/lo/hi/p (win share, proportion units), holder_seat_games,
    n_games (finished in both arms), first_seat_diff/lo/hi (the first seat's shift), the
    limit/deadlock rates of each arm with Wilson intervals, the turn-order Balance of each arm,
    the **pairing share** (of the games in which the component never came into play in the
    baseline, the share the arm replays exactly; ``pairing_n`` such games, null when the arm
    cannot tell), ``identical_share`` (all games) and, with ``placebo`` (the re-deal arm),
    the same estimator on it (placebo/placebo_lo/placebo_hi) and the effect minus the placebo
    (vs_placebo/lo/hi, paired per game, clustered)."""
    fin = base["finished"] & arm["finished"]
    if placebo is not None:
        fin = fin & placebo["finished"]
    n = fin.shape[0]
    ar = np.arange(n)
    first_b = base["win_share"][ar, base["first_player"]]
    first_a = arm["win_share"][ar, arm["first_player"]]
    fs = cluster_ratio(np.where(fin, first_b - first_a, 0.0), fin.astype(np.float64))
    hold, measure_text = _holders(base, arm, comp, fin)

    def est(other: dict[str, np.ndarray], ref: dict[str, np.ndarray] = base) -> dict:
        if hold is None:
            a = ref["win_share"][ar, ref["first_player"]]
            b = other["win_share"][ar, other["first_player"]]
            return cluster_ratio(np.where(fin, a - b, 0.0), fin.astype(np.float64))
        d = np.where(hold, ref["win_share"] - other["win_share"], 0.0).sum(axis=1)
        return cluster_ratio(d, hold.sum(axis=1).astype(np.float64))

    eff = est(arm)
    lims, dead = [], []
    for g in (base, arm):
        dl = g.get("deadlock", np.zeros(n, bool))
        k = float((~g["finished"] & ~dl).sum())  # stopped at the limit; deadlocks apart
        lo, hi = wilson_interval(k, n)
        lims += [k / n, float(lo[0]), float(hi[0])]
        dead.append(float(dl.sum()) / n)
    ident = _identical(base, arm) if "action_hash" in base and "action_hash" in arm \
        else None
    inv = _involved(base, comp) if "denied" not in arm and ident is not None else None
    out = {
        "effect": eff["est"], "lo": eff["lo"], "hi": eff["hi"], "p": eff["p"],
        "holder_seat_games": int(eff["units"]), "n_games": int(fin.sum()),
        "measure": measure_text,
        "first_seat_diff": fs["est"], "first_seat_lo": fs["lo"], "first_seat_hi": fs["hi"],
        "limit_rate_base": lims[0], "limit_lo_base": lims[1], "limit_hi_base": lims[2],
        "limit_rate_arm": lims[3], "limit_lo_arm": lims[4], "limit_hi_arm": lims[5],
        "balance_base": _balance(base["win_share"], base["first_player"], fin),
        "balance_arm": _balance(arm["win_share"], arm["first_player"], fin),
        "identical_share": float(ident.mean()) if ident is not None and n else None,
        "pairing_share": (float(ident[~inv].mean()) if inv is not None and (~inv).any()
                          else None),
        "pairing_n": int((~inv).sum()) if inv is not None else None,
        "deadlock_rate_base": dead[0], "deadlock_rate_arm": dead[1],
    }
    if placebo is not None:
        pl_ = est(placebo)
        vs = est(arm, placebo)
        out.update(placebo=pl_["est"], placebo_lo=pl_["lo"], placebo_hi=pl_["hi"],
                   vs_placebo=vs["est"], vs_placebo_lo=vs["lo"], vs_placebo_hi=vs["hi"])
    return out


def rank_effects(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` (columns effect, lo, hi) sorted by effect, largest first, with ``rank`` (1..)
    and ``tier`` (Int64): tier k+1 starts at the first component whose upper bound lies below
    the lower bound of the component that opened tier k, so the members of a tier are
    indistinguishable from its leader and a leader is clear of every later tier. Rows without
    an estimate come last, tier null."""
    if df.is_empty():
        return df.with_columns(rank=pl.lit(None, pl.Int64), tier=pl.lit(None, pl.Int64))
    df = df.sort("effect", descending=True, nulls_last=True)
    tiers: list[int | None] = []
    tier, lead_lo = 0, None
    for r in df.iter_rows(named=True):
        e, lo, hi = r["effect"], r["lo"], r["hi"]
        if e is None or (isinstance(e, float) and math.isnan(e)):
            tiers.append(None)
            continue
        if lead_lo is None or (hi is not None and not math.isnan(hi) and hi < lead_lo):
            tier += 1
            lead_lo = lo if lo is not None and not math.isnan(lo) else e
        tiers.append(tier)
    return df.with_columns(rank=pl.Series(range(1, df.height + 1), dtype=pl.Int64),
                           tier=pl.Series(tiers, dtype=pl.Int64))


# ---- the command ---------------------------------------------------------------------------
def run_effects(game_id: str, n: int = 20_000, players: int | None = None,
                strategies: list[str] | None = None, seed: int = 1, jobs: int = 1,
                out: Path | None = None, options: dict[str, Any] | None = None,
                step: int = 1, families: list[str] | None = None, chunk_size: int = 2_000,
                progress: Callable[[int, int], None] | None = None,
                arm: str = "nudge", seating: str | None = None,
                run: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play the baseline and every component's nudge arm on the same ``n`` games and write
    ``effects.csv``, ``effects.md``, ``effects.png`` and ``effects.json`` under ``out``.

    ``players``: default the game's main-job player count; ``strategies``: default the game's
    recommended mix, seated from a pool (``seating="pool"``; several names otherwise fill the
    seats in order when there is one per seat, else pool); ``options``: rule options;
    ``step``: nudge size (1..9 steps); ``families``: only these family names; ``arm``:
    ``nudge``, ``denial`` (one seat per game, rotated, barred from the component; games in
    ``DENIAL_GAMES``) or ``both``. ``seating``: ``fixed``, ``rotate`` or ``pool`` (default:
    pool for the recommended mix or a pool of other size, fixed otherwise). ``run``: the
    fields of the results run these effects belong to (``run_fields`` of its manifest:
    ``boardsim run`` plays the effects of its main runs), recorded in ``effects.json`` so a
    report over that run finds them (``effects_for_run``); the effects must then be played on
    that run's players, bots, seating, seed and rule options (checked: UserError).
    ``progress(done, total)`` counts games over all arms. Returns ``{"table", "markdown",
    "csv", "chart", "summary"}``. Raises UserError on bad input."""
    from sim.core.integrity import check_int, check_jobs, check_seed
    from sim.registry import get_game

    game = get_game(game_id)
    check_int("-n (games)", n, 1, 10_000_000)
    check_int("--step", step, 1, 9)
    check_jobs(jobs)
    seed = check_seed(seed)
    plan = next((p for p in game.default_plan() if p.get("role", "main") == "main"), None)
    players = players or (plan["players"] if plan else max(2, game.min_players))
    game.check_players(players)
    rec = list(getattr(game.bots, "RECOMMENDED_MIX", ()) or ())
    strategies = list(strategies or rec or ["greedy"])
    for s in strategies:
        game.strategy(s)
    if seating is None:
        seating = "fixed" if len(strategies) in (1, players) and strategies != rec else "pool"
    from sim.core.seating import check_seating

    check_seating(seating, len(strategies), players)
    if arm not in ARMS:
        raise UserError(f"--arm {arm!r}; allowed: {', '.join(ARMS)}")
    if arm != "nudge" and game.id not in DENIAL_GAMES:
        raise UserError(f"--arm {arm}: {game.id} has no denial arm (games with one: "
                        f"{', '.join(DENIAL_GAMES)}); use --arm nudge")
    options = game.options.non_default(game.resolve_options(options or {}))
    comps = components_for(game, options, step)
    if families:
        known = sorted({c.family for c in comps})
        bad = [f for f in families if f not in known]
        if bad:
            raise UserError(f"effects: unknown family {bad[0]!r} for {game.id}; allowed: "
                            f"{', '.join(known)}")
        comps = [c for c in comps if c.family in families]
    if run is not None:
        mine = {"game": game.id, "players": players, "strategies": strategies,
                "seating": seating, "seed": seed, "overrides": {}}
        bad = [k for k, v in mine.items() if run.get(k) != v]
        if game.resolve_options(run.get("options") or {}) != game.resolve_options(options):
            bad.append("options")
        if bad:
            raise UserError(f"effects: the run's {', '.join(bad)} differ from the effects' "
                            "setup; the effects of a run play its own settings")
    out = Path(out or Path("reports") / game.id / "effects")
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a folder")
    holders = sorted({c.holder for c in comps if c.holder})
    setup = {"game": game.id, "n": n, "players": players, "strategies": strategies,
             "seating": seating, "seed": seed, "options": options, "step": step,
             "version": game.version}
    kinds = ["nudge", "denial"] if arm == "both" else [arm]
    plays = [(k, c) for k in kinds for c in comps if k == "nudge" or c.deny is not None]
    total = n * (len(plays) + 2)
    done = [0]

    def tick(k: int) -> None:
        done[0] += k
        if progress is not None:
            progress(done[0], total)

    def play(name: str, overrides: dict[str, Any],
             deny: int | None = None, placebo: bool = False) -> dict[str, np.ndarray]:
        reach = deny is None and not placebo and any(
            str(k).endswith(".removed") for k in overrides)
        ident = json.dumps({**setup, "overrides": overrides, "holders": holders,
                            "deny": deny, "placebo": placebo, "format": ARM_FORMAT,
                            **({"reach": True} if reach else {})},
                           sort_keys=True, default=str)
        path = _arm_file(out, name)
        got = _load_arm(path, ident)
        if got is not None:
            tick(n)
            return got
        got = play_arm(game.id, overrides, n, players, strategies, seating, seed, options,
                       holders if name == "baseline" else [], jobs, chunk_size, tick, deny,
                       placebo, reach)
        _save_arm(path, ident, got)
        return got

    base = play("baseline", {})
    redeal = play("placebo-redeal", {}, placebo=True)
    rows = []
    for kind, c in plays:
        if kind == "nudge":
            res = measure(base, play(c.arm, {c.path: c.new}), c, redeal)
            what = f"{c.path}: {c.old} -> {c.new}"
        else:
            res = measure(base, play(slug(f"deny-{c.family}-{c.key}"), {}, c.deny), c,
                          redeal)
            what = "one seat (rotated) may not play it"
        rows.append({"arm": kind, "component": c.label, "family": c.family, "nudge": what,
                     "step_kind": c.step_kind if kind == "nudge" else "denial", **res})
    mix = ", ".join(strategies) + f" ({seating} seating)"
    df = pl.DataFrame(rows, infer_schema_length=None)
    if df.is_empty():
        raise UserError(f"effects: no component of {game.id} could be nudged")
    df = df.with_columns(pl.col(pl.Float64).fill_nan(None))
    df = df.with_columns(q=pl.Series(bh_adjust(df["p"].fill_null(np.nan).to_numpy()))
                         .fill_nan(None),
                         small_sample=pl.col("holder_seat_games") < MIN_SEAT_GAMES,
                         bot_mix=pl.lit(mix), players=pl.lit(players))
    # only steps of one kind are ranked together: per arm, family and kind of step
    groups = df.select("arm", "family", "step_kind").unique(maintain_order=True)
    df = pl.concat([rank_effects(df.filter((pl.col("arm") == g["arm"])
                                           & (pl.col("family") == g["family"])
                                           & (pl.col("step_kind") == g["step_kind"])))
                    for g in groups.iter_rows(named=True)], how="vertical_relaxed")
    for c in ("effect", "lo", "hi", "first_seat_diff", "first_seat_lo", "first_seat_hi",
              "placebo", "placebo_lo", "placebo_hi", "vs_placebo", "vs_placebo_lo",
              "vs_placebo_hi"):
        df = df.with_columns(pl.col(c).cast(pl.Float64) * 100.0)
    df = df.select(EFFECT_COLUMNS)
    out.mkdir(parents=True, exist_ok=True)
    csv = out / "effects.csv"
    with atomic_path(csv) as tmp:
        df.write_csv(tmp)
    write_atomic(out / "effects.json", json.dumps({**setup, "components": len(comps),
                                                    "run": run},
                                                   indent=2, default=str))
    png = forest_plot(df, out / "effects.png", f"{game.title}, {players} players: {mix}; "
                      f"{n:,} games per arm")
    md, headline = _markdown(game, df, setup, mix, kinds)
    write_atomic(out / "effects.md", md)
    return {"table": df, "markdown": out / "effects.md", "csv": csv, "chart": png,
            "summary": headline + f"\nreport: {out / 'effects.md'}"}


def _markdown(game, df: pl.DataFrame, setup: dict, mix: str,
              kinds: list[str] | None = None) -> tuple[str, str]:
    kinds = kinds or ["nudge"]
    head = " ".join((f"[{ARM_NAMES[k]}] " if len(kinds) > 1 else "")
                    + headline(df.filter(pl.col("arm") == k)) for k in kinds)
    lines = [f"# Component leverage and strength: {game.title}", "",
             f"- {setup['players']} players; bots: {mix}; {setup['n']:,} games per arm, seed "
             f"{setup['seed']}; every arm plays the same games (common random numbers); rule "
             f"options: {setup['options'] or 'defaults'}; data status: {game.data_status}",
             f"- **Leverage** (arm *leverage*): each component's main number moved "
             f"{setup['step']} step(s) against it (the *intervention* column; the rules are "
             "unchanged): baseline - nudged mean win share of the component's holders (the "
             "seats that took it in the baseline game; a removed card: the seat that draws "
             "the removed copy's slot in the baseline, the seat the removal reaches first), "
             "in points: what one step of this number does, not how strong the component "
             "is. Ranked only among steps of one kind (*step*).",
             "- **Strength** (arm *denial*, where run): baseline - denied win share of the seat "
             "barred from the component (seat i mod players in game i): the value of access "
             "to it.",
             "- **Pairing share**: of the games in which the component never came into play in "
             "the baseline (no seat held it), the share the arm replays exactly (same action "
             "sequence); a nudge paired by construction keeps the deal, the chance draws and "
             "the seats until the component matters (docs/effects.md). *identical*: all games.",
             "- **Re-deal placebo**: the same estimator on an arm that changes only the deal "
             "(same seats, bots and data; new chance and bot seeds): what selection alone "
             "shows. *- placebo*: the estimate minus the placebo, paired per game.",
             "- 95% intervals clustered by game (cluster-robust, CR1); q = Benjamini-Hochberg "
             "across the table's components. Rates over games finished (with a result) in "
             "every arm compared; each arm's rate of games without a result (length limit, "
             "deadlock) is shown apart with its Wilson 95% interval. *first seat*: the first "
             "seat's (turn order) win-share shift, reported as such.",
             f"- Ranking: a component heads a tier only when its interval clears the next "
             f"tier's; *small sample* marks fewer than {MIN_SEAT_GAMES:,} holder seat-games.",
             "", f"**Headline:** {head}", "",
             f"**Re-deal placebo:** {placebo_summary(df)}.", "",
             "![forest plot](effects.png)", ""]
    rows = []
    for r in df.iter_rows(named=True):
        rows.append([ARM_NAMES.get(r["arm"], r["arm"]), str(r["rank"]),
                     str(r["tier"] if r["tier"] is not None else "-"),
                     r["component"], r["nudge"], r["step_kind"],
                     f"{_cell(r['effect'], 2)} [{_cell(r['lo'], 2)}, {_cell(r['hi'], 2)}]",
                     f"{_cell(r['placebo'], 2)} [{_cell(r['placebo_lo'], 2)}, "
                     f"{_cell(r['placebo_hi'], 2)}]",
                     f"{_cell(r['vs_placebo'], 2)} [{_cell(r['vs_placebo_lo'], 2)}, "
                     f"{_cell(r['vs_placebo_hi'], 2)}]",
                     _share(r["pairing_share"], r["pairing_n"]),
                     _share(r["identical_share"]),
                     "n/a" if r["q"] is None else f"{r['q']:.3g}",
                     f"{r['holder_seat_games']:,} ({r['measure']})" +
                     (" small sample" if r["small_sample"] else ""),
                     f"{_cell(r['first_seat_diff'], 2)} [{_cell(r['first_seat_lo'], 2)}, "
                     f"{_cell(r['first_seat_hi'], 2)}]",
                     f"{100 * r['limit_rate_base']:.2f}% / {100 * r['limit_rate_arm']:.2f}%"
                     f" [{100 * r['limit_lo_arm']:.2f}, {100 * r['limit_hi_arm']:.2f}]"
                     + (f"; deadlock {100 * r['deadlock_rate_base']:.2f}% / "
                        f"{100 * r['deadlock_rate_arm']:.2f}%"
                        if (r.get("deadlock_rate_base") or 0) + (r.get("deadlock_rate_arm")
                                                                 or 0) > 0 else ""),
                     f"{r['balance_base']:.3f} / {r['balance_arm']:.3f}"
                     if r["balance_base"] is not None and r["balance_arm"] is not None
                     else "n/a"])
    rows.append(["re-deal placebo", "-", "-", "the same games re-dealt",
                 "new chance and bot seeds; same seats, bots and data", "-",
                 "(the *placebo* column, per component)", "", "", "n/a (re-dealt)", "", "",
                 placebo_summary(df), "", "", ""])
    lines.append(md_table(["arm", "rank", "tier", "component", "intervention", "step",
                           "estimate (95%)", "re-deal placebo (95%)", "- placebo (95%)",
                           "pairing share", "identical", "BH q", "seat-games",
                           "first seat (95%)", "no result base / arm [95%]",
                           "Balance base / arm"], rows))
    lines += ["", "Balance: Ludii's 2-player definition by turn order, 1 - (best - worst "
              "turn-order win rate), over games finished in both arms (no interval)."]
    return "\n".join(lines) + "\n", head


def forest_plot(df: pl.DataFrame, path: Path, title: str) -> str:
    """Every component's effect with its 95% interval, sorted, one colour per family; written
    atomically. Returns the path."""
    from analysis.charts import plt, save

    d = df.filter(pl.col("effect").is_not_null()).sort("effect")
    if "arm" in d.columns:
        d = d.with_columns(family=pl.col("family") + " ("
                           + pl.col("arm").replace(ARM_NAMES) + ")")
    h = max(2.5, 0.22 * d.height + 1.2)
    fig, ax = plt.subplots(figsize=(7.5, h))
    fams = list(dict.fromkeys(d["family"].to_list()))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    y = np.arange(d.height)
    for i, fam in enumerate(fams):
        sel = (d["family"] == fam).to_numpy()
        e = d["effect"].to_numpy()[sel]
        lo = d["lo"].fill_null(np.nan).to_numpy()[sel]
        hi = d["hi"].fill_null(np.nan).to_numpy()[sel]
        err = np.vstack([np.nan_to_num(e - lo), np.nan_to_num(hi - e)])
        ax.errorbar(e, y[sel], xerr=np.maximum(err, 0), fmt="o", ms=3, capsize=2,
                    color=colours[i % len(colours)], label=fam)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(y, [c.split(": ", 1)[-1] for c in d["component"].to_list()], fontsize=7)
    ax.set_xlabel("leverage: one step, on its holders' win rate (nudge); strength: the "
                  "denied seat's (denial); points, 95% clustered", fontsize=8)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    return save(fig, path)


__all__ += ["RUN_KEYS", "EFFECTS_DIR", "run_fields", "effects_for_run", "headline", "measure", "play_arm", "rank_effects", "forest_plot",
            "verdict_lines"]


def run_effects_of(run_dir: str | os.PathLike, n_games: int, jobs: int = 1,
                   progress: Callable[[int, int], None] | None = None) -> Path:
    """Play the component study (``run_effects``, docs/effects.md: leverage by a one-step
    nudge for every game, strength by restricted play, the denial arm, for the games in
    ``DENIAL_GAMES``; a re-deal placebo beside both) of the finished results run ``run_dir``
    and write it into
    ``<run_dir>/effects/``: ``n_games`` games per arm on the run's own players, bots, seating,
    seed and rule options, so the baseline arm's game i is game i of the run. Its
    ``effects.json`` records the run's manifest fields (``analysis.lab.effects.run_fields``), and a
    report over the run uses these effects only while they match
    (``analysis.lab.effects.effects_for_run``). ``jobs``: threads (-1 = all cores). Returns the
    effects folder. Raises UserError when the run has component-data overrides (the effects
    play the printed data) or is not a finished results folder; a rerun reuses the arms
    already played (``arms/*.npz``)."""
    m = finished_run(run_dir, "effects need", "the effects of `boardsim run` play")
    out = Path(run_dir) / EFFECTS_DIR
    run_effects(m["game"], n_games, int(m["players"]), list(m["strategies"]), int(m["seed"]),
                jobs, out, dict(m.get("options") or {}), progress=progress,
                seating=str(m["seating"]), run=run_fields(m),
                arm="both" if m["game"] in DENIAL_GAMES else "nudge")
    return out


def finished_run(run_dir: str | os.PathLike, needs: str, plays: str) -> dict[str, Any]:
    """The checked manifest of the finished results run ``run_dir`` on the printed data, for a
    study that plays the run's games again (``needs``/``plays``: its words in the errors,
    "effects need", "the effects of `boardsim run` play"). Raises UserError otherwise."""
    from sim.runner import load_manifest

    m = load_manifest(run_dir)
    if not m.get("complete"):
        raise UserError(f"{run_dir}: the run is not finished; {needs} a finished run")
    if m.get("overrides"):
        raise UserError(f"{run_dir}: the run has component-data overrides; {plays} the "
                        "printed data only")
    return m
