//! Byte-identity with the reference toolnexus packages (issue 2, point 7).
//!
//! `tests/golden/reference_adapters.json` was produced by `scripts/gen_golden.py` running the
//! Python package `toolnexus==0.21.0` from PyPI: it holds the hand-written tools and the compact
//! JSON (`json.dumps(..., separators=(",", ":"), ensure_ascii=False)`) each reference adapter
//! printed for them. Here the same tools are built with `NativeTool::of` from the same file and
//! every adapter's `serde_json::to_string` must equal those bytes exactly.

use serde_json::Value;
use toolnexus::{to_anthropic, to_gemini, to_openai, Dialect, NativeTool, Toolkit, ToolsOptions};

fn golden() -> Value {
    let text = include_str!("../golden/reference_adapters.json");
    serde_json::from_str(text).expect("the golden file is JSON")
}

fn tools(golden: &Value) -> Vec<NativeTool> {
    golden["tools"]
        .as_array()
        .expect("tools is an array")
        .iter()
        .map(|t| {
            NativeTool::of(
                t["name"].as_str().unwrap(),
                t["description"].as_str().unwrap(),
                t["input_schema"].clone(),
                |_| async { "" },
            )
            .expect("the golden tools are valid")
        })
        .collect()
}

fn expected(golden: &Value, key: &str) -> String {
    golden[key]
        .as_str()
        .expect("expected output is a string")
        .to_owned()
}

#[test]
fn openai_bytes_equal_the_reference() {
    let g = golden();
    assert_eq!(
        serde_json::to_string(&to_openai(&tools(&g))).unwrap(),
        expected(&g, "openai")
    );
}

#[test]
fn anthropic_bytes_equal_the_reference() {
    let g = golden();
    assert_eq!(
        serde_json::to_string(&to_anthropic(&tools(&g))).unwrap(),
        expected(&g, "anthropic")
    );
}

#[test]
fn gemini_bytes_equal_the_reference() {
    let g = golden();
    assert_eq!(
        serde_json::to_string(&to_gemini(&tools(&g))).unwrap(),
        expected(&g, "gemini")
    );
}

#[test]
fn toolkit_methods_equal_the_free_functions() {
    let g = golden();
    let mut toolkit = Toolkit::new();
    for tool in tools(&g) {
        toolkit.add(tool).unwrap();
    }
    assert_eq!(
        serde_json::to_string(&toolkit.to_openai()).unwrap(),
        expected(&g, "openai")
    );
    assert_eq!(
        serde_json::to_string(&toolkit.to_anthropic()).unwrap(),
        expected(&g, "anthropic")
    );
    assert_eq!(
        serde_json::to_string(&toolkit.to_gemini()).unwrap(),
        expected(&g, "gemini")
    );
}

#[test]
fn zero_tools_equal_the_reference() {
    let g = golden();
    let none: &[NativeTool] = &[];
    assert_eq!(
        serde_json::to_string(&to_openai(none)).unwrap(),
        expected(&g, "openai_empty")
    );
    assert_eq!(
        serde_json::to_string(&to_anthropic(none)).unwrap(),
        expected(&g, "anthropic_empty")
    );
    assert_eq!(
        serde_json::to_string(&to_gemini(none)).unwrap(),
        expected(&g, "gemini_empty")
    );
    assert_eq!(
        expected(&g, "gemini_empty"),
        r#"[{"functionDeclarations":[]}]"#
    );
}

#[test]
fn the_golden_file_covers_non_ascii_nesting_and_no_parameters() {
    // Guards the fixture itself: if it is regenerated with fewer cases, this says so.
    let g = golden();
    let gemini = expected(&g, "gemini");
    assert!(
        gemini.contains("東京") && gemini.contains("🌦️"),
        "raw non-ASCII text, not \\u escapes"
    );
    assert!(
        gemini.contains(r#"\n\tQuote: \"sunny\" \\ slash / done"#),
        "escapes as the reference writes them"
    );
    assert!(
        gemini.contains(r#""address":{"type":"object","properties":{"street""#),
        "nested properties"
    );
    assert!(gemini.contains(r#"{"name":"ping","description":"Health check","parameters":{"type":"object","properties":{}}}"#));
}

#[test]
fn cached_json_equals_the_reference_and_is_refreshed_when_a_tool_is_added() {
    let g = golden();
    let mut toolkit = Toolkit::new();
    let all = tools(&g);
    let (last, first) = all.split_last().unwrap();
    for tool in first {
        toolkit.add(tool.clone()).unwrap();
    }
    let before = toolkit
        .tools_json_for(Dialect::Gemini, ToolsOptions::default())
        .get()
        .to_owned();
    assert_ne!(before, expected(&g, "gemini"), "one tool short");
    toolkit.add(last.clone()).unwrap();
    assert_eq!(toolkit.to_openai_json().get(), expected(&g, "openai"));
    assert_eq!(
        toolkit
            .tools_json_for(Dialect::Anthropic, ToolsOptions::default())
            .get(),
        expected(&g, "anthropic")
    );
    assert_eq!(
        toolkit
            .tools_json_for(Dialect::Gemini, ToolsOptions::default())
            .get(),
        expected(&g, "gemini")
    );
    assert_eq!(
        Toolkit::new()
            .tools_json_for(Dialect::Gemini, ToolsOptions::default())
            .get(),
        expected(&g, "gemini_empty")
    );
}
