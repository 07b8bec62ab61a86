"""``una play``: a whole match against computer players in the terminal.

You sit in seat 0; the bots fill the other seats. The screen shows the top card and the
current color, the other players' card counts and scores, what just happened (as your
seat may see it: nobody else's drawn cards), your hand and your legal actions. Pick an
action by its number or type its code (``play R5``, ``draw``, ``play W g``); a wild asks
for its color. When you are not to act but may (catch a player who forgot UNO, call your
own UNO, jump in), you are asked too: press Enter to let it go. ``q`` quits, ``?`` helps.

The person is an agent like the bots (:class:`TerminalPlayer`): it gets the same view and
the same driver (:class:`una.sim.driver.Table`) runs the table.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from una.bots.registry import BOT_NAMES, make_bot
from una.engine.actions import Action, Kind
from una.engine.cards import COLORS, Card, Color
from una.engine.errors import InvalidCode, UnaError
from una.engine.events import Event, HandEnded, MatchEnded
from una.engine.game import Game
from una.engine.views import View
from una.sim.commands import bot_specs, check_players, check_think_ms, fail, rules_from_options
from una.sim.driver import Agent, Table

COLOR_STYLES = {
    Color.RED: "bold white on red",
    Color.YELLOW: "bold black on yellow",
    Color.GREEN: "bold white on green",
    Color.BLUE: "bold white on blue",
}
WILD_STYLE = "bold white on magenta"
HELP = (
    "Type the number of an action, or its code: play R5, play W g, draw, pass, challenge, "
    "uno, catch @1, deal. A wild asks for its color (r, y, g, b). Enter skips a chance to "
    "act out of turn. q quits."
)
_COLOR_WORDS = re.compile(r"\b(red|yellow|green|blue)\b")


class Quit(Exception):
    """The person left (q, or the end of the input)."""


def card_markup(card: Card) -> str:
    style = COLOR_STYLES.get(card.color) if card.color is not None else WILD_STYLE
    return f"[{style or WILD_STYLE}] {card.code} [/]"


def color_markup(color: Color | None) -> str:
    if color is None:
        return "not named yet"
    return f"[{COLOR_STYLES[color]}] {color.word} [/]"


def colored_text(text: str) -> str:
    """Event text with its color words styled."""
    words = {c.word: c for c in COLORS}
    return _COLOR_WORDS.sub(
        lambda m: f"[{COLOR_STYLES[words[m.group(1)]].split(' on ')[-1]}]{m.group(1)}[/]",
        escape(text),
    )


class Choice:
    """One numbered option: an action, or a wild play whose color is asked next."""

    def __init__(self, actions: list[Action], label: str) -> None:
        self.actions = actions  # one action, or one per color for a wild
        self.label = label

    @property
    def needs_color(self) -> bool:
        return len(self.actions) > 1


def describe(action: Action, view: View, names: Sequence[str]) -> str:
    """An action in words, for the option list."""
    kind = action.kind
    if kind is Kind.PLAY and action.card is not None:
        text = f"play {card_markup(action.card)}"
        if action.color is not None:
            text += f" naming {color_markup(action.color)}"
        if action.targets:
            text += " at " + ", ".join(escape(names[t]) for t in action.targets)
        if action.uno:
            text += " and call UNO"
        if view.to_act != view.seat and not view.hand_over:
            text += " (jump in)"
        return text
    if kind is Kind.DRAW:
        return f"take the {view.pending_draw} cards" if view.phase == "penalty" else "draw a card"
    if kind is Kind.CATCH:
        return f"catch {escape(names[action.targets[0]])} (no UNO call)"
    if kind is Kind.COLOR and action.color is not None:
        return f"name {color_markup(action.color)}"
    return {
        Kind.PASS: "pass",
        Kind.CHALLENGE: "challenge the Wild Draw Four (a bluff?)",
        Kind.UNO: "call UNO",
        Kind.DEAL: "deal the next hand",
    }.get(kind, escape(action.code))


def choices(view: View, names: Sequence[str]) -> list[Choice]:
    """The legal actions as numbered options; a wild's four colors make one option."""
    out: list[Choice] = []
    wilds: dict[tuple[Card | None, tuple[int, ...], bool], Choice] = {}
    for action in view.legal:
        if action.kind is Kind.PLAY and action.color is not None and action.card is not None:
            key = (action.card, action.targets, action.uno)
            group = wilds.get(key)
            if group is None:
                label = f"play {card_markup(action.card)}"
                if action.targets:
                    label += " at " + ", ".join(escape(names[t]) for t in action.targets)
                label += " (then name a color)" + (" and call UNO" if action.uno else "")
                group = wilds[key] = Choice([], label)
                out.append(group)
            group.actions.append(action)
            continue
        out.append(Choice([action], describe(action, view, names)))

    # Plays first, in the order of the hand (wilds last); then the other actions.
    def order(choice: Choice) -> tuple[int, tuple[int, int], bool]:
        first = choice.actions[0]
        if first.kind is Kind.PLAY and first.card is not None:
            return (0, first.card.sort_key, first.uno)
        return (1, (0, 0), False)

    out.sort(key=order)
    return out


