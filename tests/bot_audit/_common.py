"""What every game's audit shares: result rows, the audit loop's Python side, mirror-match
rows, the cross-check against run_chunk, win rate against random, distinct games, throughput."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
from numba import njit

import sim
from sim.core import contract
from sim.core.rng import seed_for
from sim.core.seating import seat_matrix
from strategies import common


@dataclass
class Row:
    """One audited figure: ``num / den`` (a rate) or, with ``den == 0``, the value ``num``."""

    game: str
    players: int
    bot: str
    metric: str
    num: float
    den: float = 0.0
    note: str = ""

    @property
    def value(self) -> float:
        return self.num / self.den if self.den else self.num

    def text(self) -> str:
        if self.den:
            v = f"{100.0 * self.value:6.2f}%  ({self.num:g} / {self.den:g})"
        else:
            v = f"{self.num:10.3f}"
        return (f"{self.game:20s} {self.players}p {self.bot:20s} {self.metric:44s} {v}"
                + (f"  {self.note}" if self.note else ""))


def mirror_seats(n_games: int, n_players: int) -> np.ndarray:
    """Seat matrix of a mirror match: every seat plays strategy 0."""
    return np.zeros((n_games, n_players), np.int64)


def rotated_seats(n_games: int, n_players: int, n_names: int) -> np.ndarray:
    """``int64[n, p]``: the strategy list shifted by one seat each game (``seating rotate``)."""
    return seat_matrix("rotate", 0, 0, n_games, n_players, n_names)


def win_vs_random(game_id: str, bot: str, n_games: int, seed: int) -> list[Row]:
    """``bot`` against ``random`` at 2 players, seats rotated: its mean win share (a shared win
    counts 1/k) and its share of outright wins, from ``run_chunk``."""
    game = sim.get_game(game_id)
    seats = rotated_seats(n_games, 2, 2)
    res = game.run_chunk(0, n_games, seed, 2, seats, {}, [bot, "random"])
    mine = seats == 0
    share = res.win_share[mine]
    return [Row(game_id, 2, bot, "win share vs random (2p, rotated)", float(share.sum()),
                n_games),
            Row(game_id, 2, bot, "outright wins vs random (2p, rotated)",
                float((share == 1.0).sum()), n_games)]


def distinct_share(hashes: np.ndarray, reps: int) -> tuple[int, int]:
    """(distinct games, games): ``hashes`` uint64[deals * reps], game ``d * reps + r`` being
    deal ``d`` played with bot seed ``r``; games are distinct within their deal."""
    h = hashes.reshape(-1, reps)
    return sum(len(set(row.tolist())) for row in h), h.size


def speed(game_id: str, players: int, n: int, repeats: int = 3) -> Row:
    """Greedy games/s per core of ``run_chunk`` (greedy in every seat), as ``tests/bench.py``
    measures it (median of ``repeats``)."""
    from tests.bench import engine_rate

    g, _d = engine_rate(sim.get_game(game_id), players, "greedy", n, repeats)
    return Row(game_id, players, "greedy", "games/s per core (run_chunk, greedy mirror)", g)


def distinct(game_id: str, play, players: list[int], bot: str = "greedy", deals: int = 100,
             reps: int = 20, seed: int = 1) -> list[Row]:
    """Share of distinct games among ``reps`` bot seeds of each of ``deals`` deals, ``bot`` in
    every seat: one Row per player count. ``play(n_players, names, seats, seed, reps)`` is the
    game's audit loop, returning (per-seat detail, each game's action hash)."""
    rows = []
    for n_players in players:
        _, hashes = play(n_players, [bot], mirror_seats(deals * reps, n_players), seed, reps)
        d, t = distinct_share(hashes, reps)
        rows.append(Row(game_id, n_players, bot, f"distinct games, same deal ({reps} bot seeds)",
                        float(d), float(t)))
    return rows


def play_loop(game_id: str, kernel, n_cols: int, n_players: int, names: list[str],
              seats: np.ndarray, seed: int, reps: int = 1, options: dict | None = None,
              copies: int = 1, extra: tuple = ()) -> tuple[np.ndarray, np.ndarray]:
    """``(out int64[n, p, n_cols], hashes uint64[n])`` of the ``n = len(seats)`` games of a
    game's audit loop: ``kernel(*states, 0, n, seed, n_players, seats, codes, params, reps,
    out, hashes, *extra)``, ``states`` being ``copies`` fresh allocations of the rules
    ``options`` (default rules if None), ``seats`` int64[n, n_players] rows of ``names``.
    Game ``g`` is deal ``g // reps`` played with bot seed ``g``."""
    game = sim.get_game(game_id)
    states = [game._alloc(game.resolve_options(options)) for _ in range(copies)]
    codes, params = game.bots.params_matrix(names)
    n = len(seats)
    out = np.zeros((n, n_players, n_cols), np.int64)
    hashes = np.zeros(n, np.uint64)
    kernel(*states, 0, n, np.uint64(seed), n_players, np.ascontiguousarray(seats, np.int64),
           codes, params, reps, out, hashes, *extra)
    return out, hashes


