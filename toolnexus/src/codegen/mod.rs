//! Support for generated code: what `#[tool]` expansions call (spanned bound checks, return
//! types resolved through traits, the schema of a generated argument type). Not public API:
//! reached only through `toolnexus::__private`, by absolute paths, so a user crate needs no
//! serde, serde_json or schemars of its own.
//!
//! Generated code is kept small (it is compiled once per tool): the work lives here, in
//! functions that are not generic or whose generic part is one line, so a tool costs its
//! argument type's `JsonSchema` derive and `Deserialize` impl (from `impl_args!`,
//! see `args`), one decode instantiation and one future.
//!
//! Three tricks live here:
//! - **Spanned checks.** The macro emits a never-called fn whose `where` clause holds
//!   `ParamType: ToolParam` (and friends), with the spans of the user's own type tokens. A type
//!   that does not fit gives ONE error whose caret sits on that type and whose message (from
//!   `#[diagnostic::on_unimplemented]`) says how to fix it.
//! - **Bodies that compile whatever the types.** The generated `impl Tool` carries no such bound
//!   (so `.with(Tool)` still compiles, and rustdoc shows no hidden trait): it decodes, builds the
//!   schema and clones state through [`Probe`] methods resolved by autoref, which fall back to a
//!   stub when the real bound does not hold. The stub is only ever chosen in a crate that does
//!   not compile, because the check fn then fails.
//! - **Return types resolved through traits** (the same autoref specialization):
//!   `(&&&Probe::<R>::new()).tool_result_kind()` picks, in this order, [`IntoToolResult`],
//!   `Result<T: Serialize, E: Display>`, `T: Serialize`, and otherwise a tag whose `convert`
//!   requires [`ToolReturn`], a trait nothing implements, whose message lists what may be returned.

/// The traits generated code calls methods of, re-exported without names: `use
/// toolnexus::__private::probe::*;` brings them all into scope in one `use` item (a list of
/// `Trait as _` imports is one item per trait, each compiled in every tool).
pub mod probe {
    pub use super::output::{
        OutputNone as _, OutputViaJson as _, OutputViaResult as _, ViaStructured as _,
    };
    pub use super::{
        CloneStateUnchecked as _, CloneStateValue as _, DecodeArgs as _, DecodeUnchecked as _,
        SchemaArgs as _, SchemaUnchecked as _, ViaIntoToolResult as _, ViaResult as _,
        ViaSerialize as _, ViaUnsupported as _,
    };
}

use std::borrow::Cow;
use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::OnceLock;
use std::task::{Context, Poll};

use serde::de::{Deserialize, DeserializeOwned};
use serde::Serialize;

mod args;
mod impl_tool;
mod output;

pub use args::{missing, FieldKey};
pub use output::{output_once, output_schema_of, IntoStructured, StructuredTag};

use crate::schema::InputSchema;
use crate::values::error::SchemaError;
use crate::values::result::{error_text, IntoToolResult, Json, ToolResult};

/// The future a generated `execute`/`execute_json` returns.
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>>;

/// The context a generated `execute`/`execute_json` (a direct call) hands the fn: inert.
#[must_use]
pub fn detached_context() -> crate::tool::context::CallContext {
    crate::tool::context::CallContext::detached()
}

/// The future of a tool from a plain `fn`: `call` runs on the first poll (so inside whatever
/// guards the poll), and its result is ready then.
#[derive(Debug)]
pub struct Lazy<F>(Option<F>);

/// See [`Lazy`].
pub fn lazy<F: FnOnce() -> ToolResult + Unpin>(call: F) -> Lazy<F> {
    Lazy(Some(call))
}

impl<F: FnOnce() -> ToolResult + Unpin> Future for Lazy<F> {
    type Output = ToolResult;

    fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<ToolResult> {
        match self.get_mut().0.take() {
            Some(call) => Poll::Ready(call()),
            // Polled again after completion: the caller broke the `Future` contract.
            None => Poll::Ready(ToolResult::error(
                "the tool's call was polled after it completed",
            )),
        }
    }
}

