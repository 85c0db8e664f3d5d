//! Hooks around every call: before (rewrite the arguments, or answer without running the tool)
//! and after (replace or redact the result), on every way in; a panicking hook is an error
//! result under the call's guard, never a crash.

use std::sync::{Arc, Mutex};

use serde_json::json;
use toolnexus::{Dialect, Hooks, Policy, ToolResult};

use crate::fixtures::{chat_response, toolkit, Ran};

#[tokio::test]
async fn a_before_hook_rewrites_the_arguments_or_answers_and_the_tool_does_not_run() {
    let ran = Ran::default();
    let hooks = Hooks::new().before(|name, args| {
        if name == "rm" {
            return Some(ToolResult::error("rm is disabled by a guardrail"));
        }
        args["path"] = json!("/sandbox");
        None
    });
    let toolkit = toolkit(&ran).with_hooks(hooks);
    let turn = toolkit
        .respond(&chat_response("/etc", "/tmp/x"), Dialect::OpenAiChat)
        .await
        .unwrap();
    assert_eq!(turn.results[0].output, "listed /sandbox");
    assert_eq!(turn.results[1].output, "rm is disabled by a guardrail");
    assert_eq!((ran.list(), ran.rm()), (1, 0));
}

#[tokio::test]
async fn an_after_hook_sees_every_result_and_redacts_it() {
    let audit = Arc::new(Mutex::new(Vec::new()));
    let log = audit.clone();
    let hooks = Hooks::new().after(move |name, result| {
        log.lock().unwrap().push((name.to_owned(), result.is_error));
        result.output = result.output.replace("/tmp", "[path]");
    });
    let toolkit = toolkit(&Ran::default()).with_hooks(hooks);
    let results = [
        toolkit.execute("list", json!({"path": "/tmp"})).await,
        toolkit.execute_json("nope", "{}").await,
    ];
    assert_eq!(results[0].output, "listed [path]");
    assert!(results[1].output.starts_with("Unknown tool: nope"));
    let seen = audit.lock().unwrap().clone();
    assert_eq!(
        seen,
        [("list".to_owned(), false), ("nope".to_owned(), true)]
    );
}

#[tokio::test]
async fn a_panicking_hook_is_an_error_result_and_the_turn_goes_on() {
    let ran = Ran::default();
    let hooks = Hooks::new().before(|name, _| {
        assert_ne!(name, "rm", "a guardrail bug");
        None
    });
    let toolkit = toolkit(&ran).with_hooks(hooks);
    let turn = toolkit
        .respond(&chat_response("/tmp", "/tmp/x"), Dialect::OpenAiChat)
        .await
        .unwrap();
    assert_eq!(turn.results[0].output, "listed /tmp");
    let failed = &turn.results[1];
    assert!(failed.is_error);
    assert_eq!(
        failed.output,
        "hook before `rm` panicked; the call was not run"
    );
    let panic = failed.metadata.as_ref().unwrap()["panic"].as_str().unwrap();
    assert!(panic.contains("a guardrail bug"), "{panic}");
    assert_eq!(ran.rm(), 0);

    // After: the result it was redacting is withheld, never passed on unredacted.
    let hooks = Hooks::new().after(|_, result| {
        assert!(!result.output.contains("secret"), "cannot redact");
    });
    let toolkit = crate::fixtures::toolkit(&ran).with_hooks(hooks);
    let result = toolkit.execute("list", json!({"path": "secret"})).await;
    assert_eq!(
        result.output,
        "hook after `list` panicked; its result was withheld"
    );
    assert!(!result.output.contains("secret"));
}

