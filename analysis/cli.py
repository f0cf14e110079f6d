"""The ``boardsim`` command line (typer). Bad input ends with one line on stderr and exit 2."""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer

from sim.core.errors import UserError
from sim.registry import default_strategies

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="boardsim: Monte Carlo simulation and balance analysis for tabletop games.",
)


def _split(items: Optional[str]) -> list[str]:
    return [x.strip() for x in (items or "").split(",") if x.strip()]


def _options(items: Optional[list[str]]) -> dict[str, str]:
    """``-o name=value`` items (comma-separated parts too) as a dict. Refused (one line): a
    part without a name or a value, a space around '=' (``-o "max_turns= 10"``), the same
    option twice."""
    from sim.core.options import parse_option_args

    seen: dict[str, str] = {}
    for item in items or []:
        for part in item.split(","):
            part = part.strip()
            if not part or "=" not in part:
                continue  # parse_option_args names a part without '='
            k, v = part.split("=", 1)
            if not k.strip() or not v.strip() or k != k.strip() or v != v.strip():
                raise UserError(f"bad option {part!r}; expected name=value with a name and a "
                                "value and no space around '='")
            if k in seen:
                raise UserError(f"option {k} given twice ({seen[k]} and {v}); give it once")
            seen[k] = v
    return parse_option_args(items)


@app.command()
def games(game: Optional[str] = typer.Argument(None, help="one game id (default: every game)"),
          as_json: bool = typer.Option(False, "--json", help="machine-readable output")):
    """List the games: ids, player ranges, rule options and strategies; with a game id, also
    the plausible range of every unconfirmed number and the interpreted rule options with
    their alternatives (what `boardsim robustness` varies)."""
    from sim.registry import get_game, list_games

    info = [get_game(g).describe() for g in ([game] if game else list_games())]
    if as_json:
        typer.echo(json.dumps(info, indent=2, default=str))
        return
    for g in info:
        typer.echo(f"{g['id']}  ({g['title']}, {g['players']} players, "
                   f"{g['num_actions']} actions)")
        typer.echo(f"  strategies: {', '.join(g['strategies'])}")
        typer.echo(f"  data: {g['data_status']}")
        typer.echo(f"  {g['information']} information, {g['chance']} chance; hidden: "
                   f"{'; '.join(g['hidden']) or 'nothing'}; results: {', '.join(g['results'])}")
        typer.echo("  rule options (name = default  [allowed]  rulebook section):")
        for o in g["options"]:
            typer.echo(f"    {o['name']} = {o['default']}  [{o['allowed']}]  {o['section']}")
        if not game:
            continue
        typer.echo("  unconfirmed numbers (path = printed  plausible low..high  reason):"
                   + ("" if g["ranges"] else " none"))
        for r in g["ranges"]:
            typer.echo(f"    {r['path']} = {r['value']}  plausible {r['low']}..{r['high']}  "
                       f"{r['reason']}")
        typer.echo("  interpreted rule options (option: default; alternatives  reason):"
                   + ("" if g["interpretations"] else " none"))
        for it in g["interpretations"]:
            alts = ", ".join(str(a) for a in it["alternatives"])
            typer.echo(f"    {it['option']}: {it['default']}; alternatives {alts}  "
                       f"{it['reason']}")


def _progress_bar(total: int, label: str, stderr: bool = False):
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    prog = Progress(
        TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
        transient=False, **({"console": Console(stderr=True)} if stderr else {}),
    )
    return prog


@contextmanager
def _games_progress(total: Optional[int], label: str):
    """A progress bar over games; yields ``cb(done, total)`` for the runner. The rate counts
    from the first report, so the compile before the first finished chunk does not lower it."""
    prog = _progress_bar(total or 0, label)
    state = {"t0": None, "start": 0}
    with prog:
        task = prog.add_task("run", total=total, rate="")

        def cb(done: int, total: int) -> None:
            if state["t0"] is None:
                state["t0"], state["start"] = time.perf_counter(), done
            dt = time.perf_counter() - state["t0"]
            rate = (done - state["start"]) / dt if dt > 0 else 0.0
            prog.update(task, completed=done, total=total,
                        rate=f"{rate:,.0f} games/s" if rate else "")

        yield cb


def _overrides(data: Optional[list[Path]], sets: Optional[list[str]]) -> dict:
    """``--data`` files then ``--set`` items. Refused (one line): a ``--set`` without a path
    or a value, the same path set twice."""
    from sim.core.components import gather_overrides

    seen: dict[str, str] = {}
    for item in sets or []:
        if "=" not in item:
            continue  # gather_overrides names an item without '='
        k, v = (x.strip() for x in item.split("=", 1))
        if not k or not v:
            raise UserError(f"--set {item!r}: expected path=value with a path and a value, "
                            "e.g. buildings.church.vp=7")
        if k in seen:
            raise UserError(f"--set {k} given twice ({seen[k]} and {v}); give it once")
        seen[k] = v
    return gather_overrides(data, sets)


def run_simulation(game: str, n: int, players: int, strategies: list[str], seed: int,
                   options: dict, jobs: int, chunk_size: int, out: Optional[Path],
                   seating: str, backend: str, label: str | None = None,
                   scheduler: str | None = None, overrides: dict | None = None,
                   strategies_source: str | None = None, role: str | None = None,
                   budget: int | None = None) -> Path:
    """simulate() with a rich progress bar over chunks showing games/s; then the run is
    verified (what the report and the lab tools then read) and, on stderr, the warning of a
    run in which fewer than half the games are distinct."""
    from sim.core.integrity import check_seed
    from sim.runner import distinct_warning, load_manifest, simulate, validate
    from sim.verify import verify_run

    validate(game, n, players, strategies, seating, options, jobs, chunk_size, backend,
             overrides)
    seed = check_seed(seed)
    with _games_progress(n, label or f"{game} {players}p") as cb:
        root = simulate(game, n, players, strategies, seed=seed, options=options, jobs=jobs,
                        chunk_size=chunk_size, out=out, seating=seating, backend=backend,
                        scheduler=scheduler, progress=cb, overrides=overrides,
                        strategies_source=strategies_source, role=role, budget=budget)
    verify_run(root)  # what the report and the lab tools then read
    warning = distinct_warning(load_manifest(root))
    if warning:
        typer.echo(warning, err=True)
    return root


