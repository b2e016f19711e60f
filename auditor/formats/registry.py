"""The registry of formats: one entry (a *format card*) per format hhaudit reads or recognises.

A format card is a TOML file beside the grammars (``grammars/<name>.toml``).  It says:

* ``name``, ``title``: the format's id (``Hand.site``) and how people call it;
* how a hand is read: ``grammars = [...]`` (a chain of ``.peg`` files, see :mod:`auditor.formats.peg`)
  or ``reader = "package.module"`` (a module with a ``Reader`` class for XML/JSON/TOML documents);
* how a hand is detected: ``detect = "rule"`` names the grammar rule whose pattern starts a hand (the
  pattern is *taken from the grammar*, never written twice); a document reader's module has
  ``SNIFF``, a pattern of the document's first line; ``lead_in = "rule"`` names a line that may come
  just before that header and belongs to the same hand (888's ``#Game No : N`` above
  ``***** 888poker Hand History for Game N *****``): a hand starts at whichever comes first;
* ``[facts]``: its export facts (:class:`~auditor.formats.facts.ExportFacts`), and ``[brands.NAME]``
  the facts of a brand that prints differently (a clone of the format), chosen by the header group
  ``brand_group``;
* ``suffixes``: file suffixes of a document format (``[".phh", ".phhs"]``): a file named so is read by
  its reader whatever its first line (a comment);
* ``preamble``: a pattern of lines the site prints before a file's first hand that belong to no
  hand (PartyPoker "Game #N starts."): known text, skipped without a finding;
* ``[profile]``: its house rules (a :class:`~auditor.profiles.Profile` built on a rule book).

A card with ``status = "recognised"`` and a ``recognise`` pattern names a format hhaudit does not
read yet: a file of it gets a P003 finding that names the site, not a guess.

``summary`` is a pattern of the first line of a file the site writes beside its hands that is not a
hand history (a tournament summary): such a file is recognised and gets no finding.  ``separator``
is a pattern of a line an export prints between hands (``*** # 2 ***`` in PokerStars archives): it
is not stray text, and the one-space indent of an archive's lines after it is not part of them.

Unknown formats are never judged by another format's facts: a hand's facts come from its own card.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from auditor.findings import Finding
from auditor.formats.chunk import Chunk
from auditor.formats.facts import ExportFacts
from auditor.profiles import BOOKS, Profile, profile_from_mapping

if TYPE_CHECKING:
    from auditor.model import Hand


def grammar_dir() -> Path:
    """Where the bundled grammars and format cards are: inside the installed package, or the checkout."""
    # the package's own directory, as importlib.resources.files("auditor") gives it for a package on
    # disk (without importing importlib.resources, zipfile, tempfile...: start-up, issue 16)
    packaged = Path(__file__).resolve().parent.parent / "grammars"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent.parent / "grammars"


class Reader(Protocol):
    """What a format's reader does: one chunk in, a Hand (or None) and findings out."""

    def read(self, chunk: Chunk) -> tuple[Hand | None, list[Finding]]: ...


class DocumentReader(Reader, Protocol):
    """A reader of whole documents (XML, JSON, TOML): it also splits a file into hand chunks."""

    def split(self, lines: list[tuple[int, str]], path: str) -> Iterator[Chunk | Finding]: ...


_RULE_DEF = re.compile(r"^(\w+)\s*=\s*(.+?)\s*$", re.M)
_REGEX_LIT = re.compile(r'~r"((?:[^"\\]|\\.)*)"(\w*)')
_NAMED_GROUP = re.compile(r"\(\?P<\w+>")


class _PegReader:
    """The reader of a text format: :func:`auditor.formats.peg.read_hand` with the format's compiled
    grammar bound (``read`` is that function itself, not a method calling it: one call a hand into
    the compiled build's ``read_hand``, issue 16)."""

    __slots__ = ("read",)

    def __init__(self, grammar: Any) -> None:
        from auditor.formats.peg import read_hand

        self.read: Callable[[Chunk], tuple[Hand | None, list[Finding]]] = partial(read_hand, grammar)