class TerminalUI:
    """Prints the table and reads the person's choices."""

    def __init__(self, console: Console, seat: int, names: Sequence[str]) -> None:
        self.console = console
        self.seat = seat
        self.names = list(names)

    # ------------------------------------------------------------ output

    def say(self, text: str) -> None:
        self.console.print(text, highlight=False)

    def on_events(self, events: Sequence[Event]) -> None:
        for event in events:
            seen = event.visible_to(self.seat)
            if isinstance(seen, HandEnded | MatchEnded):
                continue  # the results get their own table
            self.say("  " + colored_text(seen.describe(self.names)))

    def on_action(self, seat: int, action: Action, events: list[Event]) -> None:
        self.on_events(events)

    def show_table(self, view: View) -> None:
        arrow = "clockwise" if view.direction == 1 else "counter-clockwise"
        self.say(
            f"\n[bold]Hand {view.hand_number}[/]  top {card_markup(view.top)}  color "
            f"{color_markup(view.color)}  play goes {arrow}  draw pile {view.draw_pile}"
        )
        for seat, name in enumerate(self.names):
            count = view.hand_counts[seat]
            marks = []
            if seat == view.to_act:
                marks.append("[bold]to play[/]")
            if seat in view.uno_called:
                marks.append("[bold red]UNO![/]")
            if seat in getattr(view, "out", ()):
                marks.append("out")
            cards = f"{count} card{'s' if count != 1 else ''}"
            who = escape(name) + (" (you)" if seat == self.seat else "")
            self.say(f"  {who:<18} {cards:>9}  {view.scores[seat]:>4} pts  {' '.join(marks)}")
        for reveal in view.revealed:
            shown = " ".join(card_markup(c) for c in reveal.cards) or "no cards"
            who = escape(self.names[reveal.seat])
            if reveal.live:  # her hand as it is now, for the rest of the hand
                self.say(f"  {who}'s hand (you see it this hand): {shown}")
            else:
                self.say(f"  {who} showed you: {shown}")
        if view.pending_draw and view.phase == "penalty" and view.to_act == self.seat:
            self.say(f"  [bold]{view.pending_draw} cards are pending on you.[/]")
        hand = " ".join(card_markup(c) for c in view.hand or ())
        self.say(f"  Your hand: {hand}")
        if view.drawn is not None:
            self.say(f"  You drew {card_markup(view.drawn)}: play it or pass.")

    def show_results(self, game: Game) -> None:
        result = game.hand_result
        if result is None:
            return
        how = " (the hand was blocked)" if result.blocked else ""
        winner = escape(self.names[result.winner])
        self.say(f"\n[bold]{winner} wins hand {game.hand_number}{how}.[/]")
        for seat, name in enumerate(self.names):
            self.say(
                f"  {escape(name):<18} {result.points[seat]:>+5} this hand  "
                f"{game.scores[seat]:>5} in all"
            )
        if game.match_over and game.winner is not None:
            winner = "You win" if game.winner == self.seat else f"{self.names[game.winner]} wins"
            self.say(f"\n[bold]{escape(winner)} the match![/]")

    # ------------------------------------------------------------- input

    def read(self, prompt: str) -> str:
        try:
            text = self.console.input(prompt)
        except EOFError:
            raise Quit from None
        if text.strip().lower() in ("q", "quit", "exit"):
            raise Quit
        return text.strip()

    def ask(self, view: View) -> Action | None:
        """The person's action (``None``: she lets a chance to act out of turn go)."""
        own_turn = view.hand_over or view.to_act == self.seat
        options = choices(view, self.names)
        if own_turn and not view.hand_over:
            self.show_table(view)
        elif not own_turn:
            self.say("  [bold]You may act now[/] (Enter to let it go):")
        for number, option in enumerate(options, 1):
            self.say(f"   {number:>2}) {option.label}")
        while True:
            text = self.read("Your choice: " if own_turn else "Your choice [Enter: nothing]: ")
            if not text:
                if not own_turn:
                    return None
                if len(options) == 1 and not options[0].needs_color:
                    return options[0].actions[0]
                continue
            if text in ("?", "h", "help"):
                self.say(HELP)
                continue
            action = self._parse(text, options)
            if action is not None:
                return action

    def _parse(self, text: str, options: list[Choice]) -> Action | None:
        if text.isdigit():
            index = int(text) - 1
            if not 0 <= index < len(options):
                self.say(f"  Pick a number from 1 to {len(options)}.")
                return None
            option = options[index]
            return self._pick_color(option) if option.needs_color else option.actions[0]
        try:
            action = Action.parse(text)
        except InvalidCode as error:
            self.say(f"  {escape(str(error))} (? for help)")
            return None
        for option in options:
            if action in option.actions:
                return action
            if option.needs_color and action.color is None:
                first = option.actions[0]
                same = (action.card, action.targets, action.uno)
                if same == (first.card, first.targets, first.uno):
                    return self._pick_color(option)
        self.say(f"  {escape(action.code)} is not one of your options now.")
        return None

    def _pick_color(self, option: Choice) -> Action:
        colors = [a.color for a in option.actions if a.color is not None]
        menu = "  ".join(f"{i}) {color_markup(c)}" for i, c in enumerate(colors, 1))
        self.say(f"  Name a color: {menu}")
        while True:
            text = self.read("Color: ")
            if text.isdigit() and 1 <= int(text) <= len(colors):
                return option.actions[int(text) - 1]
            try:
                color = Color.parse(text)
            except InvalidCode:
                color = None
            if color in colors:
                return option.actions[colors.index(color)]
            self.say(f"  Type 1 to {len(colors)}, or r, y, g, b (or red, yellow, green, blue).")