RANDOM_WARNING = ("warning: every seat is played by `random`; random play says little about "
                  "the game (omit --strategies for the game's recommended mix)")


@app.command()
def simulate(
    game: str = typer.Argument(..., help="game id (see `boardsim games`)"),
    n: int = typer.Option(10_000, "-n", "--games", help="number of games"),
    players: int = typer.Option(2, "--players", "-p", help="number of players"),
    strategies: str = typer.Option(
        "", "--strategies", "-s", help="comma-separated: one per seat, one for all, or a pool "
        "(default: the game's recommended mix of competent bots, with --seating pool)"),
    seating: Optional[str] = typer.Option(
        None, help="fixed | rotate | pool (default: fixed; pool for the recommended mix)"),
    seed: int = typer.Option(0, help="run seed; game i is the same game in every run"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o",
                                               help="rule option name=value (repeatable)"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="worker processes (-1 = all cores)"),
    chunk_size: int = typer.Option(10_000, help="games per task and per Parquet file"),
    backend: str = typer.Option("threading",
                                help="joblib backend: threading (default; kernels release the GIL) | loky | "
                                     "sequential | dask"),
    scheduler: Optional[str] = typer.Option(
        None, help="dask scheduler address (with --backend dask; default: a local cluster)"),
    out: Optional[Path] = typer.Option(None, help="results folder (default reports/_runs/...)"),
    data: Optional[list[Path]] = typer.Option(
        None, "--data", help="TOML file of component-data overrides (see `boardsim data`)"),
    set_: Optional[list[str]] = typer.Option(
        None, "--set", help="component-data override path=value (repeatable)"),
    budget: Optional[int] = typer.Option(
        None, "--budget", help="the search bots' playouts per decision (mcts, search; default: "
        "each one's own); recorded in the manifest"),
):
    """Run N games between scripted bots and write a Parquet results folder (resumable)."""
    from sim.core.game import check_budget
    from sim.core.integrity import check_seed
    from sim.runner import check_backend, validate

    check_backend(backend, scheduler)
    if seating is not None and not seating.strip():
        raise UserError("--seating is empty; allowed: fixed, rotate, pool")

    names, source = _split(strategies), "command line"
    if not names:
        names, source = default_strategies(game, players), "recommended mix"
        seating = seating or "pool"
    opts, overrides = _options(option), _overrides(data, set_)
    # every input checked before the first line of output (an error is then the only line)
    g, _ = validate(game, n, players, names, seating or "fixed", opts, jobs, chunk_size,
                    backend, overrides)
    check_seed(seed)
    check_budget(g, names, budget)
    if source == "recommended mix":
        typer.echo(f"strategies: the recommended mix of {game} ({', '.join(names)}), "
                   f"--seating {seating} (give --strategies to choose)")
    if all(s == "random" for s in names):
        typer.echo(RANDOM_WARNING, err=True)
    root = run_simulation(game, n, players, names, seed, opts, jobs,
                          chunk_size, out, seating or "fixed", backend, scheduler=scheduler,
                          overrides=overrides, strategies_source=source, budget=budget)
    typer.echo(f"results: {root}")
    typer.echo(f"report:  boardsim report {root}")


@app.command()
def report(
    runs: list[Path] = typer.Argument(..., help="one or more results folders of one game"),
    out: Optional[Path] = typer.Option(None, help="report folder (default reports/<game>)"),
):
    """Write report.md and report.html (charts embedded) for results folders of one game.
    Each folder is verified first (sim/core/integrity.py): a finished run, every chunk of its
    manifest and no other, each of the run's games; the same games never twice."""
    from sim.verify import verify_runs

    manifests = verify_runs(runs)
    game_ids = sorted({m["game"] for m in manifests})
    if len(game_ids) != 1:
        raise UserError(f"report: the folders hold different games ({', '.join(game_ids)})")
    summary = _write_report(game_ids[0], [str(r) for r in runs], out)
    typer.echo(summary)


def _write_report(game_id: str, runs: list[str], out: Optional[Path],
                  roles: list[str] | None = None) -> str:
    """The report written whole into a hidden folder beside ``out``, then swapped into
    ``out``'s place with one atomic rename (``integrity.swap_into``): a failed, refused or
    killed report leaves the old one whole, and the next report clears what a killed one left
    behind."""
    import os
    import shutil

    from analysis.report import write_report
    from sim.core.integrity import report_tmp_folder, swap_into
    from sim.registry import get_game

    _plain_text_charts()
    out = Path(out or Path("reports") / game_id)
    game = get_game(game_id)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a folder")
    real = Path(os.path.realpath(out))
    if real.parent == real:
        raise UserError(f"--out {out}: the file system's root; choose a report folder")
    for what, inner in [("the current folder", os.getcwd()),
                        *((f"the results folder {r}", r) for r in runs)]:
        r = os.path.realpath(inner)
        if r == str(real) or r.startswith(str(real) + os.sep):
            raise UserError(f"--out {out} holds {what}; a report folder is replaced whole, "
                            "so choose a folder of its own (default reports/<game>)")
    tmp = report_tmp_folder(real)
    try:
        res = write_report(runs, str(tmp), game.title, game.impact_groups or None, roles)
        swap_into(tmp, real)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    text = res.get("summary", "").rstrip().replace(str(tmp), str(out))
    return f"{text}\nreport: {out / 'report.md'} and {out / 'report.html'}"