def mirror_rows(game_id: str, play, n_games: int, players: list[int], bots: list[str],
                seed: int, rows_of) -> list[Row]:
    """The blunder rows of each bot in mirror matches of ``n_games`` games at each player
    count: ``rows_of(row, out, sg)`` gives them from the audit loop's ``out`` (``play``'s
    first result), ``sg`` the seat-games and ``row(metric, num, den=0.0, note="")`` a
    ``Row`` of that game, player count and bot."""
    rows = []
    for n_players in players:
        for bot in bots:
            out, _ = play(n_players, [bot], mirror_seats(n_games, n_players), seed)
            rows += rows_of(partial(Row, game_id, n_players, bot), out, n_games * n_players)
    return rows


def cross_check(game_id: str, play, players: tuple[int, ...], n_games: int, seed: int,
                columns: dict) -> None:
    """The audit loop plays ``run_chunk``'s games: at each player count, the game's pool bots
    seated at random, each column ``c`` of ``columns`` (column index -> ``f(ChunkResult)``,
    an int array ``[n_games, n_players]``) equal to ``f`` of ``run_chunk``'s result. Raises
    AssertionError naming the player count and column that differ."""
    game = sim.get_game(game_id)
    names = game.pool_strategies
    for n_players in players:
        seats = np.random.default_rng(n_players).integers(0, len(names), (n_games, n_players))
        out, _ = play(n_players, names, seats, seed)
        res = game.run_chunk(0, n_games, seed, n_players, seats, {}, names)
        for c, of in columns.items():
            assert (out[:, :, c] == of(res)).all(), (n_players, c)


@njit(cache=True, inline="always")
def start_game(s, first, g, reps, run_seed, n_players, brng, out):
    """Set up game ``first + g`` of an audit loop (inlined into each game's ``_play``) in
    ``s``: deal ``(first + g) // reps`` (chance seed ``seed_for(run_seed, deal, 0)``), the bot
    generator ``brng`` (uint64[1]) at ``seed_for(run_seed, first + g, 1)`` and the columns
    ``out[g, :n_players, :]`` zeroed. Returns the start of the game's action hash (uint64 0)."""
    contract.init_state(s, n_players, seed_for(run_seed, np.uint64((first + g) // reps),
                                               np.uint64(0)))
    brng[0] = seed_for(run_seed, np.uint64(first + g), np.uint64(1))
    out[g, :n_players, :] = 0
    return np.uint64(0)


@njit(cache=True, inline="always")
def bot_move(s, g, seat_idx, codes, params, legal, brng):
    """The next decision of game ``g`` of an audit loop: the legal actions of ``s`` listed in
    ``legal`` (int32), the seat to act and the action its bot (row ``seat_idx[g, seat]`` of
    ``codes``/``params``) chooses from ``brng``. Returns (legal count, seat, action)."""
    n = contract.legal_actions_into(s, legal)
    c = contract.current_seat(s)
    k = seat_idx[g, c]
    return n, c, common.bot_choose(codes[k], params, k, s, legal, n, brng)


def mix_seats(n_games: int, n_players: int, n_names: int, seed: int) -> np.ndarray:
    """``int64[n, p]``: the seats of a pool-seated run of ``n_names`` strategies (``seating
    pool``, as ``boardsim simulate`` seats the recommended mix)."""
    return seat_matrix("pool", seed, 0, n_games, n_players, n_names)


def mix_rows(game_id: str, play, n_games: int, players: list[int], seed: int, rows_of,
             mix: list[str] | None = None) -> list[Row]:
    """The blunder rows of each bot of ``mix`` (default: the game's recommended mix at each
    player count, ``Game.recommended_mix``) in the games the studies play: ``n_games`` games
    per player count, every seat drawn from the mix (pool seating, seed ``seed``). Each bot's
    rows are ``rows_of`` over its own seat-games (as ``mirror_rows``; the bot column reads
    ``bot@mix``)."""
    rows = []
    for n_players in players:
        names = list(mix or sim.get_game(game_id).recommended_mix(n_players))
        seats = mix_seats(n_games, n_players, len(names), seed)
        out, _ = play(n_players, names, seats, seed)
        for k, bot in enumerate(names):
            mine = seats == k
            sub = out[mine][:, None, :]  # [seat-games, 1, columns]
            if len(sub):
                rows += rows_of(partial(Row, game_id, n_players, f"{bot}@mix"), sub, len(sub))
    return rows
