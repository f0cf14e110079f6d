"""The lab: experiments that play games (the third floor, docs/house-pattern.md).

``effects`` (causal component effects), ``ladder`` (the rating ladder), ``tiers`` (findings
across skill tiers), ``tune`` (component-data tuning), ``compare`` (compare, sweep, suggest and
their ``Arm``). They import the engines (``sim``) and reach bots only through the registry
(``sim.get_game(id).bots``); the app (``analysis.cli``, ``analysis.report``) imports them, never
the reverse.
"""
