"""Game-independent building blocks: the game interface, rule options, the generator."""
