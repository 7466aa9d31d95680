"""Training: the trainers (PPO against snapshots and leagues, the compact trainer for every
game), the value networks, expert iteration's labels and fits, distillation and export.
The ``byapar`` command is ``byapar_cli``."""
