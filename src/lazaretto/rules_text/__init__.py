"""Rule-text catalogue: each checklist rule in English next to its Russian original.

The project's rules come from Russian rules documents (правила) and the English
checklists written from them; both are bundled in ``docs/``. The catalogue gives, for
every rule ID a checklist defines, its English text, its citation, the quote and the
paragraph(s) of the Russian document the citation points at::

    from lazaretto.rules_text import catalogue

    rule = catalogue().rule("w-wnd-08")
    rule.text_en       # "If a light-wounded character is not bandaged, then 30 minutes..."
    rule.original_ru   # "2.2.2 – Легко раненный персонаж не получает штрафов..."

Used by ``lazaretto rules list|show ID``.
"""

from lazaretto.rules_text.catalogue import Catalogue, catalogue, load_catalogue
from lazaretto.rules_text.model import Ambiguity, Document, Rule

__all__ = ["Ambiguity", "Catalogue", "Document", "Rule", "catalogue", "load_catalogue"]