class TerminalPlayer:
    """The person at the terminal, as an agent of the driver."""

    def __init__(self, ui: TerminalUI) -> None:
        self.ui = ui

    def choose(self, view: View, rng: random.Random) -> Action | None:
        return self.ui.ask(view)


def play_main(
    players: int,
    rules: str,
    overrides: list[str],
    bots: str,
    seed: int | None,
    name: str,
    target: int | None,
    think_ms: float | None = None,
) -> None:
    """``una play``: build the table and play the match to its end (or ``q``)."""
    if target is not None:
        overrides = [*overrides, f"target={target}"]
    ruleset = rules_from_options(rules, overrides)
    check_players(ruleset, players)
    specs = bot_specs(bots)
    if len(specs) > players - 1:
        fail(f"--bots: {len(specs)} bots for {players - 1} computer seats")
    if seed is None:
        seed = secrets.randbelow(2**31)
    others = [specs[i % len(specs)] for i in range(players - 1)]
    names = [name or "Player"] + [f"{BOT_NAMES[i]} ({spec})" for i, spec in enumerate(others)]
    console = Console(highlight=False)
    try:
        game = Game(ruleset, names, seed=seed)
    except UnaError as error:
        fail(str(error))
    ui = TerminalUI(console, 0, names)
    check_think_ms(think_ms)
    agents: list[Agent] = [TerminalPlayer(ui)] + [
        make_bot(spec, think_ms=think_ms) for spec in others
    ]
    rngs = [random.Random(seed * 31 + seat) for seat in range(players)]
    table = Table(game, agents, rngs, listener=ui.on_action)
    ui.say(
        f"[bold]Una[/]: {escape(str(ruleset))}, first to {ruleset.target}. Seed {seed}. "
        f"Players: {escape(', '.join(names))}. Type ? for help, q to quit."
    )
    ui.on_events(game.start_events)
    try:
        while True:
            table.play_hand()
            ui.show_results(game)
            if game.match_over:
                break
            action = ui.ask(game.view_for(0))
            assert action is not None
            table.apply(0, action)
    except Quit:
        ui.say("\nYou left the table. Bye!")
        return
    ui.say("Thanks for playing!")