#[tokio::test]
async fn hooks_and_a_policy_work_together_on_an_approved_call() {
    let ran = Ran::default();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let hooks = Hooks::new().before(move |name, args| {
        log.lock().unwrap().push(format!("{name} {args}"));
        None
    });
    let toolkit = toolkit(&ran).with_policy(Policy::new()).with_hooks(hooks);
    let gated = toolkit
        .respond_gated(&chat_response("/tmp", "/tmp/x"), Dialect::OpenAiChat)
        .await
        .unwrap();
    let toolnexus::approval::Gated::Pending(pending) = gated else {
        panic!("rm asks")
    };
    // Nothing ran, so no hook saw anything yet.
    assert!(seen.lock().unwrap().is_empty());
    let answer = toolnexus::approval::Answer::approve(&pending.calls()[1]);
    let turn = toolkit.resume(pending, &[answer]).await.unwrap();
    assert_eq!(turn.results[1].output, "deleted /tmp/x");
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen, [r#"list {"path":"/tmp"}"#, r#"rm {"path":"/tmp/x"}"#]);
}

/// Logs its note at `warning` from the logger `note`.
#[toolnexus::tool]
async fn note(text: String, ctx: toolnexus::CallContext) -> String {
    ctx.log_as("note", toolnexus::logging::LogLevel::Warning, text.as_str());
    format!("noted {}", ctx.id().unwrap_or("-"))
}

#[tokio::test]
async fn the_log_hook_gets_what_each_tool_logs_with_its_name_on_every_way_in() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let hooks = Hooks::new().on_log(move |tool, message| {
        sink.lock().unwrap().push(format!(
            "{tool} {} {} {}",
            message.logger.as_deref().unwrap_or("-"),
            message.level,
            message.data
        ));
    });
    let toolkit = toolnexus::Toolkit::new()
        .with(Note)
        .unwrap()
        .with_hooks(hooks);
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_a", "type": "function", "function": {"name": "note", "arguments": r#"{"text":"a"}"#}},
        {"id": "call_b", "type": "function", "function": {"name": "note", "arguments": r#"{"text":"b"}"#}}
    ]}}]});
    let turn = toolkit
        .respond(&response, Dialect::OpenAiChat)
        .await
        .unwrap();
    assert_eq!(turn.results[1].output, "noted call_b");
    let calls = [toolnexus::ToolCall::new(
        "call_c",
        "note",
        toolnexus::Arguments::Text(r#"{"text":"c"}"#.into()),
    )];
    toolkit
        .execute_calls(&calls, &toolnexus::RunOptions::default())
        .await;
    toolkit.execute("note", json!({"text": "d"})).await;
    let mut seen = seen.lock().unwrap().clone();
    seen.sort();
    assert_eq!(
        seen,
        [
            r#"note note warning "a""#,
            r#"note note warning "b""#,
            r#"note note warning "c""#,
            r#"note note warning "d""#
        ]
    );
}

/// Asks for a city (required) and a number of days, and says what came back.
#[toolnexus::tool]
async fn plan_trip(ctx: toolnexus::CallContext) -> String {
    use toolnexus::ask::{Elicitation, Elicited};
    let form = json!({"type": "object", "properties": {
        "city": {"type": "string", "minLength": 1},
        "days": {"type": "integer", "minimum": 1, "maximum": 30}},
        "required": ["city"]});
    let question = Elicitation::form("Where to?", form)
        .unwrap()
        .with_timeout(std::time::Duration::from_millis(200));
    match ctx.elicit(question).await {
        Ok(Elicited::Accept(answer)) => format!("trip to {}", answer["city"]),
        Ok(Elicited::Decline) => "declined".into(),
        Ok(other) => format!("{other:?}"),
        Err(e) => format!("error: {e}"),
    }
}

