"""The Jinja2 environment of the HTML pages (report.html, compare.html): templates shipped in
runner/templates, HTML autoescaped, and the few filters the pages share."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape


def pct(rate: float | None) -> str:
    """A rate as a percentage with one decimal ('–' for none)."""
    return "–" if rate is None else f"{100 * rate:.1f}"


def args_text(args: Any) -> str:
    """An action's arguments as compact JSON (non-ASCII kept)."""
    return json.dumps(args or {}, ensure_ascii=False)


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=PackageLoader("officesim.runner", "templates"),
                      autoescape=select_autoescape(["j2", "html"], default_for_string=True),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = pct
    env.filters["args"] = args_text
    return env


def render_page(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)
