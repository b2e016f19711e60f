"""Write ``docs/rules.md``, hhaudit's rule reference, from the code that applies the rules.

The rule catalogue (each rule's docstring), the rule profiles, the formats' export facts and the
citations are read from ``auditor``; the prose around them is below.  ``tests/test_docs.py`` fails
when the committed file differs from what this script writes: run it after changing a rule, a
profile or a format card.

    python scripts/make_rules_doc.py            # rewrite docs/rules.md
"""

from __future__ import annotations

import sys
from dataclasses import fields
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from auditor.findings import catalogue  # noqa: E402
from auditor.formats import REGISTRY, ExportFacts  # noqa: E402
from auditor.profiles import BOOKS, PROFILES, Profile  # noqa: E402

INTRO = """# hhaudit rule reference

This is what hhaudit checks, how it decides, and which rule book it cites.  It is generated from
the code (`python scripts/make_rules_doc.py`): the rule texts are the docstrings `hhaudit rules CODE`
prints, the tables are the profiles and format cards the audit uses.

## Sources

hhaudit cites the rule books by name, edition and rule number, so that a player or a room can
check each finding against the text:

| book | edition | what hhaudit takes from it |
|---|---|---|
| Poker TDA Rules (Tournament Directors Association) | 2026 v1.0, numbered two above the 2024 v1.0 text (2024 Rule 47-A is 2026 Rule 49-A); citations give both | raises and re-opening (45, 49), action out of turn (55), pot limit (56), odd chips, side pots, the default profile `tda` |
| WSOP Official Live Action Rules | 2026 | the `wsop-live` profile: minimum raises (176), incomplete all-ins (175, 177), pot-limit blinds (191), fixed-limit caps (130–131), hi-lo ties (153), run it twice (210–217) |
| WSOP Official Tournament Rules | 2026 | the `wsop-tournament` profile (the two WSOP books number differently: each citation names its book) |
| Robert's Rules of Poker | version 11 | the `roberts` profile |
| Site help pages (PokerStars, GGPoker, ...) | as published | house rules of each format's profile, cited with the page title |

Where the books disagree, a *profile* holds each book's answer; `--rules NAME` picks one, and by
default each hand is judged by its format's house profile.  How a site *prints* a hand (does it
print the uncalled bet? is its total net of rake?) is not a rule-book question: it is an *export
fact* of the format, and `--rules` never changes it.

## How a hand is judged

1. **Read.** The format's reader records what the site printed: posts, actions (`raises A to B`
   is a wager *to* B), returns, board cards, shown cards, collected amounts, the printed total,
   rake and fees.  Nothing is corrected.
2. **Replay** (the betting state machine).  For each street hhaudit keeps every player's live
   chips on the street, the current bet, the last full raise, who has acted since betting was last
   re-opened, and each stack.  A raise is *full* when it raises by at least the last full raise (the
   big blind to begin with); an all-in raise for less re-opens the betting only for players who
   have not acted since the last full raise.  Pot limit: the maximum raise is to the call plus the
   pot after the call.  Fixed limit: bets and raises are the small bet before the turn and the big
   bet after it, up to the profile's cap.
3. **Pots.**  Every player's contribution is cut into layers at each all-in amount; each layer is a
   pot that the players who reached it and did not fold can win.  A bet nobody could call is
   returned (the *uncalled bet*).  Adjacent layers with the same eligible players are one pot, or
   not, as the format prints them (export fact `pot_boundaries`).
4. **Awards.**  Cards speak: each pot goes to its best eligible hand (hi-lo: half to the best
   qualifying low, eight or better); ties split the pot, and an odd chip goes to the first winner
   left of the button (the high half in hi-lo; the first board when a hand is run twice).
5. **Reconcile.**  What was put in equals what was returned, collected and raked; the printed
   total, side pots, returns and collected amounts are compared with the derived ones.

## Rule profiles

Where the books disagree (`hhaudit profiles NAME` shows one):
"""

FACTS = """## Export facts of each format

What each format's export prints (`hhaudit formats NAME` shows one card).  These are facts about
the files, not rules: they never change with `--rules`.
"""

