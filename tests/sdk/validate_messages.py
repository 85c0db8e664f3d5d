"""Validates the next-request messages toolnexus renders, with the providers' own SDK types.

Usage: .venv/bin/python tests/sdk/validate_messages.py MESSAGES.json

MESSAGES.json is written by tests/roundtrip_sdk.rs: {"openai_chat": [...], "openai_responses":
[...], "anthropic": [...], "gemini": [...]}, each a list of what `Dialect::model_turn` and
`Toolkit::respond` produced: the model's turn, then the results.

- OpenAI Chat: a tool message is a `ChatCompletionToolMessageParam`; an assistant message a
  `ChatCompletionAssistantMessageParam`.
- OpenAI Responses: a `function_call_output` item is a Responses `FunctionCallOutput` input item;
  `function_call`, `reasoning` and `message` items their input-param types.
- Anthropic: each message is a `MessageParam`; a user message's blocks are `ToolResultBlockParam`s
  (an error block's content is never empty), an assistant message's are text, tool-use or
  (redacted) thinking blocks.
- Gemini: each content passes `google.genai.types.Content.model_validate` (unknown keys forbidden);
  in a user content, each `functionResponse.response` holds exactly `output` or `error`.

The SDKs' request types are TypedDicts, which pydantic validates in strict mode here; TypedDicts
allow unknown keys, so keys are also checked against the TypedDict's own fields.
Exits non-zero, listing every problem, if anything fails or a dialect has no messages.
"""

import json
import sys
import typing

from pydantic import TypeAdapter

from anthropic.types import (
    MessageParam,
    RedactedThinkingBlockParam,
    TextBlockParam,
    ThinkingBlockParam,
    ToolResultBlockParam,
    ToolUseBlockParam,
)

try:  # newer SDKs make MessageParam a union of per-role TypedDicts
    from anthropic.types.assistant_message_param import AssistantMessageParam
    from anthropic.types.user_message_param import UserMessageParam

    ANTHROPIC_MESSAGE_KEYS = {"user": UserMessageParam, "assistant": AssistantMessageParam}
except ImportError:  # older SDKs: MessageParam itself is the TypedDict
    ANTHROPIC_MESSAGE_KEYS = {"user": MessageParam, "assistant": MessageParam}
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionAssistantMessageParam, ChatCompletionToolMessageParam
from openai.types.responses import (
    ResponseFunctionToolCallParam,
    ResponseOutputMessageParam,
    ResponseReasoningItemParam,
)
from openai.types.responses.response_input_param import FunctionCallOutput

CHAT_BY_ROLE = {"tool": ChatCompletionToolMessageParam, "assistant": ChatCompletionAssistantMessageParam}
RESPONSES_BY_TYPE = {
    "function_call_output": FunctionCallOutput,
    "function_call": ResponseFunctionToolCallParam,
    "reasoning": ResponseReasoningItemParam,
    "message": ResponseOutputMessageParam,
}
ANTHROPIC_BLOCKS = {
    "user": {"tool_result": ToolResultBlockParam},
    "assistant": {
        "text": TextBlockParam,
        "tool_use": ToolUseBlockParam,
        # Extended thinking: the blocks must come back unchanged, signatures included.
        "thinking": ThinkingBlockParam,
        "redacted_thinking": RedactedThinkingBlockParam,
    },
}



def type_name(t):
    return getattr(t, "__name__", None) or str(t)


def typed_dict_check(typed_dict, value, where, problems, keys_of=None):
    """Strict pydantic validation plus a check that no key is unknown to the TypedDict
    (`keys_of`, when `typed_dict` is a union)."""
    try:
        TypeAdapter(typed_dict).validate_python(value, strict=True)
    except Exception as e:  # pydantic.ValidationError, or anything else the SDK raises
        problems.append(f"{where}: not a valid {type_name(typed_dict)}: {e}")
        return
    keys_of = keys_of or typed_dict
    known = set(typing.get_type_hints(keys_of))
    unknown = sorted(set(value) - known)
    if unknown:
        problems.append(f"{where}: keys {unknown} are not fields of {type_name(keys_of)}")


