"""Textual's stylesheet parsed once a test process, not once an app.

Each app a test launches builds its own `Stylesheet` and parses every CSS source anew: the
app's app.tcss and each widget class's DEFAULT_CSS, the same text every time (its cache,
`Stylesheet._parse_cache`, lives and dies with the app). In an app test that is about a
tenth of the CPU (test_contract_forms: 317 parses, 150,000 tokens, for 59 launches).

Here the parsed rules are kept for the process, keyed as Textual keys its own cache (the
CSS, where it was read from, whether it is default CSS, its tie breaker and scope) and by
the variables the text was parsed with (a theme's colours, NO_COLOR's): what a parse
makes depends on nothing else. A parse that fails is not kept, so it fails again in the
next app as it would. The rule sets are only read once parsed (Textual's own cache hands
the same list to each parse of an app), so apps may share them.
"""

from __future__ import annotations

from typing import Any

from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet

textual_parse_rules = Stylesheet._parse_rules  # Textual's own, kept before install

_parsed: dict[tuple[Any, ...], list[RuleSet]] = {}


def _parse_rules(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                 tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
    key = (css, read_from, is_default_rules, tie_breaker, scope,
           tuple(self._variables.items()))
    rules = _parsed.get(key)
    if rules is None:
        rules = textual_parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        _parsed[key] = rules
    return rules


def install() -> None:
    Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]
