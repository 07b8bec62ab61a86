"""The ``una`` console script: ``una replay`` (NOTATION.md) and ``una rules``."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from una.engine import SWITCHES, Game, Kind, Record
from una.engine.record import stacked_deck

UNA = Path(sys.executable).parent / "una"

STATE_KEYS = {
    "hand_number", "hands", "top", "color", "direction", "to_act", "pending_draw",
    "draw_pile", "scores", "hand_over", "match_over",
}  # fmt: skip

# Dealer 0, so Bob (seat 1) plays first on B5: B1, Ann B6, Bob BS (skips Ann), Bob B2, Ann B7;
# then Bob holds no blue card and no 7.
ANN = ["B6", "B7", "B8", "G4", "G5", "G6", "Y1"]
BOB = ["B1", "BS", "B2", "G3", "R9", "Y7", "Y8"]
OPENING = [[1, "play B1"], [0, "play B6"], [1, "play BS"], [1, "play B2"], [0, "play B7"]]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    assert UNA.exists(), f"console script not installed at {UNA}"
    return subprocess.run(
        [str(UNA), *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
    )


def opening(actions: list[list[Any]] | None = None, **extra: Any) -> dict[str, Any]:
    deck = stacked_deck("standard", [ANN, BOB], "B5")
    return {
        "format": "una/1",
        "rules": "standard",
        "players": ["Ann", "Bob"],
        "seed": 1,
        "dealer": 0,
        "decks": [[card.code for card in deck]],
        "actions": OPENING if actions is None else actions,
        **extra,
    }


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def one_json_object(stdout: str) -> dict[str, Any]:
    lines = stdout.strip().splitlines()
    assert len(lines) == 1, stdout
    value = json.loads(lines[0])
    assert isinstance(value, dict)
    return value


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def played() -> Record:
    """A three-player game of a few hundred random legal actions (catches included)."""
    game = Game("standard", ["Ann", "Bob", "Cy"], seed=5, dealer=2)
    rnd = random.Random(5)
    for _ in range(300):
        options = [(s, a) for s in range(game.n) for a in game.legal_actions(s)]
        if not options:
            break
        catches = [o for o in options if o[1].kind is Kind.CATCH]
        plays = [o for o in options if o[1].kind is Kind.PLAY]
        r = rnd.random()
        if catches and r < 0.5:
            seat, action = rnd.choice(catches)
        elif plays and r < 0.85:
            seat, action = rnd.choice(plays)
        else:
            seat, action = rnd.choice(options)
        game.apply(seat, action)
    record = game.to_record()
    assert len(record.actions) == 300
    return record


# -------------------------------------------------------------- una replay --json


def test_replay_json_prints_the_state(tmp_path: Path) -> None:
    path = write(tmp_path, opening())
    result = run("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    state = one_json_object(result.stdout)
    assert set(state) == STATE_KEYS
    assert state == Record.from_json(opening()).replay().state_json()
    assert state["hands"] == [["B8", "G4", "G5", "G6", "Y1"], ["G3", "R9", "Y7", "Y8"]]
    assert (state["top"], state["color"], state["to_act"]) == ("B7", "B", 1)
    assert (state["hand_number"], state["direction"], state["pending_draw"]) == (1, 1, 0)
    assert (state["draw_pile"], state["scores"]) == (108 - 15, [0, 0])
    assert (state["hand_over"], state["match_over"]) == (False, False)


def test_replay_json_of_a_long_game(tmp_path: Path, played: Record) -> None:
    path = write(tmp_path, played.dumps(indent=2))
    result = run("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    state = one_json_object(result.stdout)
    assert set(state) == STATE_KEYS
    assert state == played.replay().state_json()
    assert state["hand_number"] >= 2  # several hands, so scores and deals are exercised


@pytest.mark.parametrize("upto", [0, 1, 3, 5])
def test_replay_json_upto(tmp_path: Path, upto: int) -> None:
    path = write(tmp_path, opening())
    result = run("replay", str(path), "--json", "--upto", str(upto))
    assert result.returncode == 0, result.stderr
    assert one_json_object(result.stdout) == Record.from_json(opening()).replay(upto).state_json()


def test_replay_json_upto_a_long_game(tmp_path: Path, played: Record) -> None:
    path = write(tmp_path, played.dumps())
    result = run("replay", "--upto", "137", str(path), "--json")
    assert result.returncode == 0, result.stderr
    state = one_json_object(result.stdout)
    assert state == played.replay(upto=137).state_json()
    assert state != played.replay().state_json()


def test_upto_stops_before_an_illegal_action(tmp_path: Path) -> None:
    path = write(tmp_path, opening([*OPENING, [1, "play R9"]]))
    result = run("replay", str(path), "--json", "--upto", "5")
    assert result.returncode == 0, result.stderr
    assert one_json_object(result.stdout)["top"] == "B7"


def test_replay_from_stdin(played: Record) -> None:
    result = run("replay", "-", "--json", stdin=played.dumps())
    assert result.returncode == 0, result.stderr
    assert one_json_object(result.stdout) == played.replay().state_json()


def test_replay_json_of_a_new_game(tmp_path: Path) -> None:
    path = write(tmp_path, {"players": 4, "seed": 3})
    result = run("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    state = one_json_object(result.stdout)
    assert state == Game("standard", 4, seed=3).state_json()
    assert [len(hand) for hand in state["hands"]] == [7, 7, 7, 7]


# ---------------------------------------------------------- una replay (readable)


def test_replay_prints_a_readable_account(tmp_path: Path) -> None:
    path = write(tmp_path, opening())
    result = run("replay", str(path))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Ann" in out and "Bob" in out
    for _, code in OPENING:
        assert code in out
    assert "blue 5" in out  # the turned card
    # Actions appear in order.
    positions = [out.index(f"{code}") for _, code in OPENING]
    assert positions == sorted(positions)
    # The final hands are shown.
    assert "Y1 G4 G5 G6 B8" in out and "R9 Y7 Y8 G3" in out


def test_replay_readable_upto(tmp_path: Path) -> None:
    path = write(tmp_path, opening())
    result = run("replay", str(path), "--upto", "2")
    assert result.returncode == 0, result.stderr
    assert "play B6" in result.stdout
    assert "play BS" not in result.stdout


# ------------------------------------------------------------- replay errors


@pytest.mark.parametrize("as_json", [True, False])
def test_illegal_action_exits_2_with_one_line(tmp_path: Path, as_json: bool) -> None:
    path = write(tmp_path, opening([*OPENING, [1, "play R9"], [0, "draw"]]))
    result = run("replay", str(path), *(["--json"] if as_json else []))
    line = one_error_line(result)
    assert line.startswith('action 5 (seat 1, "play R9"): illegal: ')
    assert "R9" in line.removeprefix('action 5 (seat 1, "play R9"): illegal: ')
    if as_json:
        assert result.stdout == ""


def test_action_out_of_turn(tmp_path: Path) -> None:
    path = write(tmp_path, opening([[1, "play B1"], [1, "play BS"]]))
    line = one_error_line(run("replay", str(path), "--json"))
    assert line.startswith('action 1 (seat 1, "play BS"): illegal: ')
    assert "turn" in line


@pytest.mark.parametrize("as_json", [True, False])
def test_unparsable_action_exits_2_with_one_line(tmp_path: Path, as_json: bool) -> None:
    path = write(tmp_path, opening([[1, "play B1"], [0, "jump"]]))
    line = one_error_line(run("replay", str(path), *(["--json"] if as_json else [])))
    assert line.startswith('action 1 (seat 0, "jump"): invalid action ')
    assert "jump" in line


def test_action_code_with_a_newline_still_gives_one_error_line(tmp_path: Path) -> None:
    path = write(tmp_path, opening([[1, "play B1\nfoo"]]))
    one_error_line(run("replay", str(path), "--json"))


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ("{", "json"),
        ("", "json"),
        ("not json at all", "json"),
        ([1, 2], "record"),
        ({"players": 2, "rules": "nosuch"}, "rules"),
        ({"players": 2, "rules": {"preset": "standard", "stack_draw_too": True}}, "rules"),
        ({"players": 1}, "players"),
        ({"players": 2, "seed": "x"}, "seed"),
        ({"players": 2, "dealer": 5}, "dealer"),
        ({"players": 2, "decks": [["R1", "R2"]]}, "decks[0]"),
        ({"players": 2, "actions": [[0, "draw"], [7, "draw"]]}, "actions[1]"),
        ({"players": 2, "format": "una/9"}, "format"),
        ({"players": 2, "comment": "hi"}, "comment"),
    ],
)
def test_malformed_record_exits_2_naming_the_field(
    tmp_path: Path, content: Any, field: str
) -> None:
    path = write(tmp_path, content)
    # The readable account checks the record the same way (tried on a few, to stay fast).
    modes = (["--json"], []) if field in ("json", "rules", "decks[0]") else (["--json"],)
    for args in modes:
        result = run("replay", str(path), *args)
        line = one_error_line(result)
        assert f"{field}: " in line
        assert result.stdout == ""


def test_deck_not_a_permutation_names_the_card(tmp_path: Path) -> None:
    data = opening()
    deck = data["decks"][0]
    deck[deck.index("R0")] = "R1"
    line = one_error_line(run("replay", str(write(tmp_path, data)), "--json"))
    assert "decks[0]: " in line
    assert "extra R1" in line and "missing R0" in line


def test_malformed_record_on_stdin() -> None:
    line = one_error_line(run("replay", "-", "--json", stdin='{"players": 2, "rules": "x"}'))
    assert "rules: " in line and "'x'" in line


def test_missing_file_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "nosuch.json"
    line = one_error_line(run("replay", str(missing), "--json"))
    assert str(missing) in line


def test_record_that_is_not_utf8_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b'\xff\xfe{"players": 2}')
    one_error_line(run("replay", str(path), "--json"))


# ----------------------------------------------------------------- una rules


def test_rules_lists_presets_and_switches() -> None:
    result = run("rules")
    assert result.returncode == 0, result.stderr
    assert "standard" in result.stdout
    for name in SWITCHES:
        assert name in result.stdout


def test_rules_json_lists_presets_and_switches() -> None:
    result = run("rules", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert "standard" in data["presets"]
    assert set(data["switches"]) == set(SWITCHES)
    assert data["switches"]["target"]["default"] == 500
    assert data["switches"]["players"]["default"] == [2, 10]
    assert data["switches"]["play_drawn"]["choices"] == ["may", "must", "never"]


def test_rules_standard_shows_deck_and_points() -> None:
    result = run("rules", "standard")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "108" in out
    for code in ("R0", "R1x2", "RD2x2", "Wx4", "W4x4"):
        assert code in out
    assert "face value" in out
    lines = out.splitlines()
    points = lines[next(i for i, line in enumerate(lines) if line.startswith("Points")) :]
    text = "\n".join(points)
    for family, value in (("Skip", 20), ("Reverse", 20), ("Draw Two", 20), ("Wild", 50)):
        assert any(line.split()[:-1] == family.split() and line.split()[-1] == str(value)
                   for line in points), (family, text)  # fmt: skip
    assert any(line.split() == ["Wild", "Draw", "Four", "50"] for line in points), text


def test_rules_standard_json() -> None:
    result = run("rules", "standard", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["name"] == "standard"
    assert data["deck_size"] == 108
    assert sum(data["deck"].values()) == 108
    assert data["hand_size"] == 7
    points = data["points"]
    assert points["R5"] == 5 and points["B0"] == 0 and points["Y9"] == 9
    assert points["GS"] == points["YR"] == points["BD2"] == 20
    assert points["W"] == points["W4"] == 50
    assert set(points) == set(data["deck"])
    assert set(data["switches"]) == set(SWITCHES)


def test_rules_unknown_preset_exits_2() -> None:
    result = run("rules", "nosuch")
    line = one_error_line(result)
    assert "nosuch" in line
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--redis", "localhost:6379"], "--redis: a redis://HOST:PORT URL, not 'localhost:6379'"),
        (["--redis", "redis://127.0.0.1:6379/0", "--db", "sqlite:///una.db"],
         "--redis: the nodes share a PostgreSQL database"),
    ],
)  # fmt: skip
def test_serve_refuses_a_bad_cluster_setting(args: list[str], says: str) -> None:
    done = run("serve", *args)
    assert done.returncode == 2
    assert done.stderr.strip().startswith(says) and len(done.stderr.strip().splitlines()) == 1


# ------------------------------------------- every command, bad options (issue 19)

#: Each command with options that are wrong; each must be one line on stderr, exit 2, and
#: name what was wrong (the last item: a word the line must hold).
BAD_OPTIONS = [
    (["replay"], "file"),
    (["replay", "/no/such/record.json"], "No such file"),
    (["replay", "--upto", "x", "f.json"], "--upto"),
    (["rules", "nosuch"], "nosuch"),
    (["rules", "--colour"], "--colour"),
    (["sim", "--games", "abc"], "--games"),
    (["sim", "--rules", "nosuch", "-g", "1"], "nosuch"),
    (["sim", "--bots", "nosuch", "-g", "1"], "nosuch"),
    (["sim", "--set", "nosuch=1", "-g", "1"], "nosuch"),
    (["sim", "--jobs", "0", "-g", "1"], "--jobs"),
    (["sim", "--think-ms", "abc"], "--think-ms"),
    (["play", "--players", "0"], "--players"),
    (["play", "--seed", "x"], "--seed"),
    (["play", "--bots", "nosuch"], "nosuch"),
    (["bench", "--players", "x"], "--players"),
    (["bench", "--soak", "0"], "--soak"),
    (["serve", "--db", "mysql://x@y/z"], "mysql"),
    (["serve", "--db", "postgresql://nobody@127.0.0.1:1/x"], "--db"),
    (["serve", "--db", "sqlite:////proc/no/such/dir/una.db"], "--db"),
    (["serve", "--port", "abc"], "--port"),
    (["serve", "--port", "70000"], "--port"),
    (["serve", "--log-level", "loud"], "--log-level"),
    (["serve", "--host", "nosuch.invalid"], "--host"),
    (["serve", "--host", "192.0.2.1"], "--host"),  # TEST-NET-1: never this machine's
    (["telegram", "--token", ""], "--token"),
    (["telegram", "--token", "not-a-token"], "--token"),
    (["telegram", "--token", "123:abc", "--db", "mysql://x"], "mysql"),
    (["telegram", "--token", "123:abc", "--api-url", "notaurl"], "--api-url"),
    (["nosuch"], "nosuch"),
]


def test_serve_on_a_port_in_use_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'una.db'}")
    line = one_error_line(result)
    assert line.startswith(f"--port: cannot listen on 127.0.0.1:{port}: ") and "in use" in line
    assert result.stdout == ""  # never "Una is serving on ..."


@pytest.mark.parametrize(("args", "named"), BAD_OPTIONS, ids=lambda a: " ".join(a) or "-")
def test_every_command_refuses_bad_options_in_one_line(args: list[str], named: str) -> None:
    result = subprocess.run(
        [str(UNA), *args], input="", capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "UNA_TELEGRAM_TOKEN": ""},
    )  # fmt: skip
    line = one_error_line(result)
    assert named in line, line


def test_every_command_is_in_the_bad_options_list() -> None:
    from una.cli import app

    commands = {command.name or command.callback.__name__ for command in app.registered_commands}  # type: ignore[union-attr]
    assert commands <= {args[0] for args, _ in BAD_OPTIONS}, commands
