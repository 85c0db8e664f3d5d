//! [`ToolResult`], what a tool hands back, and [`IntoToolResult`], what a tool may return.

use std::borrow::Cow;
use std::fmt::Display;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::values::media::Media;

/// The outcome of one tool call.
///
/// `output` is the text the model reads. `is_error` tells the model (and the provider) that the
/// call failed; the text should then say what to fix. `metadata` is for the host's own code and
/// is never sent to the model by this crate.
///
/// ```
/// use toolnexus::ToolResult;
///
/// let ok = ToolResult::ok("sunny in Chennai");
/// assert!(!ok.is_error);
///
/// let err = ToolResult::error("`city` must not be empty");
/// assert!(err.is_error);
///
/// let tagged = ToolResult::ok("42").with_metadata(serde_json::json!({"cached": true}));
/// assert_eq!(tagged.metadata.unwrap()["cached"], true);
///
/// // Images and files go next to the text (see `Media`).
/// let chart = ToolResult::ok("sales by month").with_image("image/png", vec![0x89, b'P', b'N',
/// b'G']); assert_eq!(chart.media[0].mime_type(), "image/png");
/// ```
///
/// The struct is `#[non_exhaustive]`: build it with [`ToolResult::ok`], [`ToolResult::error`]
/// and the `with_*` methods, so a field added later breaks no one.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolResult {
    /// The text the model reads.
    pub output: String,
    /// `true` when the call failed; `output` then says why and what to fix.
    pub is_error: bool,
    /// Why the call failed, in one word of a closed set (its span's `error.type`); not part of
    /// the result a model or a comparison sees.
    #[serde(skip)]
    pub(crate) failure: Failure,
    /// Data for the host's code. The model never sees it.
    ///
    /// Boxed: a `Value` is 72 bytes (an ordered map), most results carry none, and every result
    /// is moved through the call path, so the field costs 8 bytes instead (a call by name took
    /// about 6% less time). Read it as `result.metadata.as_deref()`; set it with
    /// [`ToolResult::with_metadata`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Box<Value>>,
    /// Images and files for the model, after `output`; empty for a text-only result,
    /// which every dialect renders exactly as before media existed. Each provider receives them
    /// as its API describes (see [`Media`]), bounded by [`Limits`](crate::Limits). Add them with
    /// [`ToolResult::with_image`], [`ToolResult::with_file`] or [`ToolResult::with_media`].
    ///
    /// A boxed slice rather than a `Vec`: the field costs 16 bytes in every result, text-only
    /// ones included, which keeps `Result<_, ToolResult>` small.
    #[serde(default, skip_serializing_if = "no_media")]
    pub media: Box<[Media]>,
}

/// Why a call failed: OpenTelemetry's `error.type` of its `execute_tool` span, one of a closed
/// set (a tool's own error result is `tool_error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Failure {
    /// The tool answered with an error (its own, or its server's).
    #[default]
    Tool,
    /// The arguments were not what the tool takes (not an object, not its types).
    InvalidArguments,
    /// No tool of that name, or a call of a kind the toolkit does not run.
    UnknownTool,
    /// The call ran out of its time.
    Timeout,
    /// The tool's code panicked (or a hook's).
    Panic,
    /// The call was not run: the policy or the host refused it, it needs an approval that was
    /// not asked for, or it repeats an earlier call's id.
    Refused,
    /// The arguments, or the result's media, went past the toolkit's limits.
    Limit,
}

impl Failure {
    /// The `error.type` value.
    #[cfg_attr(not(feature = "tracing"), allow(dead_code))]
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Tool => "tool_error",
            Self::InvalidArguments => "invalid_arguments",
            Self::UnknownTool => "unknown_tool",
            Self::Timeout => "timeout",
            Self::Panic => "panic",
            Self::Refused => "refused",
            Self::Limit => "limit",
        }
    }
}

/// Two results are equal when the model and the host would see them alike: the kind of
/// failure a span reports is left out.
impl PartialEq for ToolResult {
    fn eq(&self, other: &Self) -> bool {
        self.output == other.output
            && self.is_error == other.is_error
            && self.metadata == other.metadata
            && self.media == other.media
    }
}

impl Eq for ToolResult {}

impl ToolResult {
    /// A successful result whose text is `output`.
    pub fn ok(output: impl Into<String>) -> Self {
        Self {
            output: output.into(),
            is_error: false,
            failure: Failure::Tool,
            metadata: None,
            media: Box::default(),
        }
    }

