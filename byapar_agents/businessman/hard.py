"""Businessman's hard player: the shipped policy, with the Exchange card worked out by sums
and proposals answered by a reckoning of the deal.

``make_agent("hard")`` seats it. The policy (``byapar_checkpoints/businessman_hard``, trained by
``byapar train --game businessman``) makes every decision except three, where the player computes
instead:

- **which Exchange card to play** (``Phase.EXCHANGE_CARD``): the card, colour and direction that
  take the most from the other seats' shares (the leader's loss counted twice), or none when the
  best play takes less than a few thousand credits before the last rounds (the medium player's
  ``best_card``; its own shares cost it nothing, as the mover pays its own rise);
- **the colour of a gifted share** (``Phase.PICK_COLOUR``): the dearest;
- **whether to accept a proposal** (``Phase.TRADE_ANSWER``): when what the deal brings the seat
  (the lots' worth in rent over the turns left, cash and shares) beats half of what it brings
  the proposer (all of it heads-up) by more than a thousand (the medium player's
  ``trade_gain``).

Why: these decisions are exact arithmetic over every seat's holdings and the card's effect, a
sum the network approximates poorly. Given the same games (seed 1, 400 a table, 20 rounds),
handing only these two phases to the sums raised the policy's win rate from 47.2% to 55.0%
heads-up against medium and from 43.9% to 52.4% against three medium players, where handing
it any other phase changed little or lost (docs/businessman_env.md, "The shipped hard"). The
policy was trained at tables of medium players only, and answers offers from other kinds
poorly: at the first table a user runs (hard, medium, easy, random; seed 1, 1,000 games) the
reckoned answers took hard from 37.8% to 51.6%, and changed nothing against medium alone
(docs/businessman_env.md, "Answers by reckoning").
``LearnedBusinessmanPlayer`` still seats the bare policy (``byapar arena --players
byapar_checkpoints/businessman_hard,...``), and ``make_agent("hard:FOLDER")`` this player over
another
checkpoint's policy. At tables of two the policy is the checkpoint's heads-up specialist
(``LearnedBusinessmanPlayer.policy_for``).
"""

from __future__ import annotations

from pathlib import Path

from byapar_checkpoints import shipped
from byapar_env.businessman import ACTION_ID, Action, Game, Phase

from .learned import LearnedBusinessmanPlayer
from .medium import MediumPlayer

CALCULATED_PHASES = frozenset({Phase.EXCHANGE_CARD, Phase.PICK_COLOUR, Phase.TRADE_ANSWER})


class HardBusinessmanPlayer(LearnedBusinessmanPlayer):
    """The policy of ``folder`` (the shipped one by default), with the decisions of
    ``CALCULATED_PHASES`` computed by the medium player's rules."""

    def __init__(self, folder: str | Path | None = None, name: str = "hard") -> None:
        super().__init__(folder if folder is not None else shipped("businessman_hard"), name=name)
        self._sums = MediumPlayer()  # stateless in these three phases

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        if game.phase in CALCULATED_PHASES:
            return self._sums.choose(game, seat, legal)
        return super().choose(game, seat, legal)

    def policy_choice(self, game: Game, seat: int, legal: list[Action]) -> Action:
        """The bare network's choice, in every phase."""
        return super().choose(game, seat, legal)

    def act(self, env, seat: int) -> int:
        if env.game.phase in CALCULATED_PHASES:
            return ACTION_ID[self._sums.choose(env.game, seat, env.legal_engine_actions())]
        return super().act(env, seat)
