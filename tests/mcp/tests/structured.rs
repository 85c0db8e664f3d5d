//! Structured results both ways against the official Python MCP SDK: a server of its own whose
//! results carry `structuredContent` next to an image or text (what the toolkit's result then
//! holds), and our server's `outputSchema` and `structuredContent` as its client validates them.

use serde_json::json;
use toolnexus::mcp::McpSource;
use toolnexus::{Tool, Toolkit};
use toolnexus_mcp_tests::{python, root};

#[tokio::test]
async fn an_image_with_structured_content_reaches_the_model_once() {
    let Some(python) = python() else {
        return;
    };
    let connection = McpSource::stdio("py-media", python)
        .arg(root().join("tests/mcp/py/media_server.py"))
        .connect()
        .await
        .expect("the Python SDK's server connects over stdio");
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).unwrap();

    // The server's `structuredContent` repeats the image's base64: it stays out of the text.
    let snapshot = toolkit.execute("snapshot", json!({})).await;
    assert!(!snapshot.is_error, "{}", snapshot.output);
    assert_eq!(snapshot.output, "");
    assert_eq!(snapshot.media.len(), 1);
    assert!(snapshot.media[0].is_image());
    assert!(snapshot.media[0].data().starts_with(b"\x89PNG"));
    assert_eq!(snapshot.media[0].data().len(), 8 + 256 * 64);
    let structured = &snapshot.metadata.as_ref().unwrap()["structuredContent"];
    assert_eq!(structured["content"][0]["mimeType"], "image/png");

    let summary = toolkit.execute("summary", json!({})).await;
    assert_eq!(summary.output, "3 files");
    assert_eq!(
        summary.metadata.unwrap()["structuredContent"],
        json!({"count": 3})
    );

    // Nothing but structured content: that is the text the model reads.
    let only = toolkit.execute("only_data", json!({})).await;
    assert_eq!(only.output, r#"{"celsius":21.5}"#);
    assert!(only.media.is_empty() && only.metadata.is_none());
}

const FIXTURE: &str = env!("CARGO_BIN_EXE_fixture_server");

#[tokio::test]
async fn our_client_keeps_the_output_schema_and_the_structured_result() {
    let connection = McpSource::stdio("fixture", FIXTURE)
        .arg("--structured")
        .connect()
        .await
        .unwrap();
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).unwrap();
    let weather = toolkit.get("weather").unwrap();
    let schema = weather.output_schema().expect("the listed outputSchema");
    assert_eq!(schema["properties"]["celsius"]["type"], "number");
    assert_eq!(schema["required"], json!(["city", "celsius"]));
    assert!(toolkit.get("echo").unwrap().output_schema().is_none());

    let result = toolkit.execute("weather", json!({"city": "Chennai"})).await;
    assert_eq!(result.output, r#"{"city":"Chennai","celsius":31.5}"#);
    assert_eq!(
        result.metadata.unwrap()["structuredContent"],
        json!({"city": "Chennai", "celsius": 31.5})
    );
}

#[test]
fn the_python_sdk_s_client_validates_our_structured_results() {
    let Some(python) = python() else {
        return;
    };
    let output = std::process::Command::new(python)
        .arg(root().join("tests/mcp/py/structured_client.py"))
        .arg(FIXTURE)
        .arg("--structured")
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "structured_client.py failed:\n{}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let schemas = &report["output_schemas"];
    assert_eq!(schemas["weather"]["properties"]["city"]["type"], "string");
    assert!(schemas.get("echo").is_none(), "{schemas}");
    // Validated by the SDK against the schema, with the text copy next to it.
    assert_eq!(
        report["weather"],
        json!({
            "is_error": false,
            "structured": {"city": "Chennai", "celsius": 31.5},
            "text": [r#"{"city":"Chennai","celsius":31.5}"#],
        })
    );
    // The SDK does validate: a result that breaks its schema is refused.
    let bad = report["bad_weather"].as_str().unwrap();
    assert!(
        bad.starts_with("Invalid structured content returned by tool bad_weather"),
        "{bad}"
    );
}
