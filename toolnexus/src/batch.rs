//! Running one turn's calls: concurrently, bounded, with an optional per-call timeout, and
//! exactly one result per call in call order.

use std::borrow::Cow;
use std::collections::HashSet;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use futures::future::join_all;
use futures::stream::{self, StreamExt};
use serde_json::{json, Value};

use crate::{Arguments, Dialect, ResponseError, ToolCall, ToolResult, Toolkit};

/// How a turn's calls run.
///
/// ```
/// use std::time::Duration;
/// use toolnexus::RunOptions;
///
/// let options = RunOptions::default().with_concurrency(4).with_timeout(Duration::from_secs(30));
/// assert_eq!(options.concurrency, 4);
/// assert_eq!(RunOptions::default().concurrency, 8);
/// assert_eq!(RunOptions::default().timeout, None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RunOptions {
    /// How many calls of one turn run at once; default 8. `0` is taken as `1`.
    pub concurrency: usize,
    /// The longest one call may take; default none. A call that takes longer is dropped (so
    /// cancelled at its next `.await`) and answered with ``tool `NAME` timed out after 2s``; a
    /// panic while it is dropped is caught too (its payload goes to `metadata.panic`). A tool
    /// that blocks its thread without awaiting cannot be cut off.
    ///
    /// Uses Tokio's timer: run the turn inside a Tokio runtime with time enabled.
    pub timeout: Option<Duration>,
    /// The calls were made under OpenAI strict mode (the tools were sent with `"strict": true`).
    /// Arguments are then read into a value before the tool runs, so that the `null`s strict
    /// mode makes the model send for optional arguments can be turned back into "absent".
    pub openai_strict: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            concurrency: 8,
            timeout: None,
            openai_strict: false,
        }
    }
}

impl RunOptions {
    /// The same options with at most `concurrency` calls running at once (`0` is taken as `1`).
    #[must_use]
    pub fn with_concurrency(mut self, concurrency: usize) -> Self {
        self.concurrency = concurrency;
        self
    }

    /// The same options with a per-call timeout.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The same options for calls made under OpenAI strict mode; see [`RunOptions::openai_strict`].
    #[must_use]
    pub fn with_openai_strict(mut self, strict: bool) -> Self {
        self.openai_strict = strict;
        self
    }
}

