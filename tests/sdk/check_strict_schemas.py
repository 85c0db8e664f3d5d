"""Checks the schemas a typed answer or a strict tool sends against each provider SDK's own
rule for such a schema: the schema must be a fixed point of that rule, what the SDK itself would
send for it.

Usage: .venv/bin/python tests/sdk/check_strict_schemas.py CASES.json

CASES.json (written by tests/sdk/strict_schemas.rs):
- anthropic: [{"name", "schema"}]: `anthropic.transform_schema(schema)` (what `messages.parse`
  and `output_config` from a type send) must equal `schema`, key order included.
- anthropic_same: [{"name", "input", "schema"}]: `transform_schema(input)` must equal `schema`
  (for inputs the SDK can read: no type lists), so the description text is the SDK's; only the
  place of a description it adds differs (last, where a second pass puts it after the type).
- anthropic_readable: [{"name", "input", "schema"}]: where `transform_schema(input)` runs at
  all (no type list, ...) and we rewrite nothing on purpose first (`rewritten_on_purpose`), it
  must give `schema` (key order aside, as for anthropic_same).
- anthropic_samples: [{"name", "schema", "samples"}]: every sample (valid arguments of the
  schema as written) validates against the strict form (`jsonschema`, draft 2020-12).
- anthropic_tools: [request body]: `MessageCreateParamsNonStreaming` (strict, every key declared)
  takes each body with its strict tools.
- openai: [{"name", "schema"}]: `openai.lib._pydantic._ensure_strict_json_schema` (what
  `response_format` from a pydantic type sends) must leave `schema` unchanged.
- gemini: [{"name", "schema"}]: `google.genai._transformers.t_schema` (what a dict
  `response_schema` becomes), with a Developer API client, must leave `schema` unchanged except
  for the `propertyOrdering` it adds and its capitals in type names, and `types.Schema` must take
  the result.
- gemini_json: [{"name", "schema"}]: `t_json_schema` (`response_json_schema`) must leave it
  unchanged.

Exits non-zero, listing every problem; prints how many of each passed.
"""

import copy
import json
import sys
import types as pytypes

import anthropic
import jsonschema
from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
from google.genai import _transformers as genai_t
from google.genai import types as genai_types
from openai.lib._pydantic import _ensure_strict_json_schema
from pydantic import TypeAdapter

from validate_answers import unknown_keys

DEVELOPER_API = pytypes.SimpleNamespace(vertexai=False)


def same(a, b):
    """Equal, and with the keys in the same order at every level."""
    return json.dumps(a) == json.dumps(b)


def rewritten_on_purpose(schema):
    """Whether `schema` holds what we rewrite before the SDK's rules, on purpose: an `allOf`
    (merged: the SDK keeps it, and closes each branch on its own), keywords next to `$ref` (the
    SDK drops them), a `type` next to `anyOf`/`oneOf` (the SDK keeps only the choice)."""
    if isinstance(schema, list):
        return any(rewritten_on_purpose(s) for s in schema)
    if not isinstance(schema, dict):
        return False
    if "allOf" in schema:
        return True
    if "$ref" in schema and set(schema) - {"$ref", "$defs"}:
        return True
    if "type" in schema and ("anyOf" in schema or "oneOf" in schema):
        return True
    return any(rewritten_on_purpose(v) for k, v in schema.items()
               if k not in ("enum", "const", "default", "examples", "description"))


def as_gemini_reads(value):
    """`value` without `propertyOrdering` and `default: null` (which `types.Schema` leaves out)
    and with type names in capitals, as `types.Schema` writes them (numbers compare equal as int
    and float)."""
    if isinstance(value, dict):
        return {k: v.upper() if k == "type" and isinstance(v, str) else as_gemini_reads(v)
                for k, v in value.items() if k not in ("propertyOrdering", "property_ordering")
                and not (k == "default" and v is None)}
    if isinstance(value, list):
        return [as_gemini_reads(v) for v in value]
    return value


