"""Rule profiles: the places where rule books disagree, and what each book (or site) says.

A profile fixes every option of the rule reference (``docs/rules.md``, "Rule profiles") and the
citation each finding prints.  ``--rules NAME`` picks one; by default each hand is judged by its
format's house profile, declared in the format's card (``grammars/<format>.toml``, ``[profile]``).

A profile says which *rule book* applies.  How a site *prints* a hand (does it print the uncalled
bet? is its total net of rake?) is not here: those are the format's export facts
(:mod:`auditor.formats.facts`), and ``--rules`` never changes them.

Citations name the edition: the TDA 2026 rules renumbered the 2024 ones by two (2024 Rule 47-A is
2026 Rule 49-A), so TDA citations give both.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Final, Literal

from auditor.fastinit import by_fields

if TYPE_CHECKING:
    from auditor.formats.registry import Registry

PlPreflop = Literal["true_value", "assume_full", "sb_as_bb"]
FlHeadsUp = Literal["none", "round_starts_headsup", "becomes_headsup_before_cap", "tournament_headsup_only"]
MinRaiseBase = Literal["current_bet", "full_level"]
StudOpenPair = Literal["stud_high", "none"]
DrawReshuffle = Literal["discards", "none"]
OddChip = Literal["left_of_button", "last_after_button", "unjudged"]
DisconnectLimit = Literal["none", "stake_times_opponents"]
FlShortAllInRaise = Literal["full_level", "all_in"]


@dataclass(frozen=True)
class Profile:
    """One rule book's answers to the questions where books disagree.

    Compiled with mypyc in the compiled build (issue 16): the replay, pots and rules read the
    profile's settings as native attributes, and it is pickled through its constructor
    (:meth:`__reduce__`).
    """

    name: str
    title: str
    min_raise_base: MinRaiseBase = "current_bet"
    pl_preflop_blinds: PlPreflop = "true_value"
    fl_cap_raises: int | None = None  # raises allowed after the opening bet; None = no cap checked
    fl_headsup: FlHeadsUp = "none"
    dead_button_cash: bool = True  # may the button sit on an empty seat in a cash game
    # may a cash player add chips between hands (a top-up; never during a hand: table stakes)
    top_ups_between_hands: bool = True
    no_flop_no_drop: bool = False  # no rake when the hand ends before the flop (house rake policy)
    hilo_identical_even: bool = False  # the same hands win high and low: split the whole pot evenly
    # a rake table, where the house publishes one: rate (numerator, denominator), rounding, cap in
    # minor units.  None: the rake amount itself is not checked (only where rake is forbidden).
    rake_rate: tuple[int, int] | None = None
    rake_rounding: Literal["half_even", "floor"] = "half_even"
    rake_cap: int | None = None
    # stud: an open pair on fourth street lets a player bet the big bet ("stud_high": in seven-card
    # stud high, not hi/lo or razz; "none": never)
    stud_open_pair: StudOpenPair = "stud_high"
    # draw: when the stub runs out, the discards are shuffled to make a new stub ("none": never)
    draw_reshuffle: DrawReshuffle = "discards"
    # who gets the odd chips of a tie: one each to the first tied players left of the button
    # (TDA 2024 Rule 20-A), to the last (PKR: both of its corpus ties with an odd cent pay it so), or
    # "unjudged": the house's order is not known (any tied player may get one; the split itself is
    # still judged)
    odd_chip: OddChip = "left_of_button"
    # a player the site keeps in the hand all-in after a disconnection ("disconnection protection")
    # wins at most what they put in times the number of players still in against them; the rest of
    # the pot goes to the next best hand ("stake_times_opponents": PKR, "wins $0.04, disconnection
    # protection limited from $0.17"); "none": an ordinary all-in
    disconnect_win_limit: DisconnectLimit = "none"
    # fixed limit: a raise over an all-in raise of less than half a bet is a full bet above the last
    # full bet ("full_level": TDA 2024 Rule 47-B, Robert's Rules Betting and Raising 6) or a full bet
    # above the all-in ("all_in": Everest deals "raises to $670.00" over "raises to $520.00, and is
    # all-in" after a full raise to $450 at 150/300)
    fl_raise_over_short_all_in: FlShortAllInRaise = "full_level"
    citations: dict[str, str] = field(default_factory=dict)
    # the house rules of one brand of the format where they differ from the format's (a converter's
    # record of several sites: PokerTracker's conversions of Everest deal Everest's rules), from a
    # card's ``[profile.brand_rules.NAME]``: brand name -> settings
    brand_rules: dict[str, dict[str, Any]] = field(default_factory=dict)

    def for_brand(self, brand: str | None) -> Profile:
        """This profile with the house rules of ``brand`` (the hand's brand) applied, if it has any."""
        if brand and self.brand_rules:
            for name, values in self.brand_rules.items():
                if name.lower() == brand.lower():
                    return replace(self, brand_rules={}, **values)
        return self

    def cite(self, code: str) -> str:
        return self.citations.get(code) or self.citations.get(code[0], self.title)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # (format cards, their house profiles with them, are pickled in the disk cache; a compiled
        # frozen class refuses unpickling by setting attributes)
        return by_fields(self)


_TDA = {
    "B001": "TDA 2026 Rule 49-A (2024: 47-A)",
    "B002": "TDA 2026 Rule 45-A (2024: 43-A)",
    "B003": "TDA 2026 Rule 45-A (2024: 43-A); WSOP Live Action Rule 174",
    "B004": "TDA 2026 Rule 55-A (2024: 53-A)",
    "B005": "TDA 2026 Rule 55-A (2024: 53-A)",
    "B006": "TDA 2026 Rule 45 (2024: 43)",
    "B007": "TDA 2026 Rule 45-A (2024: 43-A); WSOP Live Action Rule 154",
    "B008": "TDA 2026 Rule 56-B (2024: 54-B)",
    "B009": "TDA 2026 Rule 49-B (2024: 47-B)",
    "B010": "TDA 2026 Rule 50 (2024: 48)",
    "B011": "TDA 2026 Rule 19 (2024: 17); WSOP Live Action Rule 156",
    "S": "WSOP Live Action Rules 64 and 186 (table stakes)",
    "H": "TDA 2026 Rule 34 (2024: 32) and the site's hand record",
    "T": "Poker TDA 2026 Rules: chips stay in play and visible at the table; dead button, TDA 2026 Rule 34 "
    "(2024: 32); table stakes, WSOP 2026 Live Action Rules 64 and 186",
}
_WSOP_LIVE = {
    "B001": "WSOP 2026 Live Action Rule 175 (and 177)",
    "B002": "WSOP 2026 Live Action Rule 176",
    "B003": "WSOP 2026 Live Action Rule 174",
    "B004": "WSOP 2026 Live Action Rule 136",
    "B005": "WSOP 2026 Live Action Rule 136",
    "B006": "WSOP 2026 Live Action Rule 132",
    "B007": "WSOP 2026 Live Action Rule 154",
    "B008": "WSOP 2026 Live Action Rules 188-191",
    "B009": "WSOP 2026 Live Action Rule 133",
    "B010": "WSOP 2026 Live Action Rules 130-131",
    "B011": "WSOP 2026 Live Action Rule 156",
    "S": "WSOP 2026 Live Action Rules 64 and 186",
    "H": "WSOP 2026 Live Action Rules (dealing)",
}
_WSOP_T = {
    "B001": "WSOP 2026 Tournament Rule 96 (96-a)",
    "B002": "WSOP 2026 Tournament Rule 96 (96-a)",
    "B003": "WSOP 2026 Tournament Rules VIII NL-b / PL-b",
    "B004": "WSOP 2026 Tournament Rule 90-d",
    "B005": "WSOP 2026 Tournament Rule 90-d",
    "B006": "WSOP 2026 Tournament Rule 95",
    "B007": "WSOP 2026 Tournament Rule 95",
    "B008": "WSOP 2026 Tournament Rules VIII PL-d",
    "B009": "WSOP 2026 Tournament Rules VIII Limit-b",
    "B010": "WSOP 2026 Tournament Rule 100-b",
    "B011": "WSOP 2026 Tournament Rule 87",
    "S": "WSOP 2026 Tournament Rules (table stakes)",
    "H": "WSOP 2026 Tournament Rules (dealing)",
}
_ROBERTS = {
    "B001": "Robert's Rules of Poker v11, No-Limit rules 3 and 5",
    "B002": "Robert's Rules of Poker v11, No-Limit rules 3 and 4",
    "B003": "Robert's Rules of Poker v11, No-Limit rule 2",
    "B004": "Robert's Rules of Poker v11, Irregularities (action out of turn)",
    "B005": "Robert's Rules of Poker v11, Irregularities (action out of turn)",
    "B006": "Robert's Rules of Poker v11, Betting and Raising",
    "B007": "Robert's Rules of Poker v11, Blinds rule 1",
    "B008": "Robert's Rules of Poker v11, Pot-Limit rules",
    "B009": "Robert's Rules of Poker v11, Betting and Raising rule 6",
    "B010": "Robert's Rules of Poker v11, Betting and Raising rules 3-4",
    "B011": "Robert's Rules of Poker v11, Blinds (option of raising)",
    "S": "Robert's Rules of Poker v11, General Poker Rules (table stakes)",
    "H": "Robert's Rules of Poker v11, Irregularities",
}
BOOKS: dict[str, Profile] = {
    "tda": Profile("tda", "Poker TDA 2026 Rules", pl_preflop_blinds="assume_full",
                   fl_headsup="tournament_headsup_only", citations=_TDA),
    "wsop-live": Profile("wsop-live", "2026 WSOP Live Action Rules", pl_preflop_blinds="sb_as_bb",
                         fl_cap_raises=4, fl_headsup="round_starts_headsup", hilo_identical_even=True,
                         citations=_WSOP_LIVE),
    "wsop-tournament": Profile("wsop-tournament", "2026 WSOP Tournament Rules", fl_cap_raises=4,
                               fl_headsup="tournament_headsup_only", hilo_identical_even=True, citations=_WSOP_T),
    "roberts": Profile("roberts", "Robert's Rules of Poker v11", fl_cap_raises=3,
                       fl_headsup="becomes_headsup_before_cap", hilo_identical_even=True, citations=_ROBERTS),
}  # fmt: skip


_CITATIONS = {"tda": _TDA, "wsop-live": _WSOP_LIVE, "wsop-tournament": _WSOP_T, "roberts": _ROBERTS}


def profile_from_mapping(name: str, data: dict[str, Any]) -> Profile:
    """A house profile from a format card's ``[profile]`` table.

    ``citations_from`` names the rule book whose citations the house cites where it publishes none
    of its own; ``citations`` adds the house's own; every other key is a :class:`Profile` field.
    """
    data = dict(data)
    cites = dict(_CITATIONS[data.pop("citations_from")]) if "citations_from" in data else {}
    cites.update(data.pop("citations", {}))
    known = {f.name for f in fields(Profile)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"profile {name}: unknown settings {unknown}")
    for brand, values in data.get("brand_rules", {}).items():
        reserved = {"name", "title", "citations", "brand_rules"}
        wrong = sorted((set(values) - known) | (reserved & set(values)))
        if wrong:
            raise ValueError(f"profile {name}: unknown settings {wrong} for brand {brand}")
    if "rake_rate" in data:
        data["rake_rate"] = tuple(data["rake_rate"])
    data.setdefault("name", name)
    data.setdefault("title", f"{name} rules")
    return Profile(citations=cites, **data)


class _Profiles(Mapping[str, Profile]):
    """Rule books first, then the house profiles of the registered formats (read on first use)."""

    def _all(self) -> dict[str, Profile]:
        from auditor.formats import REGISTRY

        return {**BOOKS, **REGISTRY.profiles()}

    def __getitem__(self, name: str) -> Profile:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


#: Every profile by name: the rule books and the formats' house profiles.
PROFILES: Final[Mapping[str, Profile]] = _Profiles()


_REGISTRY: Final[list[Registry]] = []  # the format registry, bound on first use (it imports this module)


def for_hand(site: str, name: str | None) -> Profile:
    """The profile named on the command line, or the house profile of the hand's format (the TDA
    book where the format declares none): :meth:`~auditor.formats.registry.Registry.house_profile`,
    looked up once a hand without an import statement or a call into the registry (issue 16)."""
    if name:
        return PROFILES[name]
    if not _REGISTRY:
        from auditor.formats import REGISTRY

        _REGISTRY.append(REGISTRY)
    registry = _REGISTRY[0]
    return registry.house.get(site) or registry.house_profile(site)


def with_options(p: Profile, **kw: object) -> Profile:
    return replace(p, **kw)  # type: ignore[arg-type]
