"""Validates whole message histories (what `Transcript::render` writes), with the providers' own
SDK types.

Usage: .venv/bin/python tests/sdk/validate_histories.py HISTORIES.json

HISTORIES.json (written by tests/sdk/transcript.rs): {"openai_chat": [[...], ...],
"openai_responses": [...], "anthropic": [...], "gemini": [...], "cohere": [...]}, each a list of
histories. Each message the user or the host writes (a user or system message, a Responses
easy input message) is judged as `validate_user_messages.py` judges user messages (a system
message by the SDK's own system type); the model's turns and the results, in order, as
`validate_messages.py` judges a round trip's messages. Exits non-zero, listing every problem.
"""

import json
import sys

from pydantic import TypeAdapter

from anthropic.types import MessageParam
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionSystemMessageParam, ChatCompletionUserMessageParam
from openai.types.responses import EasyInputMessageParam

import sdk_cohere
import validate_messages
from validate_user_messages import typed_dicts, unknown_keys


def typed(typed_dict, message, where, problems):
    try:
        TypeAdapter(typed_dict).validate_python(message, strict=True)
    except Exception as e:  # noqa: BLE001 - report every refusal
        problems.append(f"{where}: {e}")
    candidates = typed_dicts(typed_dict) or [typed_dict]
    if not any(not unknown_keys(c, message, where) for c in candidates):
        problems.extend(unknown_keys(candidates[0], message, where))


def user_like(key, message):
    """Whether `message` is one the user or the host writes."""
    role = message.get("role")
    if key == "openai_chat":
        return role in ("user", "system", "developer")
    if key == "openai_responses":
        return "type" not in message
    if key == "anthropic":
        content = message.get("content")
        blocks = content if isinstance(content, list) else []
        return role == "user" and not any(b.get("type") == "tool_result" for b in blocks)
    if key == "gemini":
        return role == "user" and not any("functionResponse" in p for p in message.get("parts", []))
    return role in ("user", "system")


def check_user(key, message, where, problems):
    if key == "openai_chat":
        system = message.get("role") in ("system", "developer")
        typed(ChatCompletionSystemMessageParam if system else ChatCompletionUserMessageParam, message, where, problems)
    elif key == "openai_responses":
        typed(EasyInputMessageParam, message, where, problems)
    elif key == "anthropic":
        typed(MessageParam, message, where, problems)
    elif key == "gemini":
        try:
            genai_types.Content.model_validate_json(json.dumps(message))
        except Exception as e:  # noqa: BLE001
            problems.append(f"{where}: {e}")
    else:
        sdk_cohere.messages([message], where, problems)


def main(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    problems = []
    total = 0
    for key, check in validate_messages.CHECKS.items():
        histories = data.get(key) or []
        if not histories:
            problems.append(f"{key}: no histories")
        for h, history in enumerate(histories):
            rest = []
            for i, message in enumerate(history):
                total += 1
                if user_like(key, message):
                    check_user(key, message, f"{key}[{h}][{i}]", problems)
                else:
                    rest.append(message)
            found = []
            check(rest, found)
            problems.extend(f"history {h}: {p}" for p in found)
    if problems:
        print("\n".join(problems))
        print(f"SDK validation: {len(problems)} problem(s) in {total} message(s)")
        return 1
    print(f"SDK validation: all {total} messages of the histories accepted")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
