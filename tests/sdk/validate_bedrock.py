"""Validates Amazon Bedrock Converse bodies with botocore's own service model of
`bedrock-runtime`, offline.

Usage: .venv/bin/python tests/sdk/validate_bedrock.py CASES.json

CASES.json (written by tests/sdk/bedrock.rs, and by `venv::validate_alone` for the suites that
judge every dialect: Bedrock's `Sdk::bodies`): {"requests": [...], "responses": [...],
"stream_events": [...]}.

- requests: `Converse` request bodies (`modelId` added here), checked by botocore's
  `ParamValidator` against the operation's input shape: every member known, types, lengths,
  patterns, enums. Blob fields (`bytes`) come as base64 text, as the REST protocol writes them:
  each is decoded (strictly) and handed to the validator as bytes.
- responses: `Converse` response bodies, checked against the output shape by the same walk
  (botocore has no validator for output): unknown members, wrong types and enum values fail.
- stream_events: `ConverseStream` events as JSON (`{"contentBlockDelta": {...}}`), each checked
  against its member of the event stream shape.

Exits non-zero, listing every problem; prints how many of each passed.
"""

import base64
import binascii
import json
import re
import sys

import botocore.session
from botocore.validate import ParamValidator

MODEL = botocore.session.get_session().get_service_model("bedrock-runtime")
CONVERSE = MODEL.operation_model("Converse")
STREAM = MODEL.operation_model("ConverseStream").output_shape.members["stream"]


def blobs_to_bytes(value, shape, where, problems):
    """The value with every blob (base64 text) decoded to bytes, following `shape`."""
    kind = shape.type_name
    if kind == "blob":
        if not isinstance(value, str):
            problems.append(f"{where}: a blob must be base64 text, got {type(value).__name__}")
            return value
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError) as e:
            problems.append(f"{where}: not base64 ({e})")
            return value
    if kind == "structure" and isinstance(value, dict):
        return {
            k: blobs_to_bytes(v, shape.members[k], f"{where}.{k}", problems) if k in shape.members else v
            for k, v in value.items()
        }
    if kind == "list" and isinstance(value, list):
        return [blobs_to_bytes(v, shape.member, f"{where}[{i}]", problems) for i, v in enumerate(value)]
    if kind == "map" and isinstance(value, dict):
        return {k: blobs_to_bytes(v, shape.value, f"{where}.{k}", problems) for k, v in value.items()}
    return value


def check(value, shape, where, problems):
    """A walk of `value` against `shape`, for what `ParamValidator` leaves out (it checks types,
    required members and minimum lengths, not patterns, enums or maximum lengths) and for output,
    which botocore has no validator for: unknown members, required members, types, enums,
    patterns, lengths, a union holding exactly one member."""
    kind = shape.type_name
    meta = shape.metadata
    if meta.get("document"):
        return  # a JSON document (a tool's schema or input): any JSON
    if kind == "structure":
        if not isinstance(value, dict):
            problems.append(f"{where}: expected an object")
            return
        for key, inner in value.items():
            if key not in shape.members:
                problems.append(f"{where}: unknown member `{key}`")
                continue
            check(inner, shape.members[key], f"{where}.{key}", problems)
        for key in shape.required_members:
            if key not in value:
                problems.append(f"{where}: missing required `{key}`")
        if meta.get("union") and len(value) != 1:
            problems.append(f"{where}: a union holds exactly one member, got {sorted(value)}")
    elif kind == "list":
        if not isinstance(value, list):
            problems.append(f"{where}: expected a list")
            return
        lengths(len(value), meta, where, problems)
        for i, item in enumerate(value):
            check(item, shape.member, f"{where}[{i}]", problems)
    elif kind == "map":
        if not isinstance(value, dict):
            problems.append(f"{where}: expected a map")
    elif kind == "string":
        if not isinstance(value, str):
            problems.append(f"{where}: expected a string")
            return
        if shape.enum and value not in shape.enum:
            problems.append(f"{where}: `{value}` is not one of {shape.enum}")
        if "pattern" in meta and not re.fullmatch(meta["pattern"], value):
            problems.append(f"{where}: `{value}` does not match `{meta['pattern']}`")
        lengths(len(value), meta, where, problems)
    elif kind in ("integer", "long"):
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(f"{where}: expected an integer")
    elif kind == "boolean":
        if not isinstance(value, bool):
            problems.append(f"{where}: expected a boolean")
    elif kind == "blob":
        if isinstance(value, (bytes, bytearray)):
            return
        try:
            base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError, TypeError):
            problems.append(f"{where}: expected base64 text")


def lengths(n, meta, where, problems):
    if "min" in meta and n < meta["min"]:
        problems.append(f"{where}: length {n} is below the minimum {meta['min']}")
    if "max" in meta and n > meta["max"]:
        problems.append(f"{where}: length {n} is above the maximum {meta['max']}")


def main(path):
    with open(path) as f:
        cases = json.load(f)
    problems = []
    validator = ParamValidator()
    for i, body in enumerate(cases.get("requests") or []):
        where = f"requests[{i}]"
        params = blobs_to_bytes({"modelId": "anthropic.claude-sonnet-4-5", **body},
                                CONVERSE.input_shape, where, problems)
        report = validator.validate(params, CONVERSE.input_shape)
        if report.has_errors():
            problems.append(f"{where}: {report.generate_report()}")
        check(params, CONVERSE.input_shape, where, problems)
    for i, body in enumerate(cases.get("responses") or []):
        check(body, CONVERSE.output_shape, f"responses[{i}]", problems)
    for i, event in enumerate(cases.get("stream_events") or []):
        where = f"stream_events[{i}]"
        if not isinstance(event, dict) or len(event) != 1:
            problems.append(f"{where}: an event is an object of exactly one member")
            continue
        (name, body), = event.items()
        if name not in STREAM.members:
            problems.append(f"{where}: `{name}` is not a ConverseStream event")
            continue
        check(body, STREAM.members[name], f"{where}.{name}", problems)
    counts = {k: len(cases.get(k) or []) for k in ("requests", "responses", "stream_events")}
    if not all(counts.values()):
        problems.append(f"every kind needs cases: {counts}")
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"accepted by botocore's bedrock-runtime model: {counts['requests']} requests, "
          f"{counts['responses']} responses, {counts['stream_events']} stream events")


if __name__ == "__main__":
    main(sys.argv[1])
