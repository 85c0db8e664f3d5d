//! The bounds of a schema that a provider's strict subset does not enforce (Anthropic moves
//! `minimum`, `maxLength`, `maxItems`, ... into the description; OpenAI strict mode moves the
//! lengths), checked on a decoded answer, so a `T` whose schema says "1 to 10" never comes back
//! holding 11: numeric bounds and `multipleOf`, string lengths, item counts, property counts.
//! `pattern`, `format` and `uniqueItems` are not checked (a `HashSet` takes a repeat as one).

use serde_json::{Map, Value};

use crate::schema::walk::{self, MAX_DEPTH};
use crate::values::text::echo_name;

/// Keywords this module checks: a schema without any has nothing to check.
const CHECKED: &[&str] = &[
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
];

/// The range of an integer `format` schemars writes for a Rust integer type: its
/// `minimum`/`maximum` there are the type's own, which decoding into it already checks.
fn width(format: &str) -> Option<(f64, f64)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "uint8" => (0.0, u8::MAX.into()),
        "uint16" => (0.0, u16::MAX.into()),
        "uint32" => (0.0, u32::MAX.into()),
        "uint64" | "uint" => (0.0, u64::MAX as f64),
        "int32" | "int64" | "int" => (f64::MIN, f64::MAX),
        _ => return None,
    })
}

/// Whether `key` of `map` is a bound decoding does not check already.
fn checks(map: &Map<String, Value>, key: &str) -> bool {
    if !CHECKED.contains(&key) {
        return false;
    }
    let natural = map.get("format").and_then(Value::as_str).and_then(width);
    match (key, natural, map.get(key).and_then(Value::as_f64)) {
        ("minimum", Some((min, _)), Some(bound)) => bound != min,
        ("maximum", Some((_, max)), Some(bound)) => bound != max,
        _ => true,
    }
}

/// Whether `schema` has a bound [`check`] reads anywhere in it, other than an integer type's
/// own range: without one, `parse` costs nothing more.
pub(super) fn has_bounds(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            map.keys().any(|k| checks(map, k))
                || map
                    .iter()
                    .filter(|(k, _)| {
                        !matches!(k.as_str(), "enum" | "const" | "default" | "examples")
                    })
                    .any(|(_, v)| has_bounds(v))
        }
        Value::Array(items) => items.iter().any(has_bounds),
        _ => false,
    }
}

/// The first bound of `root` that `answer` breaks: its field path (`items[2].price`, `None` for
/// the answer itself) and what is wrong.
pub(super) fn check(root: &Value, answer: &Value) -> Result<(), (Option<String>, String)> {
    Check { root }
        .node(root, answer, &mut String::new(), 0)
        .map_err(|(path, message)| ((!path.is_empty()).then_some(path), message))
}

struct Check<'a> {
    root: &'a Value,
}

type Broken = (String, String);

impl Check<'_> {
    fn node(
        &self,
        schema: &Value,
        value: &Value,
        path: &mut String,
        depth: usize,
    ) -> Result<(), Broken> {
        let Value::Object(map) = schema else {
            return Ok(());
        };
        if depth > MAX_DEPTH {
            return Ok(());
        }
        if let Some(target) = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| walk::resolve(self.root, r))
        {
            self.node(target, value, path, depth + 1)?;
        }
        for branch in map
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.node(branch, value, path, depth + 1)?;
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = map.get(key).and_then(Value::as_array) {
                self.choice(branches, value, path, depth)?;
            }
        }
        if !fits_type(map, value) {
            return Ok(());
        }
        own(map, value).map_err(|message| (path.clone(), message))?;
        match value {
            Value::Array(items) => self.items(map, items, path, depth),
            Value::Object(fields) => self.fields(map, fields, path, depth),
            _ => Ok(()),
        }
    }

    /// A value meets a choice when one branch of its type takes it; else the first such
    /// branch's complaint.
    fn choice(
        &self,
        branches: &[Value],
        value: &Value,
        path: &mut String,
        depth: usize,
    ) -> Result<(), Broken> {
        let mut first = None;
        for branch in branches {
            if !branch.as_object().is_none_or(|b| fits_type(b, value)) {
                continue;
            }
            match self.node(branch, value, path, depth + 1) {
                Ok(()) => return Ok(()),
                Err(broken) => {
                    first.get_or_insert(broken);
                }
            }
        }
        first.map_or(Ok(()), Err)
    }

    fn items(
        &self,
        map: &Map<String, Value>,
        items: &[Value],
        path: &mut String,
        depth: usize,
    ) -> Result<(), Broken> {
        let prefix = map.get("prefixItems").and_then(Value::as_array);
        for (i, item) in items.iter().enumerate() {
            let schema = match prefix.and_then(|p| p.get(i)) {
                Some(schema) => Some(schema),
                None => map.get("items").filter(|s| s.is_object()),
            };
            if let Some(schema) = schema {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                self.node(schema, item, path, depth + 1)?;
                path.truncate(len);
            }
        }
        Ok(())
    }

    fn fields(
        &self,
        map: &Map<String, Value>,
        fields: &Map<String, Value>,
        path: &mut String,
        depth: usize,
    ) -> Result<(), Broken> {
        let properties = map.get("properties").and_then(Value::as_object);
        let extra = map.get("additionalProperties").filter(|s| s.is_object());
        for (key, field) in fields {
            let Some(schema) = properties.and_then(|p| p.get(key)).or(extra) else {
                continue;
            };
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&echo_name(key));
            self.node(schema, field, path, depth + 1)?;
            path.truncate(len);
        }
        Ok(())
    }
}