@dataclass
class Format:
    """One format card, loaded."""

    name: str
    title: str
    card: Path
    grammars: tuple[Path, ...] = ()
    detect: str = "header"
    lead_in: str | None = None
    reader_module: str | None = None
    brand_group: str | None = None
    facts: ExportFacts = field(default_factory=ExportFacts)
    brands: dict[str, ExportFacts] = field(default_factory=dict)
    profile: Profile | None = None
    status: str = "supported"
    recognise: str | None = None
    preamble: str | None = None
    notes: str = ""
    summary: str | None = None
    separator: str | None = None
    suffixes: tuple[str, ...] = ()  # file suffixes of a document format whose first line may not tell it

    @property
    def supported(self) -> bool:
        return self.status == "supported"

    @property
    def is_document(self) -> bool:
        return self.reader_module is not None

    @cached_property
    def grammar_text(self) -> str:
        from auditor.formats.peg import compose

        return compose(self.grammars)

    @cached_property
    def reader(self) -> Reader:
        """The reader, built on first use (compiling a grammar costs time: formats not met cost nothing)."""
        if self.reader_module is not None:
            module = importlib.import_module(self.reader_module)
            r: Reader = module.Reader(self)
            return r
        return _PegReader(self.peg)  # one compiled grammar per format and process (the splitter uses it too)

    @cached_property
    def peg(self) -> Any:
        """The compiled grammar of a text format (the reader's, the splitter's, and for tests and
        tools that need the parse tree): from the on-disk cache when its sources are unchanged
        (:mod:`auditor.formats.cache`), else compiled."""
        from auditor.formats.cache import compiled_grammar

        return compiled_grammar(self.name, self.grammars, self.facts)

    def header_pattern(self) -> str:
        """The pattern that starts a hand of this format, as the grammar (or reader module) writes it.

        Taken from the grammar text without compiling it, so detection costs nothing at start-up:
        the ``detect`` rule, or the first term of it when it is a sequence, down to a regex.
        """
        if self.is_document:
            return str(importlib.import_module(self.reader_module or "").SNIFF)
        if not self.supported:
            return self.recognise or ""
        pattern = self._rule_pattern(self.detect)
        if self.lead_in:
            pattern = f"(?:{self._rule_pattern(self.lead_in)})|(?:{pattern})"
        return pattern

    def lead_in_pattern(self) -> str | None:
        """The pattern of the line that may precede this format's hand header (``lead_in``), or None."""
        return self._rule_pattern(self.lead_in) if self.lead_in and self.supported and not self.is_document else None

    def _rule_pattern(self, rule: str) -> str:
        defs: dict[str, str] = {}
        for m in _RULE_DEF.finditer(self.grammar_text):
            defs[m.group(1)] = m.group(2)  # the last definition wins, as in parsimonious
        start = rule
        for _ in range(10):
            body = defs.get(rule)
            if body is None:
                raise ValueError(f"format {self.name}: no grammar rule {rule!r} to detect hands with")
            lit = _REGEX_LIT.match(body)
            if lit is not None:
                flags = "(?i)" if "i" in lit.group(2) else ""
                return flags + _NAMED_GROUP.sub("(?:", lit.group(1))
            rule = body.split()[0].rstrip("?*+")
        raise ValueError(f"format {self.name}: rule {start!r} does not lead to a regex")

    def is_body_line(self, line: str) -> bool:
        """Whether a line of a hand of this format is one of its body lines (not ``unknown``).

        A line that starts like a hand header but reads as a body line of the hand being split (a
        player named ``Poker Hand #1:`` collecting a pot) does not start a new hand.
        """
        if self.is_document or not self.supported:
            return False
        from auditor.formats.peg import matches_line

        return matches_line(self.peg, line)

    def facts_for(self, brand: str | None) -> ExportFacts:
        if brand:
            return self.brand_facts.get(brand.lower(), self.facts)
        return self.facts

    @cached_property
    def brand_facts(self) -> dict[str, ExportFacts]:
        """The brands' facts by the brand's name in lower case (the first brand of a name wins, as
        a search of :attr:`brands` in order finds it): read once a hand (issue 16)."""
        out: dict[str, ExportFacts] = {}
        for name, facts in self.brands.items():
            out.setdefault(name.lower(), facts)
        return out


