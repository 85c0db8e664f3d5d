//! Anthropic's strict schemas: what structured outputs (`output_config.format`, Bedrock's
//! `outputConfig.textFormat`) and strict tools (`"strict": true`) take, written exactly as
//! Anthropic's own Python SDK writes it (`anthropic.transform_schema`, what `messages.parse`
//! sends), so what is sent is a fixed point of that function.
//!
//! The SDK's rules: only the keywords the API supports stay (`type`, `anyOf` (`oneOf` becomes
//! `anyOf`), `allOf`, `enum` and `const` of plain values (which drop the `type`), `$ref`/`$defs`,
//! `description`, `title`, an object's `properties` and `required`, a string's `format` when it is
//! one of ten, an array's `items` and a `minItems` of 0 or 1); every object gets
//! `additionalProperties: false`; every other keyword is written into the `description` as
//! `{key: value, ...}` (Python's text for the value), after a blank line when there is one.
//! Before that, [`prepare`] rewrites what the SDK cannot read into what it reads the same way
//! twice (a type list as an `anyOf` with a `{"type": "null"}` branch, ...).
//!
//! Nothing an answer may hold is made invalid, except where the subset cannot say it: a map
//! (`additionalProperties` with a schema), an object with any keys, a value of any type, an
//! `allOf` of objects; and a recursive schema, which Anthropic documents as not supported, is
//! reported too. Then the form is still made (a map as an empty object, any value as an
//! `anyOf` of every type), and the first such place is reported: strict tools fall back to the
//! tool as [`to_anthropic`](crate::to_anthropic) sends it, and typed answers say so in
//! `Output::anthropic_error`.

mod form;
mod prepare;
mod python;
mod refs;

use serde_json::{Map, Value};

pub(crate) use form::form;

use crate::schema::walk::{self, MAX_DEPTH};
use crate::values::error::SchemaError;

/// How a refusal names the provider.
const PROVIDER: &str = "anthropic strict mode";

/// Whether the SDK keeps a string `format` (others go into the description): the ones every
/// strict subset keeps, and `uri`.
fn kept_format(format: &str) -> bool {
    format == "uri" || walk::STRICT_FORMATS.contains(&format)
}

/// A schema in Anthropic's strict form, and the first place it refuses an answer the schema
/// allows, if any.
pub(crate) struct Strict {
    pub(crate) schema: Value,
    pub(crate) narrowed: Option<SchemaError>,
}

/// The strict form of `schema` (the form Anthropic gets non-strict).
pub(crate) fn strict(schema: &Value) -> Strict {
    let mut walk = Walk {
        root: schema,
        narrowed: None,
    };
    let out = walk.node(schema, "", 0);
    if walk.narrowed.is_none() {
        if let Some(dangling) = refs::dangling(&out, &out) {
            walk.narrowed = Some(walk::error(
                PROVIDER,
                "",
                format!("`$ref: {dangling}` points at a part the subset does not keep"),
            ));
        } else if let Some(cycle) = refs::recursive(&out) {
            walk.narrowed = Some(walk::error(
                PROVIDER,
                "",
                format!(
                    "`$ref: {cycle}` makes the schema recursive, which Anthropic's strict mode \
                     does not support"
                ),
            ));
        }
    }
    Strict {
        schema: out,
        narrowed: walk.narrowed,
    }
}

struct Walk<'a> {
    /// What the schema's `$ref`s point into.
    root: &'a Value,
    narrowed: Option<SchemaError>,
}

