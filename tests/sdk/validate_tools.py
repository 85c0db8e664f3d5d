"""Checks toolnexus request bodies with the providers' own Python SDKs, in one run.

Usage: python validate_tools.py CASES.json   (CASES.json written by tests/sdk/schema_matrix.rs)

Input: {"gemini_tools": [...], "openai_tools": [...], "openai_strict_tools": [...],
        "responses_tools": [...], "anthropic_tools": [...],
        "cases": [{"name", "schemas": {"original", "openai", "anthropic", "gemini",
                   "openai_strict" (or null)}, "samples": [...]}]}
Output (stdout, one JSON object): {"checked": N, "failures": [{"case", "check", "error"}]}.

Checks:
- gemini: google-genai `types.Tool.model_validate` on the whole `to_gemini` wrapper and on
  each declaration alone. A ValidationError, any other exception, a Python warning and a
  log record at WARNING or above all count as failures (the SDK only warns on some mistakes).
- anthropic: `jsonschema.Draft202012Validator.check_schema` on each `input_schema`.
- references: every `$ref` in every JSON Schema sent (OpenAI, OpenAI strict, Anthropic) must
  resolve in that schema, through `referencing` (`check_conformance.check_refs`).
- openai: `openai.types.chat.ChatCompletionFunctionToolParam` / `FunctionToolParam` are
  TypedDicts (no runtime check), so the documented rules are checked in Rust; here every
  schema must at least be valid JSON Schema 2020-12.
- samples: every sample (a Rust value serialized by serde) must validate against every
  provider's schema. Gemini's OpenAPI dialect is first translated to JSON Schema:
  `nullable: true` becomes `"null"` added to `type` (or a `{"type": "null"}` branch next to
  `anyOf`, or `null` added to `enum`); `example` and `propertyOrdering` are annotations.
"""

import json
import sys

import jsonschema
from google.genai import types

from report import Report

from check_conformance import check_refs

report = Report()


def gemini_to_json_schema(s):
    """Gemini's OpenAPI 3.0 dialect -> JSON Schema 2020-12 (for validating samples)."""
    if isinstance(s, list):
        return [gemini_to_json_schema(x) for x in s]
    if not isinstance(s, dict):
        return s
    out = {}
    for k, v in s.items():
        if k in ("properties",):
            out[k] = {n: gemini_to_json_schema(x) for n, x in v.items()}
        elif k in ("items",):
            out[k] = gemini_to_json_schema(v)
        elif k == "anyOf":
            out[k] = [gemini_to_json_schema(x) for x in v]
        elif k in ("nullable", "example", "propertyOrdering"):
            continue
        else:
            out[k] = v
    if s.get("nullable") is True:
        t = out.get("type")
        if isinstance(t, str):
            out["type"] = [t, "null"]
        if "enum" in out and None not in out["enum"]:
            out["enum"] = out["enum"] + [None]
        if "anyOf" in out:
            out["anyOf"] = out["anyOf"] + [{"type": "null"}]
    return out


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        data = json.load(f)

    report.sdk_check("*", "gemini Tool.model_validate (whole to_gemini wrapper)",
              lambda: [types.Tool.model_validate(t) for t in data["gemini_tools"]])

    from anthropic.types import ToolParam
    from openai.types.chat import ChatCompletionFunctionTool
    from openai.types.responses import FunctionTool
    from openai.types.shared import FunctionDefinition
    from pydantic import TypeAdapter

    def shape(model_fields, obj, what):
        unknown = set(obj) - set(model_fields)
        if unknown:
            raise ValueError(f"{what}: keys the SDK does not know: {sorted(unknown)}")

    def chat(tools):
        for t in tools:
            ChatCompletionFunctionTool.model_validate(t)
            shape(ChatCompletionFunctionTool.model_fields, t, "tool")
            shape(FunctionDefinition.model_fields, t["function"], "function")

    def responses(tools):
        for t in tools:
            FunctionTool.model_validate(t)
            shape(FunctionTool.model_fields, t, "tool")
            if not isinstance(t.get("strict"), bool):
                raise ValueError(f"{t['name']}: `strict` must be sent explicitly")

    def anthropic_tools(tools):
        adapter = TypeAdapter(ToolParam)
        for t in tools:
            adapter.validate_python(t)
            shape(ToolParam.__annotations__, t, "tool")

    report.sdk_check("*", "openai ChatCompletionFunctionTool (to_openai)", lambda: chat(data["openai_tools"]))
    report.sdk_check("*", "openai ChatCompletionFunctionTool (tools_for OpenAiChat, strict)",
              lambda: chat(data["openai_strict_tools"]))
    for key in ("responses_tools", "responses_strict_tools"):
        report.sdk_check("*", f"openai responses FunctionTool ({key})", lambda k=key: responses(data[k]))
    report.sdk_check("*", "anthropic ToolParam (to_anthropic)", lambda: anthropic_tools(data["anthropic_tools"]))

    decls = data["gemini_tools"][0]["functionDeclarations"]
    by_name = {d["name"]: d for d in decls}

    for case in data["cases"]:
        name = case["name"]
        decl = by_name.get(name)
        if decl is None:
            report.fail(name, "gemini declaration", "missing from to_gemini output")
        else:
            report.sdk_check(name, "gemini Tool.model_validate",
                      lambda d=decl: types.Tool.model_validate({"functionDeclarations": [d]}))
            report.sdk_check(name, "gemini Schema.model_validate",
                      lambda d=decl: types.Schema.model_validate(d["parameters"]))

        schemas = case["schemas"]
        for provider in ("openai", "anthropic", "openai_strict"):
            s = schemas.get(provider)
            if s is None:
                continue
            report.sdk_check(name, f"{provider} Draft202012 check_schema",
                      lambda s=s: jsonschema.Draft202012Validator.check_schema(s))
            report.sdk_check(name, f"{provider} every $ref resolves", lambda s=s: check_refs(s))

        validators = {}
        for provider in ("original", "openai", "anthropic", "openai_strict"):
            if schemas.get(provider) is not None:
                validators[provider] = schemas[provider]
        validators["gemini (nullable as type list)"] = gemini_to_json_schema(schemas["gemini"])
        for provider, s in validators.items():
            # The schema as written may name an older draft in `$schema`; everything we send
            # has no `$schema` and is read as 2020-12.
            cls = jsonschema.validators.validator_for(s, default=jsonschema.Draft202012Validator)
            v = cls(s)
            for i, sample in enumerate(case["samples"]):
                report.checked += 1
                try:
                    errors = sorted(v.iter_errors(sample), key=lambda e: list(e.path))
                except Exception as e:  # noqa: BLE001 - a schema the validator cannot read
                    report.fail(name, f"sample {i} against {provider}", f"{type(e).__name__}: {e}")
                    continue
                for e in errors[:3]:
                    report.fail(name, f"sample {i} against {provider}",
                         f"{e.message} at {list(e.absolute_path)} (sample {json.dumps(sample)})")

    report.dump()


if __name__ == "__main__":
    main()
