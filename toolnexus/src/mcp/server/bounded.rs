//! Serving HTTP with the bounds [`HttpOptions`] sets (feature `mcp-http`): at most so many
//! connections at once (one more is answered `503` and closed), and each request's head within
//! the read timeout, so idle sockets cannot hold the cap. [`McpHttpService::serve`] runs on it,
//! and so can a host's own router that mounts the service (an axum `Router` with its auth
//! layer), which keeps every bound the service has.
//!
//! [`McpHttpService::serve`]: super::McpHttpService::serve

use std::collections::HashMap;
use std::error::Error as StdError;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use http::{Request, Response};
use http_body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;

use super::http_options::{HttpOptions, RETRY_AFTER_SECONDS};

/// Serves `service` (any tower service over hyper's request bodies: an
/// [`McpHttpService`](super::McpHttpService), or a host's router that mounts one) on `listener`
/// until the future is dropped, with the connection bounds of `options`: HTTP/1.1, each
/// connection on its own task, at most [`HttpOptions::with_max_connections`] at once and
/// [`HttpOptions::with_max_connections_per_client`] from one peer address (one more is
/// answered `503` and closed), each request's head within
/// [`HttpOptions::with_read_timeout`] (an idle socket is cut then). A connection that fails
/// ends alone; a failed accept (out of file descriptors, say) is retried. Each request carries
/// its peer's [`PeerAddr`] in its extensions, which names its client for the per-client shares
/// of sessions and calls ([`HttpOptions::with_client_key`]).
///
/// `axum::serve` keeps no such bounds: a few thousand idle sockets would pin every file
/// descriptor. Serve a router that mounts the MCP service with this instead:
///
/// ```no_run
/// # async fn run(toolkit: toolnexus::Toolkit) -> Result<(), Box<dyn std::error::Error>> {
/// use toolnexus::mcp::{serve_bounded, HttpOptions, McpServer};
///
/// let options = HttpOptions::new();
/// let service = McpServer::new(toolkit).http_service(options.clone());
/// // let app = axum::Router::new().route_service("/mcp", service).layer(your_auth_layer);
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
/// serve_bounded(listener, service, &options).await;
/// # Ok(()) }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
pub async fn serve_bounded<S, B>(
    listener: tokio::net::TcpListener,
    service: S,
    options: &HttpOptions,
) where
    S: tower_service::Service<Request<Incoming>, Response = Response<B>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Into<Box<dyn StdError + Send + Sync>>,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    let slots = Arc::new(tokio::sync::Semaphore::new(options.max_connections));
    let clients = Arc::new(Clients {
        open: Mutex::default(),
        max: options.client_connections(),
    });
    let read_timeout = options.read_timeout;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            // Out of file descriptors, say: wait a little, then accept again.
            Err(_) => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let Some(client) = Clients::enter(&clients, peer.ip()) else {
            tokio::spawn(refuse_connection(
                stream,
                "too many connections from this client",
            ));
            continue;
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            tokio::spawn(refuse_connection(stream, "too many connections"));
            continue;
        };
        let service = TowerToHyperService::new(WithPeer {
            inner: service.clone(),
            peer: PeerAddr(peer),
        });
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(read_timeout)
                .serve_connection(TokioIo::new(stream), service);
            // A client that goes away mid-request ends only its own connection.
            let _ = connection.await;
            drop(slot);
            drop(client);
        });
    }
}

/// The address of the peer a request came from: [`serve_bounded`] (and so
/// [`McpHttpService::serve`](super::McpHttpService::serve)) puts it in each request's
/// extensions, where [`HttpOptions::with_client_key`] finds it by default.
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerAddr(pub SocketAddr);

/// `inner`, with the peer's address put in each request.
#[derive(Clone)]
struct WithPeer<S> {
    inner: S,
    peer: PeerAddr,
}

impl<S, B> tower_service::Service<Request<B>> for WithPeer<S>
where
    S: tower_service::Service<Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request<B>) -> Self::Future {
        request.extensions_mut().insert(self.peer);
        self.inner.call(request)
    }
}

/// The connections open from each peer address: an entry only while it has one, so the map
/// holds at most `max_connections` entries.
struct Clients {
    open: Mutex<HashMap<IpAddr, usize>>,
    max: usize,
}

/// One open connection of a client: counted until dropped.
struct Client {
    clients: Arc<Clients>,
    ip: IpAddr,
}

impl Clients {
    /// A connection of `ip`, unless it holds its share already.
    fn enter(clients: &Arc<Self>, ip: IpAddr) -> Option<Client> {
        let mut open = clients.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(ip).or_insert(0);
        if *count >= clients.max {
            return None;
        }
        *count += 1;
        Some(Client {
            clients: Arc::clone(clients),
            ip,
        })
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let mut open = self
            .clients
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// Answers a connection past a cap with `503` (saying `why`) and closes it.
async fn refuse_connection(mut stream: tokio::net::TcpStream, why: &str) {
    use tokio::io::AsyncWriteExt as _;
    let body = format!("Service Unavailable: {why}\r\n");
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: {RETRY_AFTER_SECONDS}\r\n\
         Content-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let write = stream.write_all(response.as_bytes());
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), write).await;
    let _ = stream.shutdown().await;
}