impl Walk<'_> {
    fn narrow(&mut self, path: &str, reason: &str) {
        if self.narrowed.is_none() {
            self.narrowed = Some(walk::error(PROVIDER, path, reason));
        }
    }

    /// `transform_schema` on one subschema, after [`prepare::level`].
    fn node(&mut self, schema: &Value, path: &str, depth: usize) -> Value {
        let Value::Object(map) = schema else {
            if schema != &Value::Bool(false) {
                self.narrow(path, "a value of any type (`true`) cannot be kept");
            }
            return Value::Object(any_value_map());
        };
        if depth > MAX_DEPTH {
            self.narrow(path, "the schema nests deeper than 64 levels");
            return Value::Object(any_value_map());
        }
        let mut narrowed = Vec::new();
        let prepared = prepare::level(map, self.root, &mut |reason| {
            narrowed.push(reason.to_owned());
        });
        if let Some(reason) = narrowed.first() {
            self.narrow(path, reason);
        }
        let mut rest = python::Rest(prepared.iter().map(|(k, v)| (k.as_str(), v)).collect());
        let mut out = Map::new();

        if let Some(defs) = rest.take("$defs") {
            let mut strict_defs = Map::new();
            let here = walk::push(path, "$defs");
            for (name, def) in defs.as_object().into_iter().flatten() {
                let def = self.node(def, &walk::push(&here, name), depth + 1);
                strict_defs.insert(name.clone(), def);
            }
            out.insert("$defs".into(), Value::Object(strict_defs));
        }
        if let Some(reference) = rest.take("$ref") {
            out.insert("$ref".into(), reference.clone());
            return Value::Object(out);
        }
        let mut kind = rest.take("type");
        let any_of = rest.take("anyOf");
        let one_of = rest.take("oneOf");
        let all_of = rest.take("allOf");
        if matches!(rest.get("enum"), Some(Value::Array(e))
            if !e.is_empty() && e.iter().all(prepare::is_primitive))
        {
            out.insert(
                "enum".into(),
                rest.take("enum").cloned().unwrap_or_default(),
            );
        }
        if rest.get("const").is_some_and(prepare::is_primitive) {
            out.insert(
                "const".into(),
                rest.take("const").cloned().unwrap_or_default(),
            );
        }
        if out.contains_key("enum") || out.contains_key("const") {
            kind = None;
        }
        if let Some(branches) = any_of.and_then(Value::as_array) {
            out.insert("anyOf".into(), self.list(branches, path, "anyOf", depth));
        } else if let Some(branches) = one_of.and_then(Value::as_array) {
            out.insert("anyOf".into(), self.list(branches, path, "oneOf", depth));
        } else if let Some(branches) = all_of.and_then(Value::as_array) {
            out.insert("allOf".into(), self.list(branches, path, "allOf", depth));
        } else if !out.contains_key("enum") && !out.contains_key("const") {
            out.insert("type".into(), kind.cloned().unwrap_or_default());
        }
        for key in ["description", "title"] {
            if let Some(value) = rest.take(key).filter(|v| !v.is_null()) {
                out.insert(key.into(), value.clone());
            }
        }
        match kind.and_then(Value::as_str) {
            Some("object") => self.object(&mut rest, &mut out, path, depth),
            Some("string") => match rest.take("format") {
                Some(Value::String(f)) if kept_format(f) => {
                    out.insert("format".into(), Value::String(f.clone()));
                }
                Some(f) if python::truthy(f) => {
                    rest.put("format", f);
                }
                _ => {}
            },
            Some("array") => {
                if let Some(items) = rest.take("items").filter(|v| !v.is_null()) {
                    let items = self.node(items, &walk::push(path, "items"), depth + 1);
                    out.insert("items".into(), items);
                }
                match rest.take("minItems") {
                    Some(n) if python::is_zero_or_one(n) => {
                        out.insert("minItems".into(), n.clone());
                    }
                    Some(Value::Null) | None => {}
                    Some(n) => {
                        rest.put("minItems", n);
                    }
                }
            }
            _ => {}
        }
        if !rest.is_empty() {
            let mut text = match out.get("description") {
                Some(Value::String(d)) => format!("{d}\n\n"),
                Some(other) => {
                    let mut d = String::new();
                    python::str_of(other, &mut d);
                    d + "\n\n"
                }
                None => String::new(),
            };
            text.push('{');
            for (i, (key, value)) in rest.iter().enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                text.push_str(key);
                text.push_str(": ");
                python::str_of(value, &mut text);
            }
            text.push('}');
            if out.contains_key("description") {
                out.insert("description".into(), Value::String(text));
            } else {
                out = with_description(out, text);
            }
        }
        Value::Object(out)
    }

    fn list(&mut self, branches: &[Value], path: &str, key: &str, depth: usize) -> Value {
        let here = walk::push(path, key);
        let list = branches
            .iter()
            .enumerate()
            .map(|(i, b)| self.node(b, &walk::push(&here, &i.to_string()), depth + 1))
            .collect();
        Value::Array(list)
    }

    /// An object closed: its properties in the strict form, `additionalProperties: false`,
    /// `required` as written; a map or an object with any keys said to be narrowed.
    fn object(
        &mut self,
        rest: &mut python::Rest<'_>,
        out: &mut Map<String, Value>,
        path: &str,
        depth: usize,
    ) {
        let properties = rest.take("properties");
        match (rest.take("additionalProperties"), properties.is_some()) {
            (Some(Value::Bool(false)), _) | (None, true) => {}
            (None | Some(Value::Bool(true)), false) => self.narrow(
                path,
                "an object without `properties` accepts any keys and cannot be kept; \
                 list its keys",
            ),
            (Some(Value::Bool(true)), true) => self.narrow(
                &walk::push(path, "additionalProperties"),
                "an object that takes keys beyond its `properties` cannot be kept",
            ),
            (Some(_), _) => self.narrow(
                &walk::push(path, "additionalProperties"),
                "an object with free-form keys (a map) cannot be kept; every key must be listed",
            ),
        }
        if rest.contains_key("patternProperties") {
            self.narrow(
                &walk::push(path, "patternProperties"),
                "keys matching a pattern cannot be kept; every key must be listed",
            );
        }
        let here = walk::push(path, "properties");
        let mut strict = Map::new();
        for (name, prop) in properties.iter().flat_map(|p| p.as_object()).flatten() {
            let prop = self.node(prop, &walk::push(&here, name), depth + 1);
            strict.insert(name.clone(), prop);
        }
        if let Some(Value::Array(required)) = rest.get("required") {
            if let Some(missing) = required
                .iter()
                .find(|r| !r.as_str().is_some_and(|r| strict.contains_key(r)))
            {
                self.narrow(
                    &walk::push(path, "required"),
                    &format!(
                        "{missing} is required but has no property; a closed object forbids it"
                    ),
                );
            }
        }
        out.insert("properties".into(), Value::Object(strict));
        out.insert("additionalProperties".into(), Value::Bool(false));
        if let Some(required) = rest.take("required").filter(|v| !v.is_null()) {
            out.insert("required".into(), required.clone());
        }
    }
}

/// `out` with a `description` where the SDK puts one it reads (after the type or the
/// choice): the SDK adds a new one last, but a second pass moves it there, and what is sent must
/// be a fixed point, key order included.
fn with_description(out: Map<String, Value>, text: String) -> Map<String, Value> {
    const BEFORE: &[&str] = &["$defs", "enum", "const", "anyOf", "allOf", "type"];
    let at = out
        .keys()
        .take_while(|k| BEFORE.contains(&k.as_str()))
        .count();
    let mut placed = Map::with_capacity(out.len() + 1);
    let mut text = Some(text);
    for (i, (key, value)) in out.into_iter().enumerate() {
        if i == at {
            placed.insert(
                "description".into(),
                Value::String(text.take().unwrap_or_default()),
            );
        }
        placed.insert(key, value);
    }
    if let Some(text) = text {
        placed.insert("description".into(), Value::String(text));
    }
    placed
}

/// `{"anyOf": [every type]}`.
fn any_value_map() -> Map<String, Value> {
    let mut map = Map::with_capacity(1);
    map.insert("anyOf".into(), prepare::any_value());
    map
}

#[cfg(test)]
mod tests;
