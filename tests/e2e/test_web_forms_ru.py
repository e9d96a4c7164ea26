"""The generated forms in Russian through a real app on a real SQLite file (demo
campaign): labels and help texts come from ``web/fields_ru.yaml``, English stays English."""

from __future__ import annotations

import html
import re

from tests.e2e.webtools import C, Login


def helps(page: str) -> list[str]:
    """The help texts under the form's labels, unescaped."""
    return [html.unescape(h) for h in re.findall(r"<small>(.*?)</small>", page, re.S)]


def test_a_healer_sees_the_bandage_form_with_russian_help(login: Login) -> None:
    client = login("healer")
    ru = client.get(f"{C}/act/apply-bandage?character=1002&lang=ru")
    en = client.get(f"{C}/act/apply-bandage?character=1002&lang=en")
    assert ru.status_code == en.status_code == 200
    assert "кого перевязывают" in helps(ru.text) and "who is bandaged" in helps(en.text)
    assert "подстилка, на которой пациент лежит в полевых условиях" in helps(ru.text)
    assert "'field' (полевые условия) или код госпиталя" in helps(ru.text)
    assert not {"who is bandaged", "the field mat the patient lies on"} & set(helps(ru.text))


def test_a_list_of_items_keeps_its_codes_under_a_russian_help_text(login: Login) -> None:
    page = login("healer").get(f"{C}/act/finish-operation?character=1003&lang=ru").text
    stitches = next(h for h in helps(page) if h.startswith("по одному на каждый потерянный хит"))
    assert "по одному в строке: location=…" in stitches


def test_a_query_form_has_russian_labels_and_help(login: Login) -> None:
    client = login("master")
    ru = client.get(f"{C}/query/stickers?lang=ru").text
    en = client.get(f"{C}/query/stickers?lang=en").text
    assert "<label><span>Статус" in ru and "<label><span>Status" in en
    assert "персонаж, лаборатория, сертификат или 'master' (мастер)" in helps(ru)
    assert "a character, lab, certificate or 'master'" in helps(en)
