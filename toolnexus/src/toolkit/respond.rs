//! The toolkit's round trip: [`Toolkit::respond`] answers a model response with a [`Turn`];
//! [`Toolkit::execute_calls`] and [`Toolkit::execute_call`] run calls already read.

use std::borrow::Cow;
use std::future::Future;

use futures::future::join;
use serde_json::Value;

use crate::guard::trace;
use crate::response::ResponseError;
use crate::tool::context::CallContext;
use crate::toolkit::{Input, Toolkit};
use crate::turn::batch::{self, RunOptions};
use crate::turn::Turn;
use crate::values::call::{Arguments, ToolCall};
use crate::values::dialect::Dialect;
use crate::values::result::ToolResult;
use crate::wire::ModelTurn;

impl Toolkit {
    /// Runs one call: by its arguments' form, [`Tool::execute_json`](crate::Tool::execute_json)
    /// for JSON text and [`Tool::execute`](crate::Tool::execute) for a value; absent arguments
    /// are `{}`.
    ///
    /// Never fails and never panics: an unknown tool, bad arguments, a tool error, a panic and a
    /// timeout all give an error result, and so does a call of a type a toolkit does not run
    /// ([`CallKind::Unsupported`](crate::CallKind::Unsupported)), which is never run.
    ///
    /// One panic guard covers everything the tool's code does for the call: the call of
    /// [`Tool::execute`](crate::Tool::execute) itself (a closure or hand-written `execute` that
    /// panics before it returns its future), decoding into `#[tool]` parameter types, cloning
    /// `#[state]`, the future, its drop (also when the timeout cuts it off) and the drop of a
    /// panic's payload. A panic is answered ``tool `NAME` panicked; it could not complete this
    /// call``, or, while a timed-out call is dropped, with the timeout's error; the payload's
    /// text is in `metadata.panic`, never in the output the model reads.
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
        self.execute_call_from(call, options, None).await
    }

    /// [`Toolkit::execute_call`] for a call read from a `dialect` response (its span says so).
    pub(crate) async fn execute_call_from(
        &self,
        call: &ToolCall,
        options: &RunOptions,
        dialect: Option<Dialect>,
    ) -> ToolResult {
        if let Some(refused) = batch::unsupported(call) {
            return refused;
        }
        let strict = self.strict_calls(options, dialect);
        let context = CallContext::for_call(call.id.as_deref(), dialect, None);
        let arguments = Cow::Borrowed(&call.arguments);
        let running = self.dispatch(&call.name, arguments, options, strict, context);
        trace::call(&call.name, call.id.as_deref(), dialect, running).await
    }

    /// Whether calls read from a `dialect` response are strict calls: the options say so, or
    /// this toolkit handed out that dialect's tools in strict mode.
    pub(crate) fn strict_calls(&self, options: &RunOptions, dialect: Option<Dialect>) -> bool {
        options.openai_strict || dialect.is_some_and(|d| self.strict.has(d))
    }

    /// Runs one call of tool `name` by its arguments' form, through the toolkit's one per-call
    /// path (`Toolkit::call`), under the options' timeout and `strict` mode.
    ///
    /// A plain fn, not an `async fn`, so the arguments are not stored beside the future that
    /// takes them (a turn holds one such future per call).
    fn dispatch<'a>(
        &'a self,
        name: &'a str,
        arguments: Cow<'a, Arguments>,
        options: &RunOptions,
        strict: bool,
        context: CallContext,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        let input = match arguments {
            Cow::Borrowed(Arguments::Text(text)) => Input::Text(Cow::Borrowed(text)),
            Cow::Owned(Arguments::Text(text)) => Input::Text(Cow::Owned(text)),
            Cow::Borrowed(Arguments::Value(value)) => Input::Value(value.clone()),
            Cow::Owned(Arguments::Value(value)) => Input::Value(value),
            Cow::Borrowed(Arguments::Absent) | Cow::Owned(Arguments::Absent) => Input::Absent,
        };
        self.call(name, input, options.timeout, strict, context)
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
    /// "First" is by position, not by the order calls arrive: a [`StreamTurn`](crate::StreamTurn)
    /// judges a streamed response's calls the same way, whatever order they complete in.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{tool, Arguments, RunOptions, ToolCall, Toolkit};
    ///
    /// /// Doubles n.
    /// #[tool]
    /// fn double(n: i64) -> i64 {
    ///     n * 2
    /// }
    ///
    /// let toolkit = Toolkit::new().with(Double)?;
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
        let policy = self.policy();
        batch::run_calls(
            calls,
            arguments,
            options,
            None,
            policy,
            |call, arguments| {
                let context = CallContext::for_call(call.id.as_deref(), None, None);
                let strict = options.openai_strict;
                self.dispatch(&call.name, arguments, options, strict, context)
            },
        )
        .await
    }

    /// Answers a model response in one call: reads its tool calls and the model's turn (one
    /// reading of the response), runs the calls ([`Toolkit::execute_calls`], default
    /// [`RunOptions`]) and returns the whole [`Turn`]: the calls, their results, and the
    /// messages the next request appends ([`Turn::into_messages`]: the model's turn, then the
    /// results).
    ///
    /// A turn without calls [`is_final`](Turn::is_final): the model has answered. A response
    /// that is not what the dialect says is a [`ResponseError`] and nothing runs.
    ///
    /// Results that carry images or files are held to the toolkit's [`Limits`](crate::Limits)
    /// and to the MIME types the dialect accepts before they are rendered
    /// ([`Dialect::admit_media`]); one past them is an error result that says so.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::{tool, Dialect, Toolkit};
    ///
    /// /// Weather for a city.
    /// #[tool]
    /// async fn get_weather(city: String) -> String {
    ///     format!("sunny in {city}")
    /// }
    ///
    /// let toolkit = Toolkit::new().with(GetWeather)?;
    ///
    /// let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {
    ///     "role": "assistant", "content": null, "tool_calls": [{"id": "call_abc123",
    ///     "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}]});
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let mut messages = vec![Dialect::OpenAiChat.user_message("Weather in Paris?")];
    /// let turn = toolkit.respond(&response, Dialect::OpenAiChat).await?;
    /// messages.extend(turn.into_messages()); // the assistant message, then one tool message per call
    /// assert_eq!(messages[1]["tool_calls"][0]["id"], "call_abc123");
    /// assert_eq!(messages[2], json!({"role": "tool", "tool_call_id": "call_abc123", "content": "sunny in Paris"}));
    ///
    /// let answered = json!({"choices": [{"finish_reason": "stop",
    ///     "message": {"role": "assistant", "content": "It is sunny."}}]});
    /// let turn = toolkit.respond(&answered, Dialect::OpenAiChat).await?;
    /// assert!(turn.is_final());
    /// assert_eq!(turn.text(), "It is sunny.");
    /// messages.extend(turn.into_messages()); // the answer too, so the conversation can go on
    /// assert_eq!(messages.len(), 4);
    /// # Ok::<(), toolnexus::ResponseError>(()) }).unwrap();
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    pub async fn respond(&self, response: &Value, dialect: Dialect) -> Result<Turn, ResponseError> {
        self.respond_with(response, dialect, &RunOptions::default())
            .await
    }

    /// [`Toolkit::respond`] with the given [`RunOptions`].
    pub async fn respond_with(
        &self,
        response: &Value,
        dialect: Dialect,
        options: &RunOptions,
    ) -> Result<Turn, ResponseError> {
        let (calls, turn) = dialect.read_calls(response)?;
        Ok(self.run_read(calls, turn, dialect, options).await)
    }

    /// Runs the calls of a response already read (`calls`, the model's `turn`), as
    /// [`Toolkit::respond_with`] does, and builds the [`Turn`].
    pub(crate) async fn run_read(
        &self,
        calls: Vec<ToolCall>,
        turn: ModelTurn<'_>,
        dialect: Dialect,
        options: &RunOptions,
    ) -> Turn {
        // The turn keeps each call's arguments as sent (a host logs them); the tools borrow
        // them (JSON text is decoded in place; an object is copied for the tool that takes it).
        let arguments = calls.iter().map(|c| Cow::Borrowed(&c.arguments)).collect();
        let strict = self.strict_calls(options, Some(dialect));
        let running = batch::run_calls(
            &calls,
            arguments,
            options,
            Some(dialect),
            self.policy(),
            |call, arguments| {
                let context = CallContext::for_call(call.id.as_deref(), Some(dialect), None);
                self.dispatch(&call.name, arguments, options, strict, context)
            },
        );
        // The model's turn (a copy of the response's message) is built after the calls have
        // started, while they run: not in front of them.
        let (results, model_turn) = join(running, async { turn.build() }).await;
        self.answered_turn(dialect, calls, results, model_turn)
    }

    /// The `Turn` of calls that have their results: media held to the toolkit's limits and the
    /// dialect's types, the results rendered, and whether a final answer came (what `respond`,
    /// a streamed turn and a resumed pending turn all end with).
    pub(crate) fn answered_turn(
        &self,
        dialect: Dialect,
        calls: Vec<ToolCall>,
        mut results: Vec<ToolResult>,
        model_turn: Vec<Value>,
    ) -> Turn {
        dialect.admit_media(&calls, &mut results, &self.limits());
        let result_messages = dialect.render_results(calls.iter().zip(&results));
        Turn {
            answered: self.answered(&calls, &results),
            calls,
            results,
            model_turn,
            result_messages,
            dialect,
        }
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
                    ..Default::default()
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
