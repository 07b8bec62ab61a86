"""Computer players. A bot sees only its seat's view: ``choose(view, rng) -> Action | None``.

>>> import random
>>> from una.engine import Game
>>> game = Game("standard", players=2, seed=4)
>>> bot = make_bot("heuristic")
>>> seat = game.to_act
>>> bot.choose(game.view_for(seat), random.Random(1)) in game.legal_actions(seat)
True
"""

from una.bots.base import Bot
from una.bots.heuristic import HeuristicBot
from una.bots.random_bot import RandomBot
from una.bots.registry import BOTS, UnknownBot, make_bot, parse_spec, register

__all__ = [
    "BOTS",
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "UnknownBot",
    "make_bot",
    "parse_spec",
    "register",
]
