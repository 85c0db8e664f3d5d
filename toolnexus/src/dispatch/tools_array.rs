//! [`ToolsArray`]: a provider's `tools` array as a [`Toolkit`](crate::Toolkit) renders it,
//! serialized from the toolkit's shared `Value`s (a [`Selection`](crate::Selection)'s, straight
//! from the tools' schemas).

use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::tool::Tool;
use crate::values::dialect::Dialect;
use crate::{anthropic, bedrock, gemini, openai};

/// Which provider's shape a [`ToolsArray`] has.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    OpenAi,
    OpenAiStrict,
    /// The Responses API's; `true`: strict where each tool allows it.
    Responses(bool),
    Anthropic,
    /// Anthropic's with strict mode where each tool allows it.
    AnthropicStrict,
    /// Bedrock Converse's with strict mode where each tool allows it.
    BedrockStrict,
    Gemini,
    GeminiJsonSchema,
    /// The array a dialect's wire format declares tools with (`Toolkit::tools_for`).
    Dialect(Dialect),
}

/// A provider's `tools` array, as every `to_*` method of [`Toolkit`](crate::Toolkit) and
/// [`Selection`](crate::Selection) gives it ([`Toolkit::to_openai`](crate::Toolkit::to_openai),
/// [`to_openai_strict`](crate::Toolkit::to_openai_strict),
/// [`to_openai_responses`](crate::Toolkit::to_openai_responses),
/// [`to_anthropic`](crate::Toolkit::to_anthropic),
/// [`to_anthropic_strict`](crate::Toolkit::to_anthropic_strict),
/// [`to_bedrock_strict`](crate::Toolkit::to_bedrock_strict), [`to_gemini`](crate::Toolkit::to_gemini),
/// [`to_gemini_json_schema`](crate::Toolkit::to_gemini_json_schema)).
///
/// It serializes to exactly the bytes of the free functions' `Vec<Value>`
/// ([`to_openai`](crate::to_openai) and its siblings). The toolkit builds those `Value`s once,
/// the first time one of its arrays is used, and every array it hands out (until a tool is
/// added) shares them: making one costs two reference counts, and serializing it costs what
/// serializing the `Vec<Value>` costs. Put it anywhere a `Value` goes: in `json!`, in a
/// `#[derive(Serialize)]` request body, or through `serde_json::to_vec`.
///
/// It also reads like the `Vec<Value>` it stands for: it dereferences to `[Value]` (indexing,
/// `len`, `iter`), compares equal to a `Vec<Value>`, and converts into one. A
/// [`Selection`](crate::Selection)'s array builds its `Value`s only if it is inspected, and
/// otherwise serializes straight from the tools' schemas.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{tool, Toolkit};
///
/// /// Health check.
/// #[tool]
/// fn ping() -> &'static str {
///     "pong"
/// }
///
/// let toolkit = Toolkit::new().with(Ping)?;
///
/// let tools = toolkit.to_gemini();
/// let body = json!({"contents": [], "tools": tools});
/// assert_eq!(body["tools"][0]["functionDeclarations"][0]["name"], "ping");
/// assert_eq!(tools[0]["functionDeclarations"][0]["name"], "ping");
/// assert_eq!(
///     serde_json::to_string(&tools)?,
///     serde_json::to_string(&toolnexus::to_gemini(toolkit.tools()))?
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct ToolsArray {
    shape: Shape,
    /// The toolkit's own list, shared: making an array costs one reference count, not a copy
    /// of the list and a count per tool.
    tools: Arc<[Arc<dyn Tool>]>,
    /// The array as `Value`s, built on first use.
    values: Arc<OnceLock<Vec<Value>>>,
    /// Whether `values` is a toolkit's own cell, handed to every array it makes until a tool is
    /// added: then the first serialization builds it, and every one writes from it.
    shared: bool,
}

/// A toolkit's cell for the `Value`s of one provider's array (see [`ToolsArray::new`]).
pub(crate) type SharedValues = Arc<OnceLock<Vec<Value>>>;

impl ToolsArray {
    pub(crate) fn openai(tools: Arc<[Arc<dyn Tool>]>, cell: Option<&SharedValues>) -> Self {
        Self::new(Shape::OpenAi, tools, cell)
    }

    pub(crate) fn anthropic(tools: Arc<[Arc<dyn Tool>]>, cell: Option<&SharedValues>) -> Self {
        Self::new(Shape::Anthropic, tools, cell)
    }

    pub(crate) fn gemini(tools: Arc<[Arc<dyn Tool>]>, cell: Option<&SharedValues>) -> Self {
        Self::new(Shape::Gemini, tools, cell)
    }

    /// An array of `shape` whose `Value`s are built when first used, for this array alone.
    pub(crate) fn of(shape: Shape, tools: Arc<[Arc<dyn Tool>]>) -> Self {
        Self::new(shape, tools, None)
    }

    /// The array of `shape` over `tools`; with a toolkit's `cell`, its `Value`s are kept there.
    ///
    /// A toolkit renders the same array for every request body. Built once, its `Value`s are
    /// one tree allocated in one go, and writing that tree is the bare cost of serializing the
    /// array: streaming it from each tool's schema instead also walks every tool's other forms
    /// (the schema as written, the other providers'), spread over the heap one tool at a time
    /// (benches/render.rs measures both).
    fn new(shape: Shape, tools: Arc<[Arc<dyn Tool>]>, cell: Option<&SharedValues>) -> Self {
        Self {
            shape,
            tools,
            values: cell.map_or_else(SharedValues::default, Arc::clone),
            shared: cell.is_some(),
        }
    }