def _load_card(path: Path, search: list[Path]) -> Format:
    import tomllib  # cards usually come from the disk cache (start-up, issue 16)

    data = tomllib.loads(path.read_text("utf-8"))
    name = data.get("name") or path.stem
    known = {"name", "title", "grammars", "detect", "lead_in", "reader", "brand_group", "facts", "brands", "profile",
             "status", "recognise", "notes", "summary", "separator", "preamble", "suffixes"}  # fmt: skip
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"{path}: unknown keys {unknown}")

    def find(stem: str) -> Path:
        for d in [path.parent, *search]:
            p = d / f"{stem}.peg"
            if p.is_file():
                return p
        raise ValueError(f"{path}: grammar {stem}.peg not found in {[str(d) for d in [path.parent, *search]]}")

    facts = ExportFacts.from_mapping(data.get("facts", {}))
    brands = {b: ExportFacts.from_mapping(v, facts) for b, v in data.get("brands", {}).items()}
    prof = data.get("profile")
    profile = profile_from_mapping(name, prof) if prof is not None else None
    fmt = Format(
        name=name,
        title=data.get("title", name),
        card=path,
        grammars=tuple(find(s) for s in data.get("grammars", ())),
        detect=data.get("detect", "header"),
        lead_in=data.get("lead_in"),
        reader_module=data.get("reader"),
        brand_group=data.get("brand_group"),
        facts=facts,
        brands=brands,
        profile=profile,
        status=data.get("status", "supported"),
        recognise=data.get("recognise"),
        preamble=data.get("preamble"),
        notes=data.get("notes", ""),
        summary=data.get("summary"),
        separator=data.get("separator"),
        suffixes=tuple(str(x).lower() for x in data.get("suffixes", ())),
    )
    if fmt.supported and not fmt.grammars and not fmt.reader_module:
        raise ValueError(f"{path}: a supported format needs grammars or a reader")
    if not fmt.supported and not fmt.recognise:
        raise ValueError(f"{path}: a recognised-only format needs a recognise pattern")
    return fmt


