//! Streamable HTTP, the client side (feature `mcp-http`): the transport for
//! [`McpSource::http`](super::McpSource::http).

use std::collections::HashMap;

use http::{HeaderName, HeaderValue};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;

use super::connection::{self, McpConnection};
use super::http_client::{take, Challenge, Counted};
use super::McpSource;
use crate::mcp::error::McpError;
use crate::values::text::echo;

pub(crate) async fn connect(source: McpSource) -> Result<McpConnection, McpError> {
    let url = source.url.clone().unwrap_or_default();
    let mut headers = HashMap::new();
    for (name, value) in &source.headers {
        let invalid = |what: &str| McpError::Initialize {
            server: source.name.clone(),
            reason: format!("the header `{name}` has an invalid {what}"),
        };
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|_| invalid("name"))?;
        let value = HeaderValue::from_str(value).map_err(|_| invalid("value"))?;
        headers.insert(name, value);
    }
    // Each body and event is held to `max_message_bytes` before it is read, and to
    // `max_message_values` before the SDK parses it (`Counted`).
    let config = StreamableHttpClientTransportConfig::with_uri(url)
        .custom_headers(headers)
        .max_json_response_size(source.limits.max_message_bytes)
        .max_sse_event_size(source.limits.max_message_bytes);
    // reqwest panics while building its client when the application turned on rustls without
    // a crypto provider (`rustls-no-provider`) and installed none: an error here instead.
    let built = std::panic::catch_unwind(|| Counted::new(source.limits));
    let Ok(Ok(client)) = built else {
        return Err(McpError::Initialize {
            server: source.name.clone(),
            reason: "the HTTP client could not be built: with reqwest's `rustls-no-provider` \
                     feature, install a rustls crypto provider first \
                     (`rustls::crypto::ring::default_provider().install_default()`)"
                .to_owned(),
        });
    };
    #[cfg(feature = "mcp-oauth")]
    if let Some(oauth) = source.oauth.clone() {
        return authorized(source, oauth, client, config).await;
    }
    let mut client = client;
    let seen = Challenge::default();
    client.challenge = Some(seen.clone());
    let name = source.name.clone();
    let transport = StreamableHttpClientTransport::with_client(client, config);
    let error = match connection::start(source, transport, None).await {
        Ok(connection) => return Ok(connection),
        Err(error) => error,
    };
    // Refused for want of authorization: say so, and what the host can do.
    match take(&seen) {
        Some(challenge) => Err(McpError::Initialize {
            server: name,
            reason: format!(
                "the server asks for authorization (`WWW-Authenticate: {}`): give the source an \
                 `OAuth` (`McpSource::with_oauth`, feature `mcp-oauth`) or a token in an \
                 `Authorization` header",
                echo(&challenge)
            ),
        }),
        None => Err(error),
    }
}

/// Connects with the tokens `oauth` holds; when the server answers with a challenge instead,
/// authorizes once (the host's `authorize` in the loop) and connects again.
#[cfg(feature = "mcp-oauth")]
async fn authorized(
    source: McpSource,
    oauth: super::OAuth,
    client: Counted,
    config: StreamableHttpClientTransportConfig,
) -> Result<McpConnection, McpError> {
    use rmcp::transport::auth::AuthClient;
    let url = source.url.clone().unwrap_or_default();
    let failed = |reason: String| McpError::Initialize {
        server: source.name.clone(),
        reason,
    };
    let mut authorized_once = false;
    loop {
        let seen = Challenge::default();
        let mut client = client.clone();
        client.challenge = Some(seen.clone());
        let manager = super::oauth::manager(&url, &oauth).await.map_err(failed)?;
        let client = super::step_up::StepUp {
            inner: AuthClient::new(client, manager),
            url: url.as_str().into(),
            oauth: oauth.clone(),
        };
        let transport = StreamableHttpClientTransport::with_client(client, config.clone());
        let error = match connection::start(source.clone(), transport, None).await {
            Ok(connection) => return Ok(connection),
            Err(error) => error,
        };
        match take(&seen) {
            Some(challenge) if !authorized_once => {
                authorized_once = true;
                super::oauth::authorize(&url, &oauth, &challenge)
                    .await
                    .map_err(failed)?;
            }
            Some(challenge) => {
                return Err(failed(format!(
                    "the server still refuses after authorization (`WWW-Authenticate: {}`)",
                    echo(&challenge)
                )))
            }
            None => return Err(error),
        }
    }
}
