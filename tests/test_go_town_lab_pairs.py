"""tests/bot_audit/go_town_lab_pairs.py: paired differences of lab rows, pooled by game."""

import numpy as np

from tests.bot_audit import go_town_lab_pairs


def _row(wins, unfinished=None):
    w = np.array(wins, np.float64)
    u = np.zeros_like(w) if unfinished is None else np.array(unfinished, np.float64)
    return np.stack([w, u, np.full_like(w, 10.0)], 1)


def test_pooled_by_game_and_finished(tmp_path, capsys):
    # block A: row - base = [+1, 0, -1, +1]; block B (the same games): [+1, 0, 0, +1]
    a = tmp_path / "a.npy"
    b = tmp_path / "b.npy"
    base = tmp_path / "base.npy"
    np.save(a, _row([1, 1, 0, 1]))
    np.save(b, _row([1, 1, 1, 1], [0, 0, 1, 0]))
    np.save(base, _row([0, 1, 1, 0]))
    assert go_town_lab_pairs.main([f"{a}:{base}", f"{b}:{base}", "--key", "x", "--key",
                                   "x"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "diff +0.2500" in out[0] and "same 0.25" in out[0]
    assert "diff +0.5000" in out[1] and "unf 1/0" in out[1]
    # per game averaged over the two rows: [1, 0, -0.5, 1] -> mean 0.375, SD 0.75, SE 0.375
    assert out[2] == "pooled: games 4 diff +0.3750 (0.3750)"
    # game 2 is unfinished in row b: it keeps row a's -1 only -> [1, 0, -1, 1]: mean 0.25,
    # SD sqrt(2.75 / 3) = 0.9574, SE 0.4787
    assert out[3] == "finished: games 4 diff +0.2500 (0.4787)"


def test_bad_pair_is_one_line_error(tmp_path, capsys):
    assert go_town_lab_pairs.main(["a.npy"]) == 2
    assert capsys.readouterr().out.startswith("error: ")