def _plain_text_charts() -> None:
    """Chart labels are plain text: a name with ``$`` is never read as matplotlib mathtext."""
    import matplotlib

    matplotlib.rcParams["text.parse_math"] = False


@app.command()
def replay(
    target: str = typer.Argument(..., help="a results folder, or a game id"),
    index: int = typer.Option(0, "--index", "-i", help="game index within the results folder"),
    players: int = typer.Option(2, "--players", "-p", help="(game id) number of players"),
    strategies: str = typer.Option("random", "--strategies", "-s", help="(game id) bots"),
    seed: int = typer.Option(0, help="(game id) run seed"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o", help="(game id) name=value"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="actions only, no states"),
):
    """Replay one game decision by decision, readable (game i of a run, exactly)."""
    from sim.core.integrity import check_seed
    from sim.replay import replay_lines

    check_seed(seed)
    for line in replay_lines(target, index, players, _split(strategies), seed,
                             _options(option), show_states=not quiet):
        typer.echo(line)


@app.command()
def run(
    jobs: int = typer.Option(-1, "--jobs", "-j", help="worker processes (-1 = all cores)"),
    scale: float = typer.Option(1.0, help="multiply every game count (e.g. 0.01 for a smoke run)"),
    only: Optional[str] = typer.Option(None, help="comma-separated game ids (default: all)"),
):
    """The main job: every registered game at its default settings, reports under reports/,
    then the cross-game index reports/index.html and reports/README.md. A plan entry with
    ``effects_games`` also gets the causal component effects of its run (docs/effects.md),
    in the run folder's ``effects/``, which its report's verdict ranks components by."""
    from analysis.index import write_index
    from sim.core.integrity import MAX_GAMES, MIN_RUN_GAMES, check_jobs, check_scale
    from sim.registry import get_game, list_games
    from sim.runner import DEFAULT_BACKEND

    scale = check_scale(scale)
    check_jobs(jobs)
    ids = _split(only) or list_games()
    for gid in ids:
        get_game(gid)
    for gid in ids:
        game = get_game(gid)
        runs, roles = [], []
        for plan in game.default_plan():
            if plan["n_games"] * scale > MAX_GAMES:
                raise UserError(f"--scale {scale} makes {plan['n_games'] * scale:,.0f} games "
                                f"per run; at most {MAX_GAMES:,}")
            if int(plan["n_games"] * scale) < MIN_RUN_GAMES:
                raise UserError(f"--scale {scale} makes {int(plan['n_games'] * scale)} games "
                                f"for {gid} {plan['name']}; the main job's reports need at "
                                f"least {MIN_RUN_GAMES} per run (--scale >= "
                                f"{MIN_RUN_GAMES / plan['n_games']:g} for it)")
        for plan in game.default_plan():
            roles.append(plan.get("role", "main"))
            n = int(plan["n_games"] * scale)
            out = Path("reports") / "_runs" / gid / f"{plan['name']}-n{n}"
            runs.append(str(run_simulation(
                gid, n, plan["players"], plan["strategies"], plan.get("seed", 1),
                plan.get("options", {}), jobs, plan.get("chunk_size", 10_000), out,
                plan.get("seating", "pool"), DEFAULT_BACKEND, label=f"{gid} {plan['name']}",
                role=plan.get("role", "main"))))
            if plan.get("effects_games"):  # the causal component effects of this run
                n_fx = max(MIN_RUN_GAMES, int(plan["effects_games"] * scale))
                fx = _run_effects_of(runs[-1], n_fx, jobs, f"{gid} {plan['name']} effects")
                typer.echo(f"{gid} {plan['name']}: component effects ({n_fx:,} games per "
                           f"arm) in {fx}")
            if _tier_study_here(gid, plan, runs[-1], scale, jobs):
                typer.echo(f"{gid} {plan['name']}: tier study in {runs[-1]}/tiers")
            if _robustness_study_here(gid, plan, runs[-1], scale, jobs):
                typer.echo(f"{gid} {plan['name']}: robustness study in "
                           f"{runs[-1]}/robustness")
        typer.echo(_write_report(gid, runs, None, roles))
    from sim.core.integrity import clean_stale_report_tmp

    _plain_text_charts()
    clean_stale_report_tmp(Path("reports"))
    index = write_index("reports")
    typer.echo(f"index: {index['html']} and {index['markdown']}")


def _tier_study_here(gid: str, plan: dict, run_dir: str, scale: float, jobs: int) -> bool:
    """Play the small tier study (``analysis.lab.tiers.tier_study``) of the game's first main
    2-player run into ``<run_dir>/tiers``; True if played here. A game without the search bot
    says so (its report then says no study was played)."""
    from analysis.lab.tiers import run_tiers_of, tier_study
    from sim.registry import get_game

    role = plan.get("role", "main")
    if role != "main" or plan["players"] != 2:
        return False
    try:
        st = tier_study(get_game(gid))
    except UserError as e:
        typer.echo(f"{gid} {plan['name']}: {e}")
        return False
    n_scr = max(MIN_TIER_GAMES, int(st["n_scripted"] * min(scale, 1.0)))
    n_search = max(MIN_TIER_SEARCH, int(st["n_search"] * min(scale, 1.0)))
    run_tiers_of(run_dir, jobs, n_search, st["budget"], n_scr)
    return True


def _robustness_study_here(gid: str, plan: dict, run_dir: str, scale: float,
                           jobs: int) -> bool:
    """Play the robustness study (``analysis.lab.robustness.RUN_STUDY``, scaled down by
    ``--scale`` below 1) of the game's first main 2-player run into ``<run_dir>/robustness``;
    True if played here."""
    from analysis.lab.robustness import RUN_STUDY, run_robustness_of

    if plan.get("role", "main") != "main" or plan["players"] != 2 or gid not in RUN_STUDY:
        return False
    with _games_progress(None, f"{gid} robustness") as cb:
        run_robustness_of(run_dir, jobs, scale, cb)
    return True


MIN_TIER_GAMES, MIN_TIER_SEARCH = 200, 2
"""The random and scripted tiers / the search tier of ``boardsim run``'s tier study play at
least this many games whatever ``--scale`` (below 1 it scales them down)."""


def _run_effects_of(run_dir: str, n: int, jobs: int, label: str) -> Path:
    """``analysis.lab.effects.run_effects_of`` with a progress bar (games over all arms)."""
    from analysis.lab.effects import run_effects_of

    with _games_progress(None, label) as cb:
        return run_effects_of(run_dir, n, jobs, cb)


@app.command()
def soak(
    game: str = typer.Argument(..., help="game id (see `boardsim games`)"),
    n: int = typer.Option(1000, "-n", "--games", help="number of games"),
    players: Optional[int] = typer.Option(None, "--players", "-p",
                                          help="default: every player count in turn"),
    strategies: str = typer.Option("", "--strategies", "-s",
                                   help="one per seat or one for all (default: every bot in "
                                        "turn)"),
    seed: int = typer.Option(0, help="run seed (game i is `boardsim replay ... --index i`)"),
    first: int = typer.Option(0, help="index of the first game"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o",
                                               help="rule option name=value (repeatable)"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="worker processes (-1 = all cores)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
):
    """Play games with the game's invariants checked after the set-up and after every
    decision (a compiled loop over the bots); report each violation with the command that
    replays it (exit 1 if any)."""
    from sim.soak import soak as run_soak

    prog = _progress_bar(n, f"soak {game}", stderr=True)
    t0 = time.perf_counter()
    task: list = []

    def cb(done: int, total: int, bad: int) -> None:
        if not task:  # the inputs are valid: only now the bar (an error stays one line)
            prog.start()
            task.append(prog.add_task("soak", total=total, rate=""))
        dt = time.perf_counter() - t0
        prog.update(task[0], completed=done, total=total,
                    rate=f"{done / dt:,.0f} games/s, {bad} violation(s)" if dt > 0 else "")

    try:
        res = run_soak(game, n, players, _split(strategies) or None, seed, _options(option),
                       first, progress=None if quiet else cb, jobs=jobs)
    finally:
        if task:
            prog.stop()
    rate = res.games / res.seconds if res.seconds else 0.0
    typer.echo(f"soak {game}: {res.games:,} games, {res.decisions:,} decisions checked in "
               f"{res.seconds:,.1f} s ({rate:,.1f} games/s); {len(res.violations)} violation(s)")
    for i, msg, cmd in res.violations:
        typer.echo(f"game {i}: {msg}\n  replay: {cmd}")
    if res.violations:
        raise typer.Exit(1)


@app.command()
def ladder(
    game: str = typer.Argument(..., help="game id (see `boardsim games`)"),
    players: str = typer.Option("", "--players", "-p",
                                help="player count(s), comma-separated (default: every count "
                                     "the game allows)"),
    n: Optional[int] = typer.Option(None, "-n", "--games",
                                    help="games per table, i.e. per set of bots and seat "
                                         "order (default: 200,000 per player count split "
                                         "over the tables, about a minute on one core)"),
    strategies: str = typer.Option("", "--strategies", "-s",
                                   help="bots to rate, comma-separated (default: all the "
                                        "game's bots but the search bot mcts, which is named "
                                        "explicitly)"),
    seed: int = typer.Option(1, help="run seed: game i of every table plays the same seeds"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o",
                                               help="rule option name=value (repeatable)"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="tables played at a time (threads)"),
    out: Optional[Path] = typer.Option(None, help="output folder (default "
                                                   "reports/<game>/ladder)"),
    budget: Optional[int] = typer.Option(
        None, "--budget", help="the search bots' playouts per decision (mcts, search; default: "
        "each one's own); said in ladder.md"),
):
    """Rate the bots: every bot against every other, seats rotated, on common seeds;
    Bradley-Terry ratings per player count with 95% intervals (ladder.md, .csv, .png)."""
    from analysis.lab.ladder import run_ladder

    counts = []
    for x in _split(players):
        try:
            counts.append(int(x))
        except ValueError:
            raise UserError(f"--players: expected whole numbers, got {x!r}") from None
    res = run_ladder(game, counts or None, n, _split(strategies) or None, seed,
                     _options(option), jobs, out, progress=typer.echo, budget=budget)
    typer.echo(res["summary"].splitlines()[-1])


@app.command("compare-setups")
def compare_setups(
    game: str = typer.Argument(..., help="a game with setup variants (little-town)"),
    setups: str = typer.Option("random,beginner,draft,one-of-two", help="comma-separated"),
    n: int = typer.Option(100_000, "-n", "--games", help="games per setup"),
    players: int = typer.Option(3, "--players", "-p"),
    strategies: str = typer.Option("", "--strategies", "-s",
                                   help="bot pool (default: the game's main-job pool)"),
    seed: int = typer.Option(1, help="run seed (the same for every setup)"),
    jobs: int = typer.Option(-1, "--jobs", "-j"),
    out: Optional[Path] = typer.Option(None, help="report folder"),
):
    """Run each setup variant on the same seeds and write a setup comparison report."""
    _lab_checks(seed, jobs, n)
    from analysis import games as game_ext
    from sim.registry import get_game

    g = get_game(game)
    if not _split(setups):
        raise UserError("compare-setups: --setups is empty; give at least two setups, e.g. "
                        "--setups random,draft")
    g.check_players(players)
    ext = game_ext.load(g.id)
    if ext is None or not hasattr(ext, "compare_setups"):
        raise UserError(f"compare-setups: {g.id} has no setup variants; allowed: little-town")
    typer.echo(ext.compare_setups(
        setups=_split(setups), n=n, players=players, strategies=_split(strategies) or None,
        seed=seed, jobs=jobs, out=out, run_simulation=run_simulation))


@app.command("data")
def data_cmd(
    game: str = typer.Argument(..., help="game id (see `boardsim games`)"),
    table: Optional[str] = typer.Option(None, "--table", "-t", help="only this table"),
    data: Optional[list[Path]] = typer.Option(None, "--data", help="TOML overrides to apply"),
    set_: Optional[list[str]] = typer.Option(None, "--set", help="override path=value"),
    as_json: bool = typer.Option(False, "--json", help="the whole document as JSON"),
):
    """Print a game's component tables (every number the rules use) and how to override them."""
    from sim.core.components import table_rows
    from sim.registry import get_game

    g = get_game(game, _overrides(data, set_) or None)
    doc = g.component_document()
    schema = g.component_schema
    if table is not None and table not in doc:
        raise UserError(f"unknown data table {table!r}; allowed: {', '.join(doc)}")
    if as_json:
        typer.echo(json.dumps(doc if table is None else {table: doc[table]}, indent=2))
        return
    typer.echo(f"{g.title} ({g.id}) component data; status: {g.data_status}")
    if g.overrides:
        typer.echo("overrides: " + ", ".join(f"{k}={v}" for k, v in g.overrides.items()))
    for name in ([table] if table else list(doc)):
        rows = table_rows(doc, schema, name)
        typer.echo("")
        typer.echo(f"[{name}] {schema.docs.get(name, '')}")
        cols = list(dict.fromkeys(k for r in rows for k in r))
        cells = [[_cell(r.get(c, "")) for c in cols] for r in rows]
        widths = [max(len(c), *(len(x[i]) for x in cells)) for i, c in enumerate(cols)]
        typer.echo("  ".join(c.ljust(w) for c, w in zip(cols, widths)).rstrip())
        for x in cells:
            typer.echo("  ".join(v.ljust(w) for v, w in zip(x, widths)).rstrip())
    keys = [k for k in doc if isinstance(doc[k], list)]
    example = next(iter(keys or doc))
    typer.echo("")
    typer.echo(f"override: --set {example}.<row>.<field>=VALUE, or a TOML file passed with "
               f"--data (e.g. [{example}.<row>] <field> = VALUE); rows by their name in "
               "lower case with _ for spaces")


def _cell(v) -> str:
    if isinstance(v, list):
        return ",".join(str(x) for x in v) or "-"
    return str(v)


def _arm(name: str, data: Optional[list[Path]], sets: Optional[list[str]],
         options: Optional[list[str]]):
    from analysis.lab.compare import Arm

    return Arm(name, _overrides(data, sets), _options(options))


@app.command()
def compare(
    game: str = typer.Argument(..., help="game id"),
    baseline: Optional[list[Path]] = typer.Option(None, "--baseline",
                                                  help="TOML overrides of the baseline"),
    variant: Optional[list[Path]] = typer.Option(None, "--variant",
                                                 help="TOML overrides of the variant"),
    set_baseline: Optional[list[str]] = typer.Option(None, "--set-baseline",
                                                     help="baseline override path=value"),
    set_variant: Optional[list[str]] = typer.Option(None, "--set-variant", "--set",
                                                    help="variant override path=value"),
    option_baseline: Optional[list[str]] = typer.Option(None, "--option-baseline",
                                                        help="baseline rule option name=value"),
    option_variant: Optional[list[str]] = typer.Option(None, "--option-variant",
                                                       help="variant rule option name=value"),
    n: int = typer.Option(20_000, "-n", "--games", help="games per arm and seating"),
    players: int = typer.Option(2, "--players", "-p"),
    strategies: str = typer.Option(
        "", "--strategies", "-s",
        help="one for all seats, or one per seat (default: the game's recommended mix with "
             "pool seating, as `boardsim tune` plays)"),
    rotate: bool = typer.Option(True, "--rotate/--no-rotate",
                                help="play each seed in every rotation of the strategies "
                                     "(not with the pool of the default)"),
    seed: int = typer.Option(1),
    jobs: int = typer.Option(-1, "--jobs", "-j"),
    out: Optional[Path] = typer.Option(None, help="output folder"),
    budget: Optional[int] = typer.Option(
        None, "--budget", help="the search bots' playouts per decision (mcts, search; default: "
        "each one's own); in every run's manifest and the report"),
):
    """Paired comparison of a variant against a baseline on the same seeds and seatings."""
    _lab_checks(seed, jobs, n)
    from analysis.lab.compare import compare as run_compare

    base = _arm("baseline", baseline, set_baseline, option_baseline)
    var = _arm("variant", variant, set_variant, option_variant)
    if not var.overrides and not var.options and not base.overrides and not base.options:
        raise UserError("compare: give the variant's changes (--variant FILE, --set path=value "
                        "or --option-variant name=value)")
    names, seating, source = _split(strategies), "fixed", None
    if not names:
        names, seating, source = default_strategies(game, players), "pool", "the recommended mix"
    res = run_compare(game, base, var, n, players, names, seed, rotate, jobs, out,
                      run_simulation, seating=seating, source=source, budget=budget)
    typer.echo(res["summary"])


@app.command()
def sweep(
    game: str = typer.Argument(..., help="game id"),
    param: list[str] = typer.Option(..., "--param",
                                    help="NAME=v1,v2,...: a rule option or a data path "
                                         "(one or two)"),
    n: int = typer.Option(20_000, "-n", "--games", help="games per value and seating"),
    players: int = typer.Option(2, "--players", "-p"),
    strategies: str = typer.Option("greedy", "--strategies", "-s"),
    rotate: bool = typer.Option(True, "--rotate/--no-rotate",
                                help="every rotation of the bots over the seats (default, as "
                                     "compare)"),
    seed: int = typer.Option(1),
    jobs: int = typer.Option(-1, "--jobs", "-j"),
    out: Optional[Path] = typer.Option(None, help="output folder"),
):
    """Play each value of one or two parameters on the same seeds; table, chart and report."""
    _lab_checks(seed, jobs, n)
    from analysis.lab.compare import sweep as run_sweep

    res = run_sweep(game, param, n, players, _split(strategies), seed, rotate, jobs, out,
                    run_simulation)
    typer.echo(res["summary"])


@app.command()
def suggest(
    game: str = typer.Argument(..., help="game id"),
    n: int = typer.Option(20_000, "-n", "--games", help="games per setting"),
    band: float = typer.Option(2.0, help="allowed win-rate difference, +- points"),
    players: Optional[int] = typer.Option(None, "--players", "-p",
                                          help="default: the main job's first run"),
    strategies: str = typer.Option("", "--strategies", "-s",
                                   help="bots (default: the main job's bot mix)"),
    alt_strategies: str = typer.Option("", "--alt-strategies",
                                       help="second bot mix for the robustness check"),
    limit: int = typer.Option(5, help="at most this many outliers"),
    max_step: int = typer.Option(2, help="largest change of one number"),
    data: Optional[list[Path]] = typer.Option(None, "--data", help="start from these overrides"),
    set_: Optional[list[str]] = typer.Option(None, "--set", help="start from path=value"),
    center: str = typer.Option("median", help="band centre: median (of the component's "
                               "table) or zero"),
    max_games: Optional[int] = typer.Option(None, "--max-games",
                                            help="games a change may take before it is judged "
                                                 "(default 4 x -n)"),
    seed: int = typer.Option(1),
    jobs: int = typer.Option(-1, "--jobs", "-j"),
    out: Optional[Path] = typer.Option(None, help="output folder"),
):
    """Find outlier components and the smallest change to their own numbers that fixes each."""
    _lab_checks(seed, jobs, n)
    import math

    from analysis.lab.compare import suggest as run_suggest

    if not math.isfinite(band) or not 0 < band <= 100:
        raise UserError(f"--band must be a number of points in (0, 100], got {band}")
    if not (1 <= limit <= 1000 and 1 <= max_step <= 1000):
        raise UserError("--limit and --max-step must be 1..1000")
    if max_games is not None:
        from sim.core.integrity import MAX_GAMES, check_int

        check_int("--max-games", max_games, n, MAX_GAMES)
    res = run_suggest(game, n, players, _split(strategies) or None, seed, band, limit,
                      max_step, _split(alt_strategies) or None, jobs, out, run_simulation,
                      _overrides(data, set_) or None, center, max_games=max_games)
    typer.echo(res["summary"])


@app.command()
def effects(
    game: str = typer.Argument(..., help="game id"),
    n: int = typer.Option(20_000, "-n", "--games", help="games per arm (baseline, re-deal "
                          "placebo and each component's nudge and denial arm)"),
    players: Optional[int] = typer.Option(None, "--players", "-p",
                                          help="default: the main job's player count"),
    strategies: str = typer.Option("", "--strategies", "-s",
                                   help="bots (default: the game's recommended mix, pool "
                                        "seating)"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o",
                                               help="rule option name=value"),
    family: str = typer.Option("", "--family", help="only these component families "
                               "(comma-separated)"),
    step: int = typer.Option(1, "--step", help="nudge size in steps of the component's number"),
    arm: str = typer.Option("nudge", "--arm", help="nudge (leverage: one step of the "
                            "number) | denial (strength: one seat per game barred from the "
                            "component; Go Town) | both"),
    seed: int = typer.Option(1),
    jobs: int = typer.Option(1, "--jobs", "-j"),
    out: Optional[Path] = typer.Option(None, help="output folder (default "
                                       "reports/<game>/effects)"),
):
    """Component leverage (every component's number nudged one step) and strength (denial)
    on the same games (common random numbers, paired by construction), each table with its
    pairing share and a re-deal placebo; table, forest plot and report (docs/effects.md)."""
    _lab_checks(seed, jobs, n)
    from analysis.lab.effects import run_effects

    if players is not None:  # 0 is refused, not the default
        from sim.registry import get_game

        get_game(game).check_players(players)

    with _games_progress(None, f"{game} effects") as cb:
        res = run_effects(game, n, players, _split(strategies) or None, seed, jobs, out,
                          _options(option), step, _split(family) or None, progress=cb,
                          arm=arm)
    typer.echo(res["summary"])


@app.command()
def robustness(
    game: str = typer.Argument(..., help="game id"),
    n: int = typer.Option(4000, "-n", "--games", help="games per scripted setting"),
    search_games: int = typer.Option(200, "--search-games", help="games per search-tier "
                                     "setting (mcts in every seat; 0 = no play axis)"),
    budget: Optional[int] = typer.Option(None, "--budget", help="the search bot's playouts "
                                         "per decision (default: its registry value)"),
    design: int = typer.Option(32, "--design", help="Latin-hypercube points over every "
                               "unconfirmed number together (0 = none)"),
    crossed: int = typer.Option(4, "--crossed", help="inputs (numbers or a field's corner) "
                                "replayed under the search tier: those that moved the first "
                                "seat most under the scripted tier"),
    players: int = typer.Option(2, "--players", "-p"),
    strategies: str = typer.Option("", "--strategies", "-s",
                                   help="the baseline (default: the game's recommended mix, "
                                        "pool seating)"),
    seating: Optional[str] = typer.Option(None, help="fixed | rotate | pool (baseline)"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o",
                                               help="rule option name=value"),
    seed: int = typer.Option(1),
    jobs: int = typer.Option(-1, "--jobs", "-j", help="threads (-1 = all cores)"),
    out: Optional[Path] = typer.Option(None, help="output folder (default "
                                       "reports/<game>/robustness)"),
):
    """Does each headline hold under stronger play, other bot mixes and the plausible range
    of unconfirmed data? Re-measures the first-player advantage, the strongest and weakest
    component of each family and game length on common seeds; writes robustness.md/.json
    and tornado.png (analysis/lab/robustness.py, docs/robustness.md)."""
    _lab_checks(seed, jobs, n)
    from analysis.lab.robustness import run_robustness

    with _games_progress(None, f"{game} robustness") as cb:
        res = run_robustness(game, players, n, search_games, budget, design, crossed, seed,
                             jobs, out, _split(strategies) or None, seating, _options(option),
                             progress=cb)
    typer.echo(res["summary"])
    typer.echo(f"written: {res['markdown']}")


@app.command()
def tiers(
    game: str = typer.Argument(..., help="game id"),
    n: int = typer.Option(200, "-n", "--games", help="finished games of the search tier "
                          "(search in every seat; it plays further games, at most 2x -n, until "
                          "-n are finished)"),
    scripted_games: Optional[int] = typer.Option(
        None, "--scripted-games", help="games of the random and scripted tiers (default "
                                       "max(-n, 4000); the search tier plays the first -n)"),
    budget: Optional[int] = typer.Option(None, "--budget", help="the search bot's playouts "
                                         "per decision (default: its registry value)"),
    players: int = typer.Option(2, "--players", "-p"),
    strategies: str = typer.Option("", "--strategies", "-s",
                                   help="the scripted tier (default: the game's recommended "
                                        "mix, pool seating)"),
    seating: Optional[str] = typer.Option(None, help="fixed | rotate | pool (scripted tier)"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o",
                                               help="rule option name=value"),
    seed: int = typer.Option(1),
    jobs: int = typer.Option(1, "--jobs", "-j", help="threads (-1 = all cores)"),
    out: Optional[Path] = typer.Option(None, help="output folder (default "
                                       "reports/<game>/tiers)"),
):
    """Findings across skill tiers: first-player advantage and the top components' association
    under random, scripted and search play on the same seeds; each finding holds, flips,
    weakens or is undecided at this n (analysis/lab/tiers.py)."""
    _lab_checks(seed, jobs, n)
    from analysis.lab.tiers import run_tiers

    if seating is not None and seating not in ("fixed", "rotate", "pool"):
        raise UserError(f"--seating {seating!r}" + (" is empty" if not seating.strip() else "")
                        + "; allowed: fixed, rotate, pool")

    names = _split(strategies) or None
    res = run_tiers(game, n, players, names, seed, jobs, out, _options(option), budget,
                    scripted_games, seating if names else None)
    typer.echo(res["summary"])


@app.command()
def tune(
    game: str = typer.Argument(..., help="game id"),
    target: Optional[list[str]] = typer.Option(
        None, "--target", "-t",
        help="first_seat=50±2 (or 50+-2, parity±2), balance>=0.9, length=13..16, "
             "margin=2..6, effects=±3 (repeatable)"),
    targets_file: Optional[Path] = typer.Option(
        None, "--targets", help="TOML file: a targets table (name = \"band\") and a params "
                                "list"),
    param: Optional[list[str]] = typer.Option(
        None, "--param", help="data path with wildcards (structures.*.cost.*) or option:NAME "
                              "(repeatable)"),
    players: str = typer.Option("", "--players", "-p",
                                help="player counts, e.g. 2 or 2,3 (default: the main job's)"),
    strategies: str = typer.Option("", "--strategies", "-s",
                                   help="bot mix (default: the game's recommended mix)"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o",
                                               help="fixed rule option name=value"),
    budget: str = typer.Option("10m", help="time for the whole command: 10m, 90s, 1h"),
    trials: Optional[int] = typer.Option(None, help="stop the search at this many trials "
                                         "(reproducible on any machine; overrides the budget)"),
    games: int = typer.Option(4000, "--games", "-n",
                              help="games per trial and player count at the last racing stage"),
    final_games: Optional[int] = typer.Option(None, "--final-games",
                                              help="games per candidate on fresh seeds "
                                                   "(default 4 x --games)"),
    effects_games: Optional[int] = typer.Option(
        None, "--effects-games", help="games per arm of the effects target (default "
                                      "min(final games, 2000); one arm per component)"),
    max_step: int = typer.Option(3, help="largest change of one number (0: its whole range)"),
    top: int = typer.Option(3, help="candidates re-played on fresh seeds"),
    sampler: str = typer.Option("tpe", help="tpe | random"),
    recheck_strategies: str = typer.Option(
        "", "--recheck-strategies",
        help="bots of the re-check (default: the tiers' search tier, search in every seat, "
             "when the game has it)"),
    recheck_budget: Optional[int] = typer.Option(
        None, "--recheck-budget", help="the search bots' playouts per decision in the re-check "
        "(default: the tier study's; --budget is the command's time)"),
    seed: int = typer.Option(1),
    jobs: int = typer.Option(-1, "--jobs", "-j"),
    backend: str = typer.Option("threading", help="the runner's backend for the trials: "
                                "threading (default) | loky | sequential | dask"),
    scheduler: Optional[str] = typer.Option(
        None, help="dask scheduler address (with --backend dask; default: a local cluster)"),
    out: Optional[Path] = typer.Option(None, help="output folder (default reports/GAME/tune)"),
):
    """The smallest change to the printed components that meets the targets (optuna search
    on common random numbers, racing, fresh-seed check)."""
    import os

    from analysis.lab.tune import parse_budget, parse_target, parse_targets_file, process_started
    from analysis.lab.tune import tune as run_tune
    from sim.core.integrity import check_jobs, check_seed
    from sim.runner import check_backend

    check_seed(seed)
    check_jobs(jobs)
    check_backend(backend, scheduler)
    secs = parse_budget(budget)
    tt = [parse_target(x) for x in target or []]
    patterns = list(param or [])
    if targets_file is not None:
        more, pats = parse_targets_file(targets_file)
        tt += more
        patterns += pats
    counts = None
    if players.strip():
        try:
            counts = [int(x) for x in _split(players)]
        except ValueError:
            raise UserError(f"--players {players!r}: expected whole numbers like 2 or 2,3"
                            ) from None
    if sampler not in ("tpe", "random"):
        raise UserError(f"--sampler {sampler!r}; allowed: tpe, random")
    _plain_text_charts()
    n_jobs = (os.cpu_count() or 1) if jobs == -1 else jobs
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    prog = Progress(TextColumn("[bold]tune search"), BarColumn(),
                    TextColumn("{task.fields[info]}"), TimeElapsedColumn(), transient=False)
    with prog:
        task = prog.add_task("search", total=1.0, info="")

        def cb(study, frac):
            from analysis.lab.tune import best_so_far

            trials_done, dist = best_so_far(study)
            prog.update(task, completed=frac,
                        info=f"{trials_done} trials, best distance {dist}")

        res = run_tune(game, tt, patterns, counts, _split(strategies) or None,
                       _options(option), secs, trials, games, final_games, max_step, seed,
                       n_jobs, out, sampler, top, _split(recheck_strategies) or None, cb,
                       effects_games=effects_games, backend=backend, scheduler=scheduler,
                       started=process_started(), recheck_budget=recheck_budget)
    typer.echo(res.summary)


@app.command("train-bot")
def train_bot(
    game: str = typer.Argument(..., help="game id"),
    bot: str = typer.Argument(..., help="the scripted bot whose parameter row is tuned"),
    players: int = typer.Option(2, "--players", "-p", help="number of players"),
    budget: str = typer.Option("10m", help="time for the search: 10m, 90s, 1h"),
    trials: Optional[int] = typer.Option(None, help="stop the search at this many trials "
                                         "(overrides the budget)"),
    games: int = typer.Option(2000, "--games", "-n",
                              help="games per trial at the last racing stage"),
    field: str = typer.Option("", "--field", help="the opponents' pool (default: the "
                                                  "recommended mix at --players)"),
    param: Optional[list[str]] = typer.Option(
        None, "--param", help="NAME=LO..HI: search this parameter in this range (repeatable)"),
    sampler: str = typer.Option("tpe", help="tpe | cmaes | random"),
    ladder_games: Optional[int] = typer.Option(None, help="games per ladder table"),
    install: bool = typer.Option(False, help="add the tuned row to the bot package's "
                                             "tuned.json (the strategy BOT-tuned)"),
    seed: int = typer.Option(1),
    out: Optional[Path] = typer.Option(
        None, help="output folder (default reports/GAME/train-bot/BOT-Np)"),
):
    """Tune a scripted bot's parameter row by self-play against the field (optuna, racing,
    common seeds; resumable), then rate it on the ladder before and after."""
    from analysis.lab.train_bot import parse_param
    from analysis.lab.train_bot import train_bot as run_train
    from analysis.lab.tune import parse_budget

    secs = parse_budget(budget)
    extra = dict(parse_param(x) for x in param or [])
    res = run_train(game, bot, players, secs, trials, games, seed, _split(field) or None,
                    extra, sampler, ladder_games=ladder_games, out=out, install=install,
                    progress=lambda s: typer.echo(s, err=True))
    typer.echo(res["summary"])


def _lab_checks(seed: int, jobs: int, n: int) -> None:
    """The lab tools' numbers, checked before any run starts. Raises UserError."""
    from sim.core.integrity import MAX_GAMES, check_int, check_jobs, check_seed

    check_seed(seed)
    check_jobs(jobs)
    check_int("-n (games)", n, 1, MAX_GAMES)
    _plain_text_charts()


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def main(argv: list[str] | None = None) -> None:
    """Console entry point. Bad input (UserError, a malformed or unknown command-line item),
    a full disk or a refused permission, and a lost worker process end with one line on
    stderr (``error: ...``) and exit code 2; Ctrl-C with 130."""
    try:  # typer >= 0.29 carries its own copy of click
        from typer._click import exceptions as click_exc
    except ImportError:  # pragma: no cover - older typer on click
        from click import exceptions as click_exc

    try:
        rv = app(args=argv, standalone_mode=False)
    except UserError as e:
        typer.echo(f"error: {_one_line(e)}", err=True)
        sys.exit(2)
    except click_exc.NoArgsIsHelpError:  # the help is printed as the error is made
        sys.exit(2)
    except click_exc.UsageError as e:
        cmd = e.ctx.command_path if e.ctx is not None else "boardsim"
        typer.echo(f"error: {cmd}: {_one_line(e.format_message())} (see {cmd} --help)",
                   err=True)
        sys.exit(2)
    except click_exc.ClickException as e:
        typer.echo(f"error: {_one_line(e.format_message())}", err=True)
        sys.exit(2)
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("interrupted: finished chunks are kept; rerun the same command to resume",
                   err=True)
        sys.exit(130)
    except OSError as e:
        name = str(getattr(e, "filename", "") or "")
        where = f"{name if len(name) <= 80 else name[:40] + '...' + name[-37:]}: " if name else ""
        what = e.strerror or type(e).__name__
        typer.echo(f"error: {where}{_one_line(what)}; nothing was left half-written "
                   "(rerun the same command once fixed)", err=True)
        sys.exit(2)
    except Exception as e:  # a worker process lost (joblib/loky); other errors are bugs
        if type(e).__name__ in ("TerminatedWorkerError", "BrokenProcessPool"):
            what = _one_line(e)
            what = what if len(what) <= 120 else what[:117] + "..."
            typer.echo(f"error: a worker process died ({what}); finished chunks "
                       "are kept: rerun the same command to resume", err=True)
            sys.exit(2)
        raise
    if isinstance(rv, int) and rv:
        sys.exit(rv)


if __name__ == "__main__":
    main()
