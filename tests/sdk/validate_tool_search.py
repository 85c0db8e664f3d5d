"""Validates Anthropic's own tool search as toolnexus uses it, with the anthropic SDK's types.

Usage: .venv/bin/python tests/sdk/validate_tool_search.py CASE.json

CASE.json (written by tests/sdk/tool_search.rs): {"anthropic": {"tools": [...], "response":
{...}, "next": [...]}, "responses": {"tools": [...], "output": [...], "next": [...]},
"referencing": {"tools": [...], "next": [...]}}.

Anthropic:
- each entry of `tools` is one member of `ToolUnionParam` (the search tools'
  `ToolSearchToolBm25_20251119Param` / `ToolSearchToolRegex20251119Param`, or a `ToolParam`
  with `defer_loading`), strictly, with no key the TypedDict does not declare;
- `response` is a `Message` holding `server_tool_use` and `tool_search_tool_result` blocks;
- `next` (the model's turn, then the results) is a list of `MessageParam`s whose assistant
  blocks include `ServerToolUseBlockParam` and `ToolSearchToolResultBlockParam`.
OpenAI Responses (hosted tool search):
- `tools`: a `ToolSearchToolParam`, then `FunctionToolParam`s with `defer_loading`;
- `output`: each a `ResponseOutputItem` (`tool_search_call`, `tool_search_output`,
  `function_call`);
- `next`: each an input item of its type (`ToolSearchCall`, `ResponseToolSearchOutputItemParamParam`,
  `ResponseFunctionToolCallParam`, `FunctionCallOutput`).
Our own search on Anthropic (`referencing`): `search_tools` and the deferred tools as
`ToolParam`s, and `tool_result` blocks holding `ToolReferenceBlockParam`s.
Exits non-zero, listing every problem.
"""

import json
import sys

from anthropic.types import (
    Message,
    MessageParam,
    ServerToolUseBlockParam,
    TextBlockParam,
    ToolParam,
    ToolReferenceBlockParam,
    ToolResultBlockParam,
    ToolSearchToolBm25_20251119Param,
    ToolSearchToolRegex20251119Param,
    ToolSearchToolResultBlockParam,
    ToolUseBlockParam,
)

from openai.types.responses import (
    FunctionToolParam,
    ResponseFunctionToolCallParam,
    ResponseOutputItem,
    ToolSearchToolParam,
)
from openai.types.responses.response_input_item_param import FunctionCallOutput, ToolSearchCall
from openai.types.responses.response_tool_search_output_item_param_param import (
    ResponseToolSearchOutputItemParamParam,
)
from pydantic import TypeAdapter

from validate_messages import ANTHROPIC_MESSAGE_KEYS, typed_dict_check

TOOLS = {
    "tool_search_tool_bm25_20251119": ToolSearchToolBm25_20251119Param,
    "tool_search_tool_regex_20251119": ToolSearchToolRegex20251119Param,
}
BLOCKS = {
    "text": TextBlockParam,
    "tool_use": ToolUseBlockParam,
    "server_tool_use": ServerToolUseBlockParam,
    "tool_search_tool_result": ToolSearchToolResultBlockParam,
    "tool_result": ToolResultBlockParam,
}


RESPONSES_ITEMS = {
    "tool_search_call": ToolSearchCall,
    "tool_search_output": ResponseToolSearchOutputItemParamParam,
    "function_call": ResponseFunctionToolCallParam,
    "function_call_output": FunctionCallOutput,
}


def check_responses(case, problems):
    for i, tool in enumerate(case["tools"]):
        kind = ToolSearchToolParam if tool.get("type") == "tool_search" else FunctionToolParam
        typed_dict_check(kind, tool, f"responses.tools[{i}]", problems)
    for i, item in enumerate(case["output"]):
        try:
            TypeAdapter(ResponseOutputItem).validate_python(item)
        except Exception as e:  # noqa: BLE001
            problems.append(f"responses.output[{i}]: {e}")
    for i, item in enumerate(case["next"]):
        kind = RESPONSES_ITEMS.get(item.get("type"))
        if kind is None:
            problems.append(f"responses.next[{i}]: unexpected item {item.get('type')!r}")
            continue
        typed_dict_check(kind, item, f"responses.next[{i}]", problems)


