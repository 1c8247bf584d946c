"""Writes the pydantic 2 part of the strict-schema corpus.

Each fixture is `tool-openai/tests/corpus/pydantic/<name>.json`:
{"generator", "model", "schema": model_json_schema(), "accept": [...], "refuse": [...]}.
`accept` are real instances dumped with `model_dump(mode="json")` (every key
present, None for optional ones: what strict mode makes the model send);
`refuse` are argument documents the compiled schema must reject, each with
the reason in `why`. Run through scripts/corpus/generate.sh.
"""

from __future__ import annotations

import datetime as dt
import enum
import json
import sys
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Literal, Optional, Union

import pydantic
from pydantic import BaseModel, ConfigDict, Field

OUT = Path(sys.argv[1])


class Currency(str, enum.Enum):
    EUR = "EUR"
    USD = "USD"


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Address(BaseModel):
    """A postal address."""

    street: str
    city: str
    postcode: Annotated[str, Field(pattern=r"^[0-9]{5}$")]
    country: str = "DE"


class LineItem(BaseModel):
    sku: Annotated[str, Field(min_length=1, max_length=32)]
    quantity: Annotated[int, Field(ge=1, le=100)]
    unit_price: Decimal


class Order(BaseModel):
    """An order with nested models, optional and default fields."""

    order_id: uuid.UUID
    placed_at: dt.datetime
    deliver_on: Optional[dt.date] = None
    currency: Currency = Currency.EUR
    priority: Priority = Priority.LOW
    status: Literal["draft", "placed", "shipped"]
    shipping: Address
    billing: Optional[Address] = None
    items: Annotated[list[LineItem], Field(min_length=1, max_length=10)]
    note: Optional[str] = Field(default=None, description="Free text for the courier.")
    discount: Annotated[float, Field(ge=0, lt=1, multiple_of=0.05)] = 0.0


class Pet(BaseModel):
    name: str
    age: Optional[int] = None


class Dog(Pet):
    """A dog: a pet with a breed (inheritance)."""

    breed: str
    good_boy: bool = True


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: Annotated[int, Field(ge=0, le=9)]


class Bird(BaseModel):
    kind: Literal["bird"]
    can_fly: bool


class Adoption(BaseModel):
    """A discriminated union of animals."""

    animal: Annotated[Union[Cat, Bird], Field(discriminator="kind")]
    previous: Optional[Annotated[Union[Cat, Bird], Field(discriminator="kind")]] = None


class Node(BaseModel):
    """A recursive tree."""

    label: str
    children: list["Node"] = []
    parent_label: Optional[str] = None


class Tree(BaseModel):
    root: Node
    depth: int


# The decimal-string pattern with a lookahead (as the issue quotes it).
DECIMAL_PATTERN = r"^(?!^[-+.]*$)[+-]?0*\d*\.?\d*$"


class Measurement(BaseModel):
    """Decimals, dates, times and durations."""

    # Lookaround needs Python's engine (pydantic's default is Rust's).
    model_config = ConfigDict(regex_engine="python-re")

    value: Decimal
    value_text: Annotated[str, Field(pattern=DECIMAL_PATTERN)]
    tolerance: Optional[Decimal] = None
    taken_on: dt.date
    taken_at: dt.time
    window: dt.timedelta
    sensor: uuid.UUID


class Constrained(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: Annotated[str, Field(pattern=r"^[A-Z]{3}-\d{4}$")]
    name: Annotated[str, Field(min_length=2, max_length=40)]
    percent: Annotated[float, Field(ge=0, le=100)]
    count: Annotated[int, Field(gt=0, lt=1000)]
    step: Annotated[int, Field(multiple_of=5)]
    tags: Annotated[list[str], Field(min_length=1, max_length=3)]
    ratio: Annotated[float, Field(gt=0, le=1)] = 0.5


class Ping(BaseModel):
    """A tool without arguments."""


def fixture(name, model, accept, refuse):
    schema = model.model_json_schema()
    doc = {
        "generator": f"pydantic {pydantic.VERSION}",
        "model": model.__name__,
        "schema": schema,
        "accept": [m.model_dump(mode="json") for m in accept],
        "refuse": refuse,
    }
    path = OUT / "pydantic" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


addr = Address(street="Hauptstr. 1", city="Berlin", postcode="10115")
order = Order(
    order_id=uuid.UUID("12345678-1234-5678-1234-567812345678"),
    placed_at=dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc),
    status="placed",
    shipping=addr,
    items=[LineItem(sku="A-1", quantity=2, unit_price=Decimal("9.99"))],
)
order_full = order.model_copy(
    update={
        "deliver_on": dt.date(2026, 12, 24),
        "billing": addr,
        "note": "ring twice",
        "currency": Currency.USD,
        "priority": Priority.HIGH,
        "discount": 0.1,
    }
)
ok_order = order.model_dump(mode="json")


