"""byapar_env: the Byapar rules engine and its reinforcement-learning environment."""

__version__ = "0.1.0"
