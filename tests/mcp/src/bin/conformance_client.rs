//! Our MCP client as the official conformance suite (`@modelcontextprotocol/conformance`)
//! drives one: `conformance_client URL`, the scenario in `MCP_CONFORMANCE_SCENARIO`. It
//! connects with `McpSource::http` (public API only), answers the server's questions with the
//! form's defaults (`on_elicit` accepting an empty answer, so the client fills in each
//! field's `default`), calls every tool the server lists with arguments made from its schema,
//! and exits 0 when it could do so. `tests/conformance.rs` runs the client scenarios with it.

use std::process::ExitCode;

use serde_json::{json, Map, Value};
use toolnexus::ask::Elicited;
use toolnexus::mcp::{McpSource, OAuth};
use toolnexus::{Tool, Toolkit};

/// Arguments for a tool: each required property, a number as 1 more than the last one, a
/// string as `"test"`, a boolean as `true`.
fn arguments(tool: &dyn Tool) -> Value {
    let schema = tool.input_schema().as_value().clone();
    let mut args = Map::new();
    let properties = schema["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let required: Vec<String> = schema["required"]
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    for (n, name) in required.iter().enumerate() {
        let value = match properties.get(name).and_then(|p| p["type"].as_str()) {
            Some("number" | "integer") => json!(n + 2),
            Some("boolean") => json!(true),
            _ => json!("test"),
        };
        args.insert(name.clone(), value);
    }
    Value::Object(args)
}

/// OAuth as the auth scenarios test it: the "user" consents at once (the suite's
/// authorization server redirects straight back with a code), so the authorization URL is
/// fetched without following the redirect and its `Location` handed back; a pre-registered
/// client where the scenario's context gives one.
fn oauth() -> OAuth {
    let context: Value = std::env::var("MCP_CONFORMANCE_CONTEXT")
        .ok()
        .and_then(|c| serde_json::from_str(&c).ok())
        .unwrap_or_default();
    let oauth = OAuth::new("http://localhost:3000/callback", |url| async move {
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| e.to_string())?;
        let response = client.get(&url).send().await.map_err(|e| e.to_string())?;
        response
            .headers()
            .get(reqwest::header::LOCATION)
            .and_then(|l| l.to_str().ok())
            .map(str::to_owned)
            .ok_or_else(|| {
                format!(
                    "no redirect from the authorization URL ({})",
                    response.status()
                )
            })
    })
    .client_name("toolnexus-conformance")
    // The client ID metadata document the suite names as this client's (used where the
    // authorization server supports those; else the client registers dynamically).
    .client_metadata_url("https://conformance-test.local/client-metadata.json");
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    if scenario.starts_with("auth/client-credentials") {
        // A service with no user: the client's own credentials.
        if let (Some(id), Some(secret)) = (
            context["client_id"].as_str(),
            context["client_secret"].as_str(),
        ) {
            return OAuth::client_credentials(id, secret);
        }
    }
    match context["client_id"].as_str() {
        Some(id) => {
            oauth.registered_client(id, context["client_secret"].as_str().map(str::to_owned))
        }
        None => oauth,
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let Some(url) = std::env::args().nth(1) else {
        eprintln!("usage: conformance_client URL");
        return ExitCode::from(2);
    };
    let source = McpSource::http("conformance", url)
        .on_elicit(|_server, _question| async { Elicited::Accept(Map::new()) })
        .with_oauth(oauth());
    let connection = match source.connect().await {
        Ok(connection) => connection,
        Err(e) => {
            eprintln!("connect: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut toolkit = Toolkit::new();
    if let Err(e) = connection.add_to(&mut toolkit) {
        eprintln!("tools: {e}");
        return ExitCode::FAILURE;
    }
    for tool in toolkit.tools() {
        let result = toolkit.execute(tool.name(), arguments(&**tool)).await;
        println!("{}: {}", tool.name(), result.output);
    }
    ExitCode::SUCCESS
}
