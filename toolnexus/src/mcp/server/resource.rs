//! [`ResourceServer`]: an HTTP MCP server as an OAuth 2.1 resource server, as the MCP
//! authorization spec asks (feature `mcp-http`): its protected-resource metadata (RFC 9728),
//! the `401` and `403` challenges that point a client at it, and each request's bearer token
//! checked by the host's verifier for this resource's audience and scopes.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use futures::future::BoxFuture;
use http::{HeaderValue, StatusCode};
use serde_json::json;

/// What a token the host's verifier accepted grants: for whom, for which resources, which
/// scopes. The service checks the audience and the scopes; the grant then rides on the request
/// (its extensions), for [`HttpOptions::with_client_key`](super::HttpOptions::with_client_key)
/// to key shares by principal.
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Grant {
    /// Who the token was issued to (a JWT's `sub`), when the verifier knows.
    pub subject: Option<String>,
    /// The resources the token is for (a JWT's `aud`; RFC 8707's resource indicators).
    pub audience: Vec<String>,
    /// The scopes it grants.
    pub scopes: Vec<String>,
}

impl Grant {
    /// A grant for `audience` with `scopes`.
    pub fn new<I, S>(audience: impl Into<String>, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            subject: None,
            audience: vec![audience.into()],
            scopes: scopes.into_iter().map(Into::into).collect(),
        }
    }

    /// The same grant, issued to `subject`.
    #[must_use]
    pub fn with_subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }
}

type Verify = dyn Fn(String) -> BoxFuture<'static, Option<Grant>> + Send + Sync;

/// The HTTP MCP server as an OAuth 2.1 resource server
/// ([`HttpOptions::with_resource_server`](super::HttpOptions::with_resource_server)).
///
/// - `GET /.well-known/oauth-protected-resource` (and the same with the resource's path after
///   it, as RFC 9728 places it) answers the metadata: `resource`, `authorization_servers`,
///   `scopes_supported`, `bearer_methods_supported`.
/// - A request without a bearer token, or with one the verifier refuses or that is for another
///   resource (its audience does not name this one), is `401` with
///   `WWW-Authenticate: Bearer resource_metadata="…"` (and the scopes it needs), which is how
///   an MCP client finds the authorization server.
/// - A token without every required scope is `403` with `error="insufficient_scope"` and the
///   scopes it needs, so the client can ask the user for more.
///
/// The verifier is the host's: given the token, the [`Grant`] it carries, or `None` (a JWT
/// checked against the authorization server's keys, say, or an introspection call). A token is
/// never logged.
///
/// ```
/// use toolnexus::mcp::{Grant, HttpOptions, ResourceServer};
///
/// let resource = ResourceServer::new(
///     "https://mcp.example.com/mcp",
///     "https://auth.example.com",
///     |token| async move {
///         // Check the token for real here (signature, expiry): this one knows one token.
///         (token == "t0ken").then(|| Grant::new("https://mcp.example.com/mcp", ["tools"]))
///     },
/// )
/// .with_scopes(["tools"]);
/// let options = HttpOptions::new().with_resource_server(resource);
/// # let _ = options;
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-http")))]
#[derive(Clone)]
pub struct ResourceServer {
    resource: String,
    authorization_servers: Vec<String>,
    scopes: Vec<String>,
    verify: Arc<Verify>,
}

impl fmt::Debug for ResourceServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceServer")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.authorization_servers)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

impl ResourceServer {
    /// This server as the resource `resource` (its canonical URL, as clients reach it:
    /// `https://mcp.example.com/mcp`), with tokens from `authorization_server` (its issuer URL),
    /// checked by `verify`.
    pub fn new<F, A>(
        resource: impl Into<String>,
        authorization_server: impl Into<String>,
        verify: F,
    ) -> Self
    where
        F: Fn(String) -> A + Send + Sync + 'static,
        A: Future<Output = Option<Grant>> + Send + 'static,
    {
        Self {
            resource: resource.into(),
            authorization_servers: vec![authorization_server.into()],
            scopes: Vec::new(),
            verify: Arc::new(move |token| Box::pin(verify(token))),
        }
    }

    /// The scopes every request's token must grant (and that the metadata lists).
    #[must_use]
    pub fn with_scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// One more authorization server whose tokens the verifier takes.
    #[must_use]
    pub fn with_authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// Whether `path` is where the metadata is served.
    pub(crate) fn is_metadata(&self, path: &str) -> bool {
        path.strip_prefix(WELL_KNOWN)
            .is_some_and(|rest| rest.is_empty() || rest == self.path())
    }