impl Toolkit {
    /// Runs one call: by its arguments' form, [`Tool::execute_json`](crate::Tool::execute_json)
    /// for JSON text and [`Tool::execute`](crate::Tool::execute) for a value; absent arguments
    /// are `{}`.
    ///
    /// Never fails and never panics: an unknown tool, bad arguments, a tool error, a panic and a
    /// timeout all give an error result.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Arguments, NativeTool, RunOptions, ToolCall, Toolkit};
    ///
    /// let echo = NativeTool::of("echo", "Echo", json!({"type": "object", "properties": {}}),
    ///     |args| async move { args.to_string() })?;
    /// let toolkit = Toolkit::new().with(echo)?;
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let call = ToolCall::new("call_1", "echo", Arguments::Text(r#"{"a":1}"#.into()));
    /// assert_eq!(toolkit.execute_call(&call, &RunOptions::default()).await.output, r#"{"a":1}"#);
    ///
    /// let bad = ToolCall::new("call_2", "echo", Arguments::Text("[1]".into()));
    /// let result = toolkit.execute_call(&bad, &RunOptions::default()).await;
    /// assert_eq!(result.output, "invalid arguments for `echo`: expected a JSON object, got an array");
    /// # });
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub async fn execute_call(&self, call: &ToolCall, options: &RunOptions) -> ToolResult {
        self.run_call(call, Cow::Borrowed(&call.arguments), options)
            .await
    }

    /// [`Toolkit::execute_call`] with the call's arguments given apart, borrowed or owned (an
    /// owned value is decoded without a clone).
    async fn run_call(
        &self,
        call: &ToolCall,
        arguments: Cow<'_, Arguments>,
        options: &RunOptions,
    ) -> ToolResult {
        let Some(limit) = options.timeout else {
            return self.dispatch(&call.name, arguments, options).await;
        };
        // Boxed so that a call cut off by the timeout is dropped here, under `catch_unwind`: a
        // tool whose clean-up panics (a guard's `Drop`) must not take the turn down either.
        let mut run = Box::pin(self.dispatch(&call.name, arguments, options));
        match tokio::time::timeout(limit, run.as_mut()).await {
            Ok(result) => result,
            Err(_) => {
                let timed_out = ToolResult::error(format!(
                    "tool `{}` timed out after {limit:?}",
                    crate::call::echo(&call.name)
                ));
                match std::panic::catch_unwind(AssertUnwindSafe(move || drop(run))) {
                    Ok(()) => timed_out,
                    Err(payload) => timed_out
                        .with_metadata(json!({ "panic": crate::guard::message(payload.as_ref()) })),
                }
            }
        }
    }

    async fn dispatch(
        &self,
        name: &str,
        arguments: Cow<'_, Arguments>,
        options: &RunOptions,
    ) -> ToolResult {
        if options.openai_strict {
            // OpenAI strict mode makes the model send `null` for every optional argument it leaves
            // out; the tool's own schema turns those back into "absent" before the tool decodes.
            let Some(tool) = self.get(name) else {
                return self.execute(name, Value::Null).await; // `Unknown tool` comes first
            };
            let mut args = match arguments.as_ref() {
                Arguments::Absent => Value::Object(Default::default()),
                Arguments::Text(text) => {
                    if let Err(refused) = self.limits().check_text(name, text) {
                        return refused;
                    }
                    match crate::args::parse_object(name, text) {
                        Ok(value) => value,
                        Err(result) => return result,
                    }
                }
                Arguments::Value(value) => {
                    // Measured as sent, like text, before it is copied and pruned.
                    if let Err(refused) = self.limits().check_value(name, value) {
                        return refused;
                    }
                    into_value(arguments)
                }
            };
            tool.input_schema().strict_nulls_to_absent(&mut args);
            return self.execute(name, args).await;
        }
        match arguments.as_ref() {
            Arguments::Absent => self.execute(name, Value::Object(Default::default())).await,
            Arguments::Text(text) => self.execute_json(name, text).await,
            Arguments::Value(_) => self.execute(name, into_value(arguments)).await,
        }
    }

    /// Runs a turn's calls and returns exactly one result per call, in call order.
    ///
    /// Up to [`RunOptions::concurrency`] calls run at once, each under the optional
    /// [`RunOptions::timeout`]; a call that fails, panics or times out does not affect the
    /// others. Calls are told apart by position, so the same tool may be called twice.
    ///
    /// Duplicate ids: when two calls carry the same id (a provider or proxy bug), the first runs
    /// and each later one is answered, without running, with ``duplicate call id `ID`: an earlier
    /// call in this turn has it; this call was not run``, so a replayed call never runs twice and
    /// every call still gets its result. Calls without an id (Gemini) are never duplicates.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Arguments, NativeTool, RunOptions, ToolCall, Toolkit};
    ///
    /// let double = NativeTool::of("double", "Doubles n",
    ///     json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
    ///     |args| async move { (args["n"].as_i64().unwrap_or(0) * 2).to_string() })?;
    /// let toolkit = Toolkit::new().with(double)?;
    /// let calls = [
    ///     ToolCall::new("a", "double", Arguments::Text(r#"{"n":2}"#.into())),
    ///     ToolCall::new("b", "double", Arguments::Value(json!({"n": 5}))),
    ///     ToolCall::new("c", "triple", Arguments::Absent),
    /// ];
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let results = toolkit.execute_calls(&calls, &RunOptions::default()).await;
    /// let outputs: Vec<_> = results.iter().map(|r| r.output.as_str()).collect();
    /// assert_eq!(outputs, ["4", "10", "Unknown tool: triple. Available tools: double"]);
    /// # });
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub async fn execute_calls(&self, calls: &[ToolCall], options: &RunOptions) -> Vec<ToolResult> {
        let arguments = calls.iter().map(|c| Cow::Borrowed(&c.arguments)).collect();
        self.run_calls(calls, arguments, options).await
    }

    /// [`Toolkit::execute_calls`] with each call's arguments given apart (`arguments[i]` for
    /// `calls[i]`), borrowed or owned.
    async fn run_calls<'c>(
        &self,
        calls: &'c [ToolCall],
        arguments: Vec<Cow<'c, Arguments>>,
        options: &RunOptions,
    ) -> Vec<ToolResult> {
        let duplicate: Vec<bool> = if calls.len() <= 16 {
            // A turn's few ids are compared pairwise rather than hashed (same answer).
            calls
                .iter()
                .enumerate()
                .map(|(i, call)| {
                    call.id
                        .as_deref()
                        .is_some_and(|id| calls[..i].iter().any(|c| c.id.as_deref() == Some(id)))
                })
                .collect()
        } else {
            let mut seen = HashSet::with_capacity(calls.len());
            calls
                .iter()
                .map(|call| call.id.as_deref().is_some_and(|id| !seen.insert(id)))
                .collect()
        };
        // The futures are built up front (they do nothing until polled) rather than in a
        // `.map(|call| async move {..})` closure, which would make the turn's future not `Send`.
        let answers: Vec<_> = calls
            .iter()
            .zip(arguments)
            .zip(duplicate)
            .map(|((call, arguments), duplicate)| self.answer(call, arguments, duplicate, options))
            .collect();
        let limit = options.concurrency.max(1);
        if answers.len() <= limit {
            // All at once anyway: `join_all` polls them in order from this task, without the
            // task allocation, waker and queue per call of `buffered` (a sixth of a fast turn).
            join_all(answers).await
        } else {
            stream::iter(answers).buffered(limit).collect().await
        }
    }

    async fn answer(
        &self,
        call: &ToolCall,
        arguments: Cow<'_, Arguments>,
        duplicate: bool,
        options: &RunOptions,
    ) -> ToolResult {
        if duplicate {
            return ToolResult::error(format!(
                "duplicate call id `{}`: an earlier call in this turn has it; this call was not run",
                crate::call::echo(call.id.as_deref().unwrap_or_default())
            ));
        }
        self.run_call(call, arguments, options).await
    }

    /// Answers a model response in one call: reads its tool calls, runs them
    /// ([`Toolkit::execute_calls`], default [`RunOptions`]) and returns the message(s) the next
    /// request carries after the model's own turn ([`Dialect::model_turn`]).
    ///
    /// An empty list means the response had no calls: the model has answered. A response that is
    /// not what the dialect says is a [`ResponseError`] and nothing runs.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{Dialect, NativeTool, Toolkit};
    ///
    /// let weather = NativeTool::of("get_weather", "Weather for a city",
    ///     json!({"type": "object", "properties": {"city": {"type": "string"}}}),
    ///     |args| async move { format!("sunny in {}", args["city"].as_str().unwrap_or("?")) })?;
    /// let toolkit = Toolkit::new().with(weather)?;
    ///
    /// let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {
    ///     "role": "assistant", "content": null, "tool_calls": [{"id": "call_abc123",
    ///     "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}]});
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut messages = vec![json!({"role": "user", "content": "Weather in Paris?"})];
    /// let results = toolkit.respond(&response, Dialect::OpenAiChat).await?;
    /// messages.extend(Dialect::OpenAiChat.model_turn(&response)?); // the assistant message
    /// messages.extend(results); // one tool message per call
    /// assert_eq!(messages[2], json!({"role": "tool", "tool_call_id": "call_abc123", "content": "sunny in Paris"}));
    ///
    /// let answered = json!({"choices": [{"finish_reason": "stop",
    ///     "message": {"role": "assistant", "content": "It is sunny."}}]});
    /// assert!(toolkit.respond(&answered, Dialect::OpenAiChat).await?.is_empty());
    /// # Ok::<(), toolnexus::ResponseError>(()) }).unwrap();
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub async fn respond(
        &self,
        response: &Value,
        dialect: Dialect,
    ) -> Result<Vec<Value>, ResponseError> {
        self.respond_with(response, dialect, &RunOptions::default())
            .await
    }

    /// [`Toolkit::respond`] with the given [`RunOptions`].
    pub async fn respond_with(
        &self,
        response: &Value,
        dialect: Dialect,
        options: &RunOptions,
    ) -> Result<Vec<Value>, ResponseError> {
        let mut calls = dialect.parse_calls(response)?;
        // The calls are ours: their arguments move into the tools (rendering the results needs
        // only ids and names), so object arguments are not cloned again.
        let arguments = calls
            .iter_mut()
            .map(|c| Cow::Owned(std::mem::take(&mut c.arguments)))
            .collect();
        let results = self.run_calls(&calls, arguments, options).await;
        Ok(dialect.render_results(calls.iter().zip(&results)))
    }
}

/// The value of `Arguments::Value`, moved out when owned (anything else: `{}`, never reached).
fn into_value(arguments: Cow<'_, Arguments>) -> Value {
    match arguments {
        Cow::Owned(Arguments::Value(value)) => value,
        Cow::Borrowed(Arguments::Value(value)) => value.clone(),
        _ => Value::Object(Default::default()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::{Arguments, NativeTool, RunOptions, ToolCall, Toolkit};

    /// Duplicate ids are found the same way by the pairwise check (up to 16 calls) and the hash
    /// set (more).
    #[tokio::test]
    async fn duplicate_ids_are_the_same_for_few_and_many_calls() {
        let echo = NativeTool::of(
            "echo",
            "Echo",
            json!({"type": "object", "properties": {}}),
            |_| async { "ok" },
        )
        .unwrap();
        let toolkit = Toolkit::new().with(echo).unwrap();
        let ids = ["a", "b", "a", "c", "b", "d", "e", "a"];
        for n in [8, 16, 17, 40] {
            let calls: Vec<ToolCall> = (0..n)
                .map(|i| ToolCall {
                    id: (i % 5 != 4).then(|| ids[i % ids.len()].to_owned() + &(i / 8).to_string()),
                    name: "echo".into(),
                    arguments: Arguments::Absent,
                })
                .collect();
            let options = RunOptions::default().with_concurrency(64);
            let results = toolkit.execute_calls(&calls, &options).await;
            let mut seen = std::collections::HashSet::new();
            for (call, result) in calls.iter().zip(&results) {
                let duplicate = call.id.as_deref().is_some_and(|id| !seen.insert(id));
                assert_eq!(result.is_error, duplicate, "{n} {call:?}");
            }
        }
    }
}
