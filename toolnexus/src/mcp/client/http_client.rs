//! The HTTP client of [`McpSource::http`](super::McpSource::http): each message from the
//! server (a JSON body, an event of a stream) is measured against [`McpLimits`] before the SDK
//! parses it, as a stdio line is (`frame`). rmcp's reqwest client holds bodies to a byte
//! bound only, and parsing what fits in it can cost a gigabyte (15 MiB of zeros, 500,000 empty
//! content blocks); so the POST, whose answer it would parse itself, is sent here, and the
//! events of the GET stream it opens are judged on their way to the SDK.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use futures::stream::{BoxStream, StreamExt, TryStreamExt};
use http::{HeaderName, HeaderValue, StatusCode};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorData, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, HttpStatusError, InsufficientScopeError, SseError, StreamableHttpClient,
    StreamableHttpError, StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use sse_stream::{Sse, SseStream};

use super::source::McpLimits;
use crate::mcp::frame::{error_line, judge_whole, Verdict};

type Error = StreamableHttpError<reqwest::Error>;

/// The content types of MCP's streamable HTTP.
const EVENT_STREAM: &str = "text/event-stream";
const JSON: &str = "application/json";

/// The challenge a server answered with (`WWW-Authenticate` of a `401` or `403`), as the HTTP
/// client saw it.
pub(crate) type Challenge = std::sync::Arc<std::sync::Mutex<Option<String>>>;

/// The challenge `seen` holds, taken out.
pub(crate) fn take(seen: &Challenge) -> Option<String> {
    seen.lock().ok().and_then(|mut seen| seen.take())
}

/// A reqwest client whose answers are held to `limits` before the SDK parses them.
#[derive(Clone)]
pub(crate) struct Counted {
    http: reqwest::Client,
    limits: McpLimits,
    /// Where the last `WWW-Authenticate` challenge goes: what the server asked for, for the
    /// connect's error or its authorization.
    pub(crate) challenge: Option<Challenge>,
}

impl Counted {
    /// A client that pools no idle connections and follows only same-origin redirects that
    /// keep the method (307, 308; at most 10), as rmcp's own does: a cross-origin redirect
    /// would hand the session id and the host's headers (a token) to another host.
    pub(crate) fn new(limits: McpLimits) -> Result<Self, reqwest::Error> {
        let redirects = reqwest::redirect::Policy::custom(|attempt| {
            let keeps_body = matches!(
                attempt.status(),
                StatusCode::TEMPORARY_REDIRECT | StatusCode::PERMANENT_REDIRECT
            );
            let same_origin = attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() == attempt.url().origin());
            if !keeps_body || !same_origin {
                attempt.stop()
            } else if attempt.previous().len() > 10 {
                attempt.error("more than 10 redirects")
            } else {
                attempt.follow()
            }
        });
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .redirect(redirects)
            .build()?;
        Ok(Self {
            http,
            limits,
            challenge: None,
        })
    }

    /// A whole message as the SDK may read it: itself, or what `frame` replaces it with (an
    /// error for its id naming the limit, a `tools/list` page with markers); `None` when it is
    /// to be dropped.
    fn judged(&self, message: Vec<u8>) -> Option<Vec<u8>> {
        match judge_whole(&message, &self.limits) {
            Verdict::Pass => Some(message),
            Verdict::Replace(text) => Some(text.trim_end().as_bytes().to_vec()),
            Verdict::Drop => None,
        }
    }

    /// An event of a stream as the SDK may read it (`None`: dropped).
    fn judged_event(&self, mut event: Sse) -> Option<Sse> {
        let Some(data) = event.data.take() else {
            return Some(event); // A priming event, a retry: nothing to parse.
        };
        let data = self.judged(data.into_bytes())?;
        event.data = Some(String::from_utf8(data).ok()?);
        Some(event)
    }

    /// The events of `stream`, each judged.
    fn judged_events(
        &self,
        stream: BoxStream<'static, Result<Sse, SseError>>,
    ) -> BoxStream<'static, Result<Sse, SseError>> {
        let this = self.clone();
        stream
            .filter_map(move |event| {
                let judged = match event {
                    Ok(event) => this.judged_event(event).map(Ok),
                    Err(error) => Some(Err(error)),
                };
                std::future::ready(judged)
            })
            .boxed()
    }
}

