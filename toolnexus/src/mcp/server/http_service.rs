//! [`McpHttpService`]: a served toolkit as a tower `Service` over streamable HTTP (feature
//! `mcp-http`), its checks in front of rmcp's service, and the accept loop of
//! [`McpServer::serve_http`].

use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::{Bytes, BytesMut};
use futures::future::BoxFuture;
use http::{Request, Response, StatusCode};
use http_body::Body;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty, Full};
use rmcp::transport::streamable_http_server::StreamableHttpService;

use super::gate;
use super::http_options::{HttpOptions, RETRY_AFTER_SECONDS};
use super::sessions::{Refused, Sessions};
use super::shares::{ClientCalls, Shares};
use super::McpServer;

/// The body of every response of [`McpHttpService`].
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
pub type McpHttpBody = BoxBody<Bytes, Infallible>;

/// An [`McpServer`] as a tower [`Service`](tower_service::Service) of streamable HTTP, to mount
/// in a host's own stack (axum's `Router::route_service`, hyper, any tower server), behind its
/// authentication, rate limits, CORS and TLS layers. Made by [`McpServer::http_service`];
/// [`McpHttpService::serve`] runs it on a listener alone.
///
/// Before rmcp sees a request, it checks what [`HttpOptions`] allow: the `Host` and `Origin`
/// (else `403`), the number of sessions for a request that would start one (else `503` with
/// `Retry-After`), the body's size in bytes ([`McpServer::with_max_request_bytes`]) and in JSON
/// values while it is read, and its read time (else `413` / `408`). Only then is it parsed.
///
/// ```no_run
/// use toolnexus::mcp::{HttpOptions, McpServer};
///
/// # async fn run(toolkit: toolnexus::Toolkit) -> Result<(), Box<dyn std::error::Error>> {
/// let service = McpServer::new(toolkit).http_service(HttpOptions::new());
/// // With axum: `Router::new().route_service("/mcp", service).layer(your_auth)`; alone:
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
/// service.serve(listener).await;
/// # Ok(()) }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
#[derive(Clone)]
pub struct McpHttpService {
    inner: Arc<Inner>,
}

/// What every clone of an [`McpHttpService`] shares (cloned for each request).
struct Inner {
    rmcp: StreamableHttpService<McpServer, Sessions>,
    sessions: Arc<Sessions>,
    options: HttpOptions,
    max_bytes: usize,
}

impl McpHttpService {
    /// `server` as a service of streamable HTTP under `options`: what
    /// [`McpServer::http_service`] gives.
    pub(super) fn new(mut server: McpServer, options: HttpOptions) -> Self {
        let sessions = Arc::new(Sessions::new(
            options.max_sessions,
            options.client_sessions(),
            options.idle,
        ));
        let max_bytes = server.max_request_bytes;
        let config = options.rmcp_config(max_bytes);
        server.sessions = Some(Arc::clone(&sessions));
        server.clients = Some(ClientCalls {
            key: Arc::clone(&options.client_key),
            shares: Shares::new(options.client_calls(server.max_calls)),
        });
        let stateless = options.stateless;
        let rmcp = StreamableHttpService::new(
            move || {
                // rmcp asks for a server per session, or per request when stateless.
                Ok(if stateless {
                    server.for_request()
                } else {
                    server.for_session()
                })
            },
            Arc::clone(&sessions),
            config,
        );
        Self {
            inner: Arc::new(Inner {
                rmcp,
                sessions,
                options,
                max_bytes,
            }),
        }
    }

    /// Serves on `listener` until the future is dropped: HTTP/1.1, each connection on its own
    /// task, at most [`HttpOptions::with_max_connections`] at once (one more is answered `503`
    /// and closed), each request's head and body within [`HttpOptions::with_read_timeout`].
    /// A connection that fails ends alone; a failed accept (out of file descriptors, say) is
    /// retried.
    pub async fn serve(self, listener: tokio::net::TcpListener) {
        let options = self.inner.options.clone();
        super::bounded::serve_bounded(listener, self, &options).await;
    }

    /// Answers one request: the checks, then rmcp.
    async fn handle<B>(self, request: Request<B>) -> Response<McpHttpBody>
    where
        B: Body + Send + 'static,
        B::Data: Send,
    {
        let authority = request.uri().authority().map(|a| a.as_str().to_owned());
        if let Some(reason) =
            gate::refusal(request.headers(), authority.as_deref(), &self.inner.options)
        {
            return plain(StatusCode::FORBIDDEN, reason);
        }
        let (mut parts, body) = request.into_parts();
        if let Some(resource) = &self.inner.options.resource {
            if parts.method == http::Method::GET && resource.is_metadata(parts.uri.path()) {
                let mut response =
                    Response::new(Full::new(Bytes::from(resource.metadata())).boxed());
                response.headers_mut().insert(
                    http::header::CONTENT_TYPE,
                    http::HeaderValue::from_static("application/json"),
                );
                return response;
            }
            match resource.check(&parts.headers).await {
                Ok(grant) => {
                    parts.extensions.insert(grant);
                }
                Err((status, challenge)) => {
                    let mut response = plain(status, status.canonical_reason().unwrap_or(""));
                    response
                        .headers_mut()
                        .insert(http::header::WWW_AUTHENTICATE, challenge);
                    return response;
                }
            }
        }
        if parts.method == http::Method::DELETE && !self.inner.options.stateless {
            return self.close(parts).await;
        }
        if parts.method != http::Method::POST {
            // A GET (the event stream) or a DELETE: rmcp reads no body of theirs.
            let request = Request::from_parts(parts, Empty::<Bytes>::new());
            return self.inner.rmcp.handle(request).await;
        }
        // The body first, within its bounds: a slow one holds no session slot while it comes.
        let body = match self.read(&parts.headers, body).await {
            Ok(body) => body,
            Err(response) => return response,
        };
        // A request without a session may open one: it holds a slot until it is answered.
        let opens = !self.inner.options.stateless && !parts.headers.contains_key("mcp-session-id");
        let reservation = if opens {
            let client = (self.inner.options.client_key)(&parts);
            match self.inner.sessions.reserve(client.as_deref()) {
                Ok(reservation) => Some(reservation),
                Err(refused) => return self.no_session(&refused),
            }
        } else {
            None
        };
        let response = self
            .inner
            .rmcp
            .handle(Request::from_parts(parts, Full::new(body)))
            .await;
        if let Some(reservation) = reservation {
            // The session it opened, if it opened one, stays its client's until it closes.
            let opened = response.headers().get("mcp-session-id");
            if let Some(Ok(id)) = opened.map(|id| id.to_str()) {
                reservation.opened(id);
            }
        }
        response
    }

