"""The records of the end-of-evening report and of an assistant's handout, as
``referee.report`` builds them (the ``--json`` output of `report` and `report --handout`;
the projector's highlights and chart read the same). Plain data: no state is read here.
"""

from __future__ import annotations

from typing import TypedDict

from referee.evening import ceremony as cer


class Holder(TypedDict):
    """A person's chips in the report's money section."""

    name: str
    side: str | None
    chips: dict[str, int]
    count: int
    dollars: int


class SideMoney(TypedDict):
    chips: int
    dollars: int


class Money(TypedDict):
    chips: dict[str, dict[str, int]]
    holders: list[Holder]
    sides: dict[str, SideMoney]
    stakeholders: list[str]
    resigned: list[str]
    dead: list[str]
    over: bool
    winner: str | None
    fool_keeps: int


class SoulRow(TypedDict):
    soul: str
    kind: str
    holder: str | None
    destroyed: str | None
    identified: bool
    identified_by: str | None
    identity: str | None
    arcanum: str | None


class Claim(TypedDict):
    """A promotion claim that would succeed now (R28)."""

    person: str
    arcanum: str
    points: int
    occupant: str | None
    occupant_points: int | None


class Arcana(TypedDict):
    points: dict[str, dict[str, int]]
    promotions: list[Claim]


class PotWon(TypedDict):
    size: int
    winners: list[str]


class BigHand(TypedDict):
    hand: int
    size: int
    dollars: int
    winners: list[str]
    pots: list[PotWon]


class DuetHand(TypedDict):
    hand: int
    player: str
    category: str
    title: str
    duet: list[str]


class PowerSpent(TypedDict):
    power: str
    key: str
    holder: str
    hand: int | None
    spent: str


class Highlights(TypedDict):
    biggest_hands: list[BigHand]
    duet_hands: list[DuetHand]
    powers_used: list[PowerSpent]


class ChartLine(TypedDict):
    name: str
    colour: str
    chips: list[int]


class Chart(TypedDict):
    """Each stakeholder's chips after every hand (E50)."""

    labels: list[str]
    series: list[ChartLine]


class Report(TypedDict):
    """The report as ``report --json`` prints it."""

    title: str
    revealed: bool
    printed: str
    phase: str
    hands_played: int
    clock: int | None
    money: Money
    souls: list[SoulRow]
    arcana: Arcana
    highlights: Highlights
    chart: Chart
    ceremony: cer.CeremonyView   # R40


class GuessTold(TypedDict):
    name: str | None
    arcanum: str | None
    result: dict[str, str | None]
    charges: int


class HandoutSoul(TypedDict):
    soul: str
    clues: list[str]
    guesses: list[GuessTold]
    guesses_left: int
    identity: str | None
    arcanum: str | None


class Handout(TypedDict):
    """One assistant's clue sheet (``report --handout``)."""

    assistant: str
    side: str | None
    charges: int
    souls: list[HandoutSoul]