/// What a generated tool was called with: `Tool::call`'s arguments, handed to the tool's one
/// future.
pub use crate::tool::call_args::CallArgs as Input;

/// The input schema of a generated argument type, named after its tool.
///
/// Never panics: a schema that cannot be used becomes an [`InputSchema`] that carries the error,
/// which [`Toolkit::add`](crate::Toolkit::add) refuses.
#[must_use]
pub fn schema_of<A: schemars::JsonSchema>(tool: &str) -> InputSchema {
    schema_for(tool, crate::schema::generator().into_root_schema_for::<A>())
}

/// [`schema_of`] past the one generic step.
fn schema_for(tool: &str, schema: schemars::Schema) -> InputSchema {
    match InputSchema::new(crate::schema::from_root(schema)) {
        Ok(schema) => schema,
        Err(error) => InputSchema::invalid(error.for_tool(tool)),
    }
}

// Each check trait reaches the real bound through a higher-ranked supertrait (`for<'x> ..At<'x>`):
// the `where` bound is then reported with the check trait's own message (not the bare serde or
// schemars one), and inside the `impl Tool` the real bound still follows from it.

/// A parameter type the model's arguments can be decoded into.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter: it does not implement `serde::Deserialize`",
    label = "the model's JSON arguments cannot be decoded into `{Self}`",
    note = "for your own type add `#[derive(serde::Deserialize, schemars::JsonSchema)]`; \
            for a reference such as `&str` take the owned type (`String`)"
)]
pub trait ToolParam: for<'x> DeserializeAt<'x> {}
#[diagnostic::do_not_recommend]
impl<T: for<'de> Deserialize<'de>> ToolParam for T {}
/// See [`ToolParam`].
pub trait DeserializeAt<'x>: for<'de> Deserialize<'de> {}
impl<T: for<'de> Deserialize<'de>> DeserializeAt<'_> for T {}

/// A parameter type whose JSON Schema can be generated.
///
/// The usual cause of a type that derives `JsonSchema` and still fails here is a crate with
/// `schemars = "0.8"`: its derive implements 0.8's trait, not the 1.x one toolnexus uses. The
/// message names that cause and its fix.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter: it does not implement schemars 1.x `JsonSchema`",
    label = "no JSON Schema for `{Self}`, so the model cannot be told its shape",
    note = "for your own type add `#[derive(schemars::JsonSchema)]` next to `serde::Deserialize`",
    note = "if `{Self}` derives `JsonSchema` already, the derive is from another version of \
            schemars (two versions of schemars are in your build): depend on `schemars = \"1\"`, \
            the version toolnexus uses (`cargo tree --duplicates` shows both)"
)]
pub trait ParamSchema: for<'x> JsonSchemaAt<'x> {}
// Not recommended: the error is reported on `ParamSchema` itself, with the message above,
// instead of on `schemars::JsonSchema` through this impl (which printed the private path
// `toolnexus::__private::schemars::JsonSchema` and eight of its 130 impls).
#[diagnostic::do_not_recommend]
impl<T: schemars::JsonSchema> ParamSchema for T {}
/// See [`ParamSchema`].
pub trait JsonSchemaAt<'x>: schemars::JsonSchema {}
impl<T: schemars::JsonSchema> JsonSchemaAt<'_> for T {}

/// State held by a tool type: shared by every call, possibly on several threads at once.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be tool state: it must be `Send + Sync + 'static`",
    label = "calls may run concurrently on several threads, sharing this value",
    note = "share it through `Arc<T>` (with a `Mutex` inside for mutable data), \
            or take `&T` of a `Send + Sync` type"
)]
pub trait ToolState: for<'x> StateAt<'x> {}
impl<T: Send + Sync + 'static> ToolState for T {}
/// See [`ToolState`].
pub trait StateAt<'x>: Send + Sync + 'static {}
impl<T: Send + Sync + 'static> StateAt<'_> for T {}

