"""``rules list|show ID``: a rule's English text beside its Russian original."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated

import typer
from rich.table import Table

from lazaretto.cli.app import JsonOpt
from lazaretto.cli.env import get_env, guarded
from lazaretto.rules_text import Ambiguity, catalogue

rules_app = typer.Typer(no_args_is_help=True, help="Read the rules: English and Russian original.")


@rules_app.command("list")
@guarded
def rules_list(
    prefix: Annotated[str | None, typer.Argument(help="ID prefix, e.g. W-WND")] = None,
    document: Annotated[str | None, typer.Option(help="000 … 004")] = None,
    as_json: JsonOpt = False,
) -> None:
    """List rule IDs with their English text."""
    env = get_env()
    rules = catalogue().rules(prefix=prefix, document=document)
    if as_json:
        env.emit_json(
            [
                {
                    "id": r.id,
                    "document": r.document,
                    "tags": list(r.tags),
                    "text_en": r.text_en,
                    "source": r.source,
                }
                for r in rules
            ]
        )
        return
    table = Table("id", env.tr("rule", "правило"), env.tr("source", "источник"))
    for r in rules:
        text = r.text_en if len(r.text_en) < 110 else r.text_en[:107] + "…"
        table.add_row(r.id, text, r.source)
    env.console.print(table)


@rules_app.command("show")
@guarded
def rules_show(
    rule_id: Annotated[str, typer.Argument(help="e.g. W-WND-08 or A-W-06")],
    as_json: JsonOpt = False,
) -> None:
    """Show one rule (or ambiguity): English text, source, Russian original."""
    env = get_env()
    item = catalogue().find(rule_id)
    if as_json:
        env.emit_json(asdict(item))
        return
    if isinstance(item, Ambiguity):
        env.console.print(f"{item.id} — {item.title}", markup=False)
        env.console.print(item.text_en, markup=False)
        if item.default:
            env.console.print(
                f"\n{env.tr('Default', 'По умолчанию')}: {item.default}", markup=False
            )
        if item.config:
            env.console.print(f"{env.tr('Parameters', 'Параметры')}: {item.config}", markup=False)
        return
    tags = f" [{', '.join(item.tags)}]" if item.tags else ""
    env.console.print(f"{item.id}{tags} — {item.section}", markup=False)
    env.console.print(f"\nEN: {item.text_en}", markup=False)
    env.console.print(f"\n{env.tr('Source', 'Источник')}: {item.source}", markup=False)
    if item.original_ru:
        env.console.print(f"\nRU: {item.original_ru}", markup=False)


def register(app: typer.Typer) -> None:
    """Attach these commands to the main app."""
    app.add_typer(rules_app, name="rules")