class Registry:
    """Every format card found in the registered directories (the bundled grammars first)."""

    def __init__(self, directories: list[Path] | None = None) -> None:
        self.directories: list[Path] = list(directories) if directories is not None else [grammar_dir()]
        self._formats: dict[str, Format] | None = None
        #: each site's house profile, as :meth:`house_profile` finds it (read once a hand by
        #: :func:`auditor.profiles.for_hand`; emptied, not replaced, when the cards change)
        self.house: dict[str, Profile] = {}

    def add_directory(self, directory: Path | str) -> None:
        """Register the format cards of another directory (a plug-in format, or a test's toy format)."""
        self.directories.append(Path(directory))
        self._reset()

    def remove_directory(self, directory: Path | str) -> None:
        self.directories.remove(Path(directory))
        self._reset()

    def _reset(self) -> None:
        self._formats = None
        self.house.clear()
        for attr in ("_derived", "detector", "recognisers", "sniffers", "lead_ins", "summary_start", "separator_line",
                     "preamble", "patterns", "header_dispatch", "documents", "separator_firsts"):  # fmt: skip
            self.__dict__.pop(attr, None)

    @property
    def formats(self) -> dict[str, Format]:
        if self._formats is None:
            from auditor.formats.cache import format_cards  # start-up: loaded cards from the disk cache

            self._formats = format_cards(self.directories, self._load_cards)
        return self._formats

    def _load_cards(self) -> dict[str, Format]:
        found: dict[str, Format] = {}
        base = self.directories[:1]
        for d in self.directories:
            for card in sorted(d.glob("*.toml")):
                fmt = _load_card(card, base)
                found[fmt.name] = fmt
        return found

    # (the loaded cards read directly once loaded, not through the property: these run once a hand)
    def __getitem__(self, name: str) -> Format:
        found = self._formats
        return (found if found is not None else self.formats)[name]

    def get(self, name: str) -> Format | None:
        found = self._formats
        return (found if found is not None else self.formats).get(name)

    def house_profile(self, site: str) -> Profile:
        """The house profile of the format ``site`` (the TDA book where the format declares none, or
        is not registered), remembered per site in :attr:`house`."""
        got = self.house.get(site)
        if got is None:
            fmt = self.get(site)
            got = fmt.profile if fmt is not None and fmt.profile is not None else BOOKS["tda"]
            self.house[site] = got
        return got

    def supported(self) -> list[Format]:
        return [f for f in self.formats.values() if f.supported]

    def titles(self) -> str:
        return ", ".join(f.title for f in self.supported())

    @cached_property
    def _derived(self) -> dict[str, Any]:
        """What the registry derives from its cards and grammars: each supported format's header and
        lead-in patterns (``patterns``) and the compiled patterns made of them and of the cards
        (``detector``, ``preamble``, ...: :meth:`_compile`), from the on-disk cache when no card,
        grammar or reader module changed (deriving the patterns composes every grammar and imports
        every document reader; the compiled ones are stored with their programs, so a start-up
        compiles none of them: issue 16): see :mod:`auditor.formats.cache`."""

        def build() -> dict[str, Any]:
            patterns = {f.name: (f.header_pattern(), f.lead_in_pattern()) for f in self.supported()}
            return {"patterns": patterns, **self._compile(patterns)}

        return self._cached("patterns", build)

    def _cached(self, kind: str, build: Callable[[], dict[str, Any]], *also: Path) -> dict[str, Any]:
        """``build()``, from the on-disk cache (:mod:`auditor.formats.cache`) under a key of every
        card and grammar of the registry and the files ``also`` (the code that derives the value,
        when it is not in :mod:`auditor.formats`, which the cache's code fingerprint covers)."""
        fmts = list(self.formats.values())
        if any(f.reader_module and not f.reader_module.startswith("auditor.formats.") for f in fmts):
            return build()  # a plug-in reader module outside the package: its source is not in the key
        from auditor.formats.cache import header_patterns

        grammars = sorted({g for f in fmts for g in f.grammars})
        return header_patterns([f.card for f in fmts], [*grammars, *also], build, kind)

    @cached_property
    def header_dispatch(self) -> dict[str, Any]:
        """What the split's header detection (:class:`auditor.ingest.HeaderDispatch`) reads, derived
        from the header patterns once (~20 ms: reading the patterns' literal starts and first
        characters, compiling a trie and an alternation per first character) and kept in the on-disk
        cache with the registry's other patterns, so a run of many hands loads it (issue 16):

        * ``by_char``: for each character a text format's header can start with
          (:func:`auditor.formats.firstchars.first_chars` of each ``(?P<fmt_NAME>...)`` group), the
          alternation of the formats' groups that can start with it, in the detector's order (the
          same pattern object for the characters of one set of formats);
        * ``other``: the alternation for any other character (the formats whose first characters
          are not known), or None;
        * ``scan``: the trie of the literal starts of every text format's header and of the
          separator lines (:func:`auditor.lineprefix.prefixes`), searched after a newline, or None
          when a pattern may start with any text."""
        lineprefix = Path(__file__).resolve().parent.parent / "lineprefix.py"
        return self._cached("dispatch", self._dispatch, *([lineprefix] if lineprefix.is_file() else []))

    def _dispatch(self) -> dict[str, Any]:
        from auditor.formats.firstchars import first_chars
        from auditor.lineprefix import prefixes, scanner

        text = [f.name for f in self.supported() if not f.is_document]
        patterns = self.patterns
        starts: set[str] | None = set()
        for rx in (*(re.compile(patterns[name][0]) for name in text), self.separator_line):
            found = prefixes(rx)
            starts = None if starts is None or found is None else starts | found
        parts = [f"(?P<fmt_{name}>{patterns[name][0]})" for name in text]
        firsts = [first_chars(re.compile(part)) for part in parts]
        made: dict[tuple[str, ...], re.Pattern[str] | None] = {}

        def alternation(chosen: tuple[str, ...]) -> re.Pattern[str] | None:
            if chosen not in made:
                made[chosen] = re.compile("|".join(chosen)) if chosen else None
            return made[chosen]

        pairs = list(zip(parts, firsts, strict=True))
        chars = sorted({c for f in firsts if f is not None for c in f})
        return {
            "by_char": {c: alternation(tuple(p for p, f in pairs if f is None or c in f)) for c in chars},
            "other": alternation(tuple(p for p, f in pairs if f is None)),
            "scan": scanner(frozenset(starts)) if starts else None,
        }

    def _compile(self, patterns: dict[str, tuple[str, str | None]]) -> dict[str, Any]:
        """The registry's compiled patterns, from each format's ``patterns`` and its card (formats by
        name: the cached value holds no :class:`Format`)."""
        from auditor.formats.firstchars import first_chars

        text = [f for f in self.supported() if not f.is_document]
        formats = self.formats.values()
        separator = re.compile("|".join(f"(?:{f.separator})" for f in formats if f.separator) or "(?!)")
        return {
            "detector": re.compile("|".join(f"(?P<fmt_{f.name}>{patterns[f.name][0]})" for f in text) or "(?!)"),
            "preamble": re.compile("|".join(f"(?:{f.preamble})" for f in self.supported() if f.preamble) or "(?!)"),
            "sniffers": [(re.compile(patterns[f.name][0]), f.name) for f in self.supported() if f.is_document],
            "recognisers": [(re.compile(f.recognise or "(?!)"), f.name) for f in formats if not f.supported],
            "summary_start": re.compile("|".join(f"(?:{f.summary})" for f in formats if f.summary) or "(?!)"),
            "separator_line": separator,
            "lead_ins": {name: re.compile(p) for name, (_h, p) in patterns.items() if p is not None},
            "separator_firsts": first_chars(separator),
        }

    @cached_property
    def patterns(self) -> dict[str, tuple[str, str | None]]:
        """Each supported format's :meth:`Format.header_pattern` and :meth:`Format.lead_in_pattern`."""
        found: dict[str, tuple[str, str | None]] = self._derived["patterns"]
        return found

    @cached_property
    def detector(self) -> re.Pattern[str]:
        """One pattern that matches the first line of a hand of any supported text format; the
        matching group's name is the format (``fmt_<name>``)."""
        found: re.Pattern[str] = self._derived["detector"]
        return found

    @cached_property
    def preamble(self) -> re.Pattern[str]:
        """Lines a supported format prints before its first hand that belong to no hand (card key ``preamble``)."""
        found: re.Pattern[str] = self._derived["preamble"]
        return found

    @cached_property
    def sniffers(self) -> list[tuple[re.Pattern[str], Format]]:
        """First-line patterns of document formats (XML/JSON/TOML readers)."""
        return [(rx, self.formats[name]) for rx, name in self._derived["sniffers"]]

    @cached_property
    def recognisers(self) -> list[tuple[re.Pattern[str], Format]]:
        return [(rx, self.formats[name]) for rx, name in self._derived["recognisers"]]

    @cached_property
    def summary_start(self) -> re.Pattern[str]:
        """The first lines of the files a format writes beside its hands that are not hand
        histories (tournament summaries): the cards' ``summary`` patterns."""
        found: re.Pattern[str] = self._derived["summary_start"]
        return found

    @cached_property
    def separator_line(self) -> re.Pattern[str]:
        """Lines an export prints between hands (archive separators such as ``*** # 2 ***``): the
        cards' ``separator`` patterns."""
        found: re.Pattern[str] = self._derived["separator_line"]
        return found

    @cached_property
    def separator_firsts(self) -> frozenset[str] | None:
        """The characters a :attr:`separator_line` can start with
        (:func:`auditor.formats.firstchars.first_chars`; None: any), read once with it: the split
        tries the pattern only on a line starting with one of them."""
        found: frozenset[str] | None = self._derived["separator_firsts"]
        return found

    def detect(self, line: str) -> str | None:
        """The format whose hand header starts ``line``, or None."""
        m = self.detector.match(line)
        return m.lastgroup[4:] if m is not None and m.lastgroup else None

    @cached_property
    def lead_ins(self) -> dict[str, re.Pattern[str]]:
        """Per format with a ``lead_in`` line: its pattern."""
        found: dict[str, re.Pattern[str]] = self._derived["lead_ins"]
        return found

    def is_lead_in(self, site: str, line: str) -> bool:
        """Whether ``line`` is the lead-in line of ``site`` (a line that only announces a hand)."""
        p = self.lead_ins.get(site)
        return p is not None and p.match(line) is not None

    def joins(self, site: str, first: str, line: str) -> bool:
        """Whether header ``line`` of ``site`` continues a hand whose only line so far is ``first``:
        the format's lead-in line (888's ``#Game No : N``) followed by its header proper."""
        p = self.lead_ins.get(site)
        return p is not None and p.match(first) is not None and p.match(line) is None

    def sniff_document(self, line: str) -> Format | None:
        for pattern, fmt in self.sniffers:
            if pattern.match(line):
                return fmt
        return None

    @cached_property
    def documents(self) -> tuple[tuple[tuple[str, ...], Format], ...]:
        """The document formats whose cards list file suffixes, with them, in the cards' order."""
        return tuple((f.suffixes, f) for f in self.supported() if f.is_document and f.suffixes)

    def document_for(self, path: str) -> Format | None:
        """The document format whose card lists the suffix of ``path`` (card key ``suffixes``;
        asked once a file: the formats that list suffixes found once, :attr:`documents`)."""
        low = path.lower()
        return next((f for suffixes, f in self.documents if low.endswith(suffixes)), None)

    def recognise(self, line: str) -> Format | None:
        """A format hhaudit knows of but does not read, whose hands start like ``line``."""
        for pattern, fmt in self.recognisers:
            if pattern.search(line):
                return fmt
        return None

    def facts_for(self, hand: Hand) -> ExportFacts:
        """The export facts of ``hand``: its format's, or its brand's (read once a hand: the cards
        looked up directly, :meth:`Format.facts_for` written out)."""
        formats = self._formats if self._formats is not None else self.formats
        fmt = formats.get(hand.site)
        if fmt is None:
            raise KeyError(f"no format card for {hand.site!r}: its export facts are unknown")
        extras = hand.extras
        source_site = extras.get("source_site")
        source = formats.get(source_site) if source_site is not None else None
        if source is not None and source is not fmt:
            # a record hhaudit wrote in an interchange format (PHH, OHH: `source_*` extras): its
            # collects, returns and totals are the source site's claims, printed the source's way
            fmt = source
            extras = {k[7:]: v for k, v in extras.items() if k.startswith("source_")}
        if "converted" in extras and "converted" in fmt.brands:
            # a record a third-party converter rewrote (its reader marks it): the card's converted facts
            return fmt.brands["converted"]
        brand = extras.get("brand")
        return fmt.brand_facts.get(brand.lower(), fmt.facts) if brand else fmt.facts

    def profiles(self) -> dict[str, Profile]:
        return {f.profile.name: f.profile for f in self.formats.values() if f.profile is not None}


#: The registry every command uses.
REGISTRY = Registry()
