//! [`OAuth`]: an HTTP MCP server's authorization, as the MCP authorization spec describes it
//! (feature `mcp-oauth`), on the official SDK's OAuth client (rmcp's `auth`).

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use futures::future::BoxFuture;
use rmcp::transport::auth::{
    AuthorizationManager, AuthorizationRequest, ClientCredentialsConfig, InMemoryCredentialStore,
    OAuthState,
};

/// How the host sends the user to the authorization URL and gives back the URL the
/// authorization server redirected to (with its `code` and `state`).
type Authorize = Arc<dyn Fn(String) -> BoxFuture<'static, Result<String, String>> + Send + Sync>;

/// How a token is got: through the user, or by the client alone.
#[derive(Clone)]
enum Grant {
    /// The authorization code grant: the user consents through the host's `authorize`.
    Code(Authorize),
    /// The client credentials grant (machine to machine): the client's id and secret.
    Client { id: String, secret: String },
}

/// OAuth 2.1 for [`McpSource::http`](super::McpSource::http), as the MCP authorization spec
/// describes it: when the server answers `401` with a `WWW-Authenticate` challenge, the client
/// reads the server's protected-resource metadata (RFC 9728: from the challenge's
/// `resource_metadata`, else the well-known paths) and its authorization server's metadata
/// (RFC 8414, or OpenID discovery), registers itself (a pre-registered client, a client ID
/// metadata document, or dynamic client registration, in that order), and sends the user to
/// the authorization URL with PKCE (S256), the `resource` and the scopes the challenge names
/// (else those the server lists). The host's `authorize` opens that URL (a browser, a link in
/// a chat) and returns the URL the authorization server redirected back to; the code is then
/// exchanged for a token, which every request carries and which is refreshed when it runs
/// out. A request the server later refuses for its scope (`403 insufficient_scope`) sends the
/// user through one more authorization, for the scope the server names, and is sent again. The
/// flows are the SDK's (rmcp's `auth`, on the `oauth2` crate), not hand-written.
///
/// A service with no user in the loop authorizes with its own credentials instead
/// ([`OAuth::client_credentials`]: the client credentials grant, the client's secret sent as
/// the authorization server asks).
///
/// Tokens are kept in memory for as long as the source (and its clones: a
/// [`LiveToolkit`](super::LiveToolkit)'s reconnects) lives; a token or secret is never logged.
///
/// ```no_run
/// use toolnexus::mcp::{McpSource, OAuth};
///
/// # async fn run() -> Result<(), toolnexus::mcp::McpError> {
/// let oauth = OAuth::new("http://127.0.0.1:8976/callback", |url| async move {
///     // Open `url` for the user, wait for the redirect to the callback, return its URL.
///     println!("Sign in: {url}");
///     let callback: String = wait_for_redirect().await;
///     Ok(callback)
/// })
/// .client_name("my-agent");
/// let server = McpSource::http("docs", "https://mcp.example.com/mcp")
///     .with_oauth(oauth)
///     .connect()
///     .await?;
/// # let _ = server; Ok(()) }
/// # async fn wait_for_redirect() -> String { String::new() }
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "mcp-oauth")))]
#[derive(Clone)]
pub struct OAuth {
    redirect_uri: String,
    client_name: String,
    client: Option<(String, Option<String>)>,
    client_metadata_url: Option<String>,
    scopes: Vec<String>,
    grant: Grant,
    tokens: InMemoryCredentialStore,
}

impl fmt::Debug for OAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // No secret and no token: only what the host configured in the open.
        f.debug_struct("OAuth")
            .field("redirect_uri", &self.redirect_uri)
            .field("client_name", &self.client_name)
            .field("client_id", &self.client.as_ref().map(|(id, _)| id))
            .field("client_metadata_url", &self.client_metadata_url)
            .field("scopes", &self.scopes)
            .field(
                "grant",
                &match &self.grant {
                    Grant::Code(_) => "authorization code",
                    Grant::Client { .. } => "client credentials",
                },
            )
            .finish_non_exhaustive()
    }
}

impl OAuth {
    /// Authorization that sends the user through `authorize` (given the authorization URL, it
    /// returns the URL the authorization server redirected to), with `redirect_uri` as the
    /// client's redirect URI. The client registers itself dynamically as `toolnexus` unless
    /// [`OAuth::registered_client`] or [`OAuth::client_metadata_url`] says otherwise.
    pub fn new<F, A>(redirect_uri: impl Into<String>, authorize: F) -> Self
    where
        F: Fn(String) -> A + Send + Sync + 'static,
        A: Future<Output = Result<String, String>> + Send + 'static,
    {
        Self {
            redirect_uri: redirect_uri.into(),
            client_name: "toolnexus".to_owned(),
            client: None,
            client_metadata_url: None,
            scopes: Vec::new(),
            grant: Grant::Code(Arc::new(move |url| Box::pin(authorize(url)))),
            tokens: InMemoryCredentialStore::new(),
        }
    }

