"""Regenerates tests/golden/reference_adapters.json from the reference Python package.

The Rust test `tests/schema/golden.rs` builds the same tools from the `tools` list in that file and
asserts that each adapter's compact JSON equals, byte for byte, what the reference printed.

Usage (needs network access to PyPI once):
    python3 -m venv /tmp/ref && /tmp/ref/bin/pip install toolnexus==0.21.0
    /tmp/ref/bin/python scripts/gen_golden.py > tests/golden/reference_adapters.json
"""
import json
from importlib.metadata import version

from toolnexus import define_tool, to_anthropic, to_gemini, to_openai

# Hand-written schemas the providers already accept, so the reference passes them through and
# so must we: one with non-ASCII text and escapes, one nested, one without parameters, and the
# seed pages' tools.
TOOLS = [
    {
        "name": "get_weather",
        "description": "Current weather for a city",
        "input_schema": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
    {
        "name": "meteo_lookup",
        "description": "Météo actuelle — 東京, São Paulo, Zürich 🌦️\n\tQuote: \"sunny\" \\ slash / done",
        "input_schema": {
            "type": "object",
            "properties": {
                "ville": {"type": "string", "description": "Nom de la ville (ex. « Orléans »)"},
                "unité": {"type": "string", "enum": ["°C", "°F"]},
            },
            "required": ["ville"],
        },
    },
    {
        "name": "create_order",
        "description": "Create an order with a shipping address and line items",
        "input_schema": {
            "type": "object",
            "properties": {
                "customer": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "integer", "minimum": 1},
                        "address": {
                            "type": "object",
                            "properties": {
                                "street": {"type": "string"},
                                "zip": {"type": "string", "pattern": "^[0-9]{5}$"},
                            },
                            "required": ["street", "zip"],
                        },
                    },
                    "required": ["id", "address"],
                },
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "sku": {"type": "string"},
                            "qty": {"type": "integer", "minimum": 1, "maximum": 99},
                            "price": {"type": "number"},
                        },
                        "required": ["sku", "qty"],
                    },
                },
                "express": {"type": "boolean", "description": "Ship overnight"},
            },
            "required": ["customer", "items"],
        },
    },
    {"name": "ping", "description": "Health check", "input_schema": {"type": "object", "properties": {}}},
    {
        "name": "search",
        "description": "Search the docs",
        "input_schema": {"type": "object", "properties": {}},
    },
]


def main() -> None:
    tools = [
        define_tool(lambda **_: "", name=t["name"], description=t["description"], input_schema=t["input_schema"])
        for t in TOOLS
    ]
    compact = lambda v: json.dumps(v, separators=(",", ":"), ensure_ascii=False)  # noqa: E731
    out = {
        "generated_by": f"scripts/gen_golden.py with toolnexus=={version('toolnexus')} from PyPI",
        "tools": TOOLS,
        "openai": compact(to_openai(tools)),
        "anthropic": compact(to_anthropic(tools)),
        "gemini": compact(to_gemini(tools)),
        "gemini_empty": compact(to_gemini([])),
        "openai_empty": compact(to_openai([])),
        "anthropic_empty": compact(to_anthropic([])),
    }
    print(json.dumps(out, indent=2, ensure_ascii=False))


main()
