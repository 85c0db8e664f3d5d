//! The plain values every layer passes around: a model's [`ToolCall`](call::ToolCall) and its
//! arguments, a tool's [`ToolResult`](result::ToolResult) and its [`Media`](media::Media), the
//! [`Dialect`](dialect::Dialect) a response is read as, the crate's errors, the `ToolArgs`
//! marker, and the text helpers that echo what a model or provider sent.

pub(crate) mod approval;
pub(crate) mod call;
pub(crate) mod dialect;
pub(crate) mod error;
pub(crate) mod ids;
pub(crate) mod media;
pub(crate) mod result;
pub(crate) mod text;
pub(crate) mod tool_args;
pub(crate) mod transcript;
pub(crate) mod warning;
