"""Runs stream transcripts through the providers' official SDK accumulators.

Usage: .venv/bin/python tests/sdk/stream_accumulate.py TRANSCRIPTS.json

TRANSCRIPTS.json is written by tests/sdk/stream.rs: {"NAME": {"dialect": "openai_chat" |
"openai_responses" | "anthropic" | "gemini" | "cohere", "events": [...]}}, each event the JSON of one SSE
`data` field as the provider sends it. Prints {"NAME": RESPONSE}: the response each SDK's own
stream handling makes of the events, as JSON, for the test to compare with the crate's turn.

- OpenAI Chat: `ChatCompletionStreamState.handle_chunk` per chunk, `get_final_completion()`.
- OpenAI Responses: `ResponseStreamState.handle_event` per event; the final response is what
  `ResponseStream.get_final_response()` returns (the state's completed response).
- Anthropic: `accumulate_event` per event (what `MessageStream` does), the final snapshot.
- Cohere: the cohere SDK has no accumulator for v2 streams; `sdk_cohere.accumulate` validates
  each event as a `V2ChatStreamResponse` and adds them up by the SDK's event types, and the
  result must pass `V2ChatResponse`.
- Gemini: google-genai's chat (`Chat.send_message_stream`) records each chunk's
  `candidates[0].content` as it came, one `Content` per chunk; the response sent whole holds the
  same parts in one content, consecutive pieces of plain text joined (same `thought` flag, at
  most one `thought_signature` between them). The script joins the recorded contents so, and
  returns `{"candidates": [{"content": ..., "finishReason": ...}]}`.

The SDKs' parse helpers add fields that are not on the wire (`parsed`, `parsed_arguments`,
`parsed_output`), and the Chat accumulator keeps each call's chunk `index`; they are removed. Exits non-zero if an SDK refuses a transcript.
"""

import json
import sys


def openai_chat(events):
    from openai._models import construct_type
    from openai.lib.streaming.chat import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    state = ChatCompletionStreamState()
    for event in events:
        state.handle_chunk(construct_type(type_=ChatCompletionChunk, value=event))
    final = state.get_final_completion().to_dict(mode="json")
    # The accumulator keeps each call's chunk `index` (a `ChoiceDeltaToolCall` field); a
    # `ChatCompletionMessageToolCall` has none, and a request must not send it back.
    for choice in final.get("choices", []):
        for call in choice.get("message", {}).get("tool_calls") or []:
            call.pop("index", None)
    return final


def openai_responses(events):
    from openai._models import construct_type
    from openai._types import omit
    from openai.lib.streaming.responses._responses import ResponseStreamState
    from openai.types.responses import ResponseStreamEvent

    state = ResponseStreamState(input_tools=omit, text_format=omit)
    for event in events:
        state.handle_event(construct_type(type_=ResponseStreamEvent, value=event))
    final = state._completed_response  # what ResponseStream.get_final_response() returns
    if final is None:
        raise RuntimeError("the stream did not complete")
    return final.to_dict(mode="json")


def anthropic(events):
    from anthropic.lib.streaming._messages import accumulate_event

    snapshot = None
    json_bufs = {}
    for event in events:
        snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=json_bufs)
    return snapshot.to_dict(mode="json")


def plain_text(part):
    return isinstance(part.get("text"), str) and set(part) <= {"text", "thought", "thoughtSignature"}


def gemini(events):
    from google.genai import types

    recorded = []  # as Chat.send_message_stream records them: one Content per chunk
    finish = None
    for event in events:
        chunk = types.GenerateContentResponse.model_validate(event)
        if chunk.candidates and chunk.candidates[0].content:
            recorded.append(chunk.candidates[0].content)
        if chunk.candidates and chunk.candidates[0].finish_reason:
            finish = chunk.candidates[0].finish_reason
    parts = []
    for content in recorded:
        for part in content.model_dump(mode="json", by_alias=True, exclude_none=True).get("parts", []):
            last = parts[-1] if parts else None
            if (
                last is not None
                and plain_text(last)
                and plain_text(part)
                and bool(last.get("thought")) == bool(part.get("thought"))
                and not ("thoughtSignature" in last and "thoughtSignature" in part)
            ):
                last["text"] += part["text"]
                if "thoughtSignature" in part:
                    last["thoughtSignature"] = part["thoughtSignature"]
            else:
                parts.append(part)
    candidate = {"content": {"role": recorded[0].role if recorded else "model", "parts": parts}}
    if finish is not None:
        candidate["finishReason"] = finish.value if hasattr(finish, "value") else finish
    return {"candidates": [candidate]}


SDK_ONLY = {"parsed", "parsed_arguments", "parsed_output"}


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in SDK_ONLY}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def cohere(events):
    import sdk_cohere

    return sdk_cohere.accumulate(events)


ACCUMULATORS = {
    "openai_chat": openai_chat,
    "openai_responses": openai_responses,
    "anthropic": anthropic,
    "gemini": gemini,
    "cohere": cohere,
}


def main(path):
    with open(path, encoding="utf-8") as f:
        transcripts = json.load(f)
    out = {}
    for name, transcript in transcripts.items():
        out[name] = strip(ACCUMULATORS[transcript["dialect"]](transcript["events"]))
    json.dump(out, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
