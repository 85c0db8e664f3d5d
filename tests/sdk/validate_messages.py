"""Validates the next-request messages toolnexus renders, with the providers' own SDK types.

Usage: .venv/bin/python tests/sdk/validate_messages.py MESSAGES.json

MESSAGES.json is written by tests/sdk/roundtrip.rs (and media.rs, stream.rs): {"openai_chat": [...], "openai_responses":
[...], "anthropic": [...], "gemini": [...], "cohere": [...]}, each a list of what `Dialect::model_turn` and
`Toolkit::respond` produced: the model's turn, then the results.

- OpenAI Chat: a tool message is a `ChatCompletionToolMessageParam`; an assistant message a
  `ChatCompletionAssistantMessageParam`; a user message (the images of a turn's tool results) a
  `ChatCompletionUserMessageParam` whose parts are text or `image_url` parts with a base64 data URL,
  and it comes only right after tool messages.
- OpenAI Responses: a `function_call_output` item is a Responses `FunctionCallOutput` input item;
  an `output` list holds `input_text`, `input_image` (data URL) and `input_file` (`file_data`,
  `filename`) items; `function_call`, `reasoning` and `message` items their input-param types.
- Anthropic: each message is a `MessageParam`; a user message's blocks are `ToolResultBlockParam`s
  (an error block's content is never empty; a content list holds non-empty `text`, base64 `image`
  and `document` blocks), an assistant message's are text, tool-use or (redacted)
  thinking blocks.
- Gemini: each content passes `google.genai.types.Content.model_validate_json` (unknown keys
  forbidden, `inlineData.data` decoded as base64 as the SDK does for JSON); in a user content, each
  `functionResponse.response` holds exactly `output` or `error`.
- Cohere: each message is a `ChatMessageV2` of the cohere SDK (`sdk_cohere.py`: no member
  undeclared); a tool message's documents hold exactly `output` or `error`.

The SDKs' request types are TypedDicts, which pydantic validates in strict mode here; TypedDicts
allow unknown keys, so keys are also checked against the TypedDict's own fields.
Exits non-zero, listing every problem, if anything fails or a dialect has no messages.
"""

import json
import sys
import typing

from pydantic import TypeAdapter

import base64
import binascii