/// State passed by value: cloned for each call.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be passed by value as tool state: it is not `Clone`",
    label = "each call gets its own clone of this state",
    note = "take it by reference (`#[state] name: &{Self}`), or wrap it in `Arc`"
)]
pub trait CloneState: for<'x> CloneAt<'x> {}
impl<T: Clone> CloneState for T {}
/// See [`CloneState`].
pub trait CloneAt<'x>: Clone {}
impl<T: Clone> CloneAt<'_> for T {}

/// What a tool's return type must be; nothing implements it: it only carries the message shown
/// when a tool returns something else.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned by a tool",
    label = "this return type does not become a tool result",
    note = "return `String`, `&'static str`, `ToolResult`, any `T: serde::Serialize` (sent as JSON \
            text), or `Result<T, E: Display>` of those (an `Err` is an error result)"
)]
pub trait ToolReturn {}

/// Stands for the return type `T` without holding a value, so it is `Copy` for any `T`.
#[derive(Debug)]
pub struct Probe<T>(pub PhantomData<fn() -> T>);

impl<T> Probe<T> {
    /// The probe for the type of `value`.
    pub fn of(_value: &T) -> Self {
        Self(PhantomData)
    }

    /// The probe for `T`.
    #[allow(clippy::new_without_default)]
    #[must_use]
    pub fn new() -> Self {
        Self(PhantomData)
    }
}

/// Decoding the arguments, when `A` can be decoded (the usual case).
pub trait DecodeArgs {
    /// The argument type.
    type Args;
    /// Decodes `input` into the arguments of the tool `tool`, or the error result for the model.
    fn decode(&self, tool: &str, input: Input<'_>) -> Result<Self::Args, ToolResult>;
}
impl<A: DeserializeOwned> DecodeArgs for &Probe<A> {
    type Args = A;
    fn decode(&self, tool: &str, input: Input<'_>) -> Result<A, ToolResult> {
        match input_text(input, tool) {
            Ok(text) => crate::decode::decode_str(tool, &text),
            Err(refused) => Err(refused),
        }
    }
}

/// The arguments as JSON text: a value is written out, so a tool has one decoder.
#[inline]
fn input_text<'a>(input: Input<'a>, tool: &str) -> Result<Cow<'a, str>, ToolResult> {
    match input {
        Input::Text(text) => Ok(Cow::Borrowed(text)),
        Input::Value(value) => crate::decode::value_text(tool, value).map(Cow::Owned),
    }
}

/// Chosen only when `A` cannot be decoded, in a crate that then fails to compile on the
/// spanned [`ToolParam`] check: it keeps the generated body free of follow-on errors.
pub trait DecodeUnchecked {
    /// The argument type.
    type Args;
    /// Never called in a program that compiles.
    fn decode(&self, tool: &str, input: Input<'_>) -> Result<Self::Args, ToolResult>;
}
impl<A> DecodeUnchecked for Probe<A> {
    type Args = A;
    fn decode(&self, tool: &str, _input: Input<'_>) -> Result<A, ToolResult> {
        Err(ToolResult::error(format!(
            "`{tool}` was compiled without a decodable argument type"
        )))
    }
}

/// The schema of the arguments, when `A` has one (the usual case).
pub trait SchemaArgs {
    /// The fn that makes the schema (see [`schema_of`]).
    fn schema(&self) -> fn(&str) -> InputSchema;
}
impl<A: schemars::JsonSchema> SchemaArgs for &Probe<A> {
    fn schema(&self) -> fn(&str) -> InputSchema {
        schema_of::<A>
    }
}

/// Chosen only when `A` has no schema, in a crate that then fails to compile on the spanned
/// [`ParamSchema`] check.
pub trait SchemaUnchecked {
    /// Never called in a program that compiles.
    fn schema(&self) -> fn(&str) -> InputSchema;
}
impl<A> SchemaUnchecked for Probe<A> {
    fn schema(&self) -> fn(&str) -> InputSchema {
        |tool| InputSchema::invalid(SchemaError::new("", "no schema").for_tool(tool))
    }
}

/// The schema of the tool `tool`, made by `make` on first use and then kept in `cell` (one
/// `static` per tool), shared by every call and every request body.
pub fn schema_once(
    cell: &'static OnceLock<InputSchema>,
    make: fn(&str) -> InputSchema,
    tool: &str,
) -> &'static InputSchema {
    cell.get_or_init(|| make(tool))
}

