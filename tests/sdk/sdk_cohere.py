"""The cohere SDK's pydantic types (`cohere.v2`, pinned in scripts/requirements-sdk.txt) as a
strict validator, for the scripts next to this file that judge Cohere v2 Chat.

The SDK's models allow unknown members (`extra="allow"`, so a newer API never breaks an older
SDK): here a member no model declares is a problem, and so is a `finish_reason`, a stream
event `type` or a `tool_choice` outside the SDK's literals (its types add `Any` to each of
those unions). A request body is checked member by member against the parameters of the SDK's
own `V2Client.chat` (plus `stream`), so a member that method has no parameter for is refused.
"""

import inspect
import typing

import pydantic
from cohere.types import ChatFinishReason, ChatMessageV2, ToolV2
from cohere.v2.client import V2Client
from cohere.v2.types import V2ChatResponse, V2ChatStreamResponse

PARAMETERS = {
    name: p.annotation
    for name, p in inspect.signature(V2Client.chat).parameters.items()
    if name not in ("self", "request_options")
}
PARAMETERS["stream"] = bool


def literals(union):
    """The string literals of a `Union[Literal[...], Any]` (what the SDK types a closed set as)."""
    return {v for arg in typing.get_args(union) for v in typing.get_args(arg) if isinstance(v, str)}


FINISH_REASONS = literals(ChatFinishReason)
TOOL_CHOICES = literals(PARAMETERS["tool_choice"])
EVENT_TYPES = {
    model.model_fields["type"].default
    for model in typing.get_args(typing.get_args(V2ChatStreamResponse)[0])
}


def extras(value, where, problems):
    """Every member a model of the SDK does not declare, throughout `value`."""
    if isinstance(value, pydantic.BaseModel):
        for key in value.model_extra or {}:
            problems.append(f"{where}: unknown member `{key}`")
        for name in type(value).model_fields:
            extras(getattr(value, name), f"{where}.{name}", problems)
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            extras(item, f"{where}[{i}]", problems)


def strict(annotation, value, where, problems):
    """`value` validated as `annotation`, with no member left undeclared."""
    try:
        validated = pydantic.TypeAdapter(annotation).validate_python(value)
    except pydantic.ValidationError as e:
        problems.append(f"{where}: {str(e)[:600]}")
        return
    extras(validated, where, problems)


def messages(batch, where, problems):
    """A list of `ChatMessageV2` (user, assistant, system, tool)."""
    for i, message in enumerate(batch):
        strict(ChatMessageV2, message, f"{where}[{i}]", problems)


def tools(batch, where, problems):
    """A `tools` list of `ToolV2`."""
    for i, tool in enumerate(batch):
        strict(ToolV2, tool, f"{where}[{i}]", problems)


def request(body, where, problems):
    """A `POST /v2/chat` body (`model` added when it has none)."""
    body = {"model": "command-a-03-2025", **body}
    for key, value in body.items():
        if key not in PARAMETERS:
            problems.append(f"{where}: `{key}` is no parameter of the SDK's `V2Client.chat`")
            continue
        if key == "tool_choice" and value not in TOOL_CHOICES:
            problems.append(f"{where}.tool_choice: `{value}` is not one of {sorted(TOOL_CHOICES)}")
            continue
        strict(PARAMETERS[key], value, f"{where}.{key}", problems)


def response(body, where, problems):
    """A `V2ChatResponse`."""
    strict(V2ChatResponse, body, where, problems)
    reason = body.get("finish_reason") if isinstance(body, dict) else None
    if reason not in FINISH_REASONS:
        problems.append(f"{where}.finish_reason: `{reason}` is not one of {sorted(FINISH_REASONS)}")


def stream_event(event, where, problems):
    """One `V2ChatStreamResponse` event (the JSON of one SSE `data` field)."""
    kind = event.get("type") if isinstance(event, dict) else None
    if kind not in EVENT_TYPES:
        problems.append(f"{where}: `{kind}` is not a v2 chat stream event")
        return
    strict(V2ChatStreamResponse, event, where, problems)
    reason = (event.get("delta") or {}).get("finish_reason")
    if kind == "message-end" and reason not in FINISH_REASONS:
        problems.append(f"{where}.delta.finish_reason: `{reason}` is not one of {sorted(FINISH_REASONS)}")


def accumulate(events):
    """The `V2ChatResponse` a stream adds up to, from the events as the SDK parses them (the SDK
    has no accumulator of its own for v2 streams: this follows its event types, each event
    validated first). Raises on an event the SDK's types refuse."""
    adapter = pydantic.TypeAdapter(V2ChatStreamResponse)
    out = {"message": {"role": "assistant"}}
    content, calls, plan = {}, {}, []
    for i, raw in enumerate(events):
        problems = []
        stream_event(raw, f"events[{i}]", problems)
        if problems:
            raise ValueError("\n".join(problems))
        event = adapter.validate_python(raw)
        message = getattr(event.delta, "message", None) if getattr(event, "delta", None) else None
        if event.type == "message-start":
            out["id"] = event.id
        elif event.type == "content-start":
            item = message.content
            kind = item.type or "text"
            content[event.index] = {"type": kind, kind: getattr(item, kind) or ""}
        elif event.type == "content-delta":
            item = content[event.index]
            kind = item["type"]
            item[kind] += getattr(message.content, kind) or ""
        elif event.type == "tool-plan-delta":
            plan.append(message.tool_plan or "")
        elif event.type == "tool-call-start":
            call = message.tool_calls
            calls[event.index] = {"id": call.id, "type": call.type,
                                  "function": {"name": call.function.name,
                                               "arguments": call.function.arguments or ""}}
        elif event.type == "tool-call-delta":
            calls[event.index]["function"]["arguments"] += message.tool_calls.function.arguments or ""
        elif event.type == "message-end":
            out["finish_reason"] = event.delta.finish_reason
            if event.delta.usage is not None:
                out["usage"] = event.delta.usage.model_dump(mode="json", exclude_none=True)
    if plan:
        out["message"]["tool_plan"] = "".join(plan)
    if calls:
        out["message"]["tool_calls"] = [calls[k] for k in sorted(calls)]
    if content:
        out["message"]["content"] = [content[k] for k in sorted(content)]
    out = {k: out[k] for k in ("id", "finish_reason", "message", "usage") if k in out}
    problems = []
    response(out, "the accumulated response", problems)
    if problems:
        raise ValueError("\n".join(problems))
    return out