/// Whether the value of a `Content-Type` header is `expected`, whatever its parameters.
fn media_type_is(value: &str, expected: &str) -> bool {
    value
        .split(';')
        .next()
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case(expected))
}

/// The body, at most `max` bytes (an error past them).
async fn read_bounded(response: reqwest::Response, max: usize) -> Result<Vec<u8>, Error> {
    if response.content_length().is_some_and(|n| n > max as u64) {
        return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: max });
    }
    let mut body = Vec::new();
    let mut chunks = std::pin::pin!(response.bytes_stream());
    while let Some(chunk) = chunks.try_next().await? {
        if chunk.len() > max - body.len() {
            return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: max });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The first `max` bytes of the body, for a message (the rest is not read).
async fn read_prefix(response: reqwest::Response, max: usize) -> String {
    let mut body = Vec::new();
    let mut chunks = std::pin::pin!(response.bytes_stream());
    while body.len() < max {
        match chunks.next().await {
            Some(Ok(chunk)) => body.extend_from_slice(&chunk[..chunk.len().min(max - body.len())]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&body).into_owned()
}

/// Why an event stream was cut short.
#[derive(Debug)]
enum Cut {
    /// An event passed this many bytes.
    TooLarge(usize),
    Read(reqwest::Error),
}

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooLarge(max) => write!(
                f,
                "the server's answer has more than {max} bytes, the limit \
                 (McpLimits::max_message_bytes); it was not read"
            ),
            Self::Read(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for Cut {}

/// The events of the stream answering a POST: cut once one event passes `max` bytes (before
/// the SSE parser holds more of it), and then, when the POST was a request, one event more that
/// answers it with an error naming the limit, so it fails at once rather than waiting for a
/// reconnection; nothing after.
fn bounded_events(
    bytes: impl futures::Stream<Item = Result<Bytes, reqwest::Error>> + Send + 'static,
    max: usize,
    request: Option<serde_json::Value>,
) -> BoxStream<'static, Result<Sse, SseError>> {
    let mut size = EventSize::default();
    let bytes = bytes
        .map(move |chunk| {
            let chunk = chunk.map_err(Cut::Read)?;
            if size.feed(&chunk) > max {
                return Err(Cut::TooLarge(max));
            }
            Ok(chunk)
        })
        .scan(false, |failed, item| {
            let next = (!*failed).then(|| {
                *failed = item.is_err();
                item
            });
            std::future::ready(next)
        });
    SseStream::from_bytes_stream(bytes)
        .map(move |event| match event {
            Err(SseError::Body(cut)) => match (cut.downcast_ref::<Cut>(), &request) {
                (Some(too_large @ Cut::TooLarge(_)), Some(id)) => Ok(Sse {
                    data: Some(error_line(id, &too_large.to_string()).trim_end().to_owned()),
                    ..Sse::default()
                }),
                _ => Err(SseError::Body(cut)),
            },
            other => other,
        })
        .boxed()
}

/// The size of the event being received: its bytes since the blank line that ended the last.
#[derive(Default)]
struct EventSize {
    event: usize,
    line: usize,
    after_cr: bool,
}

impl EventSize {
    /// Feeds the next bytes; the largest size the event reached.
    fn feed(&mut self, bytes: &[u8]) -> usize {
        let mut largest = self.event;
        for &b in bytes {
            match b {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    if self.line == 0 {
                        self.event = 0; // A blank line: the event ended.
                    }
                    self.line = 0;
                }
                _ => {
                    self.after_cr = false;
                    self.line += 1;
                    self.event += 1;
                    largest = largest.max(self.event);
                }
            }
        }
        largest
    }
}

/// A header the transport sets itself, which the host's headers may not replace
/// (`MCP-Protocol-Version` the SDK adds after the handshake, so it passes).
fn reserved(name: &HeaderName) -> bool {
    ["accept", "mcp-session-id", "last-event-id"]
        .iter()
        .any(|r| name.as_str().eq_ignore_ascii_case(r))
}

/// A `server/discover` refused with a `4xx` by a server of an older protocol: an error answer
/// for its id, so the SDK falls back to `initialize` (it cannot correlate the server's own).
fn discover_refused(
    message: &ClientJsonRpcMessage,
    session: bool,
    status: StatusCode,
    body: &str,
) -> Option<StreamableHttpPostResponse> {
    if session
        || !status.is_client_error()
        || matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN)
    {
        return None;
    }
    let ClientJsonRpcMessage::Request(request) = message else {
        return None;
    };
    if !matches!(request.request, ClientRequest::DiscoverRequest(_)) {
        return None;
    }
    let error = match serde_json::from_str::<ServerJsonRpcMessage>(body) {
        Ok(ServerJsonRpcMessage::Error(error)) => error.error,
        _ => ErrorData::invalid_request(
            format!("server/discover refused with HTTP {status}: {body}"),
            None,
        ),
    };
    Some(StreamableHttpPostResponse::Json(
        ServerJsonRpcMessage::error(error, Some(request.id.clone())),
        None,
    ))
}

