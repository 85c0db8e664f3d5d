//! One way to execute (issue 39): a hand-written tool implements `Tool::call` alone, and every
//! path reaches it with the call's context, whatever the toolkit's configuration. Before, text
//! arguments went to `execute_json_with` unless strict mode, a rule or a hook was set, and a tool
//! that overrode one method lost its context (or its decoding) when someone added a rule.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use toolnexus::approval::{Answer, Gated};
use toolnexus::{
    async_trait, Arguments, CallArgs, CallContext, Dialect, Gate, Hooks, InputSchema, Policy,
    RunOptions, Tool, ToolCall, ToolResult, Toolkit,
};

/// What each call of [`Probe`] saw: the call's id, and the `city` it read.
type Seen = Arc<Mutex<Vec<(Option<String>, Value)>>>;

struct Probe {
    schema: InputSchema,
    seen: Seen,
}

#[async_trait]
impl Tool for Probe {
    fn name(&self) -> &str {
        "probe"
    }
    fn description(&self) -> &str {
        "Records the call's id and its argument."
    }
    fn input_schema(&self) -> &InputSchema {
        &self.schema
    }
    async fn call(&self, context: CallContext, args: CallArgs<'_>) -> ToolResult {
        let args = match args.into_object(self.name()) {
            Ok(args) => args,
            Err(refused) => return refused,
        };
        let id = context.id().map(str::to_owned);
        self.seen.lock().unwrap().push((id, args["city"].clone()));
        ToolResult::ok("seen")
    }
}

fn probe() -> (Toolkit, Seen) {
    let seen = Seen::default();
    let schema = InputSchema::new(json!({"type": "object",
        "properties": {"city": {"type": "string"}}, "required": ["city"]}))
    .unwrap();
    let tool = Probe {
        schema,
        seen: Arc::clone(&seen),
    };
    (Toolkit::new().with(tool).unwrap(), seen)
}

/// An OpenAI Chat response calling the probe with text arguments.
fn chat() -> Value {
    json!({"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
        "content": null, "tool_calls": [{"id": "call_1", "type": "function",
        "function": {"name": "probe", "arguments": "{\"city\": \"Oslo\"}"}}]}}]})
}

fn seen_once(seen: &Seen, how: &str) {
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    assert_eq!(
        seen,
        [(Some("call_1".to_owned()), json!("Oslo"))],
        "{how}: the tool ran once, with the call's id and its argument"
    );
}

#[tokio::test]
async fn every_configuration_reaches_the_one_method_with_the_calls_context() {
    let (plain, seen) = probe();
    plain.respond(&chat(), Dialect::OpenAiChat).await.unwrap();
    seen_once(&seen, "text, nothing set");

    let (toolkit, seen) = probe();
    let toolkit = toolkit.with_policy(Policy::new().rule(|_: &str, _: &Value| None::<Gate>));
    toolkit.respond(&chat(), Dialect::OpenAiChat).await.unwrap();
    seen_once(&seen, "a policy rule");

    let (toolkit, seen) = probe();
    let toolkit = toolkit.with_hooks(Hooks::new().before(|_: &str, _: &mut Value| None));
    toolkit.respond(&chat(), Dialect::OpenAiChat).await.unwrap();
    seen_once(&seen, "a before hook");

    let (toolkit, seen) = probe();
    let strict = RunOptions::default().with_openai_strict(true);
    let call = ToolCall::new(
        "call_1",
        "probe",
        Arguments::Text("{\"city\": \"Oslo\"}".into()),
    );
    toolkit.execute_call(&call, &strict).await;
    seen_once(&seen, "strict mode");

    let (toolkit, seen) = probe();
    let call = ToolCall::new("call_1", "probe", Arguments::Value(json!({"city": "Oslo"})));
    toolkit.execute_call(&call, &RunOptions::default()).await;
    seen_once(&seen, "a value");

    // A resumed turn: the approved call gets its context too.
    let (toolkit, seen) = probe();
    let toolkit =
        toolkit.with_policy(Policy::new().rule(|_: &str, _: &Value| Some(Gate::ask("allow?"))));
    let Gated::Pending(pending) = toolkit
        .respond_gated(&chat(), Dialect::OpenAiChat)
        .await
        .unwrap()
    else {
        panic!("the rule asks")
    };
    let answers: Vec<Answer> = pending.awaiting().map(Answer::approve).collect();
    toolkit.resume(pending, &answers).await.unwrap();
    seen_once(&seen, "resumed");
}