def main(path):
    with open(path) as f:
        cases = json.load(f)
    problems = []
    for case in cases.get("anthropic") or []:
        where = f"anthropic {case['name']}"
        try:
            sent = anthropic.transform_schema(copy.deepcopy(case["schema"]))
        except Exception as e:  # noqa: BLE001 - report every refusal
            problems.append(f"{where}: transform_schema failed: {e!r}")
            continue
        if not same(sent, case["schema"]):
            problems.append(f"{where}: transform_schema changed it:\n  ours {json.dumps(case['schema'])}"
                            f"\n  sdk  {json.dumps(sent)}")
    for case in cases.get("anthropic_same") or []:
        where = f"anthropic_same {case['name']}"
        sent = anthropic.transform_schema(copy.deepcopy(case["input"]))
        # The SDK adds a new description last; a second pass (and we) put it after the type.
        if sent != case["schema"]:
            problems.append(f"{where}: the SDK sends another schema:\n  ours {json.dumps(case['schema'])}"
                            f"\n  sdk  {json.dumps(sent)}")
    for case in cases.get("anthropic_samples") or []:
        validator = jsonschema.Draft202012Validator(case["schema"])
        for i, sample in enumerate(case["samples"]):
            for error in validator.iter_errors(sample):
                problems.append(f"anthropic_samples {case['name']}[{i}]: a valid sample is "
                                f"refused by the strict form: {error.message}")
    readable = 0
    for case in cases.get("anthropic_readable") or []:
        if rewritten_on_purpose(case["input"]):
            continue
        try:
            sent = anthropic.transform_schema(copy.deepcopy(case["input"]))
        except Exception:  # noqa: BLE001 - an input the SDK cannot read (a type list, ...)
            continue
        readable += 1
        if sent != case["schema"]:
            problems.append(f"anthropic_readable {case['name']}: the SDK sends another schema:"
                            f"\n  ours {json.dumps(case['schema'])}\n  sdk  {json.dumps(sent)}")
    adapter = TypeAdapter(MessageCreateParamsNonStreaming)
    for i, body in enumerate(cases.get("anthropic_tools") or []):
        where = f"anthropic_tools[{i}]"
        try:
            adapter.validate_python(body, strict=True)
        except Exception as e:  # noqa: BLE001
            problems.append(f"{where}: {e}")
        problems.extend(unknown_keys(MessageCreateParamsNonStreaming, body, where))
    for case in cases.get("openai") or []:
        where = f"openai {case['name']}"
        schema = copy.deepcopy(case["schema"])
        try:
            sent = _ensure_strict_json_schema(schema, path=(), root=schema)
        except Exception as e:  # noqa: BLE001
            problems.append(f"{where}: _ensure_strict_json_schema failed: {e!r}")
            continue
        if not same(sent, case["schema"]):
            problems.append(f"{where}: the strict helper changed it:\n  ours {json.dumps(case['schema'])}"
                            f"\n  sdk  {json.dumps(sent)}")
    for case in cases.get("gemini") or []:
        where = f"gemini {case['name']}"
        try:
            sent = genai_t.t_schema(DEVELOPER_API, copy.deepcopy(case["schema"]))
            sent = sent.model_dump(mode="json", by_alias=True, exclude_none=True)
            genai_types.Schema.model_validate(sent)
        except Exception as e:  # noqa: BLE001
            problems.append(f"{where}: t_schema refused it: {e!r}")
            continue
        if as_gemini_reads(sent) != as_gemini_reads(case["schema"]):
            problems.append(f"{where}: t_schema changed it:\n  ours {json.dumps(case['schema'])}"
                            f"\n  sdk  {json.dumps(sent)}")
    for case in cases.get("gemini_json") or []:
        where = f"gemini_json {case['name']}"
        if genai_t.t_json_schema(copy.deepcopy(case["schema"])) != case["schema"]:
            problems.append(f"{where}: t_json_schema changed it")
    counts = {k: len(cases.get(k) or []) for k in
              ("anthropic", "anthropic_same", "anthropic_samples", "anthropic_tools", "openai",
               "gemini", "gemini_json")}
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print("unchanged by the SDKs' own rules: " + ", ".join(f"{v} {k}" for k, v in counts.items())
          + f"; {readable} inputs the SDK reads as we do")


if __name__ == "__main__":
    main(sys.argv[1])