    /// Authorization without a user (machine to machine): the client credentials grant, with
    /// the id and secret the authorization server issued this client.
    pub fn client_credentials(client_id: impl Into<String>, secret: impl Into<String>) -> Self {
        let mut oauth = Self::new(String::new(), |_| async {
            Err("the client credentials grant asks no user".to_owned())
        });
        oauth.grant = Grant::Client {
            id: client_id.into(),
            secret: secret.into(),
        };
        oauth
    }

    /// The name the client registers under (dynamic client registration's `client_name`).
    #[must_use]
    pub fn client_name(mut self, name: impl Into<String>) -> Self {
        self.client_name = name.into();
        self
    }

    /// A client the authorization server already knows: its id, and its secret for a
    /// confidential client (sent as the server's metadata asks: `client_secret_basic` or
    /// `client_secret_post`). No registration is made.
    #[must_use]
    pub fn registered_client(mut self, id: impl Into<String>, secret: Option<String>) -> Self {
        self.client = Some((id.into(), secret));
        self
    }

    /// The HTTPS URL of this client's metadata document (a client ID metadata document), used
    /// as its client id where the authorization server supports those.
    #[must_use]
    pub fn client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.client_metadata_url = Some(url.into());
        self
    }

    /// The scopes to ask for when the server's challenge names none (by default, those the
    /// server's metadata lists).
    #[must_use]
    pub fn scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }
}

/// The SDK's authorization manager for `url`, with the tokens this source holds.
pub(crate) async fn manager(url: &str, oauth: &OAuth) -> Result<AuthorizationManager, String> {
    let mut manager = AuthorizationManager::new(url)
        .await
        .map_err(|e| e.to_string())?;
    manager.set_credential_store(oauth.tokens.clone());
    // Tokens of an earlier authorization, if any (else the server's challenge drives one). A
    // failure here only means there are none to use.
    let _ = manager.initialize_from_store().await;
    Ok(manager)
}

/// One authorization of `url` under `challenge`: discovery, registration, the user's consent
/// through the host's `authorize`, the code exchanged for a token (kept in `oauth`'s store).
pub(crate) async fn authorize(url: &str, oauth: &OAuth, challenge: &str) -> Result<(), String> {
    let mut manager = AuthorizationManager::new(url)
        .await
        .map_err(|e| e.to_string())?;
    manager.set_credential_store(oauth.tokens.clone());
    let failed = |what: &str, e: &dyn fmt::Display| format!("OAuth {what}: {e}");
    let authorize = match &oauth.grant {
        Grant::Code(authorize) => authorize,
        Grant::Client { id, secret } => {
            let config = ClientCredentialsConfig::ClientSecret {
                client_id: id.clone(),
                client_secret: secret.clone(),
                scopes: oauth.scopes.clone(),
                resource: Some(url.to_owned()),
            };
            let mut state = OAuthState::Unauthorized(manager);
            return state
                .authenticate_client_credentials(config)
                .await
                .map_err(|e| failed("client credentials", &e));
        }
    };
    let mut request = AuthorizationRequest::new(oauth.redirect_uri.as_str())
        .with_challenge(challenge)
        .with_client_name(oauth.client_name.as_str());
    if let Some((id, secret)) = &oauth.client {
        request = request.with_preregistered_client(id.as_str());
        if let Some(secret) = secret {
            request = request.with_client_secret(secret.as_str());
        }
    }
    if let Some(url) = &oauth.client_metadata_url {
        request = request.with_client_metadata_url(url.as_str());
    }
    if !oauth.scopes.is_empty() {
        request = request.with_scopes(oauth.scopes.iter().map(String::as_str));
    }
    let mut state = OAuthState::Unauthorized(manager);
    state
        .start_authorization(request)
        .await
        .map_err(|e| failed("discovery and registration", &e))?;
    let url = state
        .get_authorization_url()
        .await
        .map_err(|e| failed("authorization URL", &e))?;
    let callback = authorize(url)
        .await
        .map_err(|e| failed("authorization", &e))?;
    state
        .handle_callback_url(&callback)
        .await
        .map_err(|e| failed("token exchange", &e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::OAuth;

    #[test]
    fn debug_shows_no_secret() {
        let oauth = OAuth::new("http://127.0.0.1:9/callback", |_| async {
            Err(String::new())
        })
        .registered_client("client-7", Some("s3cr3t-value".to_owned()))
        .scopes(["files:read"]);
        let shown = format!("{oauth:?}");
        assert!(
            shown.contains("client-7") && shown.contains("files:read"),
            "{shown}"
        );
        assert!(!shown.contains("s3cr3t-value"), "{shown}");
    }
}
