//! The one render path of a tools array ([`ToolsArray::render`]: a dialect's wire under some
//! [`ToolsOptions`]) and the one cache a [`Toolkit`](crate::Toolkit) and a
//! [`Selection`](crate::Selection) keep of it, keyed by dialect and options.

use std::fmt;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::tool::Tool;
use crate::values::dialect::Dialect;
use crate::wire::options::ToolsOptions;

/// A provider's `tools` array, as [`Toolkit::tools_for`](crate::Toolkit::tools_for) (and
/// [`to_openai`](crate::Toolkit::to_openai), [`to_anthropic`](crate::Toolkit::to_anthropic),
/// [`to_gemini`](crate::Toolkit::to_gemini)) and [`Selection::tools_for`](crate::Selection::tools_for)
/// give it.
///
/// It serializes to exactly the bytes of the free functions' `Vec<Value>`
/// ([`to_openai`](crate::to_openai) and its siblings). The toolkit (or selection) renders those
/// `Value`s once per dialect and options, and every array it hands out for them (until a tool is
/// added) shares them: making one costs a reference count, and serializing it costs what
/// serializing the `Vec<Value>` costs. Put it anywhere a `Value` goes: in `json!`, in a
/// `#[derive(Serialize)]` request body, or through `serde_json::to_vec`.
///
/// It also reads like the `Vec<Value>` it stands for: it dereferences to `[Value]` (indexing,
/// `len`, `iter`), compares equal to a `Vec<Value>`, and converts into one.
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
    /// Shared with the cache it came from and every array it handed out.
    values: Arc<Vec<Value>>,
}

impl ToolsArray {
    /// `tools` as `dialect` declares them under `options`: the one render path.
    pub(crate) fn render(tools: &[Arc<dyn Tool>], dialect: Dialect, options: ToolsOptions) -> Self {
        Self {
            values: Arc::new(dialect.wire().tools(tools, options)),
        }
    }
}

/// The tools arrays of one list of tools, rendered on first use per dialect and options, as
/// `Value`s and as JSON text: what a toolkit (until a tool is added) and a selection keep.
#[derive(Clone, Default)]
pub(crate) struct RenderCache {
    /// One cell per dialect and options, made on first use.
    cells: OnceLock<Box<[Cell]>>,
}

#[derive(Clone, Default)]
struct Cell {
    array: OnceLock<ToolsArray>,
    json: OnceLock<Box<RawValue>>,
}

impl RenderCache {
    fn cell(&self, dialect: Dialect, options: ToolsOptions) -> &Cell {
        let cells = self.cells.get_or_init(|| {
            let count = Dialect::ALL.len() * ToolsOptions::COUNT;
            (0..count).map(|_| Cell::default()).collect()
        });
        &cells[dialect as usize * ToolsOptions::COUNT + options.index()]
    }

    /// The array of `tools` for `dialect` under `options`, rendered the first time it is asked.
    pub(crate) fn array(
        &self,
        tools: &[Arc<dyn Tool>],
        dialect: Dialect,
        options: ToolsOptions,
    ) -> ToolsArray {
        self.cell(dialect, options)
            .array
            .get_or_init(|| ToolsArray::render(tools, dialect, options))
            .clone()
    }

    /// The same array as JSON text, written the first time it is asked.
    pub(crate) fn json(
        &self,
        tools: &[Arc<dyn Tool>],
        dialect: Dialect,
        options: ToolsOptions,
    ) -> &RawValue {
        let cell = self.cell(dialect, options);
        cell.json.get_or_init(|| {
            let array = cell
                .array
                .get_or_init(|| ToolsArray::render(tools, dialect, options));
            // A tools array always serializes: its keys are strings and its numbers finite.
            serde_json::value::to_raw_value(array).unwrap_or_else(|_| RawValue::NULL.to_owned())
        })
    }
}

impl Deref for ToolsArray {
    type Target = [Value];

    fn deref(&self) -> &[Value] {
        &self.values
    }
}

impl From<ToolsArray> for Vec<Value> {
    fn from(array: ToolsArray) -> Self {
        Arc::try_unwrap(array.values).unwrap_or_else(|shared| (*shared).clone())
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
        self.values.iter()
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
        self.values.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dialect_and_option_has_its_own_cell() {
        // The cache indexes by `dialect as usize`: `ALL` must list the variants in order.
        for (i, dialect) in Dialect::ALL.into_iter().enumerate() {
            assert_eq!(dialect as usize, i);
        }
        let cache = RenderCache::default();
        let mut seen = std::collections::HashSet::new();
        for dialect in Dialect::ALL {
            for strict in [false, true] {
                for json_schema in [false, true] {
                    let options = ToolsOptions::default()
                        .with_strict(strict)
                        .with_json_schema(json_schema);
                    assert!(options.index() < ToolsOptions::COUNT);
                    let cell: *const Cell = cache.cell(dialect, options);
                    assert!(seen.insert(cell), "{dialect:?} {options:?}");
                }
            }
        }
    }
}
