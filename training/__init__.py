"""Training and the command line: self-play, export, and the ``byapar`` command."""
