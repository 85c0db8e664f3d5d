"""Validates the request bodies that ask for a typed answer (`Output::request_part`, issue 27)
and for a tool call in tool mode (`Output::require_tool`), with the providers' own SDK types.

Usage: .venv/bin/python tests/sdk/validate_answers.py BODIES.json

BODIES.json (written by tests/sdk/typed.rs): {"openai_chat": [...], "openai_responses": [...],
"anthropic": [...], "gemini": [...], "cohere": [...]}, each a list of whole request bodies (Cohere's
checked against the cohere SDK's `V2Client.chat` parameters, `sdk_cohere.py`).

- OpenAI Chat: `CompletionCreateParamsNonStreaming` (`response_format`, `tool_choice`).
- OpenAI Responses: `ResponseCreateParamsNonStreaming` (`text.format`, `tool_choice`).
- Anthropic: `MessageCreateParamsNonStreaming` (`output_config.format`, `tool_choice`).
- Gemini: the body's `contents`, `generationConfig` and `toolConfig` as
  `google.genai.types.Content`, `GenerationConfig` and `ToolConfig` (unknown keys forbidden;
  `responseSchema` is a `types.Schema`, checked key by key).

TypedDicts are validated strictly by pydantic and every key is checked against the TypedDict's
own fields, as `validate_user_messages.py` does. Bedrock's bodies go through
`validate_bedrock.py`. Exits non-zero, listing every problem.
"""

import json
import sys

from pydantic import TypeAdapter

from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
from google.genai import types as genai_types
from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming
from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

import typing_extensions

from validate_user_messages import typed_dicts


def is_open(typed_dict):
    """Whether the SDK lets `typed_dict` hold keys it does not declare (Anthropic's tool
    `InputSchemaTyped`: a JSON Schema has any keyword)."""
    return (getattr(typed_dict, "__pydantic_config__", None) or {}).get("extra") == "allow"


def takes(typed_dict, item):
    """Whether `typed_dict` validates `item` strictly and declares all its keys."""
    try:
        TypeAdapter(typed_dict).validate_python(item, strict=True)
    except Exception:  # noqa: BLE001
        return False
    return not unknown_keys(typed_dict, item, "")


def unknown_keys(typed_dict, value, where):
    """Keys of `value` (and its nested dicts) that no TypedDict it may be declares, as
    `validate_user_messages.py` checks them, except inside an open TypedDict."""
    problems = []
    if not (isinstance(value, dict) and typing_extensions.is_typeddict(typed_dict)):
        return problems
    if is_open(typed_dict):
        return problems
    hints = typing_extensions.get_type_hints(typed_dict)
    for key, inner in value.items():
        if key not in hints:
            problems.append(f"{where}: unknown key `{key}` for {typed_dict.__name__}")
            continue
        candidates = typed_dicts(hints[key])
        for i, item in enumerate(inner if isinstance(inner, list) else [inner]):
            if not isinstance(item, dict) or not candidates:
                continue
            if not any(takes(c, item) for c in candidates):
                problems.append(f"{where}.{key}[{i}]: keys {sorted(item)} fit no declared type")
    return problems

CHECKS = {
    "openai_chat": CompletionCreateParamsNonStreaming,
    "openai_responses": ResponseCreateParamsNonStreaming,
    "anthropic": MessageCreateParamsNonStreaming,
}

GEMINI = {
    "contents": genai_types.Content,
    "generationConfig": genai_types.GenerationConfig,
    "toolConfig": genai_types.ToolConfig,
    "tools": genai_types.Tool,
}


def main(path):
    with open(path) as f:
        data = json.load(f)
    problems = []
    count = 0
    for dialect, typed_dict in CHECKS.items():
        bodies = data.get(dialect) or []
        if not bodies:
            problems.append(f"{dialect}: no bodies")
        adapter = TypeAdapter(typed_dict)
        for i, body in enumerate(bodies):
            where = f"{dialect}[{i}]"
            count += 1
            try:
                adapter.validate_python(body, strict=True)
            except Exception as e:  # noqa: BLE001 - report every refusal
                problems.append(f"{where}: {e}")
            problems.extend(unknown_keys(typed_dict, body, where))
    bodies = data.get("gemini") or []
    if not bodies:
        problems.append("gemini: no bodies")
    for i, body in enumerate(bodies):
        count += 1
        for key, value in body.items():
            model = GEMINI.get(key)
            where = f"gemini[{i}].{key}"
            if model is None:
                problems.append(f"{where}: not a member of a generateContent request")
                continue
            for item in value if isinstance(value, list) else [value]:
                try:
                    model.model_validate_json(json.dumps(item))
                except Exception as e:  # noqa: BLE001
                    problems.append(f"{where}: {e}")
    import sdk_cohere

    bodies = data.get("cohere") or []
    if not bodies:
        problems.append("cohere: no bodies")
    for i, body in enumerate(bodies):
        count += 1
        sdk_cohere.request(body, f"cohere[{i}]", problems)
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"{count} typed-answer request bodies accepted by the official SDK types")


if __name__ == "__main__":
    main(sys.argv[1])
