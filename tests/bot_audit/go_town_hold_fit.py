"""Go Town, 2 players: fit the search's hold rule to its logged choices (session 15).

A policy-iteration step for ``search``'s playouts: the lab (go_town_search_lab ``--log``)
records, per decision of the search in phase play, the searcher's features (``HF_NAMES``: its
hand, both boards, public counts) with ``attacker``'s pick and the search's pick. Here, for
each category of ``attacker``'s pick (``CATS``: build, steal, MILK, ...), a logistic regression
of "the search played END_TURN instead" on those features (statsmodels), over the searched
decisions with a hand below the hand limit. The rule holds when the fitted logit is above 0
(``--shared``: one set of feature weights for every category, an offset per category). The
weights (clipped to +-``--clip``) are written as JSON ``{category: {feature: weight}}``, the
lab's ``--hold`` file for ``pme``/``popp`` 7.

    python -m tests.bot_audit.go_town_hold_fit LOG.npy [LOG2.npy ...] --out RULE.json
        [--shared FEATURE,...] [--min-n 100] [--value [--ridge L]]

Session 16, ``--value``: instead of imitating the search's binary choice, regress the logged
value of holding, ``dv_end`` (the END_TURN candidate's mean playout value less attacker's
pick's, logs written since session 16), on the same features per category (least squares
weighted by the END_TURN candidate's playouts, a ridge ``--ridge`` on the non-constant
weights, features standardised for the ridge and the weights mapped back): the rule holds
where the predicted value of holding is above 0, the rollout policy-improvement step with a
fitted value (approximate policy iteration) rather than a fitted choice. The weights are
multiplied by ``--scale`` (default 50: value differences of ~0.02 become logits of ~1, so
``hstoch`` and ``hbias`` read on the usual scale).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import statsmodels.api as sm

from tests.bot_audit.go_town_search_lab import CATS, HF_NAMES, LOG_COLS

COL = {c: i for i, c in enumerate(LOG_COLS)}


def categories(actions: np.ndarray) -> np.ndarray:
    """``_cat`` of the lab for an array of action ids."""
    a = actions.astype(np.int64)
    edges = np.array([1, 5, 13, 29, 101, 173, 177, 181, 185, 189, 190, 191])
    c = np.searchsorted(edges, a, side="right")
    return np.where(a == 0, 0, c)


def fit(logs: list[np.ndarray], shared: list[str] | None = None, clip: float = 8.0,
        min_n: int = 100, quiet: bool = False, build: bool = False) -> dict:
    width = min(lg.shape[1] for lg in logs)  # logs before session 16 lack its last columns
    lg = np.concatenate([x[:, :width] for x in logs])
    a0 = lg[:, COL["a0"]]
    pick = lg[:, COL["pick"]]
    c0 = categories(a0)
    x = lg[:, [COL["x_" + h] for h in HF_NAMES]]
    y = (pick == 0).astype(np.float64)
    use = (lg[:, COL["searched"]] == 1) & (lg[:, COL["my_h"]] < 8) & (c0 > 0) & (c0 < 12)
    if build:
        # session 16, --build: "a build instead of attacker's card" where attacker plays no
        # build and the search does not hold, with a buildable pair in hand
        c1 = categories(pick)
        y = ((c1 == 1) | (c1 == 2)).astype(np.float64)
        use = ((lg[:, COL["searched"]] == 1) & (c0 > 2) & (c0 < 12) & (pick != 0)
               & (lg[:, COL["x_my_pairs"]] > 0))
    rule: dict[str, dict[str, float]] = {}
    if shared:
        cats = [c for i, c in enumerate(CATS) if 0 < i < 12 and (use & (c0 == i)).sum() >= min_n]
        m = use & np.isin(c0, [CATS.index(c) for c in cats])
        d = np.stack([(c0[m] == CATS.index(c)).astype(np.float64) for c in cats], 1)
        z = np.concatenate([d, x[m][:, [HF_NAMES.index(f) for f in shared]]], 1)
        p = np.clip(sm.Logit(y[m], z).fit(disp=0, maxiter=200).params, -clip, clip)
        for i, c in enumerate(cats):
            rule[c] = {"one": round(float(p[i]), 4)}
            rule[c].update({f: round(float(p[len(cats) + j]), 4) for j, f in enumerate(shared)})
        if not quiet:
            hold = (z @ p) > 0
            print(f"shared: n {m.sum()} held {y[m].mean():.3f} rule holds {hold.mean():.3f} "
                  f"agrees {(hold == (y[m] == 1)).mean():.3f} (never holding "
                  f"{1 - y[m].mean():.3f})")
        return rule
    for i, c in enumerate(CATS):
        m = use & (c0 == i)
        if i == 0 or i == 12 or m.sum() < min_n:
            continue
        keep = [j for j in range(len(HF_NAMES)) if j == 0 or x[m, j].std() > 0]
        res = sm.Logit(y[m], x[m][:, keep]).fit(disp=0, maxiter=200, warn_convergence=False)
        w = np.zeros(len(HF_NAMES))
        w[keep] = np.clip(res.params, -clip, clip)
        rule[c] = {HF_NAMES[j]: round(float(w[j]), 4) for j in keep if w[j] != 0.0}
        if not quiet:
            hold = (x[m] @ w) > 0
            print(f"{c:7s} n {m.sum():5d} held {y[m].mean():.3f} rule holds {hold.mean():.3f} "
                  f"agrees {(hold == (y[m] == 1)).mean():.3f} (never holding "
                  f"{1 - y[m].mean():.3f})")
    return rule


def fit_value(logs: list[np.ndarray], ridge: float = 10.0, min_n: int = 100,
              scale: float = 50.0, quiet: bool = False) -> dict:
    """``--value``: per category of attacker's pick, weighted ridge regression of
    ``dv_end`` on ``HF_NAMES`` over the searched decisions with a hand below the limit where
    END_TURN was a candidate (``n_end`` > 0)."""
    width = min(lg.shape[1] for lg in logs)
    lg = np.concatenate([x[:, :width] for x in logs])
    if "n_end" not in COL or COL["n_end"] >= width:
        raise SystemExit("error: --value needs logs with dv_end/n_end (session 16's lab)")
    a0 = lg[:, COL["a0"]]
    c0 = categories(a0)
    x = lg[:, [COL["x_" + h] for h in HF_NAMES]]
    dv = lg[:, COL["dv_end"]]
    ne = lg[:, COL["n_end"]]
    use = ((lg[:, COL["searched"]] == 1) & (lg[:, COL["my_h"]] < 8) & (c0 > 0) & (c0 < 12)
           & (ne > 0))
    held = lg[:, COL["pick"]] == 0
    rule: dict[str, dict[str, float]] = {}
    for i, c in enumerate(CATS):
        m = use & (c0 == i)
        if i == 0 or i == 12 or m.sum() < min_n:
            continue
        keep = [j for j in range(len(HF_NAMES)) if j == 0 or x[m, j].std() > 0]
        xm = x[m][:, keep]
        mu = xm.mean(0)
        sd = xm.std(0)
        mu[0] = 0.0
        sd[0] = 1.0
        z = (xm - mu) / sd
        wt = ne[m] / ne[m].mean()
        a = (z * wt[:, None]).T @ z + ridge * np.diag([0.0] + [1.0] * (len(keep) - 1))
        b = (z * wt[:, None]).T @ dv[m]
        beta = np.linalg.solve(a, b)
        w_s = beta / sd
        w_s[0] = beta[0] - (beta[1:] * mu[1:] / sd[1:]).sum()
        w = np.zeros(len(HF_NAMES))
        w[keep] = w_s * scale
        rule[c] = {HF_NAMES[j]: round(float(w[j]), 4) for j in keep if w[j] != 0.0}
        if not quiet:
            hold = (x[m] @ w) > 0
            gain = dv[m][hold].sum() / m.sum()
            print(f"{c:7s} n {m.sum():5d} search held {held[m].mean():.3f} value>0 "
                  f"{(dv[m] > 0).mean():.3f} rule holds {hold.mean():.3f} agrees with the "
                  f"search {(hold == held[m]).mean():.3f} mean dv of its holds {gain:+.4f}")
    return rule


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--shared", default="", help="comma-separated HF_NAMES: one weight each "
                    "for every category (and an offset per category)")
    ap.add_argument("--clip", type=float, default=8.0)
    ap.add_argument("--min-n", type=int, default=100)
    ap.add_argument("--build", action="store_true", help="fit the build switch (a build "
                    "instead of attacker's card; the lab's --build file) instead (session 16)")
    ap.add_argument("--value", action="store_true", help="regress the value of holding "
                    "(dv_end) instead of the search's choice (session 16)")
    ap.add_argument("--ridge", type=float, default=10.0)
    ap.add_argument("--scale", type=float, default=50.0)
    a = ap.parse_args(argv)
    if Path(a.out).exists():
        print(f"error: {a.out} exists; results are never overwritten: name a new file")
        return 2
    shared = [f for f in a.shared.split(",") if f]
    for f in shared:
        if f not in HF_NAMES:
            print(f"error: unknown feature {f!r}; allowed: {', '.join(HF_NAMES)}")
            return 2
    if a.value:
        rule = fit_value([np.load(f) for f in a.logs], a.ridge, a.min_n, a.scale)
    else:
        rule = fit([np.load(f) for f in a.logs], shared or None, a.clip, a.min_n,
                   build=a.build)
    with open(a.out, "x") as fh:
        json.dump(rule, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