/// The `scope` of a `WWW-Authenticate` challenge, quoted or not.
fn scope_of(challenge: &str) -> Option<String> {
    let at = challenge.to_ascii_lowercase().find("scope=")? + "scope=".len();
    let rest = &challenge[at..];
    match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next().map(str::to_owned),
        None => rest
            .split([',', ' '])
            .next()
            .filter(|s| !s.is_empty())
            .map(str::to_owned),
    }
}

impl StreamableHttpClient for Counted {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, Error> {
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            StreamableHttpResponseLimits::default(),
        )
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, Error> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, Error> {
        let body = serde_json::to_vec(&message)?;
        let mut request = self
            .http
            .post(uri.as_ref())
            .header(http::header::ACCEPT, format!("{EVENT_STREAM}, {JSON}"))
            .header(http::header::CONTENT_TYPE, JSON);
        if let Some(token) = auth_header {
            request = request.bearer_auth(token);
        }
        for (name, value) in custom_headers {
            if reserved(&name) {
                return Err(StreamableHttpError::ReservedHeaderConflict(
                    name.to_string(),
                ));
            }
            request = request.header(name, value);
        }
        let session = session_id.is_some();
        if let Some(id) = session_id {
            request = request.header("Mcp-Session-Id", id.as_ref());
        }
        let response = request.body(body).send().await?;
        let status = response.status();
        let header = |name: http::header::HeaderName| {
            response
                .headers()
                .get(name)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        };
        if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
            if let Some(challenge) = header(http::header::WWW_AUTHENTICATE) {
                if let Some(seen) = &self.challenge {
                    if let Ok(mut seen) = seen.lock() {
                        *seen = Some(challenge.clone());
                    }
                }
                return Err(if status == StatusCode::UNAUTHORIZED {
                    StreamableHttpError::AuthRequired(AuthRequiredError::new(challenge))
                } else {
                    let scope = scope_of(&challenge);
                    StreamableHttpError::InsufficientScope(InsufficientScopeError::new(
                        challenge, scope,
                    ))
                });
            }
        }
        if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == StatusCode::NOT_FOUND && session {
            return Err(StreamableHttpError::SessionExpired);
        }
        let content_type = header(http::header::CONTENT_TYPE);
        let is = |expected| {
            content_type
                .as_deref()
                .is_some_and(|ct| media_type_is(ct, expected))
        };
        // A rate limit or a server error: the SDK may retry it, after `Retry-After`.
        let retry_after = header(http::header::RETRY_AFTER);
        let mut retry_status = (status == StatusCode::TOO_MANY_REQUESTS
            || status.is_server_error())
        .then(|| HttpStatusError::new(status.as_u16(), retry_after));
        if !is(JSON) || status == StatusCode::TOO_MANY_REQUESTS {
            if let Some(error) = retry_status.take() {
                return Err(error.into());
            }
        }
        let new_session = header(HeaderName::from_static("mcp-session-id"));
        let answers_nothing = !matches!(message, ClientJsonRpcMessage::Request(_));
        if status.is_success() && response.content_length() == Some(0) && answers_nothing {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if !status.is_success() {
            // A JSON-RPC error in the body is the SDK's to see; anything else is a message.
            let auth = matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN);
            let text = if is(JSON) && !auth {
                let body = match read_bounded(response, limits.max_json_response_size).await {
                    Ok(body) => body,
                    Err(error @ StreamableHttpError::ResponseBodyTooLarge { .. }) => {
                        return Err(retry_status.map(Into::into).unwrap_or(error))
                    }
                    Err(error) => return Err(error),
                };
                let body = self.judged(body).unwrap_or_default();
                let text = String::from_utf8_lossy(&body).into_owned();
                if let Ok(error @ ServerJsonRpcMessage::Error(_)) =
                    serde_json::from_slice::<ServerJsonRpcMessage>(&body)
                {
                    if let Some(answer) = discover_refused(&message, session, status, &text) {
                        return Ok(answer);
                    }
                    return Ok(StreamableHttpPostResponse::Json(error, new_session));
                }
                text.chars().take(limits.max_error_response_size).collect()
            } else {
                read_prefix(response, limits.max_error_response_size).await
            };
            if let Some(answer) = discover_refused(&message, session, status, &text) {
                return Ok(answer);
            }
            if let Some(error) = retry_status {
                return Err(error.into());
            }
            return Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                format!("HTTP {status}: {text}"),
            )));
        }
        if is(EVENT_STREAM) {
            let request = match &message {
                ClientJsonRpcMessage::Request(request) => serde_json::to_value(&request.id).ok(),
                _ => None,
            };
            let events =
                bounded_events(response.bytes_stream(), limits.max_sse_event_size, request);
            return Ok(StreamableHttpPostResponse::Sse(
                self.judged_events(events),
                new_session,
            ));
        }
        if is(JSON) {
            let body = read_bounded(response, limits.max_json_response_size).await?;
            let parsed = self
                .judged(body)
                .map(|body| serde_json::from_slice::<ServerJsonRpcMessage>(&body));
            return match parsed {
                Some(Ok(parsed)) => Ok(StreamableHttpPostResponse::Json(parsed, new_session)),
                _ if answers_nothing => Ok(StreamableHttpPostResponse::Accepted),
                Some(Err(error)) => Err(StreamableHttpError::UnexpectedServerResponse(Cow::Owned(
                    format!("the server's answer is not JSON-RPC: {error}"),
                ))),
                None => Err(StreamableHttpError::UnexpectedServerResponse(
                    Cow::Borrowed("the server's answer is past the client's limits and has no id"),
                )),
            };
        }
        if answers_nothing {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        Err(StreamableHttpError::UnexpectedContentType(content_type))
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), Error> {
        self.http
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Error> {
        let events = self
            .http
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await?;
        Ok(self.judged_events(events))
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<BoxStream<'static, Result<Sse, SseError>>, Error> {
        let events = self
            .http
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await?;
        Ok(self.judged_events(events))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_s_size_counts_from_the_blank_line_that_ended_the_last() {
        let mut size = EventSize::default();
        assert_eq!(size.feed(b"data: 12345\n"), 11);
        assert_eq!(size.feed(b"data: 1"), 18);
        assert_eq!(size.feed(b"\n\n"), 18);
        assert_eq!(size.feed(b"data: 1\r\n\r\ndata: 12\r\r"), 8);
        assert_eq!(size.feed(b"id: 1\n"), 5);
    }

    #[test]
    fn a_scope_is_read_quoted_or_not() {
        assert_eq!(
            scope_of(r#"Bearer error="insufficient_scope", scope="files:read files:write""#)
                .as_deref(),
            Some("files:read files:write")
        );
        assert_eq!(
            scope_of("Bearer scope=read:data, x=1").as_deref(),
            Some("read:data")
        );
        assert_eq!(scope_of("Bearer realm=x"), None);
    }
}
