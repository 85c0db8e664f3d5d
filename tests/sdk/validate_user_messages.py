"""Validates the user messages `Dialect::user_message_with_media` renders, with the providers'
own SDK request types.

Usage: .venv/bin/python tests/sdk/validate_user_messages.py MESSAGES.json

MESSAGES.json (written by tests/sdk/conversation.rs): {"openai_chat": [...], "openai_responses":
[...], "anthropic": [...], "gemini": [...], "cohere": [...]}, each a list of user messages (Cohere's
checked by the cohere SDK's `ChatMessageV2`, `sdk_cohere.py`).

- OpenAI Chat: `ChatCompletionUserMessageParam` (text, `image_url` and `file` parts).
- OpenAI Responses: `EasyInputMessageParam` (`input_text`, `input_image`, `input_file`).
- Anthropic: `MessageParam` with `text`, `image` and `document` blocks.
- Gemini: `google.genai.types.Content` (unknown keys forbidden).

TypedDicts are validated strictly by pydantic, and since they allow unknown keys, every key is
also checked against the TypedDict's own fields (nested ones included). Exits non-zero, listing
every problem.
"""

import json
import sys
import typing

import typing_extensions

from pydantic import TypeAdapter

from anthropic.types import MessageParam
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionUserMessageParam
from openai.types.responses import EasyInputMessageParam


def typed_dicts(annotation):
    """The TypedDicts an annotation may hold (through unions, lists and iterables)."""
    origin = typing_extensions.get_origin(annotation)
    if origin is None:
        return [annotation] if typing_extensions.is_typeddict(annotation) else []
    return [t for arg in typing_extensions.get_args(annotation) for t in typed_dicts(arg)]


def takes(typed_dict, item):
    """Whether `typed_dict` validates `item` strictly and declares all its keys."""
    try:
        TypeAdapter(typed_dict).validate_python(item, strict=True)
    except Exception:  # noqa: BLE001
        return False
    return not unknown_keys(typed_dict, item, "")


def unknown_keys(typed_dict, value, where):
    """Keys of `value` (and its nested dicts) that no TypedDict it may be declares."""
    problems = []
    if isinstance(value, dict) and typing_extensions.is_typeddict(typed_dict):
        hints = typing_extensions.get_type_hints(typed_dict)
        for key, inner in value.items():
            if key not in hints:
                problems.append(f"{where}: unknown key `{key}` for {typed_dict.__name__}")
                continue
            candidates = typed_dicts(hints[key])
            items = inner if isinstance(inner, list) else [inner]
            for i, item in enumerate(items):
                if not isinstance(item, dict) or not candidates:
                    continue
                # pydantic validates an `Iterable` field lazily, so each part is validated here
                # against the part types the field declares: one must take it.
                fits = [c for c in candidates if takes(c, item)]
                if not fits:
                    problems.append(f"{where}.{key}[{i}]: keys {sorted(item)} fit no declared part type")
    return problems


def main(path):
    with open(path) as f:
        data = json.load(f)
    problems = []
    checks = {
        "openai_chat": ChatCompletionUserMessageParam,
        "openai_responses": EasyInputMessageParam,
        "anthropic": MessageParam,
    }
    for dialect, typed_dict in checks.items():
        messages = data.get(dialect) or []
        if not messages:
            problems.append(f"{dialect}: no messages")
        adapter = TypeAdapter(typed_dict)
        for i, message in enumerate(messages):
            where = f"{dialect}[{i}]"
            try:
                adapter.validate_python(message, strict=True)
            except Exception as e:  # noqa: BLE001 - report every refusal
                problems.append(f"{where}: {e}")
            # `MessageParam` may be a union of per-role TypedDicts: one of them must take it.
            candidates = typed_dicts(typed_dict)
            if not any(not unknown_keys(c, message, where) for c in candidates):
                for c in candidates[:1]:
                    problems.extend(unknown_keys(c, message, where))
    contents = data.get("gemini") or []
    if not contents:
        problems.append("gemini: no messages")
    for i, content in enumerate(contents):
        try:
            genai_types.Content.model_validate_json(json.dumps(content))
        except Exception as e:  # noqa: BLE001
            problems.append(f"gemini[{i}]: {e}")
    import sdk_cohere

    cohere = data.get("cohere") or []
    if not cohere:
        problems.append("cohere: no messages")
    for i, message in enumerate(cohere):
        where = f"cohere[{i}]"
        sdk_cohere.messages([message], where, problems)
        if message.get("role") != "user":
            problems.append(f"{where}: role must be `user`")
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    total = sum(len(data.get(k) or []) for k in ("openai_chat", "openai_responses", "anthropic", "gemini", "cohere"))
    print(f"{total} user messages accepted by the official SDK types")


if __name__ == "__main__":
    main(sys.argv[1])