/// A `#[state]` value passed by value: each call gets a clone.
pub trait CloneStateValue<T> {
    /// A clone of `value`.
    fn state(&self, value: &T) -> T;
}
impl<T: Clone> CloneStateValue<T> for &Probe<T> {
    fn state(&self, value: &T) -> T {
        value.clone()
    }
}

/// Chosen only when the state is not `Clone`, in a crate that then fails to compile on the
/// spanned [`CloneState`] check.
pub trait CloneStateUnchecked<T> {
    /// Never called in a program that compiles.
    fn state(&self, value: &T) -> T;
}
impl<T> CloneStateUnchecked<T> for Probe<T> {
    fn state(&self, _value: &T) -> T {
        unreachable!("a crate whose `#[state]` type is not `Clone` does not compile")
    }
}

impl<T> Clone for Probe<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Probe<T> {}

/// Priority 1: the return type implements [`IntoToolResult`].
pub trait ViaIntoToolResult {
    /// The conversion to use.
    fn tool_result_kind(&self) -> IntoTag {
        IntoTag
    }
}
impl<T: IntoToolResult> ViaIntoToolResult for &&Probe<T> {}

/// Priority 2: a `Result` whose `Ok` is any `Serialize` value.
pub trait ViaResult {
    /// The conversion to use.
    fn tool_result_kind(&self) -> ResultTag {
        ResultTag
    }
}
impl<T, E> ViaResult for &Probe<Result<T, E>> {}

/// Priority 3: any `Serialize` value.
pub trait ViaSerialize {
    /// The conversion to use.
    fn tool_result_kind(&self) -> SerializeTag {
        SerializeTag
    }
}
impl<T: Serialize> ViaSerialize for Probe<T> {}

/// Last: anything else, which does not compile (see [`ToolReturn`]).
pub trait ViaUnsupported {
    /// The conversion to use.
    fn tool_result_kind(self) -> UnsupportedTag;
}
impl<T> ViaUnsupported for Probe<T> {
    fn tool_result_kind(self) -> UnsupportedTag {
        UnsupportedTag
    }
}

/// Converts through [`IntoToolResult`].
#[derive(Debug)]
pub struct IntoTag;
impl IntoTag {
    /// The result of `value`.
    pub fn convert<T: IntoToolResult>(self, value: T) -> ToolResult {
        value.into_tool_result()
    }
}

/// Converts a `Result<T: Serialize, E: Display>`.
#[derive(Debug)]
pub struct ResultTag;
impl ResultTag {
    /// `Ok` as compact JSON text, `Err` as an error result with the error's `Display` text.
    pub fn convert<T: Serialize, E: Display>(self, value: Result<T, E>) -> ToolResult {
        match value {
            Ok(value) => Json(value).into_tool_result(),
            Err(error) => ToolResult::error(error_text(&error)),
        }
    }
}

/// Converts any `Serialize` value to compact JSON text.
#[derive(Debug)]
pub struct SerializeTag;
impl SerializeTag {
    /// The JSON text of `value`.
    pub fn convert<T: Serialize>(self, value: T) -> ToolResult {
        Json(value).into_tool_result()
    }
}

/// Chosen for a return type nothing else accepts; `convert` does not compile for it.
#[derive(Debug)]
pub struct UnsupportedTag;
impl UnsupportedTag {
    /// Unreachable in a program that compiles.
    pub fn convert<T: ToolReturn>(self, _value: T) -> ToolResult {
        ToolResult::error("unsupported return type")
    }
}