/// Whether `value` is of a type `schema` declares (any, when it declares none).
fn fits_type(schema: &Map<String, Value>, value: &Value) -> bool {
    let is = |t: &str| match (t, value) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) | ("string", Value::String(_)) => true,
        ("array", Value::Array(_))
        | ("object", Value::Object(_))
        | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => n.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    };
    match schema.get("type") {
        Some(Value::String(t)) => is(t),
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).any(is),
        _ => true,
    }
}

/// The bounds of `schema` itself on `value`.
fn own(schema: &Map<String, Value>, value: &Value) -> Result<(), String> {
    let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
    let count = |key: &str| schema.get(key).and_then(Value::as_u64);
    match value {
        Value::Number(n) => {
            let Some(x) = n.as_f64() else { return Ok(()) };
            let shown = n.to_string();
            if let Some(min) = bound("minimum").filter(|min| x < *min) {
                return Err(format!("{shown} is less than the minimum {}", num(min)));
            }
            if let Some(max) = bound("maximum").filter(|max| x > *max) {
                return Err(format!("{shown} is more than the maximum {}", num(max)));
            }
            if let Some(min) = bound("exclusiveMinimum").filter(|min| x <= *min) {
                return Err(format!("{shown} must be more than {}", num(min)));
            }
            if let Some(max) = bound("exclusiveMaximum").filter(|max| x >= *max) {
                return Err(format!("{shown} must be less than {}", num(max)));
            }
            if let Some(step) = bound("multipleOf").filter(|s| *s > 0.0) {
                let q = x / step;
                if (q - q.round()).abs() > 1e-9 * q.abs().max(1.0) {
                    return Err(format!("{shown} is not a multiple of {}", num(step)));
                }
            }
        }
        Value::String(s) => {
            let chars = s.chars().count() as u64;
            if let Some(min) = count("minLength").filter(|min| chars < *min) {
                return Err(format!(
                    "expected at least {}, got {chars}",
                    many(min, "character")
                ));
            }
            if let Some(max) = count("maxLength").filter(|max| chars > *max) {
                return Err(format!(
                    "expected at most {}, got {chars}",
                    many(max, "character")
                ));
            }
        }
        Value::Array(items) => {
            let len = items.len() as u64;
            if let Some(min) = count("minItems").filter(|min| len < *min) {
                return Err(format!(
                    "expected at least {}, got {len}",
                    many(min, "item")
                ));
            }
            if let Some(max) = count("maxItems").filter(|max| len > *max) {
                return Err(format!("expected at most {}, got {len}", many(max, "item")));
            }
        }
        Value::Object(fields) => {
            let len = fields.len() as u64;
            if let Some(min) = count("minProperties").filter(|min| len < *min) {
                return Err(format!(
                    "expected at least {}, got {len}",
                    many(min, "field")
                ));
            }
            if let Some(max) = count("maxProperties").filter(|max| len > *max) {
                return Err(format!(
                    "expected at most {}, got {len}",
                    many(max, "field")
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

/// `1 item`, `2 items`.
fn many(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A bound as the schema wrote it (`10`, not `10.0`).
fn num(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        f.to_string()
    }
}

#[cfg(test)]
mod tests;
