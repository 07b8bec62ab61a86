"""The protocol's outbound family: every message type round-trips through its generated
JSON Schema, and the schema refuses what the classes would not send."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from una.engine import Game
from una.server import protocol as p

SCHEMA = p.schema()


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{name}"})


OUT = validator("outbound")
IN = validator("inbound")


def examples() -> list[p.Outbound]:
    """One message of every outbound type, every notice, reply and error code among them."""
    game = Game("byond", players=["Ann", "Bob", "Cy"], seed=5)
    events = [e.json_for(0) for e in game.start_events]
    chat = p.ChatLine("Ann", 1, "hi")
    filled: dict[type, Any] = {str: "x", int: 1, bool: True, list[str]: ["Ann"],
                               str | None: None, int | None: 2,
                               str | dict[str, Any]: {"preset": "byond"},
                               list[p.Who]: [p.Who("Ann", "player", seat=0, cards=7)],
                               dict[str, Any]: {}}  # fmt: skip

    def args(spec: dict[str, Any]) -> dict[str, Any]:
        return {name: filled[hint] for name, hint in spec.items()}

    out: list[p.Outbound] = [
        p.Welcome({"id": 1, "name": "Ann", "icon": None}, {}, ["ABCDE"], "e1", "t0k"),
        p.Pong(),
        p.LobbyPage([{"code": "ABCDE"}], 0, 1, 50, 1),
        p.LobbyTable({"code": "ABCDE"}, new=True),
        p.LobbyGone("ABCDE"),
        p.Joined("ABCDE", None),
        p.Left(),
        p.Kicked("ABCDE"),
        p.State(
            {"code": "ABCDE"}, {"seat": 0}, 3, "e1", False, 7, game.view_for(0).to_json(), events
        ),
        p.Lines("ABCDE", [chat, p.Notice("host", {"name": "Bob"}), p.EventLine(events[0])]),
        chat,
        p.EventLine(events[-1]),
        p.Icon(None, "cat"),
        p.GamesList([{"id": 7}]),
        p.SettingsSaved({"lang": "ru"}),
    ]
    out += [p.Notice(code, args(spec)) for code, spec in p.NOTICES.items()]
    out += [p.Reply(code, args(spec)) for code, spec in p.REPLIES.items()]
    out += [p.Error(code, "why", "act", args(spec)) for code, spec in p.ERRORS.items()]
    return out


def test_every_outbound_type_round_trips_through_its_schema() -> None:
    messages = examples()
    assert {m.type for m in messages} == set(p.OUTBOUND)
    for message in messages:
        data = json.loads(json.dumps(p.encode(message)))
        OUT.validate(data)
        validator(f"out_{message.type}").validate(data)


def test_every_event_a_game_makes_is_in_the_schema() -> None:
    game = Game("alupula", players=3, seed=2)
    checked = 0
    for _ in range(200):
        if game.match_over:
            break
        seat = next(s for s in range(game.n) if game.legal_actions(s))
        for event in game.apply(seat, game.legal_actions(seat)[0]):
            validator("event").validate(event.json_for(seat))
            checked += 1
    assert checked > 50


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "notice", "code": "auto", "args": {"name": "Ann"}},  # an argument missing
        {"type": "notice", "code": "dance", "args": {}},  # no such code
        {"type": "reply", "code": "who", "args": {"people": [{"name": "Ann"}]}},
        {"type": "system", "text": "Ann turns auto on"},  # sentences are gone
        {"type": "state", "events": ["Ann plays red 5"]},
        {"type": "chat", "from": "Ann", "player_id": 1, "text": "hi", "extra": 1},
    ],
)
def test_the_schema_refuses_what_the_server_never_sends(frame: dict[str, Any]) -> None:
    assert not OUT.is_valid(frame)


def test_a_code_outside_its_table_is_refused_when_made() -> None:
    with pytest.raises(ValueError, match="unknown code 'dance'"):
        p.Notice("dance", {})
    with pytest.raises(ValueError, match="missing argument 'on'"):
        p.Notice("auto", {"name": "Ann"})
    with pytest.raises(ValueError, match="unknown argument 'x'"):
        p.Reply("set_icon", {"x": 1})


def test_the_inbound_schema_agrees_with_the_parser() -> None:
    good = [{"type": "act", "action": "play R5", "version": 3}, {"type": "ping"},
            {"type": "create", "rules": {"preset": "byond"}, "timer": None}]  # fmt: skip
    bad = [{"type": "act", "action": "draw"}, {"type": "ping", "x": 1},
           {"type": "sit", "seat": "2"}, {"type": "dance"}]  # fmt: skip
    for frame in good:
        p.parse(json.dumps(frame))
        IN.validate(frame)
    for frame in bad:
        with pytest.raises(p.ProtocolError):
            p.parse(json.dumps(frame))
        assert not IN.is_valid(frame)


def test_the_protocol_page_lists_every_server_message() -> None:
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    assert p.reference() in page, "regenerate docs/protocol.md's list: protocol.reference()"
