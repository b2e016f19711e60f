"""The stud and draw rules a betting finding applies, cited by number where the rule book numbers them.

A betting finding (B004 order, B009 size, B010 cap) on a stud hand applies the profile's rule for
the code *and* the stud rule that says who is due or what size is right: the low card brings in and
the high hand on board acts first (razz: the high card, then the low hand), the bring-in may be
completed to the small bet, completing is not a raise, an open pair on fourth street allows the big
bet.  Robert's Rules of Poker v11 numbers its Seven-Card Stud rules (1-4); its Razz and draw sections
are cited by name.  The TDA and WSOP tournament rules number no stud order or sizes of their own.

A profile may cite its own: ``[profile.citations]`` entries keyed ``"<code>.<game>"`` (``B004.stud``,
``B009.razz``, ``H006.draw``) replace the ones here for that game.
"""

from __future__ import annotations

from auditor.model import Hand
from auditor.profiles import Profile

_RRP = "Robert's Rules of Poker v11"
#: (code, game) -> the game's own rule, added to the profile's citation of the code
GAME_RULES: dict[tuple[str, str], str] = {
    ("B004", "stud"): f"{_RRP}, Seven-Card Stud rule 1 (the low card brings in; the high hand on board acts first)",
    ("B004", "stud_hilo"): f"{_RRP}, Seven-Card Stud rule 1 and Seven-Card Stud High-Low (as stud high)",
    ("B004", "razz"): f"{_RRP}, Razz (the high card brings in; the low hand on board acts first)",
    ("B009", "stud"): f"{_RRP}, Seven-Card Stud rules 2-4 (completing the bring-in; the open pair on fourth street)",
    ("B009", "stud_hilo"): f"{_RRP}, Seven-Card Stud rules 2-3 (completing the bring-in)",
    ("B009", "razz"): f"{_RRP}, Seven-Card Stud rules 2-3 and Razz (completing the bring-in; no open-pair bet)",
    ("B010", "stud"): f"{_RRP}, Seven-Card Stud rule 3 (completing the bring-in is not a raise)",
    ("B010", "stud_hilo"): f"{_RRP}, Seven-Card Stud rule 3 (completing the bring-in is not a raise)",
    ("B010", "razz"): f"{_RRP}, Seven-Card Stud rule 3 (completing the bring-in is not a raise)",
    ("B012", "stud"): f"{_RRP}, Seven-Card Stud rule 1 (the lowest upcard by suit brings in)",
    ("B012", "stud_hilo"): f"{_RRP}, Seven-Card Stud rule 1 (the lowest upcard by suit brings in)",
    ("B012", "razz"): f"{_RRP}, Razz (the highest upcard brings in, aces low, suits breaking ties)",
    ("H006", "draw"): f"{_RRP}, Draw Poker (the last card is not dealt; the discards are reshuffled)",
}
#: rules of stud or draw only: cited alone, not after the profile's citation of the code
_OWN = frozenset({"B012", "H006"})


def game_cite(profile: Profile, code: str, hand: Hand) -> str | None:
    """The citation of ``code`` on a stud or draw hand (None: the profile's usual citation)."""
    own = profile.citations.get(f"{code}.{hand.game}")
    if own:
        return own
    rule = GAME_RULES.get((code, hand.game))
    if rule is None:
        return None
    if code in _OWN:
        return rule  # no rule book outside stud or draw has a bring-in or a draw
    return f"{profile.cite(code)}; {rule}"
