//! Typed answers: [`Output`], a `T: Deserialize + JsonSchema` as the model's final answer, asked
//! for in each dialect's request ([`Output::request_part`]) or through an output tool
//! ([`Output::tool`]), and read back into `T` by the crate's decoding rules ([`Output::parse`]).

mod bounds;
mod error;
mod parse;
mod tool;

use std::fmt;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

pub use error::AnswerError;
pub use tool::OutputTool;

use crate::decode::decode_text;
use crate::limits::Limits;
use crate::schema::InputSchema;
use crate::tool::{sanitize, validate_name, MAX_NAME_LEN};
use crate::turn::Turn;
use crate::values::dialect::Dialect;
use crate::values::error::{Error, SchemaError};
use crate::wire::{merge, AnswerFormat};

/// A typed answer: the model's final output as a `T`, on every provider.
///
/// Built once: the schema of `T` is prepared for each provider by the rules tool schemas follow
/// ([`InputSchema::of`]), and each dialect's request part is rendered then. Two ways to ask:
///
/// - **Structured output** ([`Output::request_part`], [`Output::add_to`]): the provider itself
///   holds the model to the schema: OpenAI Chat `response_format` and Responses `text.format`
///   (`json_schema`, strict when the schema allows it, see [`Output::strict_error`]), Anthropic
///   `output_config.format` and Bedrock Converse `outputConfig.textFormat` (the schema exactly
///   as Anthropic's SDK would send it, [`InputSchema::for_anthropic_strict`]; see
///   [`Output::anthropic_error`]), Gemini `generationConfig` (`responseMimeType` and
///   `responseSchema`, or `responseJsonSchema` with [`Output::with_gemini_json_schema`]). The answer
///   is the model's text. What a provider cannot enforce (Anthropic moves `minimum`,
///   `maxLength`, ... into the description), [`Output::parse`] still checks as `T` does.
/// - **Tool mode** ([`Output::tool`]): an output tool next to the toolkit's own, for a model
///   without structured output or a loop that uses tools first. The model ends by calling it;
///   the call gets an answer like any other call. [`ToolChoice::required`](crate::ToolChoice::required) makes the model call
///   some tool every turn (`ToolChoice::required().add_to(dialect, &mut body)?`).
///
/// Either way [`Output::parse`] reads the [`Turn`](crate::Turn) ([`Toolkit::respond`](crate::Toolkit::respond)
/// or a streamed turn's [`finish`](crate::stream::StreamTurn::finish)) into `T`, with the decoding
/// rules of tool arguments: [`Limits`], a whole-number float where an integer goes, and `null`
/// meaning absent where the schema as written has no `null` (strict mode's optional fields).
/// A mistake comes back as [`AnswerError::Invalid`] with the field path and a message for the
/// model; a refusal as [`AnswerError::Refused`].
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Dialect, Output};
///
/// /// A weather report.
/// #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
/// struct Report { city: String, celsius: i32, note: Option<String> }
///
/// let output = Output::<Report>::new()?;
/// let mut body = json!({"model": "gpt-4.1", "messages": [
///     {"role": "user", "content": "Weather in Oslo?"}]});
/// output.add_to(Dialect::OpenAiChat, &mut body);
/// assert_eq!(body["response_format"]["type"], "json_schema");
/// assert_eq!(body["response_format"]["json_schema"]["name"], "Report");
/// assert_eq!(body["response_format"]["json_schema"]["strict"], true);
///
/// let response = json!({"choices": [{"finish_reason": "stop", "message": {"role": "assistant",
///     "content": "{\"city\":\"Oslo\",\"celsius\":4.0,\"note\":null}"}}]});
/// let report = output.parse_response(Dialect::OpenAiChat, &response)?;
/// assert_eq!(report, Report { city: "Oslo".into(), celsius: 4, note: None });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Output<T> {
    name: String,
    description: Option<String>,
    schema: InputSchema,
    gemini_json_schema: bool,
    limits: Limits,
    /// Whether the schema has bounds `parse` checks (`minimum`, `maxLength`, ...).
    bounds: bool,
    /// Each dialect's request part, in `Dialect::ALL` order.
    parts: Vec<Map<String, Value>>,
    answer: PhantomData<fn() -> T>,
}

