//! [`Media`]: an image, a sound or a file a tool hands back next to its text; [`MediaSupport`]:
//! the MIME types a provider takes. The checks that hold results to them are in `admit`.

use std::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An image, a sound or a file in a [`ToolResult`](crate::ToolResult): a MIME type, the bytes,
/// an optional name and an optional URI.
///
/// The MIME type decides how each provider receives it: `image/*` is an image (Anthropic
/// `image` block, Responses `input_image`, Gemini `inlineData`, an `image_url` part in OpenAI
/// Chat); anything else is a document or file (Anthropic `document`, Responses `input_file`,
/// Gemini `inlineData`, a text note in OpenAI Chat). Which types each provider takes is listed
/// on [`Dialect::accepted_media`](crate::Dialect::accepted_media); one it does not take makes the call's result an error result
/// that says so. `audio/*` ([`Media::audio`]) goes to an MCP client as `audio` content; no
/// provider takes sound inside a tool result, so there the result keeps its text and gains a
/// line in its place (`[audio (audio/wav, 3 bytes) is left out: …]`). Served over MCP, a file
/// goes as an embedded resource: text, JSON or XML that is UTF-8 as a text resource, anything else as a
/// blob, under its [`uri`](Media::with_uri) or one made from its name.
///
/// The bytes are never printed: `Debug` shows the MIME type, the name and the size only, and
/// no error message of this crate contains them.
///
/// ```
/// use toolnexus::{Media, ToolResult};
///
/// let png = Media::image("image/png", vec![0x89, b'P', b'N', b'G']);
/// assert!(png.is_image());
/// assert_eq!(format!("{png:?}"), r#"Media { mime_type: "image/png", name: None, uri: None, bytes: 4 }"#);
///
/// let report = Media::file("application/pdf", b"%PDF-1.7".to_vec(), "report.pdf");
/// assert_eq!(report.name(), Some("report.pdf"));
///
/// let result = ToolResult::ok("the chart and its data").with_media(png).with_media(report);
/// assert_eq!(result.media.len(), 2);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Media {
    mime_type: String,
    data: Vec<u8>,
    name: Option<String>,
    uri: Option<String>,
}

impl Media {
    /// An image: `mime_type` such as `image/png`, and its bytes (not base64: this crate
    /// encodes them as each provider wants).
    pub fn image(mime_type: impl Into<String>, data: impl Into<Vec<u8>>) -> Self {
        Self {
            mime_type: normalize(mime_type.into()),
            data: data.into(),
            name: None,
            uri: None,
        }
    }

    /// A sound: `mime_type` such as `audio/wav`, and its bytes. An MCP client gets it as
    /// `audio` content; a provider, which takes no sound in a tool result, gets a line of text
    /// in its place.
    ///
    /// ```
    /// use toolnexus::Media;
    ///
    /// let beep = Media::audio("audio/wav", b"RIFF".to_vec());
    /// assert!(beep.is_audio() && !beep.is_image());
    /// ```
    pub fn audio(mime_type: impl Into<String>, data: impl Into<Vec<u8>>) -> Self {
        Self::image(mime_type, data)
    }

    /// A file (a document such as a PDF) with its name, which providers that take a file name
    /// receive (Anthropic `title`, Responses `filename`, Gemini `displayName`).
    pub fn file(
        mime_type: impl Into<String>,
        data: impl Into<Vec<u8>>,
        name: impl Into<String>,
    ) -> Self {
        Self::image(mime_type, data).with_name(name)
    }

    /// The same media with a name.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The same media with a URI: where an MCP client is told it comes from (an embedded
    /// resource's `uri`; without one it is `toolnexus://result/N/NAME`). Providers do not get it.
    ///
    /// ```
    /// use toolnexus::Media;
    ///
    /// let notes = Media::file("text/markdown", "# Notes", "notes.md").with_uri("file:///srv/notes.md");
    /// assert_eq!(notes.uri(), Some("file:///srv/notes.md"));
    /// ```
    #[must_use]
    pub fn with_uri(mut self, uri: impl Into<String>) -> Self {
        self.uri = Some(uri.into());
        self
    }

    /// The URI, if it has one ([`Media::with_uri`]).
    #[must_use]
    pub fn uri(&self) -> Option<&str> {
        self.uri.as_deref()
    }

    /// The MIME type, trimmed and lower-cased (`image/png`).
    #[must_use]
    pub fn mime_type(&self) -> &str {
        &self.mime_type
    }

    /// The bytes.
    #[must_use]
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The name, if it has one.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The number of bytes (before base64), what [`Limits`](crate::Limits) count.
    #[must_use]
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// `true` when there are no bytes.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// `true` for an `image/*` MIME type.
    #[must_use]
    pub fn is_image(&self) -> bool {
        self.mime_type.starts_with("image/")
    }

