"""Shared helpers of the Elements tests: a fresh game, rigged hands, the card census."""

from collections import Counter

from games.elements.cards import Card
from games.elements.engine import Elements
from layouts.catalog import rules_data


def new(players=3, seed=1, **options) -> Elements:
    return Elements.new(players=players, seed=seed, data=rules_data("elements"), **options)


def cards(text: str) -> list[Card]:
    """``cards("r7 b10")`` -> ``[Card("r", 7), Card("b", 10)]``."""
    return [Card(word[0], int(word[1:])) for word in text.split()]


def rig(game: Elements, hands: dict[int, str]) -> None:
    """Give seats exactly these hands, taking the cards from wherever they are."""
    wanted = {card for text in hands.values() for card in cards(text)}
    pool = [card for hand in game.hands for card in hand] + game.stock
    for seat in range(game.players):
        game.hands[seat] = []
    rest = [card for card in pool if card not in wanted]
    for seat, text in hands.items():
        game.hands[seat] = cards(text)
    for seat in range(game.players):
        if seat not in hands:
            game.hands[seat], rest = rest[:game.hand_size], rest[game.hand_size:]
    game.stock = rest


def census(game: Elements) -> Counter:
    """Every number card wherever it is: hands, stock, face-down, point cards, laid, won."""
    found: Counter = Counter()
    for hand in game.hands:
        found.update(hand)
    found.update(game.stock)
    found.update(card for _, card in game.placements.values())
    found.update(game.point_cards)
    for laid in game.laid:
        found.update(laid)
    for won in game.won:
        found.update(won)
    return found


def play(game: Elements, *moves: str) -> list:
    """Play text moves, each by the seat whose turn it is; returns all events."""
    events = []
    for text in moves:
        seat = game.actors()[0]
        events += game.play(seat, game.parse_move(seat, text))
    return events
