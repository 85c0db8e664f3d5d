//! A tool-calling loop over HTTP (reqwest) with the Anthropic dialect: the provider's URL and
//! headers, the tools in its envelope, the loop until the model answers in text.
//!
//! ```text
//! cargo run --example anthropic    # offline: a scripted local server that checks URL, headers, results
//! ```
//!
//! With the provider's API key in the environment it talks to the real API instead (see
//! `provider/mod.rs` for the variables, URL and headers).

#[path = "provider/mod.rs"]
mod provider;

#[tokio::main]
async fn main() -> Result<(), provider::BoxError> {
    provider::main(toolnexus::Dialect::Anthropic).await
}
