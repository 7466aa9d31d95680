"""Harnesses that seat players at tables: the arena (``arena``, its Ray backend ``arena_ray``,
its chart ``arena_plot``), the gauntlet (``gauntlet``) and the analysis of a saved game
(``analyse``).

A floor of its own, above the players (``byapar_agents``) and the environment, below training,
the server and the command line, which seat players through it.
"""
