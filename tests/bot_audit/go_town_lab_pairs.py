"""Go Town lab rows: paired differences (session 16).

    python -m tests.bot_audit.go_town_lab_pairs ROW.npy:BASE.npy [ROW2.npy:BASE2.npy ...]
        [--key SEED/FIRST ...]

Each pair is a lab row (``go_town_search_lab --out``) and its baseline on the same games
(game ``i`` of both has the same deal and generators). Per pair: the row's win share [Wilson
95%], the baseline's, the paired difference with its standard error, the share of games with
the same outcome. Pooled: every game's difference averaged over the pairs that played it
(``--key``, one per pair, names the block of games, e.g. ``1502/0``; pairs with one key share
games), the standard error over games (clustered by game). Games nobody won count 0, as the
lab counts them; ``finished`` repeats the pooled difference over the games both rows finished
(the house rule: a game without a winner is no win and no loss).
"""

from __future__ import annotations

import argparse

import numpy as np
from statsmodels.stats.proportion import proportion_confint


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pairs", nargs="+")
    ap.add_argument("--key", action="append", default=[])
    a = ap.parse_args(argv)
    if a.key and len(a.key) != len(a.pairs):
        print(f"error: --key given {len(a.key)} times for {len(a.pairs)} pairs: one per pair")
        return 2
    games: dict[tuple, list] = {}
    fin: dict[tuple, list] = {}
    for i, p in enumerate(a.pairs):
        if ":" not in p:
            print(f"error: {p!r} is not ROW.npy:BASE.npy")
            return 2
        fr, fb = p.split(":")
        r = np.load(fr)
        b = np.load(fb)
        n = min(len(r), len(b))
        r, b = r[:n], b[:n]
        d = r[:, 0] - b[:, 0]
        k = r[:, 0].sum()
        lo, hi = proportion_confint(k, n, method="wilson")
        kb = b[:, 0].sum()
        lob, hib = proportion_confint(kb, n, method="wilson")
        print(f"{fr}: n {n} win {k / n:.3f} [{lo:.3f}, {hi:.3f}] base {kb / n:.3f} "
              f"[{lob:.3f}, {hib:.3f}] diff {d.mean():+.4f} ({d.std(ddof=1) / np.sqrt(n):.4f}) "
              f"same {(r[:, 0] == b[:, 0]).mean():.2f} unf {int(r[:, 1].sum())}/"
              f"{int(b[:, 1].sum())}")
        key = a.key[i] if a.key else str(i)
        both = (r[:, 1] == 0) & (b[:, 1] == 0)
        for g in range(n):
            games.setdefault((key, g), []).append(d[g])
            if both[g]:
                fin.setdefault((key, g), []).append(d[g])
    for name, dd in (("pooled", games), ("finished", fin)):
        v = np.array([np.mean(x) for x in dd.values()])
        print(f"{name}: games {len(v)} diff {v.mean():+.4f} ({v.std(ddof=1) / np.sqrt(len(v)):.4f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
