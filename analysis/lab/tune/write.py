"""Writing the answer of ``boardsim tune``: the data file of a candidate, the Markdown and JSON of
the study, its history chart, and the best trial so far.
(The package docstring, analysis/lab/tune/__init__.py, describes the method.)"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from analysis.doc import md_table, write_atomic
from analysis.lab.tune.params import _edit_name, split_values
from analysis.lab.tune.search import _optuna
from analysis.lab.tune.targets import _g


@dataclass
class TuneResult:
    """What ``tune`` returns: the output folder, the answer (a candidate dict or None when
    nothing met the targets), the closest candidate and its blocking target, the summary."""

    out: Path
    answer: dict | None
    closest: dict | None
    blocking: str | None
    summary: str
    candidates: list[dict] = field(default_factory=list)


def _jsonable(x):
    if isinstance(x, (np.integer,)):
        return int(x)
    if isinstance(x, (np.floating,)):
        return float(x)
    return str(x)



def data_toml(overrides: dict[str, Any]) -> str:
    """The overrides ``{path: value}`` as a TOML file that ``--data`` reads (nested tables)."""
    tables: dict[str, dict[str, Any]] = {}
    for path, v in sorted(overrides.items()):
        head, _, last = path.rpartition(".")
        tables.setdefault(head, {})[last] = v
    lines = []
    for head, kv in tables.items():
        lines.append(f"[{head}]")
        for k, v in kv.items():
            lines.append(f"{k} = {json.dumps(v)}")
        lines.append("")
    return "\n".join(lines)


def _fmt_check(r: dict) -> str:
    text = f"{r['estimate']:.2f} [{r['lo']:.2f}, {r['hi']:.2f}] {r['status']}"
    if r.get("worst"):  # the effects target: the largest effect, the span of the intervals
        out = r.get("outside") or []
        text += f" (largest: {r['worst']}; interval outside the band: " + (
            ", ".join(out[:5]) + (f" and {len(out) - 5} more" if len(out) > 5 else "")
            if out else "none") + ")"
    return text


def _history_chart(study, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from analysis.charts import save

    optuna = _optuna()
    xs, ys, px, py = [], [], [], []
    for t in study.trials:
        if t.state == optuna.trial.TrialState.COMPLETE:
            xs.append(t.number)
            ys.append(t.value)
        elif t.state == optuna.trial.TrialState.PRUNED and t.intermediate_values:
            px.append(t.number)
            py.append(t.intermediate_values[max(t.intermediate_values)])
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.scatter(xs, ys, s=14, label="finished trial (last stage)")
    ax.scatter(px, py, s=14, marker="x", color="grey", label="pruned (value at its stage)")
    if xs:
        order = np.argsort(xs)
        ax.step(np.array(xs)[order], np.minimum.accumulate(np.array(ys)[order]), where="post",
                color="C3", label="best so far")
    ax.set_yscale("symlog", linthresh=10)
    from matplotlib.ticker import FuncFormatter

    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))  # plain text labels
    ax.set_xlabel("trial")
    ax.set_ylabel("objective (100 x distance + edit cost)")
    ax.legend(fontsize=7)
    save(fig, path, dpi=90)


def distinguishable(c: dict) -> bool:
    """Whether a candidate's change can be told from the printed data on its own fresh-seed
    check: some target's paired 95% interval of the change (``paired``: diff, lo, hi) lies
    clear of 0."""
    return any(r.get("paired") and (r["paired"][1] > 0 or r["paired"][2] < 0)
               for r in c.get("checks", ()))


def _write(out, game, params, targets, cands, answer, closest, blocking, setup, source, budget,
           n_trials, search_games, final_games, study, recheck_note, recheck, elapsed,
           search_seconds, base_options) -> TuneResult:
    printed = cands[0]
    chosen = answer or closest
    data, opts = split_values(params, chosen["values"])
    toml_path = out / "proposed.toml"
    head = (f"# boardsim tune {game.id}: "
            + ("an edit that meets every target" if answer else
               "the closest edit found (it does not meet every target)")
            + f"; use with --data {toml_path.name}\n")
    if opts:
        head += "# and the rule options: " + " ".join(f"-o {k}={v}" for k, v in opts.items()) \
            + "\n"
    # a proposal only when the printed data is the answer or the change shows on its own check
    propose = chosen is printed or distinguishable(chosen)
    if propose:
        write_atomic(toml_path, head + (data_toml(data) if data else "# (no data change)\n"))
    elif toml_path.exists():
        toml_path.unlink()  # an earlier run's proposal is not this run's
    _history_chart(study, out / "history.png")
    L = [f"# Tune: {game.title}", ""]
    L.append("- Targets: " + "; ".join(f"`{t.text}`" for t in targets))
    L.append(f"- Parameters: {', '.join('`' + p + '`' for p in setup['params'])}: "
             f"{len(params)} numbers, each within its schema range and at most "
             f"{setup['max_step']} from the printed value"
             + (" (0: the whole range)" if not setup['max_step'] else ""))
    L.append(f"- Bots: {', '.join(setup['strategies'])} ({source}, "
             f"{'pool' if len(setup['strategies']) > 1 else 'fixed'} seating); players: "
             f"{', '.join(map(str, setup['players']))}; rule options: "
             f"{base_options or 'as printed'}. **The results hold for these bots.**")
    L.append(f"- Budget {budget:.0f} s: search {search_seconds:.0f} s, {n_trials} trials "
             f"({setup['sampler']} sampler, racing stages "
             f"{', '.join(map(str, sorted({max(2, setup['games'] // 16), max(2, setup['games'] // 4), setup['games']})))}"
             f" games), {search_games:,} games in the search; then {final_games:,} games per "
             f"candidate and player count on fresh seeds"
             + (f" (as many as fit the budget; --final-games {setup['final_games']:,})"
                if final_games < setup["final_games"] else "")
             + f"; whole command {elapsed:.0f} s "
             "(this invocation, from the process's start).")
    L.append(f"- Seed {setup['seed']}; every search trial plays the same games (common random "
             "numbers); the check plays other seeds.")
    L += ["", "## Answer", ""]
    if answer:
        L.append(f"**{answer['name']}** meets every target on fresh seeds with "
                 f"{answer['changed']} changed number(s) (total change {answer['total']:g}).")
    else:
        L.append(f"**No candidate meets every target on fresh seeds.** The closest is "
                 f"**{closest['name']}** ({closest['changed']} changed numbers); the blocking "
                 f"target: {blocking}.")
    L += ["", "### Changed numbers (printed -> proposed)", ""]
    rows = [[f"`{p.path}`", str(p.value), str(chosen["values"][p.path])] for p in params
            if chosen["values"][p.path] != p.value]
    L.append(md_table(["number", "printed", "proposed"], rows) if rows else "None.")
    if opts:
        L.append("")
        L.append("Rule options: " + ", ".join(f"{k}={v}" for k, v in opts.items()))
    L += ["", "### Targets before and after (fresh seeds, 95% intervals)", ""]
    trows = []
    for rb, ra in zip(printed["checks"], chosen["checks"]):
        pair = ra.get("paired")
        trows.append([f"{ra['target']} ({ra['players']}p)",
                      f"{_g(ra['band'][0])}..{_g(ra['band'][1])}", _fmt_check(rb),
                      _fmt_check(ra),
                      f"{pair[0]:+.2f} [{pair[1]:+.2f}, {pair[2]:+.2f}]" if pair else "-",
                      f"{ra['games']:,} ({ra['limit_games']} at the limit"
                      + (f", {ra['deadlock_games']} in a deadlock" if ra.get("deadlock_games")
                         else "") + ")"])
    L.append(md_table(["target", "band", "printed", "proposed", "change (paired 95%)",
                       "finished games"], trows))
    L += ["", "A target is **met** when its whole 95% interval lies inside the band, "
          "**missed** when the interval lies outside it, **undecided** otherwise.", ""]
    L += ["## Candidates checked on fresh seeds", ""]
    crow = []
    for c in cands:
        crow.append([c["name"], str(c["changed"]), f"{c['total']:g}", c["status"],
                     "; ".join(f"{r['target']}@{r['players']}: {_fmt_check(r)}"
                               for r in c["checks"]),
                     ", ".join(f"{_edit_name(p)}={c['values'][p.path]}"
                               for p in params if c["values"][p.path] != p.value) or "-"])
    L.append(md_table(["candidate", "changed", "total change", "status", "targets", "edit"],
                      crow))
    L += ["", "## Search-bot tier", "", recheck_note]
    if recheck:
        L.append("")
        L.append(md_table(["target", "printed", recheck[1]["name"], "still holds"], [
            [f"{ra['target']} ({ra['players']}p)", _fmt_check(rb), _fmt_check(ra),
             "yes" if ra["status"] == "met" else "no" if ra["status"] == "missed"
             else "undecided"] for rb, ra in zip(recheck[0]["checks"], recheck[1]["checks"])]))
    L += ["", "## Files", "",
          (f"- `{toml_path.name}`: the proposed data (`boardsim simulate {game.id} --data "
           f"{toml_path.name}`, also `report`, `compare --variant`)" if propose else
           f"- no `{toml_path.name}`: the closest candidate's change cannot be told from the "
           "printed data on its own check (every paired 95% interval holds 0)"),
          "- `history.png`: the optimisation history", "- `study.sqlite3`: the optuna study "
          "(rerun the same command to resume)", "- `check.json`: the fresh-seed checks", ""]
    md = write_atomic(out / "tune.md", "\n".join(L) + "\n")
    summary = {"answer": answer["name"] if answer else None, "closest": closest["name"],
               "blocking": blocking, "changed": chosen["changed"],
               "overrides": data, "options": opts, "trials": n_trials,
               "search_games": search_games, "search_seconds": search_seconds,
               "elapsed_seconds": elapsed}
    write_atomic(out / "tune.json", json.dumps(summary, indent=2, default=_jsonable))
    text = ((f"{answer['name']} meets every target with {answer['changed']} changed numbers"
             if answer else f"no candidate meets every target; closest {closest['name']}, "
             f"blocking: {blocking}"
             + ("" if propose else "; no proposed.toml written")) + "\n" + "\n".join(
        f"  {p}: {printed['values'].get(p)} -> {v}" for p, v in data.items())
        + f"\nreport: {md}")
    return TuneResult(out, answer, closest, blocking, text, cands)


def best_so_far(study) -> tuple[int, str]:
    """(finished trials, the best complete trial's distance as text) for the progress bar."""
    optuna = _optuna()
    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,
                                                    optuna.trial.TrialState.PRUNED))
    comp = [t for t in done if t.state == optuna.trial.TrialState.COMPLETE]
    if not comp:
        return len(done), "-"
    b = min(comp, key=lambda t: (t.value, t.number))
    return len(done), f"{b.user_attrs.get('distance', float('nan')):.2f}"
