"""``write_report``: read the runs, run the queries, draw the charts, build the document (the
generic sections, then the game's extension), write report.md, report.html and summary.json."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

import polars as pl

from analysis import charts
from analysis import queries as q
from analysis.doc import Doc, Table, now_utc, render_html, render_markdown, write_atomic
from analysis.report.arms import arm_rows, split_arms
from analysis.report.context import ReportContext
from analysis.report.header import header_section, overrides_line
from analysis.report.headlines import headlines
from analysis.report.ladder_section import ladder_section
from analysis.report.manifests import check_overrides, game_title, load_manifests
from analysis.report.robustness_section import (
    first_seat_cell,
    robustness_section,
    study_for,
    with_column,
)
from analysis.report.sample_size import sample_size_section, sample_sizes
from analysis.report.sections import (
    balance_section,
    component_section,
    length_section,
    method_section,
    seat_section,
    strategy_section,
)
from analysis.report.summary import summary_json
from analysis.report.tiers_section import tiers_section
from analysis.report.verdict import (
    association_bullet,
    component_by_bot,
    component_rows,
    effect_rows,
    effects_intervention,
    first_player_rows,
    length_rows,
    rule_hole_rows,
    rule_hole_section,
    verdict_line,
    verdict_section,
)
from analysis.report.wording import mix_label
from analysis.results.effects import effects_table

__all__ = ["DEFAULT_IMPACT_GROUPS", "write_report"]

MAX_ARM_ROWS = 4
"""At most this many runs with other settings are listed in the verdict itself."""

SCORE_UNITS = {"go-town": "floors built"}
"""What a seat's final score counts, per game id (default "points")."""

DEFAULT_IMPACT_GROUPS = [
    {"prefix": "played_", "title": "Component impact", "noun": "component",
     "verb": "played", "include": None},
]


@dataclass
class _Runs:
    """The runs of one report: folders, manifests, roles and the lazy frames over all of them
    (``all_*``) and over the "main" runs (``games``/``seats``)."""

    run_dirs: list[str]
    manifests: list[dict]
    game_id: str
    title: str
    overrides: dict
    role_of: dict[int, str]
    main_idx: list[int]
    all_games: pl.LazyFrame
    all_seats: pl.LazyFrame
    games: pl.LazyFrame
    seats: pl.LazyFrame
    per_run: pl.DataFrame


@dataclass
class _Tables:
    """The generic query results (``analysis.queries``) of the main runs."""

    seat_rates: pl.DataFrame
    order_rates: pl.DataFrame
    strat: pl.DataFrame
    matchups: pl.DataFrame
    bal: pl.DataFrame
    comp: pl.DataFrame
    scores: pl.DataFrame
    lengths: pl.DataFrame
    lcounts: pl.DataFrame
    impacts: list[pl.DataFrame]
    firsts: dict[int, list[int]]
    by_bot: pl.DataFrame
    per_bot: pl.DataFrame
    score_counts: pl.DataFrame
    varied: bool = field(init=False)
    fixed: bool = field(init=False)

    def __post_init__(self) -> None:
        self.varied = any(len(v) > 1 for v in self.firsts.values())
        self.fixed = charts.fixed_length(self.lcounts)


def _impact_name(i: int) -> str:
    return "component_impact" if i == 0 else f"component_impact_{i + 1}"


