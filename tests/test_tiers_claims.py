"""Issue 26, item 5: the scripted tier reads the results run's own games (no replay of a
smaller sample), so a report's tier section and its verdict agree on the first-player
advantage; Benjamini-Hochberg over a study's findings; a magnitude rule for "holds"."""

import math

import numpy as np
import pytest

from analysis.lab import tiers as T


def test_holds_needs_a_size_within_the_stated_factor():
    assert T.HOLD_FACTOR == 2.0
    assert T.classify((5, 2, 8), (6, 1, 11), None, 500) == "holds"
    # DOG +17.2 -> +31.6 was "holds": within 2x it still is
    assert T.classify((17.2, 15, 19.4), (31.6, 28, 35), None, 500) == "holds"
    assert T.classify((10, 8, 12), (25, 20, 30), None, 500) == "holds, larger"
    assert T.classify((10, 8, 12), (3, 1, 5), None, 500) == "holds, smaller"
    assert T.classify((-10, -12, -8), (-25, -30, -20), None, 500) == "holds, larger"


def test_verdicts_use_the_bh_q_values_of_the_study():
    # both intervals exclude 0, but the search tier's q (over the study's findings) is not
    # below 5%: not shown under search play
    assert T.classify((5, 2, 8), (6, 1, 11), None, 500, q=(0.001, 0.2)) == "undecided"
    assert T.classify((5, 2, 8), (6, 1, 11), None, 500, q=(0.2, 0.001)) == "appears"
    from analysis.stats import Z95
    findings = [{"tiers": {"scripted": {"est": e, "lo": e - Z95, "hi": e + Z95},
                           "search": {"est": None, "lo": None, "hi": None}}}
                for e in (3.0, 2.2, 0.5)]
    T.bh_findings(findings)
    ps = [f["tiers"]["scripted"]["p"] for f in findings]
    from analysis.stats import bh_adjust, normal_pvalue
    assert ps == pytest.approx([normal_pvalue(e, 1.0) for e in (3.0, 2.2, 0.5)])
    assert [f["tiers"]["scripted"]["q"] for f in findings] == pytest.approx(
        list(bh_adjust(np.array(ps))))
    assert findings[0]["tiers"]["search"]["q"] is None
    # a raw p of 0.03 (2.2 sigma) survives one test, not three with a 0.62 beside it
    assert ps[1] < 0.05 and findings[1]["tiers"]["scripted"]["q"] < 0.05
    assert findings[2]["tiers"]["scripted"]["q"] > 0.05


def test_the_scripted_tier_reads_the_runs_games(tmp_path):
    """Go Town 2p: the tier study of a results run reads the run's games, so its first-player
    finding equals the report's turn-order first-player rate minus parity (the verdict's)."""
    from analysis import queries as q
    from sim.runner import simulate
    run = simulate("go-town", 600, 2, ["greedy", "attacker", "thief-first"], seed=5,
                   out=tmp_path / "run", jobs=1, seating="pool")
    arm = T.load_run_arm(run, ["played_DOG"])
    assert arm["win_share"].shape == (600, 2) and arm["h:played_DOG"].shape == (600, 2)
    res = T.run_tiers("go-town", n_search=2, players=2,
                      strategies=["greedy", "attacker", "thief-first"], seed=5, jobs=1,
                      out=tmp_path / "tiers", budget=2, n_scripted=50, seating="pool",
                      scripted_run=run)
    data = res["data"]
    assert data["n_scripted"] == 600 and data["n_random"] == 50
    assert data["scripted_source"].startswith("the results run's own games")
    fp = data["findings"][0]["tiers"]["scripted"]
    games, _ = q.scan_runs([str(run)])
    r = q.turn_order_win_rates(games).filter(
        (q.pl.col("players") == 2) & (q.pl.col("position") == 0)).row(0, named=True)
    assert fp["n"] == r["n"]
    assert fp["est"] == pytest.approx(100 * (r["win_rate"] - 0.5), abs=1e-9)
    assert "read, not replayed" in (tmp_path / "tiers" / "tiers.md").read_text()
    assert not math.isnan(fp["lo"])