def check_messages(messages, prefix, problems):
    """Each message a `MessageParam` of its role's keys, each block of its content the block
    type it names; the `tool_reference` blocks inside `tool_result`s, checked too, counted."""
    references = 0
    for i, message in enumerate(messages):
        where = f"{prefix}[{i}]"
        keys = ANTHROPIC_MESSAGE_KEYS.get(message.get("role"))
        if keys is None:
            problems.append(f"{where}: unexpected role {message.get('role')!r}")
            continue
        typed_dict_check(MessageParam, message, where, problems, keys_of=keys)
        content = message.get("content")
        for j, block in enumerate(content if isinstance(content, list) else []):
            kind = BLOCKS.get(block.get("type"))
            if kind is None:
                problems.append(f"{where}.content[{j}]: unexpected block {block.get('type')!r}")
                continue
            typed_dict_check(kind, block, f"{where}.content[{j}]", problems)
            inner = block.get("content") if block.get("type") == "tool_result" else None
            for k, item in enumerate(inner if isinstance(inner, list) else []):
                if item.get("type") == "tool_reference":
                    references += 1
                    typed_dict_check(ToolReferenceBlockParam, item,
                                     f"{where}.content[{j}].content[{k}]", problems)
    return references


def check_referencing(case, problems):
    """Our own search on Anthropic: `search_tools` and the deferred tools, each a `ToolParam`,
    and the messages, whose `tool_result` holds `ToolReferenceBlockParam`s."""
    for i, tool in enumerate(case["tools"]):
        typed_dict_check(ToolParam, tool, f"referencing.tools[{i}]", problems)
    if check_messages(case["next"], "referencing.next", problems) == 0:
        problems.append("referencing: no tool_reference block to check")


def check_responses_client(case, problems):
    """Our search run on the client (Responses): the `tool_search` tool with
    `execution: client`, its `tool_search_call` output item and the `tool_search_output` that
    answers it, as the other Responses items are checked."""
    tool = case["tools"][0]
    if tool.get("execution") != "client" or not isinstance(tool.get("parameters"), dict):
        problems.append(f"responses_client.tools[0]: not a client tool search: {tool}")
    outputs = [item for item in case["next"] if item.get("type") == "tool_search_output"]
    if not outputs or not outputs[0].get("tools"):
        problems.append("responses_client: no tool_search_output with tools to check")
    inner = []
    check_responses(case, inner)
    problems.extend(f"responses_client: {p}" for p in inner)


def main(path):
    with open(path, encoding="utf-8") as f:
        cases = json.load(f)
    problems = []
    check_responses(cases["responses"], problems)
    case = cases["anthropic"]
    for i, tool in enumerate(case["tools"]):
        typed_dict_check(TOOLS.get(tool.get("type"), ToolParam), tool, f"tools[{i}]", problems)
    try:
        Message.model_validate(case["response"])
    except Exception as e:  # noqa: BLE001
        problems.append(f"response: {e}")
    check_messages(case["next"], "next", problems)
    check_referencing(cases["referencing"], problems)
    check_responses_client(cases["responses_client"], problems)
    if problems:
        print("\n".join(problems))
        return 1
    responses = cases["responses"]
    client = cases["responses_client"]
    print(
        f"tool search: {len(case['tools'])} tools and {len(case['next'])} messages accepted (anthropic), "
        f"{len(responses['tools'])} tools and {len(responses['next'])} items (responses), "
        f"client search: {len(client['tools'])} tools and {len(client['next'])} items"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
