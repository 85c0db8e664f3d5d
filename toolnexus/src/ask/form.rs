//! The restricted form of an elicitation (MCP 2025-11-25, `requestedSchema`): checked when a
//! question is made ([`check_form`]), and an accepted answer checked against it
//! ([`check_answer`]). Messages name the field by its path and never repeat an answer's value.

use serde_json::{Map, Value};

use crate::values::text::echo;

/// The members a form's root may have.
const ROOT_KEYS: &[&str] = &[
    "type",
    "properties",
    "required",
    "title",
    "description",
    "$schema",
];
/// The members every field may have, beside those of its kind.
const COMMON_KEYS: &[&str] = &["type", "title", "description", "default"];

/// `schema` as a form, or the first thing in it outside the restricted form.
pub(super) fn check_form(schema: Value) -> Result<Map<String, Value>, String> {
    let Value::Object(root) = schema else {
        return Err(
            "the form is a JSON object (`{\"type\": \"object\", \"properties\": …}`)".into(),
        );
    };
    if root.get("type") != Some(&Value::from("object")) {
        return Err("the form's `type` is `\"object\"`".into());
    }
    unknown_keys("the form", &root, ROOT_KEYS, &[])?;
    let empty = Map::new();
    let properties = match root.get("properties") {
        None => &empty,
        Some(Value::Object(properties)) => properties,
        Some(_) => return Err("`properties` is an object of fields".into()),
    };
    for (name, field) in properties {
        check_field(&format!("properties.{}", echo(name)), field)?;
    }
    match root.get("required") {
        None => {}
        Some(Value::Array(names)) => {
            for name in names {
                match name.as_str() {
                    Some(name) if properties.contains_key(name) => {}
                    Some(name) => {
                        return Err(format!(
                            "`required` names `{}`, which is no field",
                            echo(name)
                        ))
                    }
                    None => return Err("`required` is a list of field names".into()),
                }
            }
        }
        Some(_) => return Err("`required` is a list of field names".into()),
    }
    Ok(root)
}

/// One field of the form at `path`.
fn check_field(path: &str, field: &Value) -> Result<(), String> {
    let Value::Object(field) = field else {
        return Err(format!("`{path}` is a JSON object"));
    };
    let kind = field.get("type").and_then(Value::as_str).unwrap_or("");
    for key in ["title", "description"] {
        if field.get(key).is_some_and(|v| !v.is_string()) {
            return Err(format!("`{path}.{key}` is text"));
        }
    }
    match kind {
        "string" if field.contains_key("enum") || field.contains_key("oneOf") => {
            unknown_keys(path, field, COMMON_KEYS, &["enum", "enumNames", "oneOf"])?;
            choices(path, field).map(drop)
        }
        "string" => {
            unknown_keys(
                path,
                field,
                COMMON_KEYS,
                &["minLength", "maxLength", "format"],
            )?;
            for key in ["minLength", "maxLength"] {
                if field.get(key).is_some_and(|v| v.as_u64().is_none()) {
                    return Err(format!("`{path}.{key}` is a whole number"));
                }
            }
            match field.get("format") {
                None => Ok(()),
                Some(Value::String(f)) if ["email", "uri", "date", "date-time"].contains(&&**f) => {
                    Ok(())
                }
                Some(_) => Err(format!(
                    "`{path}.format` is one of `email`, `uri`, `date`, `date-time`"
                )),
            }
        }
        "number" | "integer" => {
            unknown_keys(path, field, COMMON_KEYS, &["minimum", "maximum"])?;
            for key in ["minimum", "maximum"] {
                if field.get(key).is_some_and(|v| !v.is_number()) {
                    return Err(format!("`{path}.{key}` is a number"));
                }
            }
            Ok(())
        }
        "boolean" => unknown_keys(path, field, COMMON_KEYS, &[]),
        "array" => {
            unknown_keys(path, field, COMMON_KEYS, &["items", "minItems", "maxItems"])?;
            for key in ["minItems", "maxItems"] {
                if field.get(key).is_some_and(|v| v.as_u64().is_none()) {
                    return Err(format!("`{path}.{key}` is a whole number"));
                }
            }
            let items_path = format!("{path}.items");
            match field.get("items") {
                Some(Value::Object(items)) => {
                    let is_string = items.get("type") == Some(&Value::from("string"));
                    let options = if items.contains_key("anyOf") {
                        "anyOf"
                    } else {
                        "enum"
                    };
                    if !(is_string || options == "anyOf") {
                        return Err(format!("`{items_path}` is a choice of strings"));
                    }
                    unknown_keys(&items_path, items, &["type"], &["enum", "anyOf"])?;
                    choices(&items_path, items).map(drop)
                }
                _ => Err(format!(
                    "`{path}` is a multiple choice: its `items` are a choice of strings \
                     (`enum`, or `anyOf` of `{{\"const\", \"title\"}}`)"
                )),
            }
        }
        "" => Err(format!("`{path}` needs a `type`")),
        other => Err(format!(
            "`{path}`: a field is a string, a number, an integer, a boolean or an array of \
             choices, not `{}`",
            echo(other)
        )),
    }
}