def _read_runs(run_dirs: list[str], out_dir: str, game_title_: str | None,
               roles: list[str] | None) -> _Runs:
    """Manifests, game, overrides (checked alike), roles and the lazy frames of the runs;
    creates ``out_dir``."""
    if not run_dirs:
        raise ValueError("write_report needs at least one run folder")
    manifests = load_manifests(run_dirs)
    game_ids = sorted({str(m.get("game", "")) for m in manifests} - {""})
    if len(game_ids) > 1:
        raise ValueError(f"runs are of different games: {', '.join(game_ids)}")
    game_id = game_ids[0] if game_ids else "unknown game"
    overrides = check_overrides(run_dirs, manifests)
    title = game_title_ or game_title(game_id, manifests)
    os.makedirs(out_dir, exist_ok=True)
    all_games, all_seats = q.scan_runs(run_dirs)
    role_of = {i: (roles[i] if roles else str(manifests[i].get("role") or "main"))
               for i in range(len(run_dirs))}
    per_run = q.collect(
        all_games.group_by("run").agg(
            n=pl.len(),
            limit=(pl.col("end_reason") == q.LIMIT).sum(),
            deadlock=(pl.col("end_reason") == q.DEADLOCK).sum(),
            players=pl.col("players").unique().sort().cast(pl.Utf8).str.join(","),
            options=pl.col("options").unique().sort().str.join("\n"),
        )
    ).sort("run")
    players_of = {int(r["run"]): str(r["players"]) for r in per_run.iter_rows(named=True)}
    role_of = split_arms(manifests, players_of, role_of)  # different settings: side by side
    main_idx = [i for i, r in role_of.items() if r == "main"] or list(role_of)
    return _Runs(run_dirs, manifests, game_id, title, overrides, role_of, main_idx, all_games,
                 all_seats, all_games.filter(pl.col("run").is_in(main_idx)),
                 all_seats.filter(pl.col("run").is_in(main_idx)), per_run)


def _query(games: pl.LazyFrame, seats: pl.LazyFrame, groups: list[dict]) -> _Tables:
    """Every generic table of the report, from the main runs."""
    impacts = []
    for grp in groups:
        imp = q.component_impact(seats, detail_prefix=grp["prefix"])
        if grp.get("include") is not None:
            imp = imp.filter(pl.col("component").is_in(list(grp["include"])))
        impacts.append(imp)
    mix = q.game_mix(games)
    firsts = {
        int(p): sorted(int(f) for f in g["first_player"].unique())
        for (p,), g in mix.group_by("players")
    }
    by_bot, per_bot = component_by_bot(seats, groups[0]["prefix"])
    if groups[0].get("include") is not None:
        by_bot = by_bot.filter(pl.col("component").is_in(list(groups[0]["include"])))
    score_counts = q.collect(seats.filter(q.finished_seat()).group_by("players", "score")
                             .agg(count=pl.len().cast(pl.Int64))).sort("players", "score")
    return _Tables(
        seat_rates=q.seat_win_rates(seats), order_rates=q.turn_order_win_rates(games),
        strat=q.strategy_win_rates(seats), matchups=q.matchup_matrix(games),
        bal=q.balance(seats, games), comp=q.completion(games), scores=q.score_distribution(seats),
        lengths=q.length_distribution(games), lcounts=q.length_counts(games), impacts=impacts,
        firsts=firsts, by_bot=by_bot, per_bot=per_bot, score_counts=score_counts)


def _draw_charts(t: _Tables, out_dir: str, unit: str) -> dict[str, str]:
    """The generic charts; returns name -> path. A game of fixed length gets the score
    distribution instead of a one-bar length histogram."""
    paths = {
        "first_player_advantage": charts.advantage_chart(
            t.order_rates, os.path.join(out_dir, "first_player_advantage.png")),
        "seat_win_rates": charts.seat_win_rate_chart(
            t.seat_rates, os.path.join(out_dir, "seat_win_rates.png")),
        "game_length": (charts.score_histogram_chart(
            t.score_counts, os.path.join(out_dir, "game_length.png"), unit) if t.fixed
            else charts.length_histogram_chart(
                t.lcounts, os.path.join(out_dir, "game_length.png"))),
        "matchups": charts.matchup_heatmap(t.matchups, os.path.join(out_dir, "matchups.png")),
    }
    for i, imp in enumerate(t.impacts):
        name = _impact_name(i)
        paths[name] = charts.component_impact_chart(imp, os.path.join(out_dir, f"{name}.png"))
    if t.varied:
        paths["turn_order_win_rates"] = charts.seat_win_rate_chart(
            t.order_rates, os.path.join(out_dir, "turn_order_win_rates.png"),
            position_col="position")
    return paths


