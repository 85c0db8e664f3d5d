"""Judges issue 12's schemas and request bodies with a JSON Schema validator that resolves
references and with the providers' own Python SDKs, in one run.

Usage: python check_conformance.py CASES.json   (written by tests/sdk/conformance_schemas.rs)

Input: {"tools": {"openai": [...], "openai_strict": [...], "responses_strict": [...],
                  "anthropic": [...], "gemini": [...], "gemini_json_schema": [...],
                  "cohere": [...] (each a ToolV2 of the cohere SDK, sdk_cohere.py)},
        "cases": [{"name", "schemas": {"openai", "anthropic", "openai_strict" (or null),
                   "gemini_json_schema"}, "valid": [...], "invalid": [...]}],
        "controls": [{"name", "schema"}]}
Output (stdout, one JSON object): {"checked": N, "failures": [{"case", "check", "error"}]}.

Checks, for every JSON Schema a provider is sent (OpenAI, OpenAI strict, Anthropic, Gemini's
`parametersJsonSchema`):
- `validator_for(schema, default=Draft202012Validator).check_schema(schema)`;
- every `$ref` in it resolves IN THAT SCHEMA, through `referencing` (the library jsonschema
  itself resolves with): a reference to a part that was not sent is a failure;
- every value in `valid` is valid against it and every value in `invalid` is not (lowering
  keeps what it promises about valid argument objects); against the strict schema a valid value
  is first completed the way a model sends it under strict mode (`null` for what it leaves out).
A `control` is a schema with a reference that does not resolve: it MUST fail the reference
check, so the Rust test can prove the check can fail.

SDK checks: openai's `ChatCompletionFunctionTool` / responses `FunctionTool`, anthropic's
`ToolParam`, google-genai's `types.Tool` for `to_gemini()` and for its JSON Schema form
(each declaration also through `types.FunctionDeclaration`, with exactly one of `parameters` and
`parameters_json_schema` set, as the API requires). Exceptions, warnings and WARNING log records
all count as failures.
"""

import json
import sys

import jsonschema
import referencing
import referencing.exceptions
import referencing.jsonschema
from google.genai import types

from report import Report

report = Report()


SUBSCHEMA_ONE = ("additionalProperties", "items", "additionalItems", "not", "if", "then", "else",
                 "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems")
SUBSCHEMA_MAP = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SUBSCHEMA_LIST = ("anyOf", "oneOf", "allOf", "prefixItems", "items")


def refs(schema, path="#"):
    """Every `$ref` at a subschema position of `schema`, with where it is."""
    if not isinstance(schema, dict):
        return
    r = schema.get("$ref")
    if isinstance(r, str):
        yield path, r
    for k, v in schema.items():
        if k in SUBSCHEMA_MAP and isinstance(v, dict):
            for name, sub in v.items():
                yield from refs(sub, f"{path}/{k}/{name}")
        elif k in SUBSCHEMA_LIST and isinstance(v, list):
            for i, sub in enumerate(v):
                yield from refs(sub, f"{path}/{k}/{i}")
        elif k in SUBSCHEMA_ONE and isinstance(v, dict):
            yield from refs(v, f"{path}/{k}")


def check_refs(schema):
    """Raises when a `$ref` does not resolve inside `schema` itself."""
    resource = referencing.jsonschema.DRAFT202012.create_resource(schema)
    resolver = referencing.Registry().with_resource("urn:toolnexus:sent", resource).resolver(
        base_uri="urn:toolnexus:sent")
    seen = 0
    for where, r in refs(schema):
        seen += 1
        try:
            resolver.lookup(r)
        except referencing.exceptions.Unresolvable as e:
            raise ValueError(f"`$ref` {r!r} at {where} does not resolve in what is sent ({e!r})")
    return seen


def validator(schema):
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    return cls(schema)


def local(root, schema, depth=0):
    """`schema` with a local `$ref` followed (JSON Pointer fragments only)."""
    r = schema.get("$ref") if isinstance(schema, dict) else None
    if not isinstance(r, str) or not r.startswith("#") or depth > 20:
        return schema
    target = root
    for token in [t for t in r[1:].split("/") if t]:
        token = token.replace("~1", "/").replace("~0", "~")
        if not isinstance(target, dict) or token not in target:
            return schema
        target = target[token]
    return local(root, target, depth + 1)


def as_strict_call(root, schema, value):
    """`value` as a model sends it under OpenAI strict mode: every property it leaves out is
    there with `null` (strict mode makes optional properties required and nullable)."""
    schema = local(root, schema)
    if not isinstance(schema, dict):
        return value
    if isinstance(value, dict):
        for branch in schema.get("anyOf", []):
            b = local(root, branch)
            if isinstance(b, dict) and "properties" in b:
                schema = b
                break
        props = schema.get("properties", {})
        out = {}
        for name, sub in props.items():
            out[name] = as_strict_call(root, sub, value[name]) if name in value else None
        for name, v in value.items():
            out.setdefault(name, v)
        return out
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [as_strict_call(root, schema["items"], v) for v in value]
    return value


