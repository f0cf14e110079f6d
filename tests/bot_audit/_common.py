"""What every game's audit shares: result rows, win rate against random, distinct games,
throughput."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import sim
from sim.core.seating import seat_matrix


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
    """Greedy games/s per core of ``run_chunk`` (greedy in every seat), as ``sim/bench.py``
    measures it (median of ``repeats``)."""
    from sim.bench import engine_rate

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