def _extend(doc: Doc, runs: _Runs, out_dir: str, paths: dict[str, str]
            ) -> tuple[list[str], list[str], list[dict], list[str]]:
    """Run the game's report extension (``analysis.games``), if any; its sections are appended
    to ``doc``. Returns (its answer lines for the verdict, its summary lines, its rule
    holes, its answers in full)."""
    from analysis import games as game_ext

    ext = game_ext.load(runs.game_id)
    extra_summary: list[str] = []
    block: list[str] = []
    if ext is not None:
        ctx = ReportContext(doc, runs.all_games, runs.all_seats, runs.run_dirs, runs.manifests,
                            runs.role_of, out_dir, paths, block, extra_summary)
        ext.extend_report(ctx)
        return block, extra_summary, ctx.rule_holes, ctx.details
    return block, extra_summary, [], []


def _effects(runs: _Runs) -> dict[int, str]:
    """Player count -> the component-effects folder of the main run of that count
    (``analysis.results.effects.effects_for_run``: only effects recorded for that very run, with its
    settings and data), for the counts that have one."""
    from analysis.results.effects import effects_for_run

    out: dict[int, str] = {}
    for i in runs.main_idx:
        folder = effects_for_run(runs.run_dirs[i], runs.manifests[i])
        if folder is not None:
            out.setdefault(int(runs.manifests[i]["players"]), str(folder))
    return out


def _effects_section(doc: Doc, fx: dict[int, str], out_dir: str,
                     paths: dict[str, str]) -> None:
    """The folded section of the component effects of each player count: per arm, the
    headline (``analysis.results.effects.headline``), the bot mix and every component's effect with
    its interval, q, tier and seat-games, then the forest plot (copied into ``out_dir`` as
    ``effects_<p>p.png`` and added to ``paths``)."""
    import shutil

    from analysis.results.effects import headline
    from sim.core.io import atomic_path

    if not fx:
        return
    doc.h(2, "Component leverage and strength (paired interventions)")
    doc.p("Both measures play the same games as the baseline (common random numbers: same "
          "seeds and seatings) with one thing changed. **Leverage** (one-step nudge): each "
          "component's number moved one step against it (a building's VP - 1, one copy of a "
          "card type taken out of the shuffled deck, a goal's threshold + 1, ...), the change "
          "in its holders' win rate: what one step of that number does, not how strong the "
          "component is; ranked only among steps of one kind. **Strength** (denial, where "
          "run): one seat per game barred from the component, the change in that seat's win "
          "rate. Each table shows its **pairing share** (of the games the component never "
          "entered, the share the arm replays exactly) and a **re-deal placebo** (the same "
          "estimator on the same games re-dealt: what selection alone shows). 95% intervals "
          "clustered by game (CR1), Benjamini-Hochberg q across the components, games without "
          "a result (length limit, deadlock) left out (docs/effects.md). A component opens a "
          "new tier only when its interval clears the previous tier's leader. The tables "
          "under Component impact compare seats with and without a component: associations.")
    from analysis.results.effects import ARM_NAMES, placebo_summary

    for p, folder in sorted(fx.items()):
        table = effects_table(folder)
        for arm in dict.fromkeys(table["arm"].to_list()):
            d = table.filter(pl.col("arm") == arm)
            if "step_kind" in d.columns:
                d = d.sort(["family", "step_kind", "effect"], descending=[False, False, True],
                           nulls_last=True)
            name = ARM_NAMES.get(arm, arm)
            r0 = d.row(0, named=True)
            doc.h(3, f"{p} players, {name}")
            doc.p(f"Bots {r0['bot_mix']}, {p} players; {r0['n_games']:,} games finished in "
                  f"every arm compared (first component). **{headline(d)}** Re-deal placebo: "
                  f"{placebo_summary(d)}.")

            def cell(r, k, lo, hi):
                return ("n/a" if r.get(k) is None else
                        f"{r[k]:+.2f} [{r[lo]:+.2f}, {r[hi]:+.2f}]")

            rows = [[str(r["rank"]), "-" if r["tier"] is None else str(r["tier"]),
                     r["component"], r["nudge"],
                     "n/a" if r["effect"] is None else f"{r['effect']:+.2f}",
                     "n/a" if r["lo"] is None else f"[{r['lo']:+.2f}, {r['hi']:+.2f}]",
                     cell(r, "placebo", "placebo_lo", "placebo_hi"),
                     "n/a" if r.get("pairing_share") is None else
                     f"{100 * r['pairing_share']:.1f}% of {int(r['pairing_n']):,}",
                     "n/a" if r["q"] is None else f"{r['q']:.2g}",
                     f"{r['holder_seat_games']:,}" + (" (small)" if r["small_sample"] else "")]
                    for r in d.iter_rows(named=True)]
            rows.append(["-", "-", "re-deal placebo", "the same games re-dealt (new chance "
                         "and bot seeds; same seats, bots and data)", "", "",
                         "(per component, column Placebo)", "n/a (re-dealt)", "",
                         placebo_summary(d)])
            doc.table(Table(["Rank", "Tier", "Component", "Intervention",
                             f"{name.capitalize()}, points", "95% CI (clustered)",
                             "Re-deal placebo [95%]", "Pairing share", "BH q",
                             "Seat-games"], rows,
                            [True, True, False, False, True, True, True, True, True, True]))
        src = os.path.join(folder, "effects.png")
        if os.path.isfile(src):
            name = f"effects_{p}p.png"
            dst = os.path.join(out_dir, name)
            with atomic_path(dst) as tmp:
                shutil.copyfile(src, tmp)
            paths[f"effects_{p}p"] = dst
            doc.charts([(name, f"Component leverage and strength, {p} players: every "
                               "estimate with its 95% interval (clustered by game), sorted")])


