"""Shared pieces of the web page tests (their fixtures are in conftest.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

from fastapi.testclient import TestClient

from lazaretto.service.demo import CAMPAIGN

C = f"/c/{CAMPAIGN}"
Login = Callable[[str], TestClient]


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert found, f"no field {name}"
    return found.group(1)


class BrowserForm(HTMLParser):
    """The name/value pairs a browser submits for the page's action form."""

    def __init__(self) -> None:
        super().__init__()
        self.pairs: list[tuple[str, str]] = []
        self.selects: list[str] = []  # select names, to check each has an empty choice
        self.required: dict[str, bool] = {}
        self._in_form = self._done = False
        self._select: tuple[str, list[tuple[str, bool]]] | None = None
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and "/act/" in a.get("action", "") and not self._done:
            self._in_form = True
        if not self._in_form:
            return
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind != "checkbox" or "checked" in a:
                self.pairs.append((name, a.get("value", "")))
        elif tag == "select":
            self._select = (name, [])
            self.selects.append(name)
            self.required[name] = "required" in a
        elif tag == "option" and self._select is not None:
            self._select[1].append((a.get("value", ""), "selected" in a))
        elif tag == "textarea":
            self._textarea, self._text = name, ""

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._in_form:
            self._in_form, self._done = False, True
        elif tag == "select" and self._select is not None:
            name, options = self._select
            chosen = [v for v, sel in options if sel] or [options[0][0]]
            self.pairs.append((name, chosen[0]))
            assert options[0][0] == "", f"select {name} has no empty first choice"
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.pairs.append((self._textarea, self._text))
            self._textarea = None


def submitted(html: str) -> list[tuple[str, str]]:
    parser = BrowserForm()
    parser.feed(html)
    assert parser._done, "no action form on the page"
    return parser.pairs
