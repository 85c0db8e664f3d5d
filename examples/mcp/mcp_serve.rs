//! Serves `get_weather` as an MCP server over stdio: point an MCP client (Claude Desktop,
//! Cursor, the MCP Inspector) at `cargo run -p toolnexus-examples-mcp --example mcp_serve`, or
//! at the built binary `target/debug/examples/mcp_serve` (README, section MCP).

use toolnexus::mcp::McpServer;
use toolnexus::{tool, Toolkit};

/// Current weather for a city.
#[tool]
pub async fn get_weather(
    /// City name, e.g. Chennai.
    city: String,
) -> String {
    format!("sunny in {city}, 31°C")
}

/// The toolkit this example serves.
pub fn toolkit() -> Result<Toolkit, toolnexus::Error> {
    Toolkit::new().with(GetWeather)
}

/// Serves [`toolkit`] over stdin/stdout until the client closes them.
pub async fn serve() -> Result<(), Box<dyn std::error::Error>> {
    McpServer::new(toolkit()?)
        .with_name("weather", "0.1.0")
        .serve_stdio()
        .await?;
    Ok(())
}

#[allow(dead_code)] // mcp_source includes this file for `serve`
#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    serve().await
}
