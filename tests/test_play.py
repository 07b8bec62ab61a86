"""``una play``: a whole match in the terminal, driven through its standard input."""

from __future__ import annotations

import dataclasses
import io
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from una.engine import Action, Color, Game
from una.play import TerminalUI, choices

UNA = Path(sys.executable).parent / "una"


def play(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(UNA), "play", *args], input=stdin, capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip


def test_a_whole_match_from_a_script() -> None:
    """Always the first option (a play when there is one, the first color of a wild,
    "catch" when offered, "deal" after a hand) until the match is over."""
    result = play("1\n" * 5000, "--players", "3", "--seed", "5", "--target", "60",
                  "--bots", "heuristic,random", "--name", "Zoe")  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert re.search(r"(You win|\w+ \(\w+\) wins) the match!", out) and "Thanks for playing!" in out
    assert "Zoe (you)" in out and "Your hand:" in out and "top" in out
    assert re.search(r"Ada \(heuristic\) +\d+ cards? +\d+ pts", out)
    # Other players' drawn cards never show; Zoe's own do.
    for line in out.splitlines():
        if re.match(r"\s+(Ada|Bruno) \(\w+\) draws", line):
            assert "(" not in line.split("draws", 1)[1].split("[")[0], line


def test_quit_and_end_of_input() -> None:
    result = play("q\n", "--seed", "1")
    assert result.returncode == 0 and "You left the table" in result.stdout
    result = play("", "--seed", "1")
    assert result.returncode == 0 and "You left the table" in result.stdout


def test_bad_options() -> None:
    result = play("", "--players", "1")
    assert result.returncode == 2 and "--players" in result.stderr
    result = play("", "--bots", "nobody")
    assert result.returncode == 2 and "unknown bot" in result.stderr


@pytest.fixture
def ui() -> Iterator[tuple[TerminalUI, io.StringIO]]:
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    yield TerminalUI(console, 0, ["Zoe", "Ada", "Bruno"]), out


def feed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    answers = iter(lines)
    monkeypatch.setattr("builtins.input", lambda *args: next(answers))


def test_numbers_codes_and_the_color_prompt(
    ui: tuple[TerminalUI, io.StringIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal, out = ui
    view = next(
        v
        for seed in range(200)
        if (v := Game("standard", ["Zoe", "Ada", "Bruno"], seed=seed, dealer=2).view_for(0))
        and v.to_act == 0
        and v.phase == "play"
        and any(a.color is not None for a in v.legal)
    )
    legal = list(view.legal)
    options = choices(view, terminal.names)
    # One option per wild card (its color asked next), one per other action.
    assert len(options) <= len(legal)
    feed(monkeypatch, "99", "draw")
    assert terminal.ask(view) == Action.parse("draw")
    assert "Pick a number from 1 to" in out.getvalue()
    card = next(a.card for a in legal if a.color is not None)
    assert card is not None
    feed(monkeypatch, f"play {card.code}", "purple", "g")
    assert terminal.ask(view) == Action.play(card, Color.GREEN)
    assert "Name a color" in out.getvalue()
    feed(monkeypatch, f"play {card.code} b")
    assert terminal.ask(view) == Action.play(card, Color.BLUE)
    number = next(i for i, o in enumerate(options, 1) if o.needs_color)
    feed(monkeypatch, str(number), "2")
    assert terminal.ask(view) == Action.play(card, Color.YELLOW)
    feed(monkeypatch, "frobnicate", "?", "play R0 uno", "1", "r")
    assert terminal.ask(view) in legal
    text = out.getvalue()
    assert "unknown verb" in text and "Type the number" in text and "not one of your" in text


def test_out_of_turn_chances_can_be_let_go(
    ui: tuple[TerminalUI, io.StringIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal, out = ui
    view = Game("standard", ["Zoe", "Ada", "Bruno"], seed=2, dealer=2).view_for(0)

    waiting = dataclasses.replace(view, to_act=1, legal=(Action.catch(1),))
    feed(monkeypatch, "")
    assert terminal.ask(waiting) is None
    feed(monkeypatch, "catch @1")
    assert terminal.ask(waiting) == Action.catch(1)
    assert "You may act now" in out.getvalue() and "catch Ada" in out.getvalue()


def test_the_seed_makes_the_same_game() -> None:
    script = "".join(random.Random(3).choice(["1\n", "2\n", "draw\n"]) for _ in range(3000))
    first = play(script, "--players", "2", "--seed", "8", "--target", "40", "--bots", "random")
    second = play(script, "--players", "2", "--seed", "8", "--target", "40", "--bots", "random")
    assert first.returncode == 0 and first.stdout == second.stdout


def test_a_live_revealed_hand_follows_the_hand(ui: tuple[TerminalUI, io.StringIO]) -> None:
    """A Spy (or a guilty challenge under challenge_reveal) shows Ada's hand as it is at
    each turn, not as it was when it was revealed; a one-time showing says so."""
    terminal, out = ui
    game = Game("byond", ["Zoe", "Ada", "Bruno"], seed=4)
    game.reveals.append((0, 1, None))  # what the Spy records: seat 0 sees seat 1, live
    terminal.show_table(game.view_for(0))
    first = out.getvalue()
    assert "Ada's hand (you see it this hand):" in first
    game.hands[1].append(game.draw_pile.pop())
    added = game.hands[1][-1].code
    out.truncate(0)
    out.seek(0)
    terminal.show_table(game.view_for(0))
    line = next(x for x in out.getvalue().splitlines() if "Ada's hand" in x)
    assert line.count(" ") > 0 and len(line.split(":", 1)[1].split()) == 8 and added in line
    game.reveals.append((0, 2, tuple(game.hands[2][:2])))
    out.truncate(0)
    out.seek(0)
    terminal.show_table(game.view_for(0))
    assert "Bruno showed you:" in out.getvalue()