    /// A failed result. `message` is what the model reads: say what went wrong and how to fix it.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            output: message.into(),
            is_error: true,
            failure: Failure::Tool,
            metadata: None,
            media: Box::default(),
        }
    }

    /// An error result that failed for `why` (its span's `error.type`).
    pub(crate) fn failed(message: impl Into<String>, why: Failure) -> Self {
        let mut result = Self::error(message);
        result.failure = why;
        result
    }

    /// The same result with `metadata` attached (replacing any there was).
    #[must_use]
    pub fn with_metadata(mut self, metadata: Value) -> Self {
        self.metadata = Some(Box::new(metadata));
        self
    }

    /// The same result with an image after its text: `mime_type` such as `image/png` and the
    /// image's bytes (this crate base64-encodes them). See [`Media`] for how each provider
    /// receives it and which types it takes.
    ///
    /// ```
    /// use toolnexus::ToolResult;
    ///
    /// let shot = ToolResult::ok("the login page").with_image("image/png", vec![0x89, b'P', b'N',
    /// b'G']); assert!(shot.media[0].is_image());
    /// ```
    #[must_use]
    pub fn with_image(self, mime_type: impl Into<String>, data: impl Into<Vec<u8>>) -> Self {
        self.with_media(Media::image(mime_type, data))
    }

    /// The same result with a file (a document such as a PDF) after its text.
    ///
    /// ```
    /// use toolnexus::ToolResult;
    ///
    /// let scan = ToolResult::ok("the signed contract")
    ///     .with_file("application/pdf", b"%PDF-1.7".to_vec(), "contract.pdf");
    /// assert_eq!(scan.media[0].name(), Some("contract.pdf"));
    /// ```
    #[must_use]
    pub fn with_file(
        self,
        mime_type: impl Into<String>,
        data: impl Into<Vec<u8>>,
        name: impl Into<String>,
    ) -> Self {
        self.with_media(Media::file(mime_type, data, name))
    }

    /// The same result with `media` added after the media it already has.
    #[must_use]
    pub fn with_media(mut self, media: Media) -> Self {
        let mut all = std::mem::take(&mut self.media).into_vec();
        all.push(media);
        self.media = all.into_boxed_slice();
        self
    }
}

// Every call moves its result through the call path (the guard, the timeout, the hooks): keep
// it at the text, one pointer for metadata and one boxed slice for media.
const _: () = assert!(std::mem::size_of::<ToolResult>() <= 56);

fn no_media(media: &[Media]) -> bool {
    media.is_empty()
}

/// A value a tool may return: it becomes a [`ToolResult`].
///
/// Implemented for text (`String`, `&str`, `Cow<str>`), [`ToolResult`] itself (passed through),
/// [`Media`] (an image or file without text), [`Json`] (any `Serialize` value, as JSON text) and
/// `Result<T, E>` of those, where an `Err` becomes an error result whose text is the error's
/// `Display`.
///
/// ```
/// use toolnexus::{IntoToolResult, Json, ToolResult};
///
/// assert_eq!("hi".into_tool_result(), ToolResult::ok("hi"));
/// assert_eq!(Json(vec![1, 2]).into_tool_result(), ToolResult::ok("[1,2]"));
///
/// let failed: Result<String, std::io::Error> =
///     Err(std::io::Error::new(std::io::ErrorKind::NotFound, "no such city"));
/// assert_eq!(failed.into_tool_result(), ToolResult::error("no such city"));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned by a tool",
    label = "this value does not become a ToolResult",
    note = "return `String`, `&str`, `ToolResult`, `Json(value)` for any `Serialize` value, or `Result<T, E: Display>` of those"
)]
pub trait IntoToolResult {
    /// Converts the value into the result the model reads.
    fn into_tool_result(self) -> ToolResult;
}

impl IntoToolResult for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::ok(self)
    }
}

impl IntoToolResult for &str {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::ok(self)
    }
}

impl IntoToolResult for Cow<'_, str> {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::ok(self.into_owned())
    }
}

/// A tool may return media alone: a result with no text and this one image or file.
///
/// ```
/// use toolnexus::{IntoToolResult, Media};
///
/// let result = Media::image("image/png", vec![1, 2, 3]).into_tool_result();
/// assert_eq!((result.output.as_str(), result.media.len()), ("", 1));
/// ```
impl IntoToolResult for Media {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::ok(String::new()).with_media(self)
    }
}

impl<T: IntoToolResult, E: Display> IntoToolResult for Result<T, E> {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Ok(value) => value.into_tool_result(),
            Err(error) => ToolResult::error(error_text(&error)),
        }
    }
}

/// The text of an error for the model; never empty, since providers reject empty error content.
pub(crate) fn error_text(error: &dyn Display) -> String {
    let text = error.to_string();
    if text.trim().is_empty() {
        "the tool failed without a message".to_owned()
    } else {
        text
    }
}

/// Wraps any `Serialize` value so a tool can return it: the output is its compact JSON text.
///
/// A value that cannot be serialized (a map with non-string keys, say) becomes an error result
/// that says so.
///
/// Returned by a `#[tool]`, `Json<T>` with `T: JsonSchema` (an object schema) also gives the
/// tool an output schema ([`Tool::output_schema`](crate::Tool::output_schema)) and keeps the value
/// as `metadata.structuredContent` in each result.
///
/// ```
/// use toolnexus::{IntoToolResult, Json};
///
/// #[derive(serde::Serialize)]
/// struct Weather { city: String, celsius: f64 }
///
/// let r = Json(Weather { city: "Chennai".into(), celsius: 31.5 }).into_tool_result();
/// assert_eq!(r.output, r#"{"city":"Chennai","celsius":31.5}"#);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Json<T>(pub T);

impl<T: Serialize> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> ToolResult {
        match serde_json::to_string(&self.0) {
            Ok(text) => ToolResult::ok(text),
            Err(error) => ToolResult::error(format!(
                "the tool's output could not be encoded as JSON: {error}"
            )),
        }
    }
}
