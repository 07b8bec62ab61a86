"""Room internals that need no socket: the computer players a table keeps."""

from __future__ import annotations

from una.bots.heuristic import HeuristicBot
from una.bots.strong import StrongBot
from una.engine import Game, RuleSet
from una.server.rooms import Table


def test_a_table_keeps_one_bot_per_seat_for_the_match() -> None:
    table = Table("ABCD", None, RuleSet.from_json("standard"), 3)
    table.game = Game("standard", players=3, seed=1)
    strong = table.agent(1, "strong:easy")
    assert isinstance(strong, StrongBot)
    assert table.agent(1, "strong:easy") is strong  # kept: its belief lives on
    assert isinstance(table.agent(2, "heuristic"), HeuristicBot)
    # Only bots with a memory watch every action.
    assert table.watchers() == [(1, strong)]
    # A seat put on another bot gets a new one; a new match starts afresh.
    assert isinstance(table.agent(1, "random"), type(table.agent(1, "random")))
    assert table.agent(1, "strong:easy") is not strong
    table.game = Game("standard", players=3, seed=2)
    assert table.watchers() == []
    assert table.agent(2, "heuristic") is not None and len(table.agents[1]) == 1