BOOK_DIFFERENCES = """### Where the choice of book changes a finding

On the corpus of the supported formats, judging every hand by `tda`, `wsop-live` or `roberts`
instead of the format's house profile adds no pot or award (A) finding
(`tests/test_audit_step.py`).  The books do differ on:

* **Pot-limit pre-flop raises** (`pl_preflop_blinds`): the TDA counts a short small blind as if
  it were complete; WSOP live games count the small blind as a big blind; the WSOP tournament
  book counts what was posted.  This can add or remove B008.
* **Fixed-limit caps** (`fl_cap_raises`, `fl_headsup`): the number of raises allowed and when a
  heads-up pot is uncapped.  This can add or remove B010.
* **Hi-lo pots won by the same players high and low** (`hilo_identical_even`): WSOP and Robert's
  split such a pot evenly; otherwise each half is split separately (odd chips differ).  This can
  add A007 on such a hand.

House options of one site's profile that no book shares (set in the format card's `[profile]`,
with the records that show them; a book chosen with `--rules` judges such hands by its own rule
and reports the site's payout or betting):

* **Disconnection protection** (`disconnect_win_limit`, PKR): a player kept in the hand all-in
  after a disconnection wins at most what they put in times the players still in against them;
  the rest goes to the next best hand.  Under a book, A004 on such a hand.
* **The odd chip of a tie** (`odd_chip`, PKR): to the last tied player clockwise from the button.
  Under a book, A006 on such a hand.
* **A fixed-limit raise over an all-in raise of less than half a bet**
  (`fl_raise_over_short_all_in`, Everest, also for the Everest brand of PokerTracker's
  conversions through `brand_rules`): a full bet above the all-in.  Under a book, B009.
"""


def _value(v: object) -> str:
    return "—" if v is None else str(v).replace("|", "\\|")


def profiles_table() -> str:
    names = list(BOOKS) + [n for n in PROFILES if n not in BOOKS]
    opts = [f.name for f in fields(Profile) if f.name not in ("name", "title", "citations")]
    out = ["| option | " + " | ".join(f"`{n}`" for n in names) + " |", "|---|" + "---|" * len(names)]
    for o in opts:
        out.append(f"| `{o}` | " + " | ".join(_value(getattr(PROFILES[n], o)) for n in names) + " |")
    out.append("| title | " + " | ".join(PROFILES[n].title for n in names) + " |")
    return "\n".join(out) + "\n"


def facts_table() -> str:
    fmts = [f for f in sorted(REGISTRY.supported(), key=lambda f: f.name)]
    opts = [f.name for f in fields(ExportFacts)]
    out = ["| fact | " + " | ".join(f"`{f.name}`" for f in fmts) + " |", "|---|" + "---|" * len(fmts)]
    for o in opts:
        out.append(f"| `{o}` | " + " | ".join(_value(getattr(f.facts, o)) for f in fmts) + " |")
    brands = [f"`{f.name}` brand {b}: " + ", ".join(
        f"`{k}` = {v}" for k, v in facts.described().items() if v != f.facts.described()[k]
    ) for f in fmts for b, facts in f.brands.items()]  # fmt: skip
    return "\n".join(out) + "\n" + "".join(f"\n* {b}" for b in brands) + ("\n" if brands else "")


def rules_section() -> str:
    out = ["## The rules\n"]
    for code, r in sorted(catalogue().items()):
        out.append(f"### {code} `{r.name}` ({r.severity})\n")
        out.append(r.doc.strip() + "\n")
        if code[0] in "BSHA":
            cites = {n: PROFILES[n].cite(code) for n in BOOKS}
            if len(set(cites.values())) > 1 or code[0] != "A":
                out.append("Cited as: " + "; ".join(f"`{n}`: {c}" for n, c in cites.items()) + "\n")
    return "\n".join(out)


def render() -> str:
    return "\n".join([INTRO, profiles_table(), BOOK_DIFFERENCES, FACTS, facts_table(), rules_section()])


def main() -> int:
    path = ROOT / "docs" / "rules.md"
    path.write_text(render(), "utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