def _effect_headlines(fx: dict[int, str]) -> list[str]:
    """``"<p>p strength: <headline>"`` (denial arm) and ``"<p>p leverage: <headline>"`` (nudge
    arm) of each player count's effects (the index)."""
    from analysis.results.effects import headline

    out = []
    for p, folder in sorted(fx.items()):
        t = effects_table(folder)
        for arm, what in (("denial", "strength"), ("nudge", "leverage")):
            d = t.filter(pl.col("arm") == arm)
            if not d.is_empty():
                out.append(f"{p}p {what}: {headline(d)}")
    return out


def _measures_note(causal: bool) -> list[str]:
    """The methods note's lines on which measure is causal, which an association, and the
    interval of each table (issue 15)."""
    fx = ("**Paired interventions**: the component rows of the verdict (section Component "
          "leverage and strength): strongest/weakest by restricted play (one seat per game "
          "barred from the component), leverage by a one-step nudge of its number (effect on "
          "the holders' win rate), both on common seeds, each with its pairing share and a "
          "re-deal placebo; 95% interval cluster-robust by game (CR1), Benjamini-Hochberg q "
          "across the components."
          if causal else
          "**Causal**: none in this report: no component effects were run for these runs "
          "(`boardsim run` plays them; `boardsim effects` on its own).")
    return [
        fx,
        "**Associations** (not effects): Component impact (seats with vs without a component: "
        "95% interval clustered by game, cluster-robust), its split by bot (Mantel-Haenszel "
        "over the bots, Wald 95% interval) and the verdict's component rows marked "
        "association.",
        "Other intervals: the win rates of a seat, a turn position or a bot and the "
        "limit-game rates use the Wilson 95% interval; the verdict's mean game length the "
        "normal 95% interval (z = 1.96).",
    ]


