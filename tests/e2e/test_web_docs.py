"""The API documentation renders in a real browser with nothing loaded from outside:
Swagger UI 5 from a package reads FastAPI's OpenAPI 3.1 and shows its operations
(the 4.15 bundle it replaced answered "Unable to render this definition")."""

from __future__ import annotations

from playwright.sync_api import Browser, expect
from tests.e2e.browsertools import Phone, browser, server  # noqa: F401  (fixtures)


def test_the_api_docs_render_an_operation_offline(server: str, browser: Browser) -> None:  # noqa: F811
    phone = Phone(browser, server)
    phone.page.goto("/docs")
    operation = phone.page.locator(".opblock-summary-path", has_text="/api/login").first
    expect(operation).to_be_visible(timeout=15_000)
    expect(phone.page.locator("text=Unable to render this definition")).to_have_count(0)
    operation.click()
    expect(phone.page.locator(".opblock-body").first).to_be_visible()
    assert phone.outside == [], phone.outside
    assert phone.errors == []
    phone.shot("docs")
