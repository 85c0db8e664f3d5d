//! A root `anyOf` whose branches only list `required` properties ("at least one of these",
//! common in hand-written and MCP schemas), which no provider takes at the root: dropped, with
//! every property optional and the rule appended to the root's `description`. See
//! [`handwritten`](super::handwritten).

use serde_json::{Map, Value};

use crate::schema::ANY_PROVIDER;
use crate::values::error::SchemaError;

/// Keys a root `anyOf` branch may have and still be a list of required properties.
const REQUIRED_ONLY: [&str; 4] = ["required", "description", "title", "$comment"];

/// Drops a root `anyOf` of required lists, stating its rule in the root's `description`.
pub(super) fn lower_root_any_of(root: &mut Map<String, Value>) -> Result<(), SchemaError> {
    let refuse = |path: &str, why: String| {
        let mut e = SchemaError::new(path, why);
        e.provider = Some(ANY_PROVIDER);
        e
    };
    let Some(Value::Array(branches)) = root.get("anyOf") else {
        return Err(refuse("/anyOf", "`anyOf` must be a list of schemas".into()));
    };
    let props = root.get("properties").and_then(Value::as_object);
    let mut alternatives = Vec::with_capacity(branches.len());
    for (i, branch) in branches.iter().enumerate() {
        let here = format!("/anyOf/{i}");
        let names = match branch {
            Value::Object(b) => {
                if let Some(k) = b.keys().find(|k| !REQUIRED_ONLY.contains(&k.as_str())) {
                    return Err(refuse(
                        "/anyOf",
                        format!(
                            "`anyOf` is not allowed at the root unless each branch only lists \
                             `required` properties (\"at least one of these\"), and branch {i} \
                             has `{}`; the arguments must be one object with `properties` (a \
                             choice of shapes as the whole argument object cannot be expressed: \
                             wrap it in a property)",
                            crate::values::text::echo(k)
                        ),
                    ));
                }
                match b.get("required") {
                    Some(Value::Array(names)) if !names.is_empty() => names,
                    _ => {
                        return Err(refuse(
                            &here,
                            format!(
                                "branch {i} of the root `anyOf` must list at least one \
                                 `required` property"
                            ),
                        ))
                    }
                }
            }
            other => {
                return Err(refuse(
                    &here,
                    format!(
                        "branch {i} of the root `anyOf` must be an object listing `required` \
                         properties, not {}",
                        crate::values::text::kind(other)
                    ),
                ))
            }
        };
        let mut alternative = Vec::with_capacity(names.len());
        for (j, name) in names.iter().enumerate() {
            let at = format!("{here}/required/{j}");
            let Value::String(name) = name else {
                return Err(SchemaError::new(at, "`required` must be a list of names"));
            };
            if !props.is_some_and(|p| p.contains_key(name)) {
                return Err(refuse(
                    &at,
                    format!(
                        "`{}` is required by this `anyOf` branch but is not in `properties`; add \
                         it to `properties`",
                        crate::values::text::echo(name)
                    ),
                ));
            }
            alternative.push(format!("`{name}`"));
        }
        alternatives.push(alternative.join(" and "));
    }
    let rule = format!(
        "At least one of these must be given: {}.",
        alternatives.join("; ")
    );
    let described = match root.get("description") {
        Some(Value::String(d)) if !d.trim().is_empty() => {
            Some(format!("{} ({rule})", d.trim_end()))
        }
        _ => None,
    };
    let has_description = described.is_some();
    let mut rule = Some(described.unwrap_or(rule));
    *root = std::mem::take(root)
        .into_iter()
        .filter_map(|(k, v)| match k.as_str() {
            "anyOf" if has_description => None,
            "anyOf" => Some(("description".to_owned(), Value::from(rule.take()?))),
            "description" if has_description => {
                Some((k, Value::from(rule.take().unwrap_or_default())))
            }
            _ => Some((k, v)),
        })
        .collect();
    Ok(())
}
