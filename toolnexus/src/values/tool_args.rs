//! [`ToolArgs`](trait@ToolArgs): the marker for a struct that is a `#[tool]`'s whole argument
//! object (a parameter marked `#[args]`).

/// A struct that can be a `#[tool]`'s whole argument object (a parameter marked `#[args]`).
///
/// Implement it with `#[derive(ToolArgs)]`, which accepts only structs with named fields:
/// providers need the argument object to be a JSON object, so an enum, a tuple struct or a
/// unit struct as the whole argument object is a compile error. The struct also derives
/// `serde::Deserialize` and `schemars::JsonSchema`; its own serde attributes decide how it is
/// decoded (add `#[serde(deny_unknown_fields)]` to refuse unknown fields, as plain `#[tool]`
/// parameters do; schemars then writes `"additionalProperties": false`). For a renamed
/// `toolnexus` dependency add `#[tool_args(crate = "path")]`.
///
/// Name the struct differently from the tool fn's PascalCase form: `fn search` generates a
/// tool type `Search`, so the struct is `SearchRequest` or similar.
///
/// ```
/// use toolnexus::{tool, Tool, ToolArgs};
///
/// /// A search request.
/// #[derive(serde::Deserialize, schemars::JsonSchema, ToolArgs)]
/// #[serde(deny_unknown_fields)]
/// struct SearchRequest {
///     /// What to look for.
///     query: String,
///     /// At most this many hits.
///     limit: Option<u32>,
/// }
///
/// /// Search the documentation.
/// #[tool]
/// fn search(#[args] request: SearchRequest) -> String {
///     format!("{} (limit {})", request.query, request.limit.unwrap_or(10))
/// }
///
/// assert_eq!(
///     serde_json::to_string(Search.input_schema().as_value())?,
///     r#"{"type":"object","properties":{"query":{"type":"string","description":"What to look for."},"limit":{"type":["integer","null"],"format":"uint32","minimum":0,"description":"At most this many hits."}},"required":["query"],"description":"A search request.","additionalProperties":false}"#
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the whole argument object of a tool",
    label = "`#[args]` needs a struct that derives `ToolArgs`",
    note = "add `#[derive(toolnexus::ToolArgs)]` (with `serde::Deserialize` and \
            `schemars::JsonSchema`) to the struct"
)]
pub trait ToolArgs {}
