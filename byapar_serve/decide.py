"""One decision of a computer player, as an engine action, for the seat that must decide.

Hand-written players (``EnginePlayer``) choose engine actions themselves: any bid, any trade
offer. Every other player (the learned ones, random) answers with the environment's action ids
on a ``seat_view``; a trade offer is composed there id by id (start, toggles, money) and comes
back as the one engine offer it submits, without being applied. Whatever a player answers is
checked: one that is not legal is replaced by rolling (or the first legal action), so a bad
player cannot stall a table.
"""

from __future__ import annotations

from dataclasses import dataclass

from byapar_agents import EnginePlayer
from byapar_env.action_table import (
    ACTIONS,
    BID_MIN_ID,
    BID_PRICE_IDS,
    BID_RAISE_IDS,
    CANCEL_ID,
    ROLL_ID,
    SUBMIT_ID,
    bid_amount,
    engine_action,
    fixed_action_id,
)
from byapar_env.driver import PRE_ROLL_CAP, legal_engine_actions, offer_steps, pre_roll_capped
from byapar_env.engine import Action, ActionKind, Game, actions
from byapar_env.habits import Habits

from .seat_view import seat_view

COMPOSING = frozenset({"trade_start", "trade_toggle", "trade_money", "trade_cancel"})


@dataclass(frozen=True)
class Decision:
    """One decision of a computer seat, as a table applies and reports it (a Businessman
    table's too: its action, that action's id, one step)."""

    action: Action
    id: int | None  # the environment id that carries it out now; None for offers, odd bids
    steps: int  # the pre-roll steps it counts for (an offer: its composition steps)


def permitted(game: Game, action: Action, pre_roll_actions: int) -> str | None:
    """Why ``action`` may not be taken now (the engine's reason, or the cap), or None."""
    if pre_roll_capped(game, pre_roll_actions) and action != actions.ROLL:
        return (f"{PRE_ROLL_CAP} actions have been taken before rolling this turn: only "
                "rolling is left")
    if action.kind == ActionKind.OFFER_TRADE:
        return game.trade_error(action)
    return None if game.is_legal(action) else f"{action} is not legal now"


def id_of(game: Game, action: Action) -> int | None:
    """The environment id that carries out ``action`` now, or None if no single id does."""
    if action.kind == ActionKind.OFFER_TRADE:
        return None
    if action.kind == ActionKind.BID:
        for i in (BID_MIN_ID, *BID_RAISE_IDS, *BID_PRICE_IDS):
            if bid_amount(game, i) == action.amount:
                return i
        return None
    i = fixed_action_id(action)
    return i if i >= 0 else None


def steps_of(game: Game, action: Action) -> int:
    if action.kind == ActionKind.OFFER_TRADE:
        return len(offer_steps(game.current_player, game.num_players, action))
    return 1


def fallback(legal: list[Action]) -> Action:
    """Rolling if it is legal, else the first legal action."""
    return actions.ROLL if actions.ROLL in legal else legal[0]


def _on_engine(player: EnginePlayer, game: Game, pre_roll_actions: int) -> Decision:
    legal = legal_engine_actions(game, pre_roll_actions)
    if hasattr(player, "known_pre_roll"):  # the expert's policy reads the pre-roll count
        player.known_pre_roll = pre_roll_actions
    action = player.choose(game, game.current_player, legal)
    if not isinstance(action, Action) or permitted(game, action, pre_roll_actions):
        action = fallback(legal)
    return Decision(action, id_of(game, action), steps_of(game, action))


def _on_env(player: object, game: Game, pre_roll_actions: int,
            habits: Habits | None = None) -> Decision:
    env = seat_view(game, pre_roll_actions, habits)
    seat = game.current_player
    # The environment's caps end any composition: each step counts toward the pre-roll cap,
    # at which only rolling is left. The bound here only guards against a broken player.
    for steps in range(1, 4 * PRE_ROLL_CAP):
        legal = env.legal_action_ids()
        i = legal[0] if len(legal) == 1 else int(player.act(env, seat))
        if i not in legal:
            i = next(x for x in (CANCEL_ID, ROLL_ID, legal[0]) if x in legal)
        if i == SUBMIT_ID:
            offer = env.draft.offer()
            if game.trade_error(offer) is None:
                return Decision(offer, None, steps)
            i = CANCEL_ID  # the environment's draft rules should prevent this; never send it
        if ACTIONS[i].kind in COMPOSING:
            env.step(i)
            continue
        return Decision(engine_action(game, i), i, steps)
    action = fallback(game.legal_actions())
    return Decision(action, id_of(game, action), 1)


def decide(player: object, game: Game, pre_roll_actions: int = 0,
           habits: Habits | None = None) -> Decision:
    """What ``player`` does for ``game.current_player``, a player that reads observations
    seeing the seats' ``habits`` (a table's; none: zeros); the game is left unchanged."""
    if isinstance(player, EnginePlayer):
        return _on_engine(player, game, pre_roll_actions)
    return _on_env(player, game, pre_roll_actions, habits)