    /// `503` with `Retry-After` for a request that would open a session past a cap.
    fn no_session(&self, refused: &Refused) -> Response<McpHttpBody> {
        let options = &self.inner.options;
        let why = match refused {
            Refused::Server => format!(
                "the server holds its maximum of {} sessions; retry later",
                options.max_sessions
            ),
            Refused::Client => format!(
                "this client holds its share of {} sessions; end one (DELETE) or retry later",
                options.client_sessions()
            ),
        };
        let mut response = plain(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("Service Unavailable: {why}"),
        );
        response
            .headers_mut()
            .insert(http::header::RETRY_AFTER, RETRY_AFTER_SECONDS.into());
        response
    }

    /// A `DELETE`: `404` for a session id this server never gave out or already closed, and a
    /// session it closes answered `200` (rmcp says `202`, which the official Python client
    /// logs as "Session termination failed").
    async fn close(self, parts: http::request::Parts) -> Response<McpHttpBody> {
        let id = parts.headers.get("mcp-session-id").map(|id| id.to_str());
        let Some(Ok(id)) = id else {
            return plain(
                StatusCode::BAD_REQUEST,
                "Bad Request: a DELETE names its session in one Mcp-Session-Id header",
            );
        };
        if !self.inner.sessions.is_open(id) {
            return plain(StatusCode::NOT_FOUND, "Not Found: no such session");
        }
        let request = Request::from_parts(parts, Empty::<Bytes>::new());
        let mut response = self.inner.rmcp.handle(request).await;
        if response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::OK;
        }
        response
    }

    /// The whole body, within the byte, value and time bounds.
    async fn read<B>(
        &self,
        headers: &http::HeaderMap,
        body: B,
    ) -> Result<Bytes, Response<McpHttpBody>>
    where
        B: Body + Send + 'static,
        B::Data: Send,
    {
        let too_large = || {
            plain(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "Payload Too Large: the request body exceeds {} bytes",
                    self.inner.max_bytes
                ),
            )
        };
        let declared = headers
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > self.inner.max_bytes as u64) {
            return Err(too_large());
        }
        let mut collected = BytesMut::new();
        let reading = async {
            let mut body = std::pin::pin!(body);
            while let Some(frame) = body.frame().await {
                let Ok(frame) = frame else {
                    return Err(plain(
                        StatusCode::BAD_REQUEST,
                        "Bad Request: the body failed",
                    ));
                };
                if let Ok(mut data) = frame.into_data() {
                    use bytes::Buf as _;
                    if data.remaining() > self.inner.max_bytes.saturating_sub(collected.len()) {
                        return Err(too_large());
                    }
                    while data.has_remaining() {
                        let chunk = data.chunk();
                        collected.extend_from_slice(chunk);
                        let n = chunk.len();
                        data.advance(n);
                    }
                }
            }
            Ok(())
        };
        // A body already here (most are) needs no timer.
        let read = {
            let mut reading = std::pin::pin!(reading);
            match futures::poll!(reading.as_mut()) {
                std::task::Poll::Ready(read) => Ok(read),
                std::task::Poll::Pending => {
                    tokio::time::timeout(self.inner.options.read_timeout, reading).await
                }
            }
        };
        match read {
            Ok(Ok(())) => {}
            Ok(Err(response)) => return Err(response),
            Err(_) => {
                return Err(plain(
                    StatusCode::REQUEST_TIMEOUT,
                    format!(
                        "Request Timeout: the body did not arrive within {:?}",
                        self.inner.options.read_timeout
                    ),
                ))
            }
        }
        if gate::values_over(&collected, self.inner.options.max_values) {
            return Err(plain(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "Payload Too Large: the request body holds more than {} JSON values",
                    self.inner.options.max_values
                ),
            ));
        }
        Ok(collected.freeze())
    }
}

/// A response with a plain-text body.
fn plain(status: StatusCode, text: impl Into<String>) -> Response<McpHttpBody> {
    let mut response = Response::new(Full::new(Bytes::from(text.into())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

impl<B> tower_service::Service<Request<B>> for McpHttpService
where
    B: Body + Send + 'static,
    B::Data: Send,
{
    type Response = Response<McpHttpBody>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}

impl std::fmt::Debug for McpHttpService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpHttpService")
            .field("options", &self.inner.options)
            .field("max_request_bytes", &self.inner.max_bytes)
            .finish_non_exhaustive()
    }
}