/// The elicit hook (issue 49): in a toolkit's own turns a tool's question goes to the host's
/// handler, with the tool's name; what comes back is checked against the form; the question's
/// timeout holds; with no handler the tool hears that nobody can
/// be asked.
#[tokio::test]
async fn the_elicit_hook_answers_a_tools_questions_and_its_answer_is_held_to_the_form() {
    use toolnexus::ask::Elicited;
    let answers = |content: serde_json::Value| {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&asked);
        let hooks = Hooks::new().on_elicit(move |tool, question| {
            sink.lock()
                .unwrap()
                .push(format!("{tool}: {}", question.message()));
            let content = content.clone();
            async move {
                match content {
                    serde_json::Value::Object(map) => Elicited::Accept(map),
                    serde_json::Value::Bool(false) => Elicited::Decline,
                    _ => std::future::pending().await,
                }
            }
        });
        let toolkit = toolnexus::Toolkit::new()
            .with(PlanTrip)
            .unwrap()
            .with_hooks(hooks);
        (toolkit, asked)
    };

    let (toolkit, asked) = answers(json!({"city": "Lyon", "days": 3}));
    let response = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_a", "type": "function", "function": {"name": "plan_trip", "arguments": "{}"}}
    ]}}]});
    let turn = toolkit
        .respond(&response, Dialect::OpenAiChat)
        .await
        .unwrap();
    assert_eq!(turn.results[0].output, r#"trip to "Lyon""#);
    assert_eq!(*asked.lock().unwrap(), ["plan_trip: Where to?"]);

    let (toolkit, _) = answers(json!(false));
    assert_eq!(
        toolkit.execute("plan_trip", json!({})).await.output,
        "declined"
    );

    // An answer outside the form never reaches the tool as an answer.
    let (toolkit, _) = answers(json!({"city": "Lyon", "days": 90}));
    assert_eq!(
        toolkit.execute("plan_trip", json!({})).await.output,
        "error: the answer does not fit what was asked: `days` is outside the form's bounds"
    );
    let (toolkit, _) = answers(json!({"days": 2}));
    assert_eq!(
        toolkit.execute("plan_trip", json!({})).await.output,
        "error: the answer does not fit what was asked: the required field `city` is missing"
    );

    // A handler that never answers: the question's own timeout ends the wait.
    let (toolkit, _) = answers(json!(null));
    assert_eq!(
        toolkit.execute("plan_trip", json!({})).await.output,
        "error: no answer came within 200ms"
    );

    // The hook is the toolkit's: a tool called directly, with a context of the host's, has
    // nobody to ask.
    use toolnexus::Tool;
    let (toolkit, _) = answers(json!(null));
    let tool = toolkit.get("plan_trip").unwrap();
    let direct = tool
        .call(
            toolnexus::CallContext::new(),
            toolnexus::CallArgs::Value(json!({})),
        )
        .await;
    assert_eq!(
        direct.output,
        "error: nobody can be asked here: no MCP client and no handler the host set; go on \
         without the answer or say what is needed"
    );

    // No hook: nobody to ask.
    let hook_less = toolnexus::Toolkit::new().with(PlanTrip).unwrap();
    assert_eq!(
        hook_less.execute("plan_trip", json!({})).await.output,
        "error: nobody can be asked here: no MCP client and no handler the host set; go on \
         without the answer or say what is needed"
    );
}

/// Asks a model to name a colour, and says what came back.
#[toolnexus::tool]
async fn name_colour(ctx: toolnexus::CallContext) -> String {
    let request = toolnexus::ask::Sampling::new("Name a colour.", 5)
        .with_timeout(std::time::Duration::from_millis(100));
    match ctx.sample(request).await {
        Ok(answer) => format!("{} from {}", answer.text, answer.model),
        Err(e) => format!("error: {e}"),
    }
}

/// The sample hook (issue 49): a tool's sampling request goes to the host's model with the
/// tool's name; its error, and its silence past the request's timeout, reach the tool; a
/// toolkit with only an elicit hook has no model to ask.
#[tokio::test]
async fn the_sample_hook_answers_a_tools_sampling_requests() {
    use toolnexus::ask::{AskError, Elicited, Sampled};
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let hooks = Hooks::new().on_sample(move |tool, request| {
        sink.lock()
            .unwrap()
            .push(format!("{tool}: {}", request.messages()[0].1));
        async { Ok(Sampled::new("teal", "host-model")) }
    });
    let toolkit = toolnexus::Toolkit::new()
        .with(NameColour)
        .unwrap()
        .with_hooks(hooks);
    assert_eq!(
        toolkit.execute("name_colour", json!({})).await.output,
        "teal from host-model"
    );
    assert_eq!(*seen.lock().unwrap(), ["name_colour: Name a colour."]);

    let failing = Hooks::new().on_sample(|_, _| async { Err(AskError::Failed("quota".into())) });
    let toolkit = toolnexus::Toolkit::new()
        .with(NameColour)
        .unwrap()
        .with_hooks(failing);
    assert_eq!(
        toolkit.execute("name_colour", json!({})).await.output,
        "error: asking failed: quota"
    );

    let silent = Hooks::new().on_sample(|_, _| std::future::pending());
    let toolkit = toolnexus::Toolkit::new()
        .with(NameColour)
        .unwrap()
        .with_hooks(silent);
    assert_eq!(
        toolkit.execute("name_colour", json!({})).await.output,
        "error: no answer came within 100ms"
    );

    let elicit_only = Hooks::new().on_elicit(|_, _| async { Elicited::Decline });
    let toolkit = toolnexus::Toolkit::new()
        .with(NameColour)
        .unwrap()
        .with_hooks(elicit_only);
    assert_eq!(
        toolkit.execute("name_colour", json!({})).await.output,
        "error: nobody can be asked here: no MCP client and no handler the host set; go on \
         without the answer or say what is needed"
    );
}
