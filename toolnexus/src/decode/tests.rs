//! `decode_str`'s error messages against a second implementation (serde_path_to_error).

use super::*;

mod oracle {
    //! The decoding errors as serde_path_to_error reports them: the field path tracked while
    //! decoding, and for valid JSON that the text decoder calls malformed, the value decoder's
    //! error. A second implementation for `decode_str` to agree with.
    use serde::de::DeserializeOwned;
    use serde_json::Value;

    pub(super) fn message<T: DeserializeOwned>(text: &str) -> Option<String> {
        let mut de = serde_json::Deserializer::from_str(text);
        let e = match serde_path_to_error::deserialize::<_, T>(&mut de) {
            Ok(_) => return de.end().err().map(|e| not_json(&e)),
            Err(e) => e,
        };
        let e = if e.inner().is_syntax() || e.inner().is_eof() {
            match serde_json::from_str::<Value>(text) {
                Ok(value) => match serde_path_to_error::deserialize::<_, T>(value) {
                    Ok(_) => return Some("decodes as a value".to_owned()),
                    Err(e) => e,
                },
                Err(e) => return Some(not_json(&e)),
            }
        } else {
            e
        };
        let message = e.inner().to_string();
        let message = match message.rfind(" at line ") {
            Some(at) if e.inner().line() > 0 => message[..at].to_owned(),
            _ => message,
        };
        let path = e.path().to_string();
        Some(if path == "." {
            format!("invalid arguments for `t`: {message}")
        } else {
            format!("invalid arguments for `t`: `{path}`: {message}")
        })
    }

    fn not_json(e: &serde_json::Error) -> String {
        format!("invalid arguments for `t`: the arguments are not valid JSON ({e}); send one JSON object")
    }
}

#[derive(serde::Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Args {
    city: String,
    days: Option<u8>,
    inner: Option<Inner>,
    tags: Option<Vec<u32>>,
    unit: Option<Unit>,
    pair: Option<(u8, bool)>,
    map: Option<std::collections::BTreeMap<String, u8>>,
    shape: Option<Shape>,
    list: Option<Vec<Inner>>,
}

#[derive(serde::Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Inner {
    a: u8,
    b: Option<Vec<Leaf>>,
}

#[derive(serde::Deserialize, Debug)]
#[allow(dead_code)]
struct Leaf {
    x: bool,
}

#[derive(serde::Deserialize, Debug)]
#[allow(dead_code)]
enum Unit {
    Metric,
    Imperial,
}

#[derive(serde::Deserialize, Debug)]
#[allow(dead_code)]
enum Shape {
    Circle { r: f64 },
    Square(u8),
}

#[test]
fn decode_errors_name_the_path_serde_path_to_error_names() {
    let bodies = [
        r#""city":1"#,
        r#""city":"x","days":"3""#,
        r#""city":"x","days":300"#,
        r#""days":3"#,
        r#""city":"x","country":"y""#,
        r#""city":"x","inner":{"a":1,"c":2}"#,
        r#""city":"x","inner":{"a":"1"}"#,
        r#""city":"x","inner":{"b":[]}"#,
        r#""city":"x","inner":{"a":1,"b":[{"x":true},{"x":1}]}"#,
        r#""city":"x","inner":{"a":1,"b":[{"x":true},{}]}"#,
        r#""city":"x","tags":[1,2,"3"]"#,
        r#""city":"x","tags":[1,-2]"#,
        r#""city":"x","tags":{}"#,
        r#""city":"x","unit":false"#,
        r#""city":"x","unit":"Kelvin""#,
        r#""city":"x","unit":[1]"#,
        r#""city":"x","unit":{}"#,
        r#""city":"x","unit":{"Metric":null,"Imperial":null}"#,
        r#""city":"x","shape":{}"#,
        r#""city":"x","shape":{"Circle":{"r":1},"Square":2}"#,
        r#""city":"x","unit":12"#,
        r#""city":"x","unit":null,"days":"q""#,
        r#""city":"x","pair":[1]"#,
        r#""city":"x","pair":[1,2]"#,
        r#""city":"x","map":{"a":1,"b":"2"}"#,
        r#""city":"x","map":{"a\"b":"2"}"#,
        r#""city":"x","shape":{"Circle":{"r":"1"}}"#,
        r#""city":"x","shape":{"Square":"1"}"#,
        r#""city":"x","shape":{"Oval":{}}"#,
        r#""city":"x","shape":true"#,
        r#""city":"x","list":[{"a":1},{"a":2,"b":[{"x":null}]}]"#,
        r#""city":"x","list":[{"a":1},{"a":2,"b":[{"x":true}],"z":0}]"#,
        r#""ci\u0074y":5"#,
        r#""city":"x",,"#,
        r#""city":"x","city":"y""#,
        r#""city":"x","inner":{"a":1,"a":2}"#,
        r#""city":"#,
        r#""city":"x","#,
        r#""city":"x
y""#,
        r#""city":"a\"b,c}","days":"x""#,
        r#""city":"ü→","days":-1"#,
        r#""city":"x","inner":{"a":1,"b":[]},"tags":[[]]"#,
        r#""city":"x","tags":[1, {}]"#,
        r#""city":"x","list":[{"a":1}, []]"#,
        r#""city":"x","list":[{"a":1}, {"a":1,"b":[[]]}]"#,
        r#""city":"x""#,
    ];
    for body in bodies {
        for text in [
            format!("{{{body}}}"),
            format!("{{ {} }}", body.replace(',', " ,\n  ").replace(':', " :\t")),
        ] {
            let ours = decode_str::<Args>("t", &text).err().map(|r| r.output);
            assert_eq!(ours, oracle::message::<Args>(&text), "{text}");
        }
    }
}
