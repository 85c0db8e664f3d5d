//! Our MCP server as the official conformance suite (`@modelcontextprotocol/conformance`,
//! pinned in scripts/mcp-peers/) expects one: the tools its server scenarios name, written
//! with toolnexus's public API only, served over streamable HTTP on `--http ADDR` (the URL is
//! printed as the first line). `tests/conformance.rs` runs the suite against it.
//!
//! McpServer serves tools; the suite's resources, prompts and completion scenarios are out of
//! scope (tests/mcp/conformance/expected-failures.yml says so, each with its reason).

use std::io::Write;
use std::time::Duration;

use serde_json::{json, Value};
use toolnexus::ask::{Elicitation, Elicited, Sampling};
use toolnexus::logging::LogLevel;
use toolnexus::mcp::McpServer;
use toolnexus::{tool, CallContext, Media, NativeTool, ToolResult, Toolkit};

/// A 1x1 red PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x08, 0xd7, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xdd, 0x8d, 0xb0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

/// A WAV file of no samples: the 44-byte header alone (8 kHz, mono, 8-bit).
fn wav() -> Vec<u8> {
    let mut out = Vec::with_capacity(44);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&36u32.to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&8000u32.to_le_bytes());
    out.extend_from_slice(&8000u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&8u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&0u32.to_le_bytes());
    out
}

/// Returns a line of text.
#[tool]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns a small PNG image.
#[tool]
fn test_image_content() -> Media {
    Media::image("image/png", PNG)
}

/// Returns a short WAV sound.
#[tool]
fn test_audio_content() -> Media {
    Media::audio("audio/wav", wav())
}

/// Returns an embedded text resource.
#[tool]
fn test_embedded_resource() -> ToolResult {
    ToolResult::ok("").with_media(
        Media::file(
            "text/plain",
            "This is an embedded resource content.",
            "embedded-resource",
        )
        .with_uri("test://embedded-resource"),
    )
}

/// Returns text, an image and an embedded JSON resource.
#[tool]
fn test_multiple_content_types() -> ToolResult {
    ToolResult::ok("Multiple content types test:")
        .with_image("image/png", PNG)
        .with_media(
            Media::file(
                "application/json",
                r#"{"test":"data","value":123}"#,
                "mixed-content-resource",
            )
            .with_uri("test://mixed-content-resource"),
        )
}

/// Logs three messages while it runs.
#[tool]
async fn test_tool_with_logging(ctx: CallContext) -> &'static str {
    ctx.log(LogLevel::Info, "Tool execution started");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool processing data");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool execution completed");
    "Tool with logging executed successfully"
}

/// Always fails.
#[tool]
fn test_error_handling() -> ToolResult {
    ToolResult::error("This tool intentionally returns an error for testing")
}

/// Reports progress 0, 50 and 100 of 100.
#[tool]
async fn test_tool_with_progress(ctx: CallContext) -> &'static str {
    for (i, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ctx.progress(done, Some(100.0), None);
    }
    "Tool with progress executed successfully"
}

/// Asks the client's model for a completion of `prompt`.
#[tool]
async fn test_sampling(
    /// The prompt to send to the model.
    prompt: String,
    ctx: CallContext,
) -> ToolResult {
    let request = Sampling::new(prompt, 100).with_timeout(Duration::from_secs(20));
    match ctx.sample(request).await {
        Ok(answer) => ToolResult::ok(format!("LLM response: {}", answer.text)),
        Err(e) => ToolResult::error(e.to_string()),
    }
}

/// Asks the user `form` with `message` and says what came back.
async fn ask(ctx: &CallContext, message: &str, form: Value, prefix: &str) -> ToolResult {
    let question = match Elicitation::form(message, form) {
        Ok(question) => question.with_timeout(Duration::from_secs(20)),
        Err(e) => return ToolResult::error(e.to_string()),
    };
    match ctx.elicit(question).await {
        Ok(Elicited::Accept(content)) => ToolResult::ok(format!(
            "{prefix}action=accept, content={}",
            Value::Object(content)
        )),
        Ok(Elicited::Decline) => ToolResult::ok(format!("{prefix}action=decline, content={{}}")),
        Ok(_) => ToolResult::ok(format!("{prefix}action=cancel, content={{}}")),
        Err(e) => ToolResult::error(e.to_string()),
    }
}

/// Asks the user for a username and an email address.
#[tool]
async fn test_elicitation(
    /// The message to show the user.
    message: String,
    ctx: CallContext,
) -> ToolResult {
    let form = json!({"type": "object", "properties": {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"}},
        "required": ["username", "email"]});
    ask(&ctx, &message, form, "User response: ").await
}

/// Asks the user for fields of every primitive type, each with a default.
#[tool]
async fn test_elicitation_sep1034_defaults(ctx: CallContext) -> ToolResult {
    let form = json!({"type": "object", "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
        "verified": {"type": "boolean", "default": true}}});
    ask(
        &ctx,
        "Please review and update the form fields with defaults",
        form,
        "Elicitation completed: ",
    )
    .await
}

/// Asks the user five choices, one of each kind of enum.
#[tool]
async fn test_elicitation_sep1330_enums(ctx: CallContext) -> ToolResult {
    let titled = |pairs: &[(&str, &str)]| -> Value {
        pairs
            .iter()
            .map(|(c, t)| json!({"const": c, "title": t}))
            .collect()
    };
    let form = json!({"type": "object", "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {"type": "string", "oneOf": titled(&[
            ("value1", "First Option"), ("value2", "Second Option"), ("value3", "Third Option")])},
        "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                       "enumNames": ["Option One", "Option Two", "Option Three"]},
        "untitledMulti": {"type": "array",
                          "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
        "titledMulti": {"type": "array", "items": {"anyOf": titled(&[
            ("value1", "First Choice"), ("value2", "Second Choice"), ("value3", "Third Choice")])}}}});
    ask(
        &ctx,
        "Please select options from the enum fields",
        form,
        "Elicitation completed: ",
    )
    .await
}

/// A hand-written tool whose schema uses JSON Schema 2020-12's `$schema`, `$defs` and
/// `additionalProperties`, which the listing must keep.
fn json_schema_2020_12_tool() -> Result<NativeTool, toolnexus::Error> {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {"address": {"type": "object", "properties": {
            "street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
        "additionalProperties": false
    });
    NativeTool::of(
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features",
        schema,
        |args| async move { format!("received {args}") },
    )
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let addr = args
        .windows(2)
        .find(|w| w[0] == "--http")
        .map_or("127.0.0.1:0", |w| w[1].as_str());
    let toolkit = Toolkit::new()
        .with((
            TestSimpleText,
            TestImageContent,
            TestAudioContent,
            TestEmbeddedResource,
            TestMultipleContentTypes,
            TestToolWithLogging,
            TestErrorHandling,
            TestToolWithProgress,
            TestSampling,
            TestElicitation,
            TestElicitationSep1034Defaults,
            TestElicitationSep1330Enums,
        ))?
        .with(json_schema_2020_12_tool()?)?;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let mut stdout = std::io::stdout();
    writeln!(stdout, "http://{}/mcp", listener.local_addr()?)?;
    stdout.flush()?;
    McpServer::new(toolkit).serve_http(listener).await;
    Ok(())
}