def write_report(
    run_dirs: list[str], out_dir: str, game_title: str | None = None,
    impact_groups: list[dict] | None = None, roles: list[str] | None = None,
) -> dict[str, str]:
    """Analyse ``run_dirs`` (run folders of one game) and write the report into ``out_dir``.

    Writes ``report.md``, ``report.html`` (self-contained) and the PNG charts
    ``seat_win_rates.png``, ``game_length.png``, ``matchups.png``, ``component_impact.png``
    (and ``turn_order_win_rates.png`` when the first seat varied between games), each to a
    temporary name first and then renamed. Returns a dict: ``markdown``, ``html`` and one key per
    chart (paths, str), plus ``summary`` (a few lines of plain text for the terminal).
    Also writes ``summary.json`` (headline numbers for the cross-game index,
    ``analysis.index``): game id and title, games played, players covered, the first seat's win
    rate per player count with its Wilson interval, data status, component-data overrides, bot
    mix, seeds, the generic headline lines and the game-specific answer lines.
    Raises ValueError when the runs are of different games, ``sim.core.errors.UserError`` (a
    ValueError with a one-line message) when their component-data overrides (manifest
    ``"overrides"``) differ, FileNotFoundError when a folder has no data.

    ``impact_groups``: the game's per-seat detail groups to analyse, each a dict with
    ``prefix`` (column prefix), ``title`` (section title), ``noun`` (e.g. "special card"),
    ``verb`` (e.g. "played"), ``include`` (component names to keep, or None for all); the first
    group gives the headline. Default: every ``played_*`` column.
    ``roles``: one role per run (from the game's ``default_plan``); when None, each run's
    manifest ``"role"`` ("main" when absent). The generic sections use the "main" runs only;
    a main run whose rule options, bots or seating differ from the first main run of its
    player count becomes role ``arm:<label>`` and is shown side by side in the verdict, never
    pooled (``analysis.report.arms``). The game's report extension (``analysis.games``) sees
    every run.
    """
    groups = impact_groups or DEFAULT_IMPACT_GROUPS
    runs = _read_runs([os.fspath(r) for r in run_dirs], out_dir, game_title, roles)
    unit = SCORE_UNITS.get(runs.game_id, "points")
    t = _query(runs.games, runs.seats, groups)
    paths = _draw_charts(t, out_dir, unit)
    fx = _effects(runs)  # player count -> the component effects of that main run

    body = Doc()  # everything after the verdict, folded in the HTML
    ss = sample_sizes(t.seat_rates, t.order_rates, t.firsts, t.strat, t.impacts[0], t.scores,
                      t.comp, groups[0])
    lines = headlines(body, t.order_rates, t.firsts, t.strat, t.impacts[0], t.lengths, t.comp,
                      t.bal, groups[0], ss)
    after_headlines = len(body.blocks)
    seat_section(body, t.seat_rates, t.order_rates, t.firsts, t.varied, t.comp)
    balance_section(body, t.bal, t.comp)
    strategy_section(body, t.strat, t.matchups)
    ladder_section(body, runs.seats, out_dir, paths, "; ".join(
        dict.fromkeys(mix_label(runs.manifests[i]) for i in runs.main_idx)))
    length_section(body, t.scores, t.lengths, unit, t.fixed)
    _effects_section(body, fx, out_dir, paths)
    tiers_section(body, runs.run_dirs, runs.manifests, runs.main_idx, runs.game_id)
    robust = study_for(runs.run_dirs, runs.manifests, runs.main_idx)
    robustness_section(body, robust, runs.game_id, out_dir, paths)
    for i, (grp, imp) in enumerate(zip(groups, t.impacts)):
        component_section(body, imp, grp, f"{_impact_name(i)}.png",
                          t.by_bot if i == 0 else None)
    sample_size_section(body, ss, groups[0])
    block, extra_summary, holes, details = _extend(body, runs, out_dir, paths)
    full = Doc()  # the verdict's short answers and rule holes in full, after the headlines
    if details:
        full.h(2, "Game-specific answers in full")
        full.p("The game-specific answers of the verdict with their explanations.")
        full.ul(details)
    rule_hole_section(full, holes)
    body.blocks[after_headlines:after_headlines] = full.blocks
    info = header_section(body, runs.title, runs.game_id, runs.run_dirs, runs.manifests,
                          runs.per_run, runs.role_of)
    method_section(body)
    body.ul(_measures_note(bool(fx)))

    doc = Doc()
    doc.h(1, f"Balance report: {runs.title}")
    mixes = list(dict.fromkeys(mix_label(runs.manifests[i]) for i in runs.main_idx))
    players_of = {int(r["run"]): str(r["players"]) for r in runs.per_run.iter_rows(named=True)}
    arms = arm_rows(runs.all_games, runs.manifests, runs.role_of, players_of)
    if len(arms) > MAX_ARM_ROWS:  # many: one line here, the table folded below
        arm_doc = Doc()
        arm_doc.h(2, "Runs with other settings")
        arm_doc.p("Each run whose settings differ from the main runs of its player count, "
                  "with its first player's win rate and the difference from the main runs.")
        arm_doc.table(Table(["Run", "First player's win rate", "95% CI", "n", "Reading"],
                            arms, [False, True, True, True, False]))
        body.blocks[0:0] = arm_doc.blocks
        arms = [[f"Runs with other settings ({len(arms)})", "", "", "",
                 "Shown side by side, never pooled: see **Runs with other settings** below."]]
    assoc = t.by_bot.filter(~pl.col("players").is_in(list(fx)))
    answers = list(block)
    if fx:  # the associations fold into one bullet: the verdict keeps to one screen
        line = association_bullet(assoc, groups[0])
        answers += [line] if line else []
    rows = (first_player_rows(t.order_rates, t.firsts) + arms
            + [r for p in sorted(fx) for r in effect_rows(effects_table(fx[p]))]
            + ([] if fx else component_rows(assoc, groups[0], "; ".join(mixes)))
            + length_rows(t.lengths, t.comp, t.fixed)
            + rule_hole_rows(holes))
    rows = with_column(rows, robust)
    key = [("first_player_advantage.png", "First-player advantage with 95% intervals")]
    key.append(("game_length.png", "Score distribution (fixed-length game)" if t.fixed
                else "Game length histogram"))
    verdict_section(doc, rows, answers, [], "; ".join(mixes),
                    ", ".join(f"{p}p" for p in sorted(fx)),
                    effects_intervention([effects_table(fx[p]) for p in sorted(fx)]))
    doc.p(f"{info}; {runs.title} (`{runs.game_id}`); component data: "
          f"{overrides_line(runs.manifests)}; report written {now_utc()}.", "meta")
    doc.fold()
    doc.charts(key)  # the key charts follow the contents, open: the verdict keeps to a screen
    doc.blocks += body.blocks
    verdict = verdict_line(runs.title, t.order_rates, holes, _effect_headlines(fx))

    md_path = os.path.join(out_dir, "report.md")
    html_path = os.path.join(out_dir, "report.html")
    write_atomic(md_path, render_markdown(doc))
    write_atomic(html_path, render_html(doc, out_dir, f"Balance report: {runs.title}"))
    summary_path = os.path.join(out_dir, "summary.json")
    numbers = summary_json(runs.game_id, runs.title, runs.run_dirs, runs.manifests, runs.role_of,
                           runs.main_idx, runs.per_run, t.order_rates, t.firsts, ss,
                           runs.overrides, lines, block, verdict, "first_player_advantage.png")
    if robust is not None:  # the index shows the column when a report has a study
        numbers["robustness"] = first_seat_cell(robust)
    write_atomic(summary_path, json.dumps(numbers, indent=2, allow_nan=False) + "\n")
    summary = "\n".join(
        [f"{runs.title}: {info}", *lines, *extra_summary,
         f"Report: {md_path} (and {os.path.basename(html_path)})"]
    )
    return {"markdown": md_path, "html": html_path, **paths, "summary_json": summary_path,
            "summary": summary}
