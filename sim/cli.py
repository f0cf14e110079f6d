"""The ``boardsim`` command line (typer). Bad input ends with one line on stderr and exit 2."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Optional

import typer

from sim.core.errors import UserError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="boardsim: Monte Carlo simulation and balance analysis for tabletop games.",
)


def _split(items: Optional[str]) -> list[str]:
    return [x.strip() for x in (items or "").split(",") if x.strip()]


def _options(items: Optional[list[str]]) -> dict[str, str]:
    from sim.core.options import parse_option_args

    return parse_option_args(items)


@app.command()
def games(as_json: bool = typer.Option(False, "--json", help="machine-readable output")):
    """List the games: ids, player ranges, rule options and strategies."""
    from sim.registry import get_game, list_games

    info = [get_game(g).describe() for g in list_games()]
    if as_json:
        typer.echo(json.dumps(info, indent=2, default=str))
        return
    for g in info:
        typer.echo(f"{g['id']}  ({g['title']}, {g['players']} players, "
                   f"{g['num_actions']} actions)")
        typer.echo(f"  strategies: {', '.join(g['strategies'])}")
        typer.echo(f"  data: {g['data_status']}")
        typer.echo("  rule options (name = default  [allowed]  rulebook section):")
        for o in g["options"]:
            typer.echo(f"    {o['name']} = {o['default']}  [{o['allowed']}]  {o['section']}")


def _progress_bar(total: int, label: str):
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
        transient=False,
    )
    return prog


def run_simulation(game: str, n: int, players: int, strategies: list[str], seed: int,
                   options: dict, jobs: int, chunk_size: int, out: Optional[Path],
                   seating: str, backend: str, label: str | None = None,
                   scheduler: str | None = None) -> Path:
    """simulate() with a rich progress bar over chunks showing games/s."""
    from sim.runner import simulate, validate

    validate(game, n, players, strategies, seating, options, jobs, chunk_size, backend)
    prog = _progress_bar(n, label or f"{game} {players}p")
    state = {"t0": None, "start": 0}
    with prog:
        task = prog.add_task("run", total=n, rate="")

        def cb(done: int, total: int) -> None:
            if state["t0"] is None:
                state["t0"], state["start"] = time.perf_counter(), done
            dt = time.perf_counter() - state["t0"]
            rate = (done - state["start"]) / dt if dt > 0 else 0.0
            prog.update(task, completed=done, rate=f"{rate:,.0f} games/s" if rate else "")

        return simulate(game, n, players, strategies, seed=seed, options=options, jobs=jobs,
                        chunk_size=chunk_size, out=out, seating=seating, backend=backend,
                        scheduler=scheduler, progress=cb)


@app.command()
def simulate(
    game: str = typer.Argument(..., help="game id (see `boardsim games`)"),
    n: int = typer.Option(10_000, "-n", "--games", help="number of games"),
    players: int = typer.Option(2, "--players", "-p", help="number of players"),
    strategies: str = typer.Option("random", "--strategies", "-s",
                                   help="comma-separated: one per seat, one for all, or a pool"),
    seating: str = typer.Option("fixed", help="fixed | rotate | pool"),
    seed: int = typer.Option(0, help="run seed; game i is the same game in every run"),
    option: Optional[list[str]] = typer.Option(None, "--option", "-o",
                                               help="rule option name=value (repeatable)"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="worker processes (-1 = all cores)"),
    chunk_size: int = typer.Option(10_000, help="games per task and per Parquet file"),
    backend: str = typer.Option("loky",
                                help="joblib backend: loky | threading | sequential | dask"),
    scheduler: Optional[str] = typer.Option(
        None, help="dask scheduler address (with --backend dask; default: a local cluster)"),
    out: Optional[Path] = typer.Option(None, help="results folder (default reports/_runs/...)"),
):
    """Run N games between scripted bots and write a Parquet results folder (resumable)."""
    if scheduler and backend != "dask":
        raise UserError("--scheduler needs --backend dask")
    root = run_simulation(game, n, players, _split(strategies), seed, _options(option), jobs,
                          chunk_size, out, seating, backend, scheduler=scheduler)
    typer.echo(f"results: {root}")
    typer.echo(f"report:  boardsim report {root}")


@app.command()
def report(
    runs: list[Path] = typer.Argument(..., help="one or more results folders of one game"),
    out: Optional[Path] = typer.Option(None, help="report folder (default reports/<game>)"),
):
    """Write report.md and report.html (charts embedded) for results folders of one game."""
    from sim.runner import load_manifest

    manifests = [load_manifest(r) for r in runs]
    game_ids = sorted({m["game"] for m in manifests})
    if len(game_ids) != 1:
        raise UserError(f"report: the folders hold different games ({', '.join(game_ids)})")
    incomplete = [str(r) for r, m in zip(runs, manifests) if not m.get("complete")]
    if incomplete:
        raise UserError(f"report: unfinished run(s) {', '.join(incomplete)}; "
                        "rerun their simulate command to finish them")
    summary = _write_report(game_ids[0], [str(r) for r in runs], out)
    typer.echo(summary)


def _write_report(game_id: str, runs: list[str], out: Optional[Path],
                  roles: list[str] | None = None) -> str:
    from analysis.report import write_report
    from sim.registry import get_game

    out = out or Path("reports") / game_id
    game = get_game(game_id)
    res = write_report(runs, str(out), game.title, game.impact_groups or None, roles)
    return f"{res.get('summary', '').rstrip()}\nreport: {out / 'report.md'} and {out / 'report.html'}"


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
    from sim.replay import replay_lines

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
    then the cross-game index reports/index.html and reports/README.md."""
    from analysis.index import write_index
    from sim.registry import get_game, list_games

    ids = _split(only) or list_games()
    for gid in ids:
        game = get_game(gid)
        runs, roles = [], []
        for plan in game.default_plan():
            roles.append(plan.get("role", "main"))
            n = max(1, int(plan["n_games"] * scale))
            out = Path("reports") / "_runs" / gid / f"{plan['name']}-n{n}"
            runs.append(str(run_simulation(
                gid, n, plan["players"], plan["strategies"], plan.get("seed", 1),
                plan.get("options", {}), jobs, plan.get("chunk_size", 10_000), out,
                plan.get("seating", "pool"), "loky", label=f"{gid} {plan['name']}")))
        typer.echo(_write_report(gid, runs, None, roles))
    index = write_index("reports")
    typer.echo(f"index: {index['html']} and {index['markdown']}")


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
    from analysis import games as game_ext
    from sim.registry import get_game

    g = get_game(game)
    ext = game_ext.load(g.id)
    if ext is None or not hasattr(ext, "compare_setups"):
        raise UserError(f"compare-setups: {g.id} has no setup variants; allowed: little-town")
    typer.echo(ext.compare_setups(
        setups=_split(setups), n=n, players=players, strategies=_split(strategies) or None,
        seed=seed, jobs=jobs, out=out, run_simulation=run_simulation))


def main() -> None:
    """Console entry point: UserError -> one line on stderr, exit code 2."""
    try:
        app()
    except UserError as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        typer.echo("interrupted: finished chunks are kept; rerun the same command to resume",
                   err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
