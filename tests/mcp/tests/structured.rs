//! Structured results both ways against the official Python MCP SDK: a server of its own whose
//! results carry `structuredContent` next to an image or text (what the toolkit's result then
//! holds), and our server's `outputSchema` and `structuredContent` as its client validates them.

use serde_json::json;
use toolnexus::mcp::McpSource;
use toolnexus::Toolkit;
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
