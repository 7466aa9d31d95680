"""The hard player: policies learned by self-play, read from ``checkpoints/hard/``.

It reads only its observation and mask and plays the most likely legal action. A checkpoint may
name table specialists in its ``meta.json`` (``"table_specialists": {"2": "table_2"}``): a
sub-folder holding a checkpoint trained further on tables of that size, played when the game
started with that many players; the folder's own policy plays every other table. Loading needs
numpy alone; a checkpoint made for another observation layout, action table or board, or a
damaged one, is refused with ``CheckpointError``.

Its answers to trade offers are guarded (``safe_trades``, on by default): it accepts only what
the policy accepts in the canonical form and the value network's check passes
(``agents.trade_guard``); ``safe_trades=False`` (the name ``hard-unguarded``) answers as the
policy alone does, as the hard player did before.
"""

from __future__ import annotations

from pathlib import Path

from byapar_checkpoints import shipped

from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Action, Game, Phase

from .network import NumpyPolicy, load_checkpoint, specialist_folders
from .trade_guard import ACCEPT_ID, REJECT_ID, safe_answers, safe_pending_answer
from .value import ValueNet, shipped_value

DEFAULT_CHECKPOINT = shipped("hard")


class LearnedPlayer:
    """A player from any checkpoint folder."""

    def __init__(self, folder: str | Path = DEFAULT_CHECKPOINT, name: str | None = None,
                 safe_trades: bool = True, value: ValueNet | None = None):
        self.folder = Path(folder)
        self.safe_trades = safe_trades
        self.value = (value or shipped_value()) if safe_trades else None
        self.policy, self.meta = load_checkpoint(self.folder)
        self.name = name or self.meta.get("name", self.folder.name)
        self.specialists: dict[int, NumpyPolicy] = {
            size: load_checkpoint(sub)[0] for size, sub in specialist_folders(self.folder,
                                                                              self.meta).items()}

    def policy_for(self, num_players: int) -> NumpyPolicy:
        """The policy that plays a table of ``num_players``."""
        return self.specialists.get(num_players, self.policy)

    def act(self, env: raw_env, seat: int) -> int:
        game = env.game
        if self.safe_trades and game.phase == Phase.TRADE_ANSWER and env.draft is None:
            return ACCEPT_ID if self.accepts_pending(game) else REJECT_ID
        obs = env.observe(env.possible_agents[seat])
        policy = self.policy_for(len(env.possible_agents))
        return policy.act(obs["observation"], obs["action_mask"])

    def accepts_pending(self, game: Game) -> bool:
        """Whether it accepts the trade offer pending in ``game``, guarded (see the module
        docstring)."""
        return safe_pending_answer(self.policy_for(game.num_players), self.value, game)

    def accepts(self, game: Game, offers: list[Action]) -> list[bool]:
        """Its answers to each of ``offers``, offers the seat to play in ``game`` could make
        before rolling, all at once (the offer exploit test asks thousands). Unguarded, the
        policy's answers in the canonical form, which at the start of a turn (no offer made,
        no action taken) is the form the environment shows it."""
        policy = self.policy_for(game.num_players)
        return safe_answers(policy, self.value, game, offers)
