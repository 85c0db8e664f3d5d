//! Random schemas (a fixed seed, so the same every run) through Anthropic's strict form, judged
//! by the SDK (`tests/sdk/check_strict_schemas.py`): every form is a fixed point of
//! `transform_schema`, sent again it is one too, and wherever the SDK reads the input as it
//! stands it makes exactly our form. The same schemas' OpenAI strict forms are fixed points of
//! OpenAI's strict helper, and their Gemini forms pass google-genai's `t_schema`.

use serde_json::{json, Value};

use crate::strict_schemas::inputs_read_alike;

/// A small deterministic generator (xorshift), so the random schemas are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Plain values as they appear in `default`, `examples`, `enum` and `const`.
fn plain_value(rng: &mut Rng) -> Value {
    match rng.below(6) {
        0 => Value::Null,
        1 => json!(rng.chance(50)),
        2 => json!(rng.below(2000) as i64 - 1000),
        3 => json!(*rng.pick(&[0.5, 1e-05, 2.0, 1e20, -3.25])),
        4 => json!(*rng.pick(&["a", "it's", "say \"hi\"", "line\nbreak", "x\\y", "é"])),
        _ => json!([1, "b", null]),
    }
}

/// `key: value` into `s`, three times in ten.
fn maybe(s: &mut serde_json::Map<String, Value>, key: &str, value: Value, rng: &mut Rng) {
    if rng.chance(30) {
        s.insert(key.into(), value);
    }
}

/// A random subschema `depth` levels from the leaves, with the keywords schemas carry.
fn random_schema(rng: &mut Rng, depth: u32) -> Value {
    let mut s = serde_json::Map::new();
    let types = [
        "string", "integer", "number", "boolean", "null", "array", "object",
    ];
    let kind = if depth == 0 {
        rng.below(5)
    } else {
        rng.below(7)
    };
    match rng.below(10) {
        0 if depth > 0 => {
            let key = *rng.pick(&["anyOf", "oneOf"]);
            let branches: Vec<Value> = (0..1 + rng.below(3))
                .map(|_| random_schema(rng, depth - 1))
                .collect();
            s.insert(key.into(), Value::Array(branches));
        }
        1 => {
            let list = [
                types[kind as usize],
                *rng.pick(&["null", "string", "integer"]),
            ];
            s.insert("type".into(), json!(list));
        }
        2 => {
            let values: Vec<Value> = (0..1 + rng.below(3)).map(|_| plain_value(rng)).collect();
            s.insert("enum".into(), Value::Array(values));
        }
        3 => {
            // The root's definition, with keywords beside the reference or not.
            s.insert("$ref".into(), json!("#/$defs/D"));
            if rng.chance(50) {
                s.insert("description".into(), json!("See D."));
            }
            return Value::Object(s);
        }
        4 if depth > 0 => {
            let branches: Vec<Value> = (0..2).map(|_| random_schema(rng, depth - 1)).collect();
            s.insert("allOf".into(), Value::Array(branches));
        }
        _ => {
            s.insert("type".into(), json!(types[kind as usize]));
        }
    }
    let kind = types[kind as usize];
    if rng.chance(40) {
        let text = *rng.pick(&["A field.", "It's \"quoted\".", "Two\nlines."]);
        s.insert("description".into(), json!(text));
    }
    maybe(&mut s, "title", json!("T"), rng);
    maybe(&mut s, "default", plain_value(rng), rng);
    match kind {
        "string" => {
            maybe(&mut s, "minLength", json!(rng.below(3)), rng);
            maybe(&mut s, "maxLength", json!(3 + rng.below(10)), rng);
            maybe(&mut s, "pattern", json!("^[a-z']+$"), rng);
            let format = *rng.pick(&["date-time", "uuid", "uri", "uri-reference", "byte", ""]);
            maybe(&mut s, "format", json!(format), rng);
        }
        "integer" | "number" => {
            maybe(&mut s, "minimum", json!(rng.below(10)), rng);
            maybe(&mut s, "maximum", json!(10.5), rng);
            maybe(&mut s, "exclusiveMinimum", json!(-1), rng);
            maybe(
                &mut s,
                "multipleOf",
                json!(*rng.pick(&[0.5, 3.0, 1e-05])),
                rng,
            );
            maybe(
                &mut s,
                "format",
                json!(*rng.pick(&["int32", "uint8", "double"])),
                rng,
            );
        }
        "array" => {
            if depth > 0 {
                maybe(&mut s, "items", random_schema(rng, depth - 1), rng);
            }
            maybe(&mut s, "minItems", json!(rng.below(4)), rng);
            maybe(&mut s, "maxItems", json!(4 + rng.below(4)), rng);
            maybe(&mut s, "uniqueItems", json!(true), rng);
        }
        "object" if depth > 0 => {
            let mut props = serde_json::Map::new();
            for name in ["a", "b's", "c"].iter().take(1 + rng.below(3) as usize) {
                props.insert((*name).into(), random_schema(rng, depth - 1));
            }
            let first = props.keys().next().cloned().unwrap_or_default();
            s.insert("properties".into(), Value::Object(props));
            maybe(&mut s, "required", json!([first]), rng);
            maybe(&mut s, "additionalProperties", json!(false), rng);
            maybe(&mut s, "minProperties", json!(1), rng);
        }
        _ => {}
    }
    Value::Object(s)
}

