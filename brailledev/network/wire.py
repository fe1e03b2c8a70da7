"""The wire's codec: views, events, moves and reasons as plain JSON, and back again.

A table server sends each seat its view and its filtered events; the client rebuilds the very
objects the game's screen expects. Values are written by their shape, so one codec serves
every game:

    None, bool, int, float, str    as they are
    tuple                          a JSON array
    list                           {"$list": [...]}
    dict (keys of any kind)        {"$map": [[key, value], ...]}   (Domino's squares are pairs)
    frozenset, set                 {"$set": [...]}
    enum member                    {"$enum": "Pattern", "value": 2}
    dataclass, named tuple         {"$": "Played", "seat": 1, "card": "r5", ...}

A class is named by its bare name, found in the game's registry: the classes of the game's
own package (``games/<game>/``) and those every table adds (the turn clock's ``TimeLeft``,
presence and talk). Nothing else is ever built from the wire; anything else is a
:class:`WireError`.

A record can also be written as its changes since another of its class
(:meth:`Codec.encode_changes`): the fields that differ, each written whole, which the
reader lays over the fields it had (:func:`brailledev.network.protocol.lay_over`). A Uno
view is about 1,000 bytes (the deck's composition alone 900); what a move changes of it,
about 80.

    codec = codec_for("uno")
    data = codec.encode(events)          # plain JSON
    assert codec.decode(data) == events
    codec.decode_reason(codec.encode_reason(Reason.of("not_your_turn")))
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from operator import attrgetter
from types import ModuleType
from typing import Any

from games.core import Json, Reason

# Far deeper than any view (Domino's grid is three levels), far shallower than Python's stack.
MAX_DEPTH = 24
CLASS_KEY = "$"
_PLAIN = frozenset((str, int, bool, type(None)))
# Values a record's fields hold that cannot change under a reader's hand: equal to the field
# sent before, a field of one of these is left out of a record's changes. Lists, dicts, sets
# and mappings are written whole every time (a view may hold the engine's own, changing in
# place); so is anything else not named here.
_STILL: frozenset[type] = frozenset((str, int, bool, type(None), float, tuple, frozenset))


class WireError(ValueError):
    """Data that is not a value this codec writes: ``WireError("unknown class 'Evil'")``."""


def _modules(package: str) -> Iterator[ModuleType]:
    root = importlib.import_module(package)
    yield root
    for found in pkgutil.walk_packages(getattr(root, "__path__", []), prefix=f"{package}."):
        yield importlib.import_module(found.name)


def _is_named_tuple(kind: type) -> bool:
    return issubclass(kind, tuple) and hasattr(kind, "_fields")


def _carried(kind: type) -> bool:
    """Whether the codec writes instances of ``kind`` by name."""
    return (dataclasses.is_dataclass(kind) or _is_named_tuple(kind)
            or (issubclass(kind, enum.Enum)))


def _itself(value: Any) -> Any:
    return value


def _one_field(name: str) -> Callable[[Any], tuple[Any]]:
    """What ``attrgetter`` of several names does, for one: the field in a tuple."""
    return lambda record: (getattr(record, name),)


def _float(value: float) -> Json:
    if value != value or value in (float("inf"), float("-inf")):
        raise WireError("a float that is not a number")
    return value


def shared_classes() -> tuple[type, ...]:
    """The classes every table adds to its game's: the turn clock's and the presence ones."""
    from brailledev.table import presence
    from brailledev.table.core import TimeLeft

    return (TimeLeft, *presence.WIRE_CLASSES)


class Codec:
    """Encodes and decodes the values of one game; see the module docstring."""

    def __init__(self, classes: Iterable[type]) -> None:
        self.classes: dict[str, type] = {}
        for kind in classes:
            known = self.classes.setdefault(kind.__name__, kind)
            if known is not kind:
                raise WireError(f"two classes named {kind.__name__}: {known} and {kind}")
        self._fields: dict[type, tuple[str, ...]] = {}
        self._writers: dict[type, Callable[[Any], Json]] = {}
        self._getters: dict[type, tuple[tuple[str, ...], Callable[[Any], Any]]] = {}
        self._still_kinds: set[type] = set(_STILL)

    @classmethod
    def of_package(cls, package: str, extra: Iterable[type] = ()) -> Codec:
        """The codec of the classes defined in ``package`` and its modules, and ``extra``:
        ``Codec.of_package("games.uno")``."""
        found: dict[int, type] = {}
        for module in _modules(package):
            for _, kind in inspect.getmembers(module, inspect.isclass):
                if kind.__module__.startswith(package) and _carried(kind):
                    found[id(kind)] = kind
        return cls([*found.values(), *extra])

    # ---- encoding --------------------------------------------------------------------------

    def encode(self, value: Any) -> Json:
        """``value`` as plain JSON (see the module docstring for the shapes)."""
        kind = type(value)
        if kind in _PLAIN:
            return value
        # How a class is written is found once: asking at every value (is it an enum, a
        # dataclass...) took 12% of a Uno view's encoding, 47% of an Elements view's.
        writer = self._writers.get(kind)
        if writer is None:
            writer = self._writers[kind] = self._writer(kind)
        return writer(value)

    def _writer(self, kind: type) -> Callable[[Any], Json]:
        """How values of class ``kind`` are written; a :class:`WireError` for a class the
        wire does not carry."""
        if kind is float:
            return _float
        if kind is tuple:
            return self._tuple
        if issubclass(kind, enum.Enum):
            name = self._name(kind)
            return lambda value: {"$enum": name, "value": self.encode(value.value)}
        if dataclasses.is_dataclass(kind) or _is_named_tuple(kind):
            return self._record_writer(kind)
        if issubclass(kind, list):
            return lambda value: {"$list": [self.encode(each) for each in value]}
        if issubclass(kind, Mapping):
            return lambda value: {"$map": [[self.encode(key), self.encode(item)]
                                           for key, item in value.items()]}
        if issubclass(kind, (set, frozenset)):
            return lambda value: {"$set": [self.encode(each) for each in value]}
        raise WireError(f"cannot write a {kind.__name__} on the wire")

    def _tuple(self, value: tuple[Any, ...]) -> Json:
        # Plain items are taken as they are, without a call each: views are mostly those.
        return [each if type(each) in _PLAIN else self.encode(each) for each in value]

    def _record_writer(self, kind: type) -> Callable[[Any], Json]:
        name, names = self._name(kind), self._names(kind)

        def write(value: Any) -> Json:
            data: dict[str, Json] = {CLASS_KEY: name}
            for field in names:
                each = getattr(value, field)
                data[field] = each if type(each) in _PLAIN else self.encode(each)
            return data
        return write

    def encode_changes(self, value: Any, before: Any) -> dict[str, Json] | None:
        """The fields of record ``value`` that differ from those of ``before`` (a record of
        the same class), each written as :meth:`encode` writes it; ``None`` when ``value``
        is not a record or ``before`` is of another class (then send it whole). What equals
        the field before, and is of a kind that cannot change in place (:data:`_STILL`, or a
        record or enum member of the registry), is left out:
        ``codec.encode_changes(view, last_view) == {"hand": ["r3"], "top": "b3"}``."""
        kind = type(value)
        if type(before) is not kind:
            return None
        fields = self._getters.get(kind)
        if fields is None:
            if not (dataclasses.is_dataclass(kind) or _is_named_tuple(kind)):
                return None
            names = self._names(kind)
            get: Callable[[Any], Any]
            if _is_named_tuple(kind):
                get = _itself  # a named tuple is its fields already
            elif len(names) > 1:
                get = attrgetter(*names)  # a dataclass's fields, read in one call
            else:
                get = _one_field(names[0])
            fields = self._getters[kind] = (names, get)
        names, get = fields
        still = self._still_kinds
        changes: dict[str, Json] = {}
        # Most fields are unchanged, most often the very object told before: compared
        # first (in C), their kind looked up after.
        for name, now, then in zip(names, get(value), get(before), strict=True):
            if (now is then or now == then) and type(now) is type(then) \
                    and (type(now) in still or self._still(now)):
                continue
            changes[name] = now if type(now) in _PLAIN else self.encode(now)
        return changes

    def _still(self, value: Any) -> bool:
        """Whether ``value``, of a kind not yet in ``_still_kinds``, cannot change in place:
        a frozen record or enum member of the registry (the kind is kept once found)."""
        kind = type(value)
        params = getattr(kind, "__dataclass_params__", None)
        still = _is_named_tuple(kind) or issubclass(kind, enum.Enum) \
            or (params is not None and bool(params.frozen))
        if still:
            self._still_kinds.add(kind)
        return still

    def encode_reason(self, reason: Reason) -> Json:
        """A refusal as its code and arguments: ``{"code": "not_your_turn", "args": {}}``."""
        return {"code": reason.code,
                "args": {name: self.encode(value) for name, value in reason.args}}

    # ---- decoding --------------------------------------------------------------------------

    def decode(self, data: Json) -> Any:
        """The value :meth:`encode` wrote; anything else is a :class:`WireError`."""
        try:
            return self._decode(data, 0)
        except RecursionError:
            raise WireError("nested too deep") from None

    def decode_reason(self, data: Json) -> Reason:
        """The reason :meth:`encode_reason` wrote."""
        if not isinstance(data, dict) or not isinstance(data.get("code"), str) \
                or not isinstance(data.get("args", {}), dict):
            raise WireError("a reason is a code and its arguments")
        args = {str(name): self.decode(value) for name, value in data.get("args", {}).items()}
        return Reason(data["code"], tuple(sorted(args.items())))

    def _decode(self, data: Json, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise WireError("nested too deep")
        if data is None or isinstance(data, (bool, int, float, str)):
            return data
        if isinstance(data, list):
            return tuple(self._decode(each, depth + 1) for each in data)
        if not isinstance(data, dict):
            raise WireError(f"a {type(data).__name__} is not JSON")
        if CLASS_KEY in data:
            return self._decode_object(data, depth)
        if len(data) == 1:
            (tag, inner), = data.items()
            if tag == "$list" and isinstance(inner, list):
                return [self._decode(each, depth + 1) for each in inner]
            if tag == "$set" and isinstance(inner, list):
                return frozenset(self._decode(each, depth + 1) for each in inner)
            if tag == "$map" and isinstance(inner, list):
                return {self._key(pair, depth): self._decode(pair[1], depth + 1)
                        for pair in inner}
        if set(data) == {"$enum", "value"}:
            kind = self._class(data["$enum"])
            if not issubclass(kind, enum.Enum):
                raise WireError(f"{kind.__name__} is not an enumeration")
            try:
                return kind(self._decode(data["value"], depth + 1))
            except ValueError:
                raise WireError(f"no {kind.__name__} {data['value']!r}") from None
        raise WireError(f"an object with keys {sorted(data)[:5]} is no value of the wire")

    def _key(self, pair: Json, depth: int) -> Any:
        if not isinstance(pair, list) or len(pair) != 2:
            raise WireError("a map entry is a [key, value] pair")
        key = self._decode(pair[0], depth + 1)
        try:
            hash(key)
        except TypeError:
            raise WireError("a map key that cannot be a key") from None
        return key

    def _decode_object(self, data: dict[str, Json], depth: int) -> Any:
        kind = self._class(data[CLASS_KEY])
        if not (dataclasses.is_dataclass(kind) or _is_named_tuple(kind)):
            raise WireError(f"{kind.__name__} is not a record")
        names = self._names(kind)
        given = {name: value for name, value in data.items() if name != CLASS_KEY}
        unknown = set(given) - set(names)
        if unknown:
            raise WireError(f"{kind.__name__} has no field {sorted(unknown)[0]!r}")
        values = {name: self._decode(value, depth + 1) for name, value in given.items()}
        try:
            return kind(**values)
        except TypeError as error:
            raise WireError(f"{kind.__name__}: {error}") from None

    # ---- classes ---------------------------------------------------------------------------

    def _class(self, name: Json) -> type:
        kind = self.classes.get(name) if isinstance(name, str) else None
        if kind is None:
            raise WireError(f"unknown class {str(name)[:40]!r}")
        return kind

    def _name(self, kind: type) -> str:
        if self.classes.get(kind.__name__) is not kind:
            raise WireError(f"{kind.__name__} is not a class of this game's wire")
        return kind.__name__

    def _names(self, kind: type) -> tuple[str, ...]:
        names = self._fields.get(kind)
        if names is None:
            if dataclasses.is_dataclass(kind):
                names = tuple(each.name for each in dataclasses.fields(kind) if each.init)
            else:
                names = tuple(kind._fields)  # type: ignore[attr-defined]
            self._fields[kind] = names
        return names


@cache
def codec_for(game: str) -> Codec:
    """The codec of a game's views, events and moves, with the table's own classes:
    ``codec_for("domino").encode(view)``."""
    from layouts.registry import kit

    return Codec.of_package(f"games.{kit(game).name}", shared_classes())
