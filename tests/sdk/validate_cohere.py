"""Validates Cohere v2 Chat bodies with the cohere SDK's own pydantic types, offline.

Usage: .venv/bin/python tests/sdk/validate_cohere.py CASES.json

CASES.json (written by tests/sdk/cohere.rs and tests/mcp/tests/sdk_tools.rs: Cohere's
`Sdk::bodies`): {"requests": [...], "responses": [...],
"stream_events": [...]}: `POST /v2/chat` request bodies (checked against the parameters of the
SDK's `V2Client.chat`), `V2ChatResponse` bodies, and `V2ChatStreamResponse` events, all through
`sdk_cohere.py` (no member left undeclared, closed literals kept closed).

Exits non-zero, listing every problem; prints how many of each passed.
"""

import json
import sys

import sdk_cohere


def main(path):
    with open(path) as f:
        cases = json.load(f)
    problems = []
    for i, body in enumerate(cases.get("requests") or []):
        sdk_cohere.request(body, f"requests[{i}]", problems)
    for i, body in enumerate(cases.get("responses") or []):
        sdk_cohere.response(body, f"responses[{i}]", problems)
    for i, event in enumerate(cases.get("stream_events") or []):
        sdk_cohere.stream_event(event, f"stream_events[{i}]", problems)
    counts = {k: len(cases.get(k) or []) for k in ("requests", "responses", "stream_events")}
    if not all(counts.values()):
        problems.append(f"every kind needs cases: {counts}")
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"accepted by the cohere SDK's types: {counts['requests']} requests, "
          f"{counts['responses']} responses, {counts['stream_events']} stream events")


if __name__ == "__main__":
    main(sys.argv[1])
