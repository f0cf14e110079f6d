"""The report section "Does it hold under stronger play?" (issue 14): the tier study of the
report's main 2-player run (``analysis.lab.tiers``), or, when the run has none, a note that says
so and gives the command."""

from __future__ import annotations

from analysis.doc import Doc, Table

TITLE = "Does it hold under stronger play?"


def tiers_section(doc: Doc, run_dirs: list[str], manifests: list[dict],
                  main_idx: list[int], game_id: str) -> dict | None:
    """Append the section to ``doc``: for the first main run that has a tier study recorded
    for it (``analysis.results.tiers.tiers_for_run``), its headline, setup and findings table (every
    tier's estimate with its 95% interval and n, the paired difference, the verdict; a
    finding whose search interval includes 0 is "undecided at n=..."). Without one: the
    section says no study was played and gives the ``boardsim tiers`` command. Returns the
    study's ``tiers.json`` dict, or None."""
    from analysis.results.tiers import (
        VERDICT_TEXT,
        command_for,
        findings_table,
        load_tiers,
        search_range,
        search_sample,
        tiers_for_run,
    )

    doc.h(2, TITLE)
    data = None
    for i in main_idx:
        folder = tiers_for_run(run_dirs[i], manifests[i])
        if folder is not None:
            data = load_tiers(folder)
            break
    if data is None:
        m = manifests[main_idx[0]] if main_idx else {}
        cmd = f"boardsim tiers {game_id} -n 2000 --players {m.get('players', 2)}"
        if m.get("strategies"):
            cmd += (f" --strategies {','.join(m['strategies'])} --seating "
                    f"{m.get('seating', 'pool')}")
        doc.p("No tier study was played for these runs, so this report cannot say whether its "
              "findings hold under stronger play (the search bot `search` in every seat, on the "
              f"same seeds). Play one with `{cmd}` (analysis/lab/tiers.py; `boardsim run` plays a "
              "small one for each game's main 2-player run).")
        return None
    sec = data.get("seconds", {})
    doc.p(f"**{data['headline']}**")
    doc.p(f"The same games (same seeds: common random numbers) under three tiers at "
          f"{data['players']} players: **random** (every seat `random`, "
          f"{data['n_random']:,} games), **scripted** ({', '.join(data['strategies'])}, "
          f"{data['seating']} seating, {data['n_scripted']:,} games"
          + ("; the run's own games, the ones this report reads" if
             data.get("scripted_source", "played") != "played" else "")
          + f") and **search** (`{data.get('search_bot', 'mcts')}` "
          f"in every seat, {data['budget']:,} playouts per decision, its default "
          f"{data['default_budget']:,}; {search_range(data)} of the same games, "
          f"{search_sample(data)}; {sec.get('search', 0):.0f} s to play). {data.get('strength', '')} Points are win rate x 100 with 95% "
          "intervals clustered by game, over finished games. First-player rows: a turn "
          "position's win rate minus parity. Component rows: holders' win rate minus the "
          "others' (an association, not an effect), the strongest and weakest of the "
          "scripted tier. " + VERDICT_TEXT)
    head, rows = findings_table(data)
    doc.table(Table(head, rows, [False, True, True, True, True, False]))
    if any(f["verdict"] in ("undecided", "none", "appears") for f in data["findings"]):
        doc.p(f"Undecided findings need more search games: `{command_for(data, 2000)}` "
              "(docs/bots.md, \"Skill tiers\", gives the time per game).")
    return data
