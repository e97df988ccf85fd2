"""Three Card Brag (RULES.md, "Three Card Brag (seed 000)"): pure Python, no Django."""

from .rules import BETTINGS, BRAG_PRESETS, BRAG_RULE_NAMES, SHUFFLES, BragRules

__all__ = ["BETTINGS", "BRAG_PRESETS", "BRAG_RULE_NAMES", "SHUFFLES", "BragRules"]