/// The values a choice field allows (`enum`, or the `const` of each `oneOf`/`anyOf` entry).
fn choices<'a>(path: &str, field: &'a Map<String, Value>) -> Result<Vec<&'a str>, String> {
    let listed = |key: &str| -> Result<Vec<&'a str>, String> {
        let Some(Value::Array(entries)) = field.get(key) else {
            return Err(format!("`{path}.{key}` is a list"));
        };
        let mut values = Vec::with_capacity(entries.len());
        for entry in entries {
            let value = if key == "enum" {
                entry.as_str()
            } else {
                entry.get("const").and_then(Value::as_str)
            };
            match value {
                Some(value) => values.push(value),
                None if key == "enum" => return Err(format!("`{path}.enum` lists strings")),
                None => {
                    return Err(format!(
                        "`{path}.{key}` lists `{{\"const\": \"…\", \"title\": \"…\"}}`"
                    ))
                }
            }
        }
        if values.is_empty() {
            return Err(format!("`{path}.{key}` offers at least one choice"));
        }
        Ok(values)
    };
    let key = ["enum", "oneOf", "anyOf"]
        .into_iter()
        .find(|k| field.contains_key(*k))
        .unwrap_or("enum");
    listed(key)
}

/// The first member of `object` that is neither `common` nor `own`.
fn unknown_keys(
    path: &str,
    object: &Map<String, Value>,
    common: &[&str],
    own: &[&str],
) -> Result<(), String> {
    match object
        .keys()
        .find(|k| !common.contains(&k.as_str()) && !own.contains(&k.as_str()))
    {
        None => Ok(()),
        Some(key) => Err(format!(
            "`{path}` has `{}`, which a form does not take",
            echo(key)
        )),
    }
}

/// Whether `content`, an accepted answer, fits `form` (already checked by [`check_form`]).
pub(super) fn check_answer(
    form: &Map<String, Value>,
    content: &Map<String, Value>,
) -> Result<(), String> {
    let empty = Map::new();
    let properties = form
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    if let Some(name) = content.keys().find(|k| !properties.contains_key(*k)) {
        return Err(format!("`{}` is not a field of the form", echo(name)));
    }
    let required = form.get("required").and_then(Value::as_array);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        if !content.contains_key(name) {
            return Err(format!("the required field `{}` is missing", echo(name)));
        }
    }
    for (name, value) in content {
        let Some(Value::Object(field)) = properties.get(name) else {
            continue;
        };
        check_value(&echo(name), field, value)?;
    }
    Ok(())
}

/// Whether `value` fits the field `field` called `name`.
fn check_value(name: &str, field: &Map<String, Value>, value: &Value) -> Result<(), String> {
    let kind = field.get("type").and_then(Value::as_str).unwrap_or("");
    let number = |key: &str| field.get(key).and_then(Value::as_f64);
    let count = |key: &str| field.get(key).and_then(Value::as_u64);
    match kind {
        "string" => {
            let Some(text) = value.as_str() else {
                return Err(format!("`{name}` is text"));
            };
            if field.contains_key("enum") || field.contains_key("oneOf") {
                let allowed = choices(name, field)?;
                if !allowed.contains(&text) {
                    return Err(format!("`{name}` is one of {}", listed(&allowed)));
                }
                return Ok(());
            }
            let chars = text.chars().count() as u64;
            if count("minLength").is_some_and(|min| chars < min)
                || count("maxLength").is_some_and(|max| chars > max)
            {
                return Err(format!(
                    "`{name}` has {chars} characters, outside the form's bounds"
                ));
            }
            Ok(())
        }
        "number" | "integer" => {
            let Some(n) = value.as_f64() else {
                return Err(format!("`{name}` is a number"));
            };
            if kind == "integer" && !(value.is_i64() || value.is_u64() || n.fract() == 0.0) {
                return Err(format!("`{name}` is a whole number"));
            }
            if number("minimum").is_some_and(|min| n < min)
                || number("maximum").is_some_and(|max| n > max)
            {
                return Err(format!("`{name}` is outside the form's bounds"));
            }
            Ok(())
        }
        "boolean" if value.is_boolean() => Ok(()),
        "boolean" => Err(format!("`{name}` is true or false")),
        "array" => {
            let Some(picked) = value.as_array() else {
                return Err(format!("`{name}` is a list of choices"));
            };
            let items = field.get("items").and_then(Value::as_object);
            let allowed = match items {
                Some(items) => choices(name, items)?,
                None => Vec::new(),
            };
            if picked
                .iter()
                .any(|p| !p.as_str().is_some_and(|p| allowed.contains(&p)))
            {
                return Err(format!("`{name}` picks from {}", listed(&allowed)));
            }
            let n = picked.len() as u64;
            if count("minItems").is_some_and(|min| n < min)
                || count("maxItems").is_some_and(|max| n > max)
            {
                return Err(format!("`{name}` picks {n}, outside the form's bounds"));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `["a", "b"]` as `` `a`, `b` `` (at most ten, then how many more).
fn listed(values: &[&str]) -> String {
    let mut out: Vec<String> = values
        .iter()
        .take(10)
        .map(|v| format!("`{}`", echo(v)))
        .collect();
    if values.len() > 10 {
        out.push(format!("… ({} in all)", values.len()));
    }
    out.join(", ")
}

/// Puts each field's `default` into `content` where `content` leaves the field out.
#[cfg(feature = "mcp")]
pub(super) fn fill_defaults(form: &Map<String, Value>, content: &mut Map<String, Value>) {
    let Some(properties) = form.get("properties").and_then(Value::as_object) else {
        return;
    };
    for (name, field) in properties {
        if let Some(default) = field.get("default") {
            if !content.contains_key(name) {
                content.insert(name.clone(), default.clone());
            }
        }
    }
}