/// Random schemas: where the SDK can read one as Anthropic gets it, it makes exactly our strict
/// form; and every strict form is a fixed point.
#[test]
fn random_schemas_are_read_as_the_sdk_reads_them() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let (mut fixed, mut readable) = (Vec::new(), Vec::new());
    let (mut openai, mut gemini) = (Vec::new(), Vec::new());
    for i in 0..400 {
        let v = random_schema(&mut rng, 3);
        let root = json!({"type": "object", "properties": {"v": v}, "required": ["v"],
                          "$defs": {"D": random_schema(&mut rng, 1)}});
        let Ok(schema) = toolnexus::InputSchema::new(root) else {
            continue;
        };
        // The other providers' forms of the same schema, by their SDKs' rules too.
        if let Ok(strict) = schema.for_openai_strict() {
            openai.push(json!({"name": format!("random {i}"), "schema": strict}));
        }
        gemini.push(json!({"name": format!("random {i}"), "schema": schema.for_gemini()}));
        let Ok(strict) = schema.for_anthropic_strict() else {
            continue;
        };
        // A strict form sent again as a schema (a host that stores what it sent) is strict as
        // well, and its form a fixed point too (merging may go a step further the second time).
        let again = toolnexus::InputSchema::new(strict.clone()).unwrap();
        let again = again
            .for_anthropic_strict()
            .unwrap_or_else(|e| panic!("case {i}: {e}\nfirst form: {strict}"));
        fixed.push(json!({"name": format!("random {i} again"), "schema": again}));
        let name = format!("random {i}");
        fixed.push(json!({"name": name, "schema": strict}));
        readable.push(json!({"name": name, "input": schema.for_anthropic(), "schema": strict}));
    }
    assert!(
        fixed.len() > 200,
        "only {} random schemas were strict",
        fixed.len()
    );
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/check_strict_schemas.py",
        &json!({"anthropic": &fixed, "anthropic_readable": readable, "openai": &openai,
                "gemini": &gemini}),
        "strict_schemas_random.json",
    ) else {
        return;
    };
    assert!(ok, "{report}");
    assert!(
        report.contains(&format!("{} anthropic,", fixed.len()))
            && report.contains(&format!(
                "{} openai, {} gemini,",
                openai.len(),
                gemini.len()
            )),
        "{report}"
    );
    // Where the SDK reads the input as it stands (no type list, nothing we rewrite on purpose),
    // it makes exactly our form: a third of the cases or so.
    assert!(inputs_read_alike(&report) >= 100, "{report}");
}
