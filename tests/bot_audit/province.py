"""Province bot audit: the blunders of issue #13, counted decision by decision.

Every game is game i of run ``seed`` exactly as ``Game.run_chunk`` plays it (chance from
``seed_for(seed, i, 0)``, bots from ``seed_for(seed, i, 1)``, seats from ``seat_matrix``), played
through the kernel contract and ``strategies.common.bot_choose``. Counted per strategy:

* ``end-behind``: BUILDs that set the end trigger (seven structures, all types, or the last goal
  token claimed) after which the builder lost the game, where END_TURN (legal in every spending
  phase) instead would not have ended the game with the builder losing (the other case is
  counted apart). ``ends-losing`` counts any action that set the trigger.
* ``ender wins``: games won by the seat whose action set the end trigger.
* ``saves``: turns ended without a build although a BUILD was legal in that turn's spending
  phase; ``save -> 2 VP``: saves followed, on the seat's next turn, by the first build of a
  structure worth 2 VP or more.
* ``lender``: TAKE_LENDER actions, and games the seat ended holding the token (-2 VP).
* games stopped at the turn limit; distinct games (a hash of each game's action sequence).
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

import sim
from sim.core import contract
from sim.core.rng import seed_for
from sim.core.seating import seat_matrix
from sim.province import constants as K
from sim.province.kernels import score_of
from strategies import common

SCRIPTED = ["greedy", "denial", "engine", "lender", "sniper"]
C_DEC, C_TURNS, C_SEATS, C_WINS, C_ENDB, C_ENDB_LOST, C_ENDB_DRAW, C_ENDA, C_ENDA_LOST, \
    C_SAVES, C_BUILD_TURNS, C_BUILDS, C_TAKES, C_HELD_END, C_FIRST2, C_SAVE2, C_VP, \
    C_ENDB_FORCED, C_ENDM, C_ENDM_LOST = range(20)
N_C = 20
G_GAMES, G_LIMIT, G_ENDER, G_ENDER_WON, G_FIRST_WON, G_DRAWS, G_TURNS = range(7)
N_G = 7


@njit(cache=True)
def audit(s, y, first, n_games, run_seed, seat_idx, codes, params, cnt, gcnt, hashes):
    """Play the games and add the counters: ``cnt`` float64[rows, N_C] per strategy row,
    ``gcnt`` float64[N_G]; ``hashes`` uint64[n_games] a hash of each game's actions; ``y`` a
    scratch state of the same rules (END_TURN tried instead of an ending build)."""
    legal = np.empty(K.NUM_ACTIONS, np.int32)
    brng = np.empty(1, np.uint64)
    x = s.x
    pending_save = np.zeros(2, np.int64)
    for g in range(n_games):
        gi = np.uint64(first + g)
        contract.init_state(s, 2, seed_for(run_seed, gi, np.uint64(0)))
        brng[0] = seed_for(run_seed, gi, np.uint64(1))
        h = np.uint64(1469598103934665603)
        ender = -1
        ender_build = False
        ender_move = False
        ender_alt = True
        end_loses = False
        build_legal = False
        pending_save[0] = 0
        pending_save[1] = 0
        while not contract.is_over(s):
            n = contract.legal_actions_into(s, legal)
            c = x[K.M_CUR]
            k = seat_idx[g, c]
            for i in range(n):
                if K.A_BUILD <= legal[i] < K.A_GRIND:
                    build_legal = True
            a = common.bot_choose(codes[k], params, k, s, legal, n, brng)
            h = (h ^ np.uint64(a + 1)) * np.uint64(1099511628211)
            cnt[k, C_DEC] += 1
            trig0 = x[K.M_TRIG]
            if trig0 == K.END_NONE and K.A_BUILD <= a < K.A_GRIND:
                # would END_TURN instead have ended the game with this seat losing?
                y.x[:] = x
                y.rng[:] = s.rng
                contract.apply_inplace(y, K.A_END)
                end_loses = (y.x[K.M_PHASE] == K.PH_OVER and y.x[K.M_WIN] != c
                             and y.x[K.M_WIN] != K.WIN_DRAW and y.x[K.M_END] != K.END_LIMIT)
            if a == K.A_TAKE:
                cnt[k, C_TAKES] += 1
            if K.A_BUILD <= a < K.A_GRIND:
                b = a - K.A_BUILD
                cnt[k, C_BUILDS] += 1
                if x[K.X_FB + b] < 0 and x[K.X_SD + b * K.NSCOL + K.S_VP1] >= 2:
                    cnt[k, C_FIRST2] += 1
                    if pending_save[c]:
                        cnt[k, C_SAVE2] += 1
                pending_save[c] = 0
            if a == K.A_END:
                cnt[k, C_TURNS] += 1
                if build_legal:
                    cnt[k, C_BUILD_TURNS] += 1
                    if x[K.M_BUILT] == 0:
                        cnt[k, C_SAVES] += 1
                        pending_save[c] = 2  # the next own turn
                if pending_save[c] == 1:
                    pending_save[c] = 0
                elif pending_save[c] == 2:
                    pending_save[c] = 1
                build_legal = False
            contract.apply_inplace(s, a)
            if trig0 == K.END_NONE and x[K.M_TRIG] != K.END_NONE:
                ender = c
                ender_build = K.A_BUILD <= a < K.A_GRIND
                ender_move = K.A_MOVE < a < K.A_BUILD
                ender_alt = not end_loses if ender_build else True
        w = x[K.M_WIN]
        gcnt[G_GAMES] += 1
        gcnt[G_TURNS] += x[K.M_TURN]
        if x[K.M_END] == K.END_LIMIT:
            gcnt[G_LIMIT] += 1
        else:
            if w == K.WIN_DRAW:
                gcnt[G_DRAWS] += 1
            if w == x[K.M_FIRST]:
                gcnt[G_FIRST_WON] += 1
            if ender >= 0:
                r = seat_idx[g, ender]
                gcnt[G_ENDER] += 1
                lost = w != ender and w != K.WIN_DRAW
                if w == ender:
                    gcnt[G_ENDER_WON] += 1
                cnt[r, C_ENDA] += 1
                cnt[r, C_ENDA_LOST] += lost
                if ender_move:
                    cnt[r, C_ENDM] += 1
                    cnt[r, C_ENDM_LOST] += lost
                if ender_build:
                    cnt[r, C_ENDB] += 1
                    cnt[r, C_ENDB_LOST] += lost and ender_alt
                    cnt[r, C_ENDB_FORCED] += lost and not ender_alt
                    cnt[r, C_ENDB_DRAW] += w == K.WIN_DRAW
        for p in range(2):
            r = seat_idx[g, p]
            cnt[r, C_SEATS] += 1
            cnt[r, C_VP] += score_of(x, p)
            if x[K.M_LHOLDER] == p:
                cnt[r, C_HELD_END] += 1
            if w == p:
                cnt[r, C_WINS] += 1
            elif w == K.WIN_DRAW:
                cnt[r, C_WINS] += 0.5
        hashes[g] = h


# the end and stall guards (parameters of every scripted row); ``*-noguard`` sections play the
# rows with these set to 0, the bots as they were before the guards
GUARDS = ("stall_turns", "move_guard")


def run(names: list[str], n: int, seed: int, seating: str, options: dict | None = None,
        overrides: dict | None = None, zero: tuple = ()) -> tuple[np.ndarray, np.ndarray,
                                                               np.ndarray]:
    """Counters ``[len(names), N_C]``, run counters ``[N_G]`` and per-game action hashes for
    ``n`` games of ``names`` (``seating`` as in ``boardsim simulate``); the parameters named in
    ``zero`` set to 0 in every row."""
    game = sim.get_game("province").with_overrides(overrides)
    s = game._alloc(game.resolve_options(options or {}))
    seats = seat_matrix(seating, seed, 0, n, 2, len(names))
    codes, params = game.bots.params_matrix(names)
    for p in zero:
        params[:, list(game.bots.PARAM_NAMES).index(p)] = 0.0
    cnt = np.zeros((len(names), N_C))
    gcnt = np.zeros(N_G)
    hashes = np.zeros(n, np.uint64)
    audit(s, game.copy_state(s), 0, n, np.uint64(seed % 2**64), seats, codes, params, cnt, gcnt, hashes)
    return cnt, gcnt, hashes


def _pct(a: float, b: float) -> str:
    return f"{100 * a / b:5.1f}% ({a:,.0f}/{b:,.0f})" if b else "    - (0/0)"


def _report(title: str, names: list[str], cnt, gcnt, hashes) -> None:
    g = gcnt[G_GAMES]
    print(f"== {title}: {g:,.0f} games, mean turns {gcnt[G_TURNS] / g:.1f}, limit "
          f"{_pct(gcnt[G_LIMIT], g)}, distinct games {100 * len(np.unique(hashes)) / g:.1f}%")
    print(f"  ender wins {_pct(gcnt[G_ENDER_WON], gcnt[G_ENDER])}; first player wins "
          f"{_pct(gcnt[G_FIRST_WON], g - gcnt[G_LIMIT])}; draws {_pct(gcnt[G_DRAWS], g)}")
    for r, name in enumerate(names):
        c = cnt[r]
        print(f"  {name:8s} win {_pct(c[C_WINS], c[C_SEATS])} mean VP {c[C_VP] / c[C_SEATS]:.2f}"
              f"; end-behind builds {c[C_ENDB_LOST]:,.0f} of {c[C_ENDB]:,.0f} ending builds, "
              f"{_pct(c[C_ENDB_LOST], c[C_SEATS])} of seat-games (+ {c[C_ENDB_FORCED]:,.0f} where END_TURN lost too); ends-losing any action "
              f"{c[C_ENDA_LOST]:,.0f}; MOVE enders (goal cascade) lost {c[C_ENDM_LOST]:,.0f} of "
              f"{c[C_ENDM]:,.0f}")
        print(f"    saves {_pct(c[C_SAVES], c[C_BUILD_TURNS])} of turns with a legal build; "
              f"save -> 2 VP {_pct(c[C_SAVE2], c[C_SAVES])}; first 2-VP builds per game "
              f"{c[C_FIRST2] / c[C_SEATS]:.2f}; takes per game {c[C_TAKES] / c[C_SEATS]:.2f}; "
              f"held the Lender at the end {_pct(c[C_HELD_END], c[C_SEATS])}")


def main(n: int, players: list[int] | None, seed: int, only: set[str] | None) -> None:
    if players and players != [2]:
        print("province: 2 players only")

    def want(name: str) -> bool:
        return only is None or name in only

    if want("mirrors"):
        for b in SCRIPTED:
            _report(f"{b} mirror", [b], *run([b], n, seed, "fixed"))
    if want("pool"):
        for opts in ({}, {"p2_coins": 4}):
            label = ", ".join(f"{k}={v}" for k, v in opts.items()) or "default rules"
            _report(f"scripted pool ({', '.join(SCRIPTED)}), {label}", SCRIPTED,
                    *run(SCRIPTED, n, seed, "pool", opts))
    for label, zero in (("", ()), ("-noguard", GUARDS)):
        if want("mix" + label):
            _report(f"recommended mix ({', '.join(SCRIPTED)}), pool seating"
                    + (", guards off" if zero else ""), SCRIPTED,
                    *run(SCRIPTED, n, seed, "pool", zero=zero))
        if want("labor-mix" + label):
            doc = sim.get_game("province").component_document()
            ov = {f"structures.{row['name'].lower()}.labor": row["labor"] + 1
                  for row in doc["structures"]}
            for b in SCRIPTED:
                cnt, gcnt, _ = run([b], n, seed, "fixed", overrides=ov, zero=zero)
                print(f"== every structure's labor +1{label}, {b} mirror: limit "
                      f"{_pct(gcnt[G_LIMIT], gcnt[G_GAMES])}, mean turns "
                      f"{gcnt[G_TURNS] / gcnt[G_GAMES]:.1f}, mean VP "
                      f"{cnt[0, C_VP] / cnt[0, C_SEATS]:.2f}")
            _report(f"every structure's labor +1{label}, recommended mix", SCRIPTED,
                    *run(SCRIPTED, n, seed, "pool", overrides=ov, zero=zero))
    for label, zero in (("", ()), ("-noguard", GUARDS)):
        if want("speed" + label):  # greedy mirror, games per CPU second (process time)
            game = sim.get_game("province")
            seats = np.zeros((n, 2), np.int64)
            codes, params = game.bots.params_matrix(["greedy"])
            for p in zero:
                params[:, list(game.bots.PARAM_NAMES).index(p)] = 0.0
            game.run_chunk(0, 20, seed, 2, seats[:20], {}, ["greedy"], params=params)
            rates = []
            for r in range(3):
                c0 = time.process_time()
                game.run_chunk(r * n, n, seed, 2, seats, {}, ["greedy"], params=params)
                rates.append(n / (time.process_time() - c0))
            print(f"== greedy mirror{label}: {sorted(rates)[1]:.0f} games per CPU s "
                  f"(median of 3 x {n} games)")
    if want("lender"):
        _report("lender vs greedy, seats rotated", ["lender", "greedy"],
                *run(["lender", "greedy"], n, seed, "rotate"))
    for label, zero in (("", ()), ("-noguard", GUARDS)):
        if not want("vs-random" + label):
            continue
        for b in SCRIPTED:
            cnt, gcnt, _ = run([b, "random"], n, seed, "rotate", zero=zero)
            print(f"== {b} vs random{label}, seats rotated: {b} wins "
                  f"{_pct(cnt[0, C_WINS], cnt[0, C_SEATS])}, limit "
                  f"{_pct(gcnt[G_LIMIT], gcnt[G_GAMES])}")
    if want("labor-all"):
        doc = sim.get_game("province").component_document()
        ov = {f"structures.{row['name'].lower()}.labor": row["labor"] + 1
              for row in doc["structures"]}
        for b in SCRIPTED:
            cnt, gcnt, hashes = run([b], n, seed, "fixed", overrides=ov)
            print(f"== every structure's labor +1, {b} mirror: limit "
                  f"{_pct(gcnt[G_LIMIT], gcnt[G_GAMES])}, mean turns "
                  f"{gcnt[G_TURNS] / gcnt[G_GAMES]:.1f}, mean VP {cnt[0, C_VP] / cnt[0, C_SEATS]:.2f}")
        _report("every structure's labor +1, scripted pool", SCRIPTED,
                *run(SCRIPTED, n, seed, "pool", overrides=ov))
    if want("labor"):
        doc = sim.get_game("province").component_document()
        for row in doc["structures"]:
            name = row["name"].lower()
            # ``--set`` takes absolute values: the data's labor plus one
            ov = {f"structures.{name}.labor": row["labor"] + 1}
            for label, names, seating in (("greedy mirror", ["greedy"], "fixed"),
                                          ("scripted pool", SCRIPTED, "pool")):
                cnt, gcnt, hashes = run(names, n, seed, seating, overrides=ov)
                print(f"== {name}.labor={row['labor'] + 1} (+1), {label}: limit {_pct(gcnt[G_LIMIT], gcnt[G_GAMES])}, "
                      f"mean turns {gcnt[G_TURNS] / gcnt[G_GAMES]:.1f}")
