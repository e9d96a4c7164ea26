"""The API documentation at ``/docs``, rendered offline by Swagger UI 5.

FastAPI writes OpenAPI 3.1, which Swagger UI reads from version 5 on (the 4.x bundle
this replaced showed "Unable to render this definition"). The UI's script and styles
come from the ``fastapi-offline`` package, which ships a current Swagger UI build as
package data: nothing is loaded from outside (a field site has no internet), and the
validator badge, which would call swagger.io, is switched off.
"""

from __future__ import annotations

from importlib.resources import files

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

ASSETS = "/docs-assets"


def mount_docs(app: FastAPI) -> None:
    """Add ``/docs`` and the UI's files under :data:`ASSETS` to ``app``."""
    static = files("fastapi_offline") / "static"
    app.mount(ASSETS, StaticFiles(directory=str(static)), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        return get_swagger_ui_html(
            openapi_url="/openapi.json",
            title="Lazaretto API",
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon.png",
            swagger_ui_parameters={"validatorUrl": None},
        )
