//! OpenAI strict-mode argument pruning (`InputSchema::strict_nulls_to_absent`, issue 16): any
//! JSON as the arguments, against schemas with recursion (`$ref` cycles through `anyOf`/`oneOf`
//! branches that declare the same properties), optional fields and arrays. Nothing may panic;
//! pruning only removes `null`-valued keys, is idempotent, and its work stays linear in the
//! size of the arguments (at most one look at each subschema per container).
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use std::sync::OnceLock;
use toolnexus::InputSchema;

fn schemas() -> &'static [(InputSchema, usize)] {
    static SCHEMAS: OnceLock<Vec<(InputSchema, usize)>> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let filter = json!({
            "type": "object",
            "properties": {
                "filter": {"$ref": "#/$defs/Filter"},
                "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 0},
                "note": {"type": "string"}
            },
            "required": ["filter"],
            "$defs": {"Filter": {"oneOf": [
                {"type": "object", "properties": {
                    "op": {"type": "string", "const": "and"},
                    "filters": {"type": "array", "items": {"$ref": "#/$defs/Filter"}}},
                 "required": ["op", "filters"]},
                {"type": "object", "properties": {
                    "op": {"type": "string", "const": "or"},
                    "filters": {"type": "array", "items": {"$ref": "#/$defs/Filter"}}},
                 "required": ["op", "filters"]},
                {"type": "object", "properties": {
                    "op": {"type": "string", "const": "eq"},
                    "field": {"type": "string"},
                    "value": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/Filter"}]},
                    "hint": {"type": "string"}},
                 "required": ["op", "field"]}
            ]}}
        });
        // A node that refers to itself, twice in one `anyOf` (the walk must see each once).
        let cyclic = json!({
            "type": "object",
            "properties": {"node": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {
                "type": "object",
                "properties": {
                    "a": {"type": "integer"},
                    "next": {"$ref": "#/$defs/Node"},
                    "list": {"type": "array", "items": {"anyOf": [
                        {"$ref": "#/$defs/Node"}, {"$ref": "#/$defs/Node"}, {"type": "null"}]}}
                }
            }}
        });
        let flat = json!({
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer"},
                "tags": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}},
                "maybe": {"type": ["string", "null"]}
            },
            "required": ["city"]
        });
        [filter, cyclic, flat]
            .into_iter()
            .map(|s| {
                let n = subschemas(&s);
                (InputSchema::new(s).unwrap(), n)
            })
            .collect()
    })
}

fn subschemas(schema: &Value) -> usize {
    match schema {
        Value::Array(items) => items.iter().map(subschemas).sum(),
        Value::Object(map) => 1 + map.values().map(subschemas).sum::<usize>(),
        _ => 0,
    }
}

fn containers(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(containers).sum::<usize>(),
        Value::Object(map) => 1 + map.values().map(containers).sum::<usize>(),
        _ => 0,
    }
}

/// `after` is `before` with some `null`-valued object keys removed, nothing else changed.
fn only_nulls_removed(before: &Value, after: &Value) -> bool {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            a.keys().all(|k| b.contains_key(k))
                && b.iter().all(|(k, bv)| match a.get(k) {
                    Some(av) => only_nulls_removed(bv, av),
                    None => bv.is_null(),
                })
                // Order kept.
                && a.keys().eq(b.keys().filter(|k| a.contains_key(*k)))
        }
        (Value::Array(b), Value::Array(a)) => {
            b.len() == a.len() && b.iter().zip(a).all(|(b, a)| only_nulls_removed(b, a))
        }
        (b, a) => b == a,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(args) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    for (schema, subschemas) in schemas() {
        let mut pruned = args.clone();
        let work = toolnexus::__private::strict_prune_work(schema, &mut pruned);
        assert!(
            work <= subschemas * containers(&args).max(1),
            "{work} units for {} containers and {subschemas} subschemas",
            containers(&args)
        );
        assert!(only_nulls_removed(&args, &pruned));
        let mut again = pruned.clone();
        schema.strict_nulls_to_absent(&mut again);
        assert_eq!(again, pruned, "pruning is idempotent");
    }
});