impl<T: DeserializeOwned + schemars::JsonSchema> Output<T> {
    /// The output of `T`, named after its schema (`T::schema_name()`, sanitized and cut to 64
    /// characters), with the description of its `///` doc comment when it has one.
    ///
    /// Refused: a type whose schema is not an object (wrap it in a struct), as for
    /// [`InputSchema::of`]: [`Error::Schema`]. The chain has one error type: a bad name
    /// ([`Output::with_name`]) is an [`Error`] too.
    pub fn new() -> Result<Self, Error> {
        let schema = InputSchema::of::<T>()?;
        let mut name = sanitize(&T::schema_name());
        name.truncate(MAX_NAME_LEN);
        if name.is_empty() {
            name.push_str("answer");
        }
        let description = schema
            .as_value()
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let has_bounds = bounds::has_bounds(schema.as_value());
        let mut output = Self {
            name,
            description,
            schema,
            gemini_json_schema: false,
            limits: Limits::default(),
            bounds: has_bounds,
            parts: Vec::new(),
            answer: PhantomData,
        };
        output.render();
        Ok(output)
    }
}

impl<T: DeserializeOwned> Output<T> {
    /// The same output under another name (the `json_schema` name, the output tool's name):
    /// 1 to 64 characters from `[A-Za-z0-9_-]`.
    ///
    /// ```
    /// # #[derive(serde::Deserialize, schemars::JsonSchema)] struct Report { city: String }
    /// let output = toolnexus::Output::<Report>::new()?.with_name("final_answer")?;
    /// assert_eq!(output.name(), "final_answer");
    /// assert!(toolnexus::Output::<Report>::new()?.with_name("final answer").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_name(mut self, name: &str) -> Result<Self, Error> {
        validate_name(name)?;
        self.name = name.to_owned();
        self.render();
        Ok(self)
    }

    /// The same output with another description, which the model reads.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self.render();
        self
    }

    /// The same output asking Gemini for JSON Schema as written (`responseJsonSchema`) instead
    /// of the OpenAPI subset (`responseSchema`): the choice between
    /// [`to_gemini`](crate::to_gemini) and [`ToolsOptions::with_json_schema`](crate::ToolsOptions::with_json_schema).
    #[must_use]
    pub fn with_gemini_json_schema(mut self) -> Self {
        self.gemini_json_schema = true;
        self.render();
        self
    }

    /// The same output reading answers under `limits` (size and nesting; default
    /// [`Limits::default`]).
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The name (the `json_schema` name, the output tool's name).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The schema of `T`, as prepared for every provider.
    #[must_use]
    pub fn schema(&self) -> &InputSchema {
        &self.schema
    }

    /// Why OpenAI's structured output is not strict for this type, if it is not: the reason of
    /// [`InputSchema::for_openai_strict`] (a map, `serde_json::Value`, ...). OpenAI then gets
    /// the non-strict schema (`"strict": false`).
    #[must_use]
    pub fn strict_error(&self) -> Option<&SchemaError> {
        self.schema.for_openai_strict().err()
    }

    /// Why Anthropic's structured output (Anthropic, Bedrock) cannot hold every answer of this
    /// type, if it cannot: the reason of [`InputSchema::for_anthropic_strict`] (a map, an object
    /// with any keys, `serde_json::Value`, a recursive type).
    ///
    /// Anthropic's structured outputs have no non-strict form: they get the schema its SDK
    /// would send all the same, where a map is an empty object and any value one of the plain
    /// types, so the model cannot fill such a field (and a recursive schema may be refused).
    /// Use tool mode ([`Output::tool`], which
    /// falls back to a non-strict tool) for such a type there.
    ///
    /// ```
    /// use std::collections::BTreeMap;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Labels { labels: BTreeMap<String, String> }
    ///
    /// let output = toolnexus::Output::<Labels>::new()?;
    /// assert_eq!(output.anthropic_error().unwrap().path, "/properties/labels/additionalProperties");
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    #[must_use]
    pub fn anthropic_error(&self) -> Option<&SchemaError> {
        self.schema.for_anthropic_strict().err()
    }

    /// The members to add to a request body of `dialect` that ask for this answer, rendered
    /// once, when the output was built:
    ///
    /// | dialect | members |
    /// |---|---|
    /// | OpenAI Chat | `response_format: {type: "json_schema", json_schema: {name, description, schema, strict}}` |
    /// | OpenAI Responses | `text: {format: {type: "json_schema", name, description, schema, strict}}` |
    /// | Anthropic | `output_config: {format: {type: "json_schema", schema}}` |
    /// | Gemini | `generationConfig: {responseMimeType: "application/json", responseSchema}` |
    /// | Bedrock | `outputConfig: {textFormat: {type: "json_schema", structure: {jsonSchema: {schema, name, description}}}}` (`schema` as JSON text) |
    /// | Cohere | `response_format: {type: "json_object", json_schema}` (Anthropic's schema: objects closed, bounds in the descriptions) |
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, Output};
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Pick { choice: String }
    ///
    /// let output = Output::<Pick>::new()?;
    /// assert_eq!(
    ///     serde_json::to_value(output.request_part(Dialect::Gemini))?,
    ///     json!({"generationConfig": {"responseMimeType": "application/json", "responseSchema":
    ///         {"type": "object", "properties": {"choice": {"type": "string"}},
    ///          "required": ["choice"]}}})
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn request_part(&self, dialect: Dialect) -> &Map<String, Value> {
        &self.parts[index(dialect)]
    }

    /// Adds [`Output::request_part`] to `body` (a JSON object): a member `body` already has as
    /// an object is merged one level deep (Gemini's `generationConfig` keeps its `temperature`),
    /// any other is replaced.
    pub fn add_to(&self, dialect: Dialect, body: &mut Value) {
        merge(body, self.request_part(dialect));
    }

    /// Renders every dialect's request part.
    fn render(&mut self) {
        let format = AnswerFormat {
            name: &self.name,
            description: self.description.as_deref(),
            schema: &self.schema,
            json_schema: self.gemini_json_schema,
        };
        self.parts = Dialect::ALL
            .iter()
            .map(|dialect| dialect.wire().answer_format(&format))
            .collect();
    }

    /// The typed answer of a turn: the arguments of its call of the output tool, else the
    /// model's text (a refusal is [`AnswerError::Refused`]). A turn with calls of other tools
    /// only is [`AnswerError::NoAnswer`]: run them and go on.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{AnswerError, Dialect, Output, Toolkit};
    ///
    /// #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    /// struct Pick { choice: String }
    ///
    /// let output = Output::<Pick>::new()?;
    /// let refusal = json!({"choices": [{"finish_reason": "stop", "message": {"role": "assistant",
    ///     "content": null, "refusal": "I can't help with that."}}]});
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let turn = Toolkit::new().respond(&refusal, Dialect::OpenAiChat).await?;
    /// assert!(matches!(output.parse(&turn),
    ///     Err(AnswerError::Refused { reason, .. }) if reason == "I can't help with that."));
    /// # Ok::<(), Box<dyn std::error::Error>>(()) }).unwrap();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse(&self, turn: &Turn) -> Result<T, AnswerError> {
        parse::parts(self, turn.dialect(), &turn.calls, &turn.model_turn)
    }

    /// [`Output::parse`] on a response body that was not answered by a toolkit (no tools, or
    /// structured output only). A response stopped for safety or refused is
    /// [`AnswerError::Refused`]; one that cannot be read, [`AnswerError::Response`].
    pub fn parse_response(&self, dialect: Dialect, response: &Value) -> Result<T, AnswerError> {
        let (calls, turn) = dialect.read_calls(response)?;
        parse::parts(self, dialect, &calls, &turn.build())
    }

    /// Reads the answer's JSON text into `T` (a Markdown code fence around it is taken off).
    pub fn parse_text(&self, text: &str) -> Result<T, AnswerError> {
        let text = parse::unfenced(text);
        if let Err(refused) = self.limits.check_text(&self.name, text) {
            return Err(AnswerError::Invalid {
                path: None,
                message: parse::limit_message(&self.name, &refused.output),
            });
        }
        let problem = match decode_text(text) {
            Ok(answer) => return parse::within_bounds(self, text, None).map(|()| answer),
            Err(problem) => problem,
        };
        // Strict mode's `null` for an optional field means absent. An `Option` takes its `null`
        // as it is, so only an answer that failed is pruned and decoded again.
        if text.contains("null") {
            if let Ok(mut value) = serde_json::from_str::<Value>(text) {
                self.schema.strict_nulls_to_absent(&mut value);
                let answer = decode_text(&value.to_string()).map_err(AnswerError::invalid)?;
                return parse::within_bounds(self, text, Some(&value)).map(|()| answer);
            }
        }
        Err(AnswerError::invalid(problem))
    }

    /// Tool mode: the output tool, named [`Output::name`], with `T`'s schema as its arguments.
    #[must_use]
    pub fn tool(&self) -> OutputTool<T> {
        OutputTool {
            output: self.clone(),
        }
    }
}

/// The place of `dialect` in `Dialect::ALL`.
fn index(dialect: Dialect) -> usize {
    Dialect::ALL
        .iter()
        .position(|d| *d == dialect)
        .expect("every dialect is in Dialect::ALL")
}

impl<T> Clone for Output<T> {
    fn clone(&self) -> Self {
        Self {
            name: self.name.clone(),
            description: self.description.clone(),
            schema: self.schema.clone(),
            gemini_json_schema: self.gemini_json_schema,
            limits: self.limits,
            bounds: self.bounds,
            parts: self.parts.clone(),
            answer: PhantomData,
        }
    }
}

impl<T> fmt::Debug for Output<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Output")
            .field("name", &self.name)
            .field("type", &std::any::type_name::<T>())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests;