    /// The metadata document (RFC 9728).
    pub(crate) fn metadata(&self) -> Vec<u8> {
        let mut document = json!({
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        if !self.scopes.is_empty() {
            document["scopes_supported"] = json!(self.scopes);
        }
        document.to_string().into_bytes()
    }

    /// The request's verdict: the grant of its token, or the status and challenge to answer.
    pub(crate) async fn check(
        &self,
        headers: &http::HeaderMap,
    ) -> Result<Grant, (StatusCode, HeaderValue)> {
        let token = headers
            .get(http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                let (scheme, token) = v.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
            })
            .filter(|t| !t.is_empty());
        let Some(token) = token else {
            return Err(self.challenge(StatusCode::UNAUTHORIZED, None));
        };
        let grant = (self.verify)(token.to_owned()).await;
        let Some(grant) = grant.filter(|g| g.audience.iter().any(|a| same(a, &self.resource)))
        else {
            return Err(self.challenge(StatusCode::UNAUTHORIZED, Some("invalid_token")));
        };
        if self.scopes.iter().any(|s| !grant.scopes.contains(s)) {
            return Err(self.challenge(StatusCode::FORBIDDEN, Some("insufficient_scope")));
        }
        Ok(grant)
    }

    /// `WWW-Authenticate` for a refusal: where the metadata is, the scopes needed, the error.
    fn challenge(&self, status: StatusCode, error: Option<&str>) -> (StatusCode, HeaderValue) {
        let mut value = format!(
            "Bearer resource_metadata=\"{}{WELL_KNOWN}{}\"",
            self.origin(),
            self.path()
        );
        if !self.scopes.is_empty() {
            value.push_str(&format!(", scope=\"{}\"", self.scopes.join(" ")));
        }
        if let Some(error) = error {
            value.push_str(&format!(", error=\"{error}\""));
        }
        let value = HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("Bearer"));
        (status, value)
    }

    /// `scheme://authority` of the resource.
    fn origin(&self) -> &str {
        let after_scheme = self.resource.find("://").map_or(0, |at| at + 3);
        let end = self.resource[after_scheme..]
            .find('/')
            .map_or(self.resource.len(), |at| after_scheme + at);
        &self.resource[..end]
    }

    /// The resource's path (`/mcp`), empty for a resource at the root.
    fn path(&self) -> &str {
        self.resource[self.origin().len()..].trim_end_matches('/')
    }
}

/// Where RFC 9728 puts the metadata.
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// Two resource URLs alike but for a trailing slash.
fn same(a: &str, b: &str) -> bool {
    a.trim_end_matches('/') == b.trim_end_matches('/')
}

#[cfg(test)]
mod tests {
    use super::{Grant, ResourceServer};
    use http::{HeaderMap, StatusCode};

    fn server() -> ResourceServer {
        ResourceServer::new(
            "https://mcp.example.com/mcp",
            "https://auth.example.com",
            |t| async move {
                match t.as_str() {
                    "good" => Some(Grant::new("https://mcp.example.com/mcp/", ["tools", "x"])),
                    "narrow" => Some(Grant::new("https://mcp.example.com/mcp", ["x"])),
                    "elsewhere" => Some(Grant::new("https://other.example.com/mcp", ["tools"])),
                    _ => None,
                }
            },
        )
        .with_scopes(["tools"])
    }

    async fn verdict(token: Option<&str>) -> Result<Grant, (StatusCode, String)> {
        let mut headers = HeaderMap::new();
        if let Some(token) = token {
            headers.insert(http::header::AUTHORIZATION, token.parse().unwrap());
        }
        server()
            .check(&headers)
            .await
            .map_err(|(status, value)| (status, value.to_str().unwrap().to_owned()))
    }

    #[tokio::test]
    async fn each_token_gets_its_verdict_and_each_refusal_points_at_the_metadata() {
        let metadata = "resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\"";
        let (status, challenge) = verdict(None).await.unwrap_err();
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert!(
            challenge.contains(metadata) && challenge.contains("scope=\"tools\""),
            "{challenge}"
        );
        for refused in ["Bearer nope", "Bearer elsewhere", "Basic good", "Bearer "] {
            let (status, challenge) = verdict(Some(refused)).await.unwrap_err();
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{refused}");
            assert!(challenge.contains(metadata), "{refused}: {challenge}");
        }
        let (status, challenge) = verdict(Some("Bearer narrow")).await.unwrap_err();
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert!(
            challenge.contains("error=\"insufficient_scope\""),
            "{challenge}"
        );
        let grant = verdict(Some("bearer good")).await.unwrap();
        assert_eq!(grant.scopes, ["tools", "x"]);
    }

    #[test]
    fn the_metadata_is_where_rfc_9728_puts_it() {
        let server = server();
        assert!(server.is_metadata("/.well-known/oauth-protected-resource/mcp"));
        assert!(server.is_metadata("/.well-known/oauth-protected-resource"));
        assert!(!server.is_metadata("/.well-known/oauth-protected-resource/other"));
        assert!(!server.is_metadata("/mcp"));
        let document: serde_json::Value = serde_json::from_slice(&server.metadata()).unwrap();
        assert_eq!(
            document,
            serde_json::json!({"resource": "https://mcp.example.com/mcp",
                "authorization_servers": ["https://auth.example.com"],
                "bearer_methods_supported": ["header"], "scopes_supported": ["tools"]})
        );
    }
}