    /// The array as `Value`s, built on first use.
    fn values(&self) -> &Vec<Value> {
        self.values
            .get_or_init(|| array_build(self.shape, &self.tools))
    }
}

/// The array of `shape` for `tools`, as `Value`s.
fn array_build(shape: Shape, tools: &[Arc<dyn Tool>]) -> Vec<Value> {
    match shape {
        Shape::OpenAi => openai::to_openai(tools),
        Shape::OpenAiStrict => openai::to_openai_strict(tools),
        Shape::Responses(strict) => openai::to_openai_responses(tools, strict),
        Shape::Anthropic => anthropic::to_anthropic(tools),
        Shape::AnthropicStrict => anthropic::to_anthropic_strict(tools),
        Shape::BedrockStrict => bedrock::to_bedrock_strict(tools),
        Shape::Gemini => gemini::to_gemini(tools),
        Shape::GeminiJsonSchema => gemini::to_gemini_json_schema(tools),
        Shape::Dialect(dialect) => dialect.wire().tools(tools),
    }
}

impl Deref for ToolsArray {
    type Target = [Value];

    fn deref(&self) -> &[Value] {
        self.values()
    }
}

impl From<ToolsArray> for Vec<Value> {
    fn from(array: ToolsArray) -> Self {
        match Arc::try_unwrap(array.values) {
            Ok(cell) => match cell.into_inner() {
                Some(values) => values,
                None => array_build(array.shape, &array.tools),
            },
            // The toolkit's cell: a copy of what it holds (or will hold).
            Err(cell) => cell
                .get_or_init(|| array_build(array.shape, &array.tools))
                .clone(),
        }
    }
}

impl From<ToolsArray> for Value {
    fn from(array: ToolsArray) -> Self {
        Self::Array(array.into())
    }
}

impl IntoIterator for ToolsArray {
    type Item = Value;
    type IntoIter = std::vec::IntoIter<Value>;

    fn into_iter(self) -> Self::IntoIter {
        Vec::from(self).into_iter()
    }
}

impl<'a> IntoIterator for &'a ToolsArray {
    type Item = &'a Value;
    type IntoIter = std::slice::Iter<'a, Value>;

    fn into_iter(self) -> Self::IntoIter {
        self.values().iter()
    }
}

impl PartialEq for ToolsArray {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl PartialEq<Vec<Value>> for ToolsArray {
    fn eq(&self, other: &Vec<Value>) -> bool {
        **self == **other
    }
}

impl PartialEq<ToolsArray> for Vec<Value> {
    fn eq(&self, other: &ToolsArray) -> bool {
        **self == **other
    }
}

impl PartialEq<[Value]> for ToolsArray {
    fn eq(&self, other: &[Value]) -> bool {
        **self == *other
    }
}

impl fmt::Debug for ToolsArray {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl Serialize for ToolsArray {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.shape {
            _ if self.shared || self.values.get().is_some() => self.values().serialize(serializer),
            Shape::OpenAi => {
                let mut seq = serializer.serialize_seq(Some(self.tools.len()))?;
                for tool in self.tools.iter() {
                    seq.serialize_element(&OpenAiTool(&**tool))?;
                }
                seq.end()
            }
            Shape::Anthropic => {
                let mut seq = serializer.serialize_seq(Some(self.tools.len()))?;
                for tool in self.tools.iter() {
                    seq.serialize_element(&Declaration {
                        tool: &**tool,
                        schema_key: "input_schema",
                        schema: tool.input_schema().for_anthropic(),
                    })?;
                }
                seq.end()
            }
            Shape::Gemini => {
                let mut seq = serializer.serialize_seq(Some(1))?;
                seq.serialize_element(&GeminiWrapper(&self.tools))?;
                seq.end()
            }
            // The other shapes are built, then written.
            _ => self.values().serialize(serializer),
        }
    }
}

/// `{"type":"function","function":{...}}`.
struct OpenAiTool<'a>(&'a dyn Tool);

impl Serialize for OpenAiTool<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("type", "function")?;
        map.serialize_entry(
            "function",
            &Declaration {
                tool: self.0,
                schema_key: "parameters",
                schema: self.0.input_schema().for_openai(),
            },
        )?;
        map.end()
    }
}

/// `{"functionDeclarations":[...]}`.
struct GeminiWrapper<'a>(&'a [Arc<dyn Tool>]);

impl Serialize for GeminiWrapper<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("functionDeclarations", &GeminiDeclarations(self.0))?;
        map.end()
    }
}

struct GeminiDeclarations<'a>(&'a [Arc<dyn Tool>]);

impl Serialize for GeminiDeclarations<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for tool in self.0 {
            seq.serialize_element(&Declaration {
                tool: &**tool,
                schema_key: "parameters",
                schema: tool.input_schema().for_gemini(),
            })?;
        }
        seq.end()
    }
}

/// `{"name","description",<schema_key>}`: the per-tool object every provider shares.
struct Declaration<'a> {
    tool: &'a dyn Tool,
    schema_key: &'static str,
    schema: &'a Value,
}

impl Serialize for Declaration<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("name", self.tool.name())?;
        map.serialize_entry("description", self.tool.description())?;
        map.serialize_entry(self.schema_key, self.schema)?;
        map.end()
    }
}
