//! Tools from servers no one here wrote (`@modelcontextprotocol/server-everything`, npm, and
//! `mcp-server-time`, PyPI) are hand-written schemas: rendered for every dialect, each
//! provider's official SDK (or botocore's model, for Bedrock) accepts the request that carries
//! them, as `tests/sdk` judges the crate's own tools (`validate_tools.py`, and each dialect's
//! script for whole bodies, `Sdk::bodies` of tests/common/dialects).

use std::process::Command;

use serde_json::{json, Value};
use toolnexus::mcp::{McpConnection, McpSource};
use toolnexus::{Dialect, Toolkit, ToolsOptions};
use toolnexus_mcp_tests::{everything, python, root};

#[path = "../../common/mod.rs"]
mod common;

use common::dialects;
use common::generate::Rng;

/// Both servers' tools in one toolkit, with the connections that keep them alive.
async fn third_party_tools(python: &std::path::Path) -> Option<(Vec<McpConnection>, Toolkit)> {
    let bin = everything()?;
    let everything = McpSource::stdio("everything", bin)
        .arg("stdio")
        .connect()
        .await
        .expect("server-everything connects over stdio");
    let time = McpSource::stdio("time", python.with_file_name("mcp-server-time"))
        .arg("--local-timezone=UTC")
        .connect()
        .await
        .expect("mcp-server-time connects over stdio");
    let mut toolkit = Toolkit::new();
    everything.add_to(&mut toolkit).expect("its tools join");
    time.add_to(&mut toolkit).expect("its tools join");
    Some((vec![everything, time], toolkit))
}

/// Runs a `tests/sdk` script (a path from the repository root) on `input` (written next to the test's other files) with the
/// venv's Python; its stdout, after asserting it succeeded.
fn sdk_script(python: &std::path::Path, script: &str, input: &Value, file: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(file);
    std::fs::write(&path, serde_json::to_vec_pretty(input).unwrap()).unwrap();
    let out = Command::new(python)
        .arg(root().join(script))
        .arg(&path)
        .current_dir(root().join("tests/sdk"))
        .output()
        .expect("the venv's python runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{script} refused the third-party tools ({}):\n{stdout}{}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[tokio::test]
async fn third_party_tools_reach_every_provider_in_a_form_its_sdk_accepts() {
    let Some(python) = python() else {
        return;
    };
    let Some((_connections, toolkit)) = third_party_tools(&python).await else {
        return;
    };
    assert!(
        toolkit.len() >= 10,
        "{:?}",
        toolkit.names().collect::<Vec<_>>()
    );
    assert!(toolkit.get("get_current_time").is_some() && toolkit.get("get-sum").is_some());

    // OpenAI's rules the SDK does not check at run time (its tool types are TypedDicts): a
    // root that is an object without a choice of shapes, and `items` on every array.
    for tool in toolkit.to_openai().iter() {
        let parameters = &tool["function"]["parameters"];
        assert_eq!(parameters["type"], "object", "{tool}");
        for key in ["anyOf", "oneOf", "allOf", "enum", "const", "not"] {
            assert!(parameters.get(key).is_none(), "{key} at the root: {tool}");
        }
        let text = parameters.to_string();
        assert_eq!(
            text.matches(r#""type":"array""#).count(),
            count_arrays_with_items(parameters),
            "an array without items: {tool}"
        );
    }

    let report = sdk_script(
        &python,
        "tests/sdk/validate_tools.py",
        &json!({
            "gemini_tools": toolkit.to_gemini(),
            "openai_tools": toolkit.to_openai(),
            "openai_strict_tools": toolkit.tools_for(Dialect::OpenAiChat, ToolsOptions::default().with_strict(true)),
            "responses_tools": toolkit.tools_for(Dialect::OpenAiResponses, ToolsOptions::default()),
            "responses_strict_tools": toolkit.tools_for(Dialect::OpenAiResponses, ToolsOptions::default().with_strict(true)),
            "anthropic_tools": toolkit.to_anthropic(),
            "cases": [],
        }),
        "third_party_tools.json",
    );
    let report: Value = serde_json::from_str(&report).expect("a JSON report");
    assert_eq!(report["failures"], json!([]), "{report}");
    assert!(report["checked"].as_u64().unwrap() > 0, "{report}");

    // Every dialect with a script for whole bodies (botocore's service model for Bedrock, the
    // cohere SDK's types for Cohere): a whole request carrying the tools, next to the
    // fixture's response and stream without calls.
    for fixture in dialects::ALL {
        let Some(script) = fixture.sdk().bodies else {
            continue;
        };
        let dialect = fixture.dialect();
        let tools = serde_json::to_value(toolkit.tools_for(dialect, ToolsOptions::default()));
        let request = fixture.request(
            vec![dialect.user_message("What time is it?")],
            Some(tools.unwrap()),
        );
        let cases = json!({"requests": [request], "responses": [fixture.response(&[])],
            "stream_events": fixture.events(&mut Rng(1), &[])});
        let key = fixture.sdk().key;
        let said = sdk_script(&python, script, &cases, &format!("third_party_{key}.json"));
        assert!(
            said.contains("accepted by") && said.contains(": 1 requests"),
            "{key}: {said}"
        );
    }
}

/// How many arrays in `schema` (at any depth) have `items`.
fn count_arrays_with_items(schema: &Value) -> usize {
    match schema {
        Value::Object(map) => {
            let own = usize::from(
                map.get("type").and_then(Value::as_str) == Some("array")
                    && map.contains_key("items"),
            );
            own + map.values().map(count_arrays_with_items).sum::<usize>()
        }
        Value::Array(items) => items.iter().map(count_arrays_with_items).sum(),
        _ => 0,
    }
}
