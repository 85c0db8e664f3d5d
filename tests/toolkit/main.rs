//! The `Toolkit`, `NativeTool` and `ToolResult` API: registering tools one by one and many at
//! once, argument limits, and each provider's limit on tools per request.

#[path = "../common/mod.rs"]
mod common;

mod batch;
mod deferred;
mod limits;
mod many_tools;
mod one_way;
mod runtime;
mod toolkit;
mod wrong_dialect;
