"""Writers of other hand-history formats, and anonymisation.

* :mod:`~auditor.convert.phh`: PHH (the Poker Hand History TOML standard of pokerkit);
* :mod:`~auditor.convert.ohh`: Open Hand History (JSON, hh-specs.handhistory.org v1.4.7);
* :mod:`~auditor.convert.pokerstars`: PokerStars-format text, marked as a conversion;
* :mod:`~auditor.convert.anonymise`: stable keyed pseudonyms for player names.

Every writer copies the *claims* of a canonical :class:`~auditor.model.Hand`; what a format cannot
carry is listed in ``docs/interchange.md``.  The readers of PHH and OHH are formats of the registry
(``auditor/formats/phh.py``, ``auditor/formats/ohh.py``).
"""