def order_with(**changes):
    doc = json.loads(json.dumps(ok_order))
    for key, value in changes.items():
        doc[key] = value
    return doc


fixture(
    "order",
    Order,
    [order, order_full],
    [
        {"why": "status is not one of the literals", "args": order_with(status="lost")},
        {"why": "an item quantity above 100", "args": order_with(items=[{"sku": "A", "quantity": 101, "unit_price": "1"}])},
        {"why": "no items (min_length 1)", "args": order_with(items=[])},
        {"why": "a postcode that does not match", "args": order_with(shipping={**ok_order["shipping"], "postcode": "1011"})},
        {"why": "an unknown currency", "args": order_with(currency="GBP")},
        {"why": "priority 3 is no IntEnum value", "args": order_with(priority=3)},
        {"why": "an extra key", "args": order_with(coupon="X")},
        {"why": "note left out (strict mode sends every key)", "args": {k: v for k, v in ok_order.items() if k != "note"}},
        {"why": "placed_at is not a date-time", "args": order_with(placed_at="yesterday")},
    ],
)
dog = Dog(name="Rex", breed="collie")
fixture(
    "inheritance",
    Dog,
    [dog, Dog(name="Bello", age=3, breed="pug", good_boy=False)],
    [
        {"why": "breed is null", "args": {**dog.model_dump(mode="json"), "breed": None}},
        {"why": "age is a string", "args": {**dog.model_dump(mode="json"), "age": "3"}},
    ],
)
adoption = Adoption(animal=Cat(kind="cat", lives=9))
fixture(
    "discriminated_union",
    Adoption,
    [adoption, Adoption(animal=Bird(kind="bird", can_fly=True), previous=Cat(kind="cat", lives=1))],
    [
        {"why": "an unknown kind", "args": {"animal": {"kind": "dog", "lives": 1}, "previous": None}},
        {"why": "a cat with 10 lives", "args": {"animal": {"kind": "cat", "lives": 10}, "previous": None}},
        {"why": "a bird without can_fly", "args": {"animal": {"kind": "bird"}, "previous": None}},
    ],
)
tree = Tree(root=Node(label="a", children=[Node(label="b", parent_label="a")]), depth=2)
fixture(
    "recursive_tree",
    Tree,
    [tree],
    [
        {"why": "a child without a label", "args": {"root": {"label": "a", "children": [{"children": [], "parent_label": None}], "parent_label": None}, "depth": 1}},
        {"why": "children is not an array", "args": {"root": {"label": "a", "children": {}, "parent_label": None}, "depth": 1}},
    ],
)
fixture(
    "recursive_root",
    Node,
    [Node(label="a", children=[Node(label="b")])],
    [{"why": "label is a number", "args": {"label": 1, "children": [], "parent_label": None}}],
)
measurement = Measurement(
    value=Decimal("12.50"),
    value_text="12.50",
    taken_on=dt.date(2026, 1, 2),
    taken_at=dt.time(10, 30, tzinfo=dt.timezone.utc),
    window=dt.timedelta(minutes=5),
    sensor=uuid.UUID("87654321-4321-8765-4321-876543218765"),
)
ok_measurement = measurement.model_dump(mode="json")
fixture(
    "decimal_dates",
    Measurement,
    [measurement, measurement.model_copy(update={"tolerance": Decimal("0.1")})],
    [
        {"why": "value is a boolean", "args": {**ok_measurement, "value": True}},
        {"why": "taken_on is not a date", "args": {**ok_measurement, "taken_on": "2026-13-45"}},
        {"why": "sensor is not a UUID", "args": {**ok_measurement, "sensor": "nope"}},
    ],
)
constrained = Constrained(code="ABC-1234", name="Al", percent=12.5, count=3, step=10, tags=["x"])
ok_constrained = constrained.model_dump(mode="json")
fixture(
    "constrained",
    Constrained,
    [constrained],
    [
        {"why": "code does not match", "args": {**ok_constrained, "code": "abc-1234"}},
        {"why": "percent above 100", "args": {**ok_constrained, "percent": 100.5}},
        {"why": "count 0 is not above 0", "args": {**ok_constrained, "count": 0}},
        {"why": "step 7 is no multiple of 5", "args": {**ok_constrained, "step": 7}},
        {"why": "four tags", "args": {**ok_constrained, "tags": ["a", "b", "c", "d"]}},
        {"why": "ratio 0 is not above 0", "args": {**ok_constrained, "ratio": 0}},
    ],
)
fixture("no_arguments", Ping, [Ping()], [{"why": "an argument", "args": {"x": 1}}])