from anthropic.types import (
    DocumentBlockParam,
    ImageBlockParam,
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
from openai.types.chat import (
    ChatCompletionAssistantMessageParam,
    ChatCompletionContentPartImageParam,
    ChatCompletionContentPartTextParam,
    ChatCompletionToolMessageParam,
    ChatCompletionUserMessageParam,
)
from openai.types.responses import (
    ResponseCustomToolCallOutputParam,
    ResponseCustomToolCallParam,
    ResponseFunctionToolCallParam,
    ResponseOutputMessageParam,
    ResponseReasoningItemParam,
)
from openai.types.responses import (
    ResponseInputFileContentParam,
    ResponseInputImageContentParam,
    ResponseInputTextContentParam,
)
from openai.types.responses.response_input_param import FunctionCallOutput

CHAT_BY_ROLE = {
    "tool": ChatCompletionToolMessageParam,
    "assistant": ChatCompletionAssistantMessageParam,
    "user": ChatCompletionUserMessageParam,
}
CHAT_USER_PARTS = {"text": ChatCompletionContentPartTextParam, "image_url": ChatCompletionContentPartImageParam}
RESPONSES_OUTPUT_ITEMS = {
    "input_text": ResponseInputTextContentParam,
    "input_image": ResponseInputImageContentParam,
    "input_file": ResponseInputFileContentParam,
}
ANTHROPIC_RESULT_BLOCKS = {"text": TextBlockParam, "image": ImageBlockParam, "document": DocumentBlockParam}
RESPONSES_BY_TYPE = {
    "function_call_output": FunctionCallOutput,
    "function_call": ResponseFunctionToolCallParam,
    "reasoning": ResponseReasoningItemParam,
    "message": ResponseOutputMessageParam,
    # A call of a type the toolkit does not run is repeated, and answered in its own shape.
    "custom_tool_call": ResponseCustomToolCallParam,
    "custom_tool_call_output": ResponseCustomToolCallOutputParam,
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


def check_base64(data, where, problems):
    try:
        base64.b64decode(data, validate=True)
    except (binascii.Error, TypeError, ValueError) as e:
        problems.append(f"{where}: not standard base64: {e}")


def check_data_url(url, where, problems):
    if not isinstance(url, str) or not url.startswith("data:") or ";base64," not in url:
        problems.append(f"{where}: not a base64 data URL")
        return
    check_base64(url.split(";base64,", 1)[1], where, problems)


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
        if message.get("role") == "user":
            # Only the images of a turn's tool results are rendered as a user message: right
            # after the tool messages (OpenAI wants every tool message right after its call).
            if i == 0 or messages[i - 1].get("role") != "tool":
                problems.append(f"{where}: a user message must follow the turn's tool messages")
            parts = message.get("content")
            if not isinstance(parts, list) or not parts:
                problems.append(f"{where}: content must be a non-empty list of parts")
                continue
            for j, part in enumerate(parts):
                part_where = f"{where}.content[{j}]"
                part_type = CHAT_USER_PARTS.get(part.get("type"))
                if part_type is None:
                    problems.append(f"{part_where}: unexpected part {part.get('type')!r}")
                    continue
                typed_dict_check(part_type, part, part_where, problems)
                if part.get("type") == "image_url":
                    check_data_url(part.get("image_url", {}).get("url"), part_where, problems)


# Each call item is answered by the output item of its own kind, paired by `call_id`.
RESPONSES_ANSWER = {"function_call": "function_call_output", "custom_tool_call": "custom_tool_call_output"}


def check_openai_responses(items, problems):
    answered = {(item.get("type"), item.get("call_id")) for item in items}
    for i, item in enumerate(items):
        answer = RESPONSES_ANSWER.get(item.get("type"))
        if answer and (answer, item.get("call_id")) not in answered:
            problems.append(f"openai_responses[{i}]: {item.get('type')} `{item.get('call_id')}` has no {answer}")
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
        output = item.get("output")
        if item.get("type") == "function_call_output" and isinstance(output, list):
            # A list output is validated lazily by the union: check each item as its own type.
            for j, part in enumerate(output):
                part_where = f"{where}.output[{j}]"
                part_type = RESPONSES_OUTPUT_ITEMS.get(part.get("type"))
                if part_type is None:
                    problems.append(f"{part_where}: unexpected output item {part.get('type')!r}")
                    continue
                typed_dict_check(part_type, part, part_where, problems)
                if part.get("type") == "input_image":
                    check_data_url(part.get("image_url"), part_where, problems)
                if part.get("type") == "input_file":
                    check_data_url(part.get("file_data"), part_where, problems)
                    if not part.get("filename"):
                        problems.append(f"{part_where}: a file sent as `file_data` needs a `filename`")


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
            content = block.get("content", "")
            if isinstance(content, list):
                check_anthropic_result_content(content, block_where, problems)
                continue
            if block.get("is_error") and not str(content).strip():
                problems.append(f"{block_where}: error content must not be empty")


def check_anthropic_result_content(blocks, where, problems):
    if not blocks:
        problems.append(f"{where}: a content list must not be empty")
    for k, inner in enumerate(blocks):
        inner_where = f"{where}.content[{k}]"
        typed_dict = ANTHROPIC_RESULT_BLOCKS.get(inner.get("type"))
        if typed_dict is None:
            problems.append(f"{inner_where}: unexpected tool_result block {inner.get('type')!r}")
            continue
        typed_dict_check(typed_dict, inner, inner_where, problems)
        if inner.get("type") == "text" and not inner.get("text", "").strip():
            problems.append(f"{inner_where}: text blocks must be non-empty")
        source = inner.get("source", {})
        if source.get("type") == "base64":
            check_base64(source.get("data"), inner_where, problems)


def check_gemini(contents, problems):
    for i, content in enumerate(contents):
        where = f"gemini[{i}]"
        try:
            # As JSON, the way the wire carries it: `bytes` fields are then decoded as base64.
            genai_types.Content.model_validate_json(json.dumps(content))
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
            for k, media in enumerate(part.get("functionResponse", {}).get("parts") or []):
                blob = media.get("inlineData")
                media_where = f"{where}.parts[{j}].functionResponse.parts[{k}]"
                if not isinstance(blob, dict) or not blob.get("mimeType") or not blob.get("data"):
                    problems.append(f"{media_where}: needs `inlineData` with `mimeType` and `data`")
                    continue
                check_base64(blob["data"], media_where, problems)


def check_cohere(messages, problems):
    import sdk_cohere

    sdk_cohere.messages(messages, "cohere", problems)
    for i, message in enumerate(messages):
        if message.get("role") == "tool":
            for j, block in enumerate(message.get("content") or []):
                data = (block.get("document") or {}).get("data")
                if not isinstance(data, dict) or set(data) not in ({"output"}, {"error"}):
                    problems.append(f"cohere[{i}].content[{j}]: data must be {{output}} or {{error}}")


CHECKS = {
    "openai_chat": check_openai_chat,
    "openai_responses": check_openai_responses,
    "anthropic": check_anthropic,
    "gemini": check_gemini,
    "cohere": check_cohere,
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