def check_openai_chat(messages, problems):
    for i, message in enumerate(messages):
        where = f"openai_chat[{i}]"
        typed_dict = CHAT_BY_ROLE.get(message.get("role"))
        if typed_dict is None:
            problems.append(f"{where}: unexpected role {message.get('role')!r}")
            continue
        typed_dict_check(typed_dict, message, where, problems)
        if message.get("role") == "assistant" and message.get("tool_calls") == []:
            problems.append(f"{where}: OpenAI refuses an empty `tool_calls` list")


def check_openai_responses(items, problems):
    for i, item in enumerate(items):
        where = f"openai_responses[{i}]"
        typed_dict = RESPONSES_BY_TYPE.get(item.get("type"))
        if typed_dict is None:
            problems.append(f"{where}: unexpected item type {item.get('type')!r}")
            continue
        typed_dict_check(typed_dict, item, where, problems)
        if item.get("type") == "function_call_output" and (
            not isinstance(item.get("call_id"), str) or not item["call_id"]
        ):
            problems.append(f"{where}: `call_id` must be a non-empty string")


def check_anthropic(messages, problems):
    for i, message in enumerate(messages):
        where = f"anthropic[{i}]"
        role = message.get("role")
        if role not in ANTHROPIC_MESSAGE_KEYS:
            problems.append(f"{where}: unexpected role {role!r}")
            continue
        typed_dict_check(MessageParam, message, where, problems, keys_of=ANTHROPIC_MESSAGE_KEYS[role])
        blocks = message.get("content")
        if not isinstance(blocks, list) or not blocks:
            problems.append(f"{where}: content must be a non-empty list of blocks")
            continue
        for j, block in enumerate(blocks):
            block_where = f"{where}.content[{j}]"
            # MessageParam's content is an Iterable, which pydantic validates lazily: check each
            # block against its own type.
            typed_dict = ANTHROPIC_BLOCKS[role].get(block.get("type"))
            if typed_dict is None:
                problems.append(f"{block_where}: unexpected {role} block {block.get('type')!r}")
                continue
            typed_dict_check(typed_dict, block, block_where, problems)
            if block.get("is_error") and not str(block.get("content", "")).strip():
                problems.append(f"{block_where}: error content must not be empty")


def check_gemini(contents, problems):
    for i, content in enumerate(contents):
        where = f"gemini[{i}]"
        try:
            genai_types.Content.model_validate(content)
        except Exception as e:
            problems.append(f"{where}: not a valid google.genai Content: {e}")
            continue
        if content.get("role") not in ("user", "model"):
            problems.append(f"{where}: unexpected role {content.get('role')!r}")
        if content.get("role") != "user":
            continue
        for j, part in enumerate(content.get("parts", [])):
            response = part.get("functionResponse", {}).get("response")
            if not isinstance(response, dict) or set(response) not in ({"output"}, {"error"}):
                problems.append(f"{where}.parts[{j}]: response must be {{output}} or {{error}}")


CHECKS = {
    "openai_chat": check_openai_chat,
    "openai_responses": check_openai_responses,
    "anthropic": check_anthropic,
    "gemini": check_gemini,
}


def main(path):
    with open(path, encoding="utf-8") as f:
        messages = json.load(f)
    problems = []
    total = 0
    for dialect, check in CHECKS.items():
        batch = messages.get(dialect) or []
        if not batch:
            problems.append(f"{dialect}: no messages to validate")
        total += len(batch)
        check(batch, problems)
    for extra in sorted(set(messages) - set(CHECKS)):
        problems.append(f"{extra}: unknown dialect")
    if problems:
        print("\n".join(problems))
        print(f"SDK validation: {len(problems)} problem(s) in {total} message(s)")
        return 1
    print(f"SDK validation: all {total} messages accepted by the official SDK types")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
