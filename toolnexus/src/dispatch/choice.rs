//! [`ToolChoice`]'s rendering: the value is in `wire` (each provider folder reads it), its
//! public methods here, where a dialect picks its provider.

use serde_json::{Map, Value};

use crate::values::dialect::Dialect;
use crate::values::error::Error;
use crate::wire::choice::ToolChoice;
use crate::wire::merge;

impl ToolChoice {
    /// The members of a request body of `dialect` that say this choice, in the provider's own
    /// spelling (the table on [`ToolChoice`]); [`Error::UnsupportedChoice`] when its API has no
    /// way to say it.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, ToolChoice};
    ///
    /// let choice = ToolChoice::required_among(["search", "fetch"])?;
    /// assert_eq!(
    ///     serde_json::to_value(choice.request_part(Dialect::Gemini)?)?,
    ///     json!({"toolConfig": {"functionCallingConfig":
    ///         {"mode": "ANY", "allowedFunctionNames": ["search", "fetch"]}}})
    /// );
    /// assert_eq!(
    ///     serde_json::to_value(choice.request_part(Dialect::OpenAiResponses)?)?,
    ///     json!({"tool_choice": {"type": "allowed_tools", "mode": "required", "tools": [
    ///         {"type": "function", "name": "search"}, {"type": "function", "name": "fetch"}]}})
    /// );
    /// assert_eq!(
    ///     choice.request_part(Dialect::Bedrock).unwrap_err().to_string(),
    ///     "Amazon Bedrock Converse has no tool choice for an allowed subset of tools; send only \
    ///      those tools (`Toolkit::select`) with `ToolChoice::auto()` or `ToolChoice::required()`"
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn request_part(&self, dialect: Dialect) -> Result<Map<String, Value>, Error> {
        dialect.wire().tool_choice(self)
    }

    /// Adds [`ToolChoice::request_part`] to `body` (a JSON object) as
    /// [`Output::add_to`](crate::Output::add_to) adds its part: a member `body` already has as
    /// an object is merged one level deep (Bedrock's and Gemini's `toolConfig`), any other is
    /// replaced. On an error `body` is left as it was.
    pub fn add_to(&self, dialect: Dialect, body: &mut Value) -> Result<(), Error> {
        merge(body, &self.request_part(dialect)?);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
