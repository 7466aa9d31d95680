"""The core every game's engine shares, standard library only: the typed errors, the members of
a seat-or-bank field, the save schema, and ``TableGame``/``TableRules`` (seeded dice, clone,
save and load driven by a game's schema). Each game's engine (``byapar_env.engine`` for Byapar,
``byapar_env.businessman``) builds on it; neither imports the other."""
