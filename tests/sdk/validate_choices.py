"""Validates request bodies that hold a tool choice (`ToolChoice::add_to`, issue 31) with the
providers' own SDK types.

Usage: .venv/bin/python tests/sdk/validate_choices.py BODIES.json

BODIES.json (written by tests/sdk/choice.rs): {"openai_chat": [...], "openai_responses": [...],
"anthropic": [...], "gemini": [...]}, each a list of whole request bodies with their tools.

- Every body as `validate_answers.py` judges one: OpenAI Chat
  `CompletionCreateParamsNonStreaming` (`tool_choice` is a `ChatCompletionToolChoiceOptionParam`,
  `parallel_tool_calls` a bool), Responses `ResponseCreateParamsNonStreaming`, Anthropic
  `MessageCreateParamsNonStreaming` (`tool_choice` a `ToolChoiceParam`), strictly by pydantic
  with every key checked against the TypedDict's fields; Gemini's `contents`, `tools` and
  `toolConfig` as `google.genai.types` models (unknown keys forbidden; an enum value the SDK
  does not know, which it only warns about, is an error here: `mode` is a
  `FunctionCallingConfigMode`).
- The SDKs type the entries of an `allowed_tools` list only as `Dict[str, object]`; each entry
  is checked against the SDK's named-function choice, the shape their docstrings give for it
  (Chat `ChatCompletionNamedToolChoiceParam`, Responses `ToolChoiceFunctionParam`).
- Every tool a choice names is declared in the same body (else the provider refuses it).

Cohere's bodies are checked against the cohere SDK's `V2Client.chat` parameters
(`sdk_cohere.py`: `tool_choice` is `REQUIRED` or `NONE`). Bedrock's bodies go through
`validate_bedrock.py`. Exits non-zero, listing every problem.
"""

import json
import sys
import warnings

from pydantic import TypeAdapter

from openai.types.chat.chat_completion_named_tool_choice_param import (
    ChatCompletionNamedToolChoiceParam,
)
from openai.types.responses.tool_choice_function_param import ToolChoiceFunctionParam

from validate_answers import CHECKS, GEMINI, takes, unknown_keys


def declared(dialect, body):
    """The names of the functions `body` declares."""
    if dialect == "gemini":
        return {d.get("name") for t in body.get("tools") or []
                for d in t.get("functionDeclarations") or []}
    if dialect == "openai_chat":
        return {t.get("function", {}).get("name") for t in body.get("tools") or []}
    return {t.get("name") for t in body.get("tools") or []}


def named(dialect, body, where, problems):
    """The tool names the choice of `body` names, with its `allowed_tools` entries checked."""
    if dialect == "gemini":
        config = (body.get("toolConfig") or {}).get("functionCallingConfig") or {}
        return config.get("allowedFunctionNames") or []
    choice = body.get("tool_choice")
    if not isinstance(choice, dict):
        return []
    if dialect == "anthropic":
        return [choice["name"]] if isinstance(choice.get("name"), str) else []
    if dialect == "openai_chat":
        if choice.get("type") == "function":
            return [(choice.get("function") or {}).get("name")]
        entries = (choice.get("allowed_tools") or {}).get("tools") or []
        entry_type = ChatCompletionNamedToolChoiceParam
        name = lambda entry: entry["function"]["name"]  # noqa: E731
    else:
        if choice.get("type") == "function":
            return [choice.get("name")]
        entries = choice.get("tools") or []
        entry_type = ToolChoiceFunctionParam
        name = lambda entry: entry["name"]  # noqa: E731
    names = []
    for i, entry in enumerate(entries):
        if not takes(entry_type, entry):
            problems.append(f"{where}: allowed tool [{i}] {entry} is no {entry_type.__name__}")
            continue
        names.append(name(entry))
    return names


def main(path):
    with open(path) as f:
        data = json.load(f)
    problems = []
    count = 0
    for dialect in [*CHECKS, "gemini"]:
        bodies = data.get(dialect) or []
        if not bodies:
            problems.append(f"{dialect}: no bodies")
        for i, body in enumerate(bodies):
            where = f"{dialect}[{i}]"
            count += 1
            if dialect == "gemini":
                for key, value in body.items():
                    model = GEMINI.get(key)
                    if model is None:
                        problems.append(f"{where}.{key}: not a member of a generateContent request")
                        continue
                    for item in value if isinstance(value, list) else [value]:
                        try:
                            with warnings.catch_warnings():
                                warnings.simplefilter("error")
                                model.model_validate_json(json.dumps(item))
                        except Exception as e:  # noqa: BLE001 - report every refusal
                            problems.append(f"{where}.{key}: {e}")
            else:
                try:
                    TypeAdapter(CHECKS[dialect]).validate_python(body, strict=True)
                except Exception as e:  # noqa: BLE001
                    problems.append(f"{where}: {e}")
                problems.extend(unknown_keys(CHECKS[dialect], body, where))
            tools = declared(dialect, body)
            for name in named(dialect, body, where, problems):
                if name is not None and name not in tools:
                    problems.append(f"{where}: the choice names `{name}`, which is not declared")
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
    print(f"{count} tool-choice request bodies accepted by the official SDK types")


if __name__ == "__main__":
    main(sys.argv[1])