def json_schema_checks(case, provider, schema, valid, invalid):
    if provider == "openai_strict":
        valid = [as_strict_call(schema, schema, v) for v in valid]
    report.sdk_check(case, f"{provider}: check_schema", lambda: validator(schema))
    report.sdk_check(case, f"{provider}: every $ref resolves", lambda: check_refs(schema))
    try:
        v = validator(schema)
    except Exception:  # noqa: BLE001 - reported above
        return
    for i, sample in enumerate(valid):
        report.checked += 1
        try:
            errors = list(v.iter_errors(sample))
        except Exception as e:  # noqa: BLE001 - e.g. a reference the validator cannot follow
            report.fail(case, f"{provider}: valid sample {i}", f"{type(e).__name__}: {e}")
            continue
        for e in errors[:3]:
            report.fail(case, f"{provider}: valid sample {i}",
                 f"{e.message} at {list(e.absolute_path)} (sample {json.dumps(sample)})")
    for i, sample in enumerate(invalid):
        report.checked += 1
        try:
            ok = v.is_valid(sample)
        except Exception as e:  # noqa: BLE001
            report.fail(case, f"{provider}: invalid sample {i}", f"{type(e).__name__}: {e}")
            continue
        if ok:
            report.fail(case, f"{provider}: invalid sample {i}",
                 f"accepted although it must not be: {json.dumps(sample)}")


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        data = json.load(f)

    from anthropic.types import ToolParam
    from openai.types.chat import ChatCompletionFunctionTool
    from openai.types.responses import FunctionTool
    from pydantic import TypeAdapter

    tools = data["tools"]

    def chat(ts):
        for t in ts:
            ChatCompletionFunctionTool.model_validate(t)

    def responses(ts):
        for t in ts:
            FunctionTool.model_validate(t)
            if not isinstance(t.get("strict"), bool):
                raise ValueError(f"{t['name']}: `strict` must be sent explicitly")

    def anthropic_tools(ts):
        adapter = TypeAdapter(ToolParam)
        for t in ts:
            adapter.validate_python(t)

    def gemini(wrapper, json_schema):
        for tool in wrapper:
            parsed = types.Tool.model_validate(tool)
            for raw, decl in zip(tool["functionDeclarations"], parsed.function_declarations or []):
                d = types.FunctionDeclaration.model_validate(raw)
                has_params = d.parameters is not None
                has_json = d.parameters_json_schema is not None
                if has_params == has_json:
                    raise ValueError(
                        f"{raw.get('name')}: exactly one of `parameters` and "
                        f"`parametersJsonSchema` must be set (got both or neither)")
                if json_schema != has_json:
                    raise ValueError(f"{raw.get('name')}: wrong field for this adapter")
                if decl.name != raw.get("name"):
                    raise ValueError("declaration name lost")

    report.sdk_check("*", "openai ChatCompletionFunctionTool (to_openai)", lambda: chat(tools["openai"]))
    report.sdk_check("*", "openai ChatCompletionFunctionTool (tools_for OpenAiChat, strict)",
              lambda: chat(tools["openai_strict"]))
    report.sdk_check("*", "openai responses FunctionTool (tools_for OpenAiResponses, strict)",
              lambda: responses(tools["responses_strict"]))
    report.sdk_check("*", "anthropic ToolParam (to_anthropic)", lambda: anthropic_tools(tools["anthropic"]))
    def cohere_tools(ts):
        import sdk_cohere

        problems = []
        sdk_cohere.tools(ts, "tools", problems)
        if problems:
            raise ValueError("\n".join(problems))

    report.sdk_check("*", "cohere ToolV2 (tools_for(Dialect::Cohere, default))",
              lambda: cohere_tools(tools["cohere"]))
    report.sdk_check("*", "gemini Tool (to_gemini)", lambda: gemini(tools["gemini"], False))
    report.sdk_check("*", "gemini Tool (tools_for Gemini, json_schema)",
              lambda: gemini(tools["gemini_json_schema"], True))

    # The JSON Schemas inside the request bodies, exactly as sent.
    sent = []
    for t in tools["openai"]:
        sent.append((t["function"]["name"], "openai body", t["function"]["parameters"]))
    for t in tools["openai_strict"]:
        which = "openai strict body" if t["function"].get("strict") else "openai strict body (fallback)"
        sent.append((t["function"]["name"], which, t["function"]["parameters"]))
    for t in tools["responses_strict"]:
        sent.append((t["name"], "responses body", t["parameters"]))
    for t in tools["anthropic"]:
        sent.append((t["name"], "anthropic body", t["input_schema"]))
    for t in tools["cohere"]:
        sent.append((t["function"]["name"], "cohere body", t["function"]["parameters"]))
    for d in tools["gemini_json_schema"][0]["functionDeclarations"]:
        sent.append((d["name"], "gemini parametersJsonSchema body", d["parametersJsonSchema"]))
    for name, what, schema in sent:
        report.sdk_check(name, f"{what}: check_schema", lambda s=schema: validator(s))
        report.sdk_check(name, f"{what}: every $ref resolves", lambda s=schema: check_refs(s))

    for case in data["cases"]:
        name = case["name"]
        for provider, schema in case["schemas"].items():
            if schema is None:
                continue
            json_schema_checks(name, provider, schema, case.get("valid", []),
                               case.get("invalid", []))

    for control in data.get("controls", []):
        report.sdk_check(control["name"], "control: every $ref resolves",
                  lambda s=control["schema"]: check_refs(s))

    report.dump()


if __name__ == "__main__":
    main()