    /// `true` for an `audio/*` MIME type.
    #[must_use]
    pub fn is_audio(&self) -> bool {
        self.mime_type.starts_with("audio/")
    }

    /// The bytes, base64-encoded (standard alphabet, padded), as every provider takes them.
    pub(crate) fn base64(&self) -> String {
        STANDARD.encode(&self.data)
    }

    /// A file name for a provider that wants one: the name, or `file.` and the MIME subtype
    /// (`file.pdf`).
    pub(crate) fn default_name(&self) -> String {
        let subtype = self.mime_type.rsplit('/').next().unwrap_or("bin");
        format!("file.{subtype}")
    }

    /// Media of `mime_type` from its bytes in base64 (standard alphabet), as a provider's
    /// history carries them; `None` when they are not base64.
    pub(crate) fn from_base64(mime_type: &str, base64: &str) -> Option<Self> {
        STANDARD
            .decode(base64.trim())
            .ok()
            .map(|data| Self::image(mime_type, data))
    }

    /// Media from a `data:` URL with base64 data (`data:image/png;base64,...`); `None` for any
    /// other URL.
    pub(crate) fn from_data_url(url: &str) -> Option<Self> {
        let (head, data) = url.strip_prefix("data:")?.split_once(',')?;
        let mime_type = head.strip_suffix(";base64")?;
        Self::from_base64(mime_type, data)
    }

    /// A `data:` URL (`data:image/png;base64,...`), as OpenAI takes images and files.
    pub(crate) fn data_url(&self) -> String {
        let mut url =
            String::with_capacity(self.mime_type.len() + 13 + self.data.len() * 4 / 3 + 4);
        url.push_str("data:");
        url.push_str(&self.mime_type);
        url.push_str(";base64,");
        STANDARD.encode_string(&self.data, &mut url);
        url
    }
}

fn normalize(mime_type: String) -> String {
    let trimmed = mime_type.trim();
    if trimmed.len() == mime_type.len() && !trimmed.bytes().any(|b| b.is_ascii_uppercase()) {
        mime_type
    } else {
        trimmed.to_ascii_lowercase()
    }
}

impl fmt::Debug for Media {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Media")
            .field("mime_type", &self.mime_type)
            .field("name", &self.name)
            .field("uri", &self.uri)
            .field("bytes", &self.data.len())
            .finish()
    }
}

/// The serialized form (for a host that stores results): `{"mime_type", "name"?, "uri"?, "data"}`
/// with `data` in base64.
#[derive(Serialize, Deserialize)]
struct Stored<'a> {
    mime_type: std::borrow::Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<std::borrow::Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    uri: Option<std::borrow::Cow<'a, str>>,
    data: String,
}

impl Serialize for Media {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Stored {
            mime_type: self.mime_type.as_str().into(),
            name: self.name.as_deref().map(Into::into),
            uri: self.uri.as_deref().map(Into::into),
            data: self.base64(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Media {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let stored = Stored::deserialize(deserializer)?;
        let data = STANDARD.decode(stored.data.as_bytes()).map_err(|e| {
            serde::de::Error::custom(format_args!("media `data` is not standard base64: {e}"))
        })?;
        Ok(Self {
            mime_type: normalize(stored.mime_type.into_owned()),
            data,
            name: stored.name.map(|n| n.into_owned()),
            uri: stored.uri.map(|u| u.into_owned()),
        })
    }
}

/// The MIME types a provider takes inside a tool result.
///
/// ```
/// use toolnexus::Dialect;
///
/// let gemini = Dialect::Gemini.accepted_media();
/// assert!(gemini.accepts("image/webp"));
/// assert!(!gemini.accepts("image/gif"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct MediaSupport {
    /// Image types, rendered as images.
    pub images: &'static [&'static str],
    /// Document types, rendered as documents or files.
    pub documents: &'static [&'static str],
    /// Every other non-image type is accepted too (OpenAI Chat, where a file becomes a text note
    /// naming it, since a Chat tool result cannot carry one).
    pub any_document: bool,
    /// `text/plain` documents are sent as text, so they must be UTF-8 (Anthropic).
    pub text_must_be_utf8: bool,
    /// Audio types (none in a tool result; Gemini takes some in a user message).
    pub audio: &'static [&'static str],
}

impl MediaSupport {
    /// `true` when the provider takes `mime_type` (as [`Media::mime_type`] spells it). No
    /// provider takes `audio/*` in a tool result (a line of text stands in for it).
    #[must_use]
    pub fn accepts(&self, mime_type: &str) -> bool {
        if mime_type.starts_with("audio/") {
            self.audio.contains(&mime_type)
        } else if mime_type.starts_with("image/") {
            self.images.contains(&mime_type)
        } else {
            self.any_document || self.documents.contains(&mime_type)
        }
    }
}

/// The image types both OpenAI APIs and Anthropic take.
pub(crate) const WEB_IMAGES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];
