"""Server-rendered web pages for masters, healers and players (Jinja2, little JavaScript).

Every page goes through :class:`~lazaretto.service.play.PlayService`, so what a user
sees is what the service lets them see (DESIGN.md, principle 6). Action forms are
generated from the rulesets' action declarations (principle 1). Nothing is loaded
from outside: the CSS and the one small script are served from ``static/``.
"""
