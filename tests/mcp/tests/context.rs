//! A call's `CallContext` over MCP, both ways, against the official Python MCP SDK: its client
//! calling our server sees our tools' progress as `notifications/progress` (only when it sent a
//! progress token) and cancels a call whose tool then sees the signal; a server of its own whose
//! tool reports progress reaches our context, and dropping our call makes that server see
//! `notifications/cancelled`; and our server over that server's tools (a gateway) passes both
//! through.

use std::sync::{Arc, Mutex};

use serde_json::json;
use tokio::sync::mpsc;
use toolnexus::mcp::McpSource;
use toolnexus::{CallContext, Progress, Toolkit};
use toolnexus_mcp_tests::{python, root};

const CONTEXT_SERVER: &str = env!("CARGO_BIN_EXE_context_server");

/// What the Python SDK's client saw, driving `context_server` with `args`.
fn client_report(args: &[&str]) -> Option<serde_json::Value> {
    let python = python()?;
    let output = std::process::Command::new(python)
        .arg(root().join("tests/mcp/py/context_client.py"))
        .arg(CONTEXT_SERVER)
        .args(args)
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "context_client.py failed:\n{}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_str(&stdout).unwrap())
}

/// The parts of a report that are the same through a gateway. Through one, the progress may
/// skip a step: our client gets each of the upstream server's reports in a task of its own
/// (rmcp's), so on a multi-threaded runtime two can cross, and it drops the stale one (progress
/// only grows); every report that arrives is one the tool made, in order, and the last is.
fn progress_and_cancel(report: &serde_json::Value, through_gateway: bool) {
    let all = json!([
        [1.0, 3.0, "step 1"],
        [2.0, 3.0, "step 2"],
        [3.0, 3.0, "step 3"]
    ]);
    if through_gateway {
        let seen = report["steps_progress"].as_array().expect("progress");
        let all = all.as_array().unwrap();
        let mut at = all.iter();
        assert!(
            seen.iter().all(|s| at.any(|a| a == s)),
            "in the tool's order: {report}"
        );
        assert_eq!(seen.last(), all.last(), "{report}");
    } else {
        assert_eq!(report["steps_progress"], all, "{report}");
    }
    assert_eq!(report["hang_progress"], json!([0.0, null, "started"]));
    assert_eq!(report["hang"], "cancelled");
    assert_eq!(report["was_cancelled"], json!(["true"]));
}

#[test]
fn the_python_client_sees_progress_and_cancels_a_call_our_tool_then_sees() {
    let Some(report) = client_report(&[]) else {
        return;
    };
    // The tool's id is the JSON-RPC request's.
    let answer = report["steps"][0].as_str().unwrap();
    assert!(answer.starts_with("3 steps, call "), "{answer}");
    assert_ne!(answer, "3 steps, call -");
    assert_eq!(
        report["quiet"][0].as_str().unwrap().split(',').next(),
        Some("2 steps")
    );
    // `notifications/cancelled` dropped the call, which fired its context's signal.
    progress_and_cancel(&report, false);

    // What a tool logs reaches the client at the session's level: `info` until it sets one.
    assert_eq!(report["logging_capability"], true);
    let levels = |key: &str| -> Vec<String> {
        report[key]
            .as_array()
            .unwrap_or_else(|| panic!("{key}: {report}"))
            .iter()
            .map(|m| m["level"].as_str().unwrap().to_owned())
            .collect()
    };
    let from = |first: usize| -> Vec<String> {
        [
            "debug",
            "info",
            "notice",
            "warning",
            "error",
            "critical",
            "alert",
            "emergency",
        ][first..]
            .iter()
            .map(|l| (*l).to_owned())
            .collect()
    };
    assert_eq!(levels("logs_default"), from(1), "{report}");
    assert_eq!(levels("logs_warning"), from(3), "{report}");
    assert_eq!(
        report["logs_default"][0],
        json!({"level": "info", "data": "at info"})
    );
    assert_eq!(
        report["logs_warning"][4],
        json!({"level": "emergency", "logger": "chatty", "data": {"level": "emergency", "n": 8}})
    );

    // A tool's question (issue 49): a client without the `elicitation` capability is not
    // asked; one with it gets the form as written, and its answer is held to the form.
    assert_eq!(
        report["ask_unsupported"],
        json!([
            "error: the user cannot be asked here: the MCP client does not take questions \
                (no `elicitation` capability); go on without the answer or say what is needed"
        ])
    );
    assert_eq!(
        report["asked"],
        json!([
            [r#"accept {"city":"Lyon","days":3}"#],
            ["error: the answer does not fit what was asked: `days` is outside the form's bounds"],
            ["decline"]
        ]),
        "{report}"
    );
    let question = &report["questions"][0];
    assert_eq!(question["message"], "Where to?", "{report}");
    assert_eq!(question["mode"], "form", "{report}");
    assert_eq!(
        question["requestedSchema"]["properties"]["days"],
        json!({"type": "integer", "minimum": 1, "maximum": 30}),
        "{report}"
    );
    assert_eq!(
        question["requestedSchema"]["required"],
        json!(["city"]),
        "{report}"
    );

    // A tool's sampling request goes to a client that declared `sampling`, as written; an
    // answer without text is refused as such.
    assert_eq!(
        report["sample_unsupported"],
        json!([
            "error: no model can be asked here: the MCP client does not take sampling \
                requests (no `sampling` capability); go on without it"
        ])
    );
    assert_eq!(
        report["sampled"],
        json!([
            ["A story. | test-model | endTurn"],
            ["error: the answer does not fit what was asked: the model's answer holds no text"]
        ]),
        "{report}"
    );
    let request = &report["sample_requests"][0];
    assert_eq!(
        request["messages"],
        json!([
            {"role": "user", "content": {"type": "text", "text": "a long story"}},
            {"role": "assistant", "content": {"type": "text", "text": "Ready."}},
            {"role": "user", "content": {"type": "text", "text": "Go on."}}
        ]),
        "{report}"
    );
    assert_eq!(request["systemPrompt"], "One sentence.", "{report}");
    assert_eq!(request["maxTokens"], 50, "{report}");
    assert_eq!(request["stopSequences"], json!(["END"]), "{report}");
    assert_eq!(
        request["modelPreferences"],
        json!({"hints": [{"name": "claude"}], "costPriority": 0.25, "intelligencePriority": 0.75}),
        "{report}"
    );
}

#[test]
fn a_gateway_passes_progress_and_cancellation_through_both_ways() {
    let Some(python) = python() else {
        return;
    };
    let upstream = root().join("tests/mcp/py/context_server.py");
    let args = [
        "--gateway",
        python.to_str().unwrap(),
        upstream.to_str().unwrap(),
    ];
    let report = client_report(&args).unwrap();
    // The Python server's answers, its progress reaching the Python client through our server
    // and our client; the client's cancel reaching the Python server the same way.
    assert_eq!(report["steps"], json!(["3 steps"]));
    assert_eq!(report["quiet"], json!(["2 steps"]));
    progress_and_cancel(&report, true);
}

async fn python_server() -> Option<Toolkit> {
    let python = python()?;
    let connection = McpSource::stdio("py-context", python)
        .arg(root().join("tests/mcp/py/context_server.py"))
        .connect()
        .await
        .expect("the Python SDK's server connects over stdio");
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).unwrap();
    Some(toolkit)
}

#[tokio::test]
async fn a_python_servers_progress_reaches_our_context() {
    let Some(toolkit) = python_server().await else {
        return;
    };
    let reports = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&reports);
    let context = CallContext::new().with_progress(move |p: Progress| {
        sink.lock().unwrap().push((p.done, p.total, p.message));
    });
    let steps = toolkit.get("steps").unwrap();
    let result = steps
        .call(context, toolnexus::CallArgs::Value(json!({"n": 3})))
        .await;
    assert_eq!(result.output, "3 steps", "{result:?}");
    let step = |n: f64| (n, Some(3.0), Some(format!("step {n}")));
    assert_eq!(*reports.lock().unwrap(), [step(1.0), step(2.0), step(3.0)]);

    // In a toolkit's own turn nobody listens: the call answers the same.
    let quiet = toolkit.execute("steps", json!({"n": 2})).await;
    assert_eq!(quiet.output, "2 steps");
}

#[tokio::test]
async fn dropping_our_call_cancels_it_on_the_python_server() {
    let Some(toolkit) = python_server().await else {
        return;
    };
    let (started, mut has_started) = mpsc::unbounded_channel();
    let context = CallContext::new().with_progress(move |p: Progress| {
        let _ = started.send(p.message);
    });
    let hang = toolkit.get("hang").unwrap();
    {
        let call = std::pin::pin!(hang.call(context, toolnexus::CallArgs::Value(json!({}))));
        tokio::select! {
            _ = call => panic!("`hang` answered"),
            message = has_started.recv() => assert_eq!(message, Some(Some("started".into()))),
        }
    } // our call is dropped here: `notifications/cancelled` goes out
    let seen = toolkit.execute("was_cancelled", json!({})).await;
    assert_eq!(seen.output, "true", "{seen:?}");
}

/// Our client answers what a server asks (issue 49): a Python server's question goes to the
/// host's `on_elicit` (the form's defaults fill what the answer leaves out), its sampling
/// request to `on_sample`, its log messages to `on_log`; without handlers it offers neither
/// capability, declines a question and refuses a sampling request.
#[tokio::test]
async fn our_client_answers_a_python_servers_questions_and_sampling_and_hears_its_logs() {
    use toolnexus::ask::{Elicited, Sampled};
    let Some(python) = python() else {
        return;
    };
    let script = root().join("tests/mcp/py/context_server.py");
    let asked = Arc::new(Mutex::new(Vec::new()));
    let (asked_in, sampled_in) = (Arc::clone(&asked), Arc::clone(&asked));
    let logs = Arc::new(Mutex::new(Vec::new()));
    let logs_in = Arc::clone(&logs);
    let source = McpSource::stdio("py-context", &python)
        .arg(&script)
        .on_elicit(move |server, question| {
            asked_in
                .lock()
                .unwrap()
                .push(format!("{server}: {}", question.message()));
            let mut answer = serde_json::Map::new();
            answer.insert("city".into(), json!("Lyon"));
            async move { Elicited::Accept(answer) }
        })
        .on_sample(move |server, request| {
            sampled_in.lock().unwrap().push(format!(
                "{server}: {:?} {} {:?}",
                request.messages(),
                request.max_tokens(),
                request.system_prompt()
            ));
            let text = format!("echo {}", request.messages()[0].1);
            async move { Ok(Sampled::new(text, "rust-model")) }
        })
        .on_log(move |server, message| {
            logs_in.lock().unwrap().push(format!(
                "{server} {} {} {}",
                message.level,
                message.logger.as_deref().unwrap_or("-"),
                message.data
            ));
        });
    let connection = source.connect().await.expect("the Python server connects");
    let mut toolkit = Toolkit::new();
    connection.add_to(&mut toolkit).unwrap();

    let planned = toolkit.execute("plan", json!({})).await;
    assert_eq!(planned.output, "accept Lyon 3", "{planned:?}");
    let answered = toolkit.execute("ask_model", json!({"prompt": "hi"})).await;
    assert_eq!(answered.output, "echo hi (rust-model)", "{answered:?}");
    assert_eq!(
        *asked.lock().unwrap(),
        [
            "py-context: Where to?".to_owned(),
            r#"py-context: [(User, "hi")] 20 Some("Be brief.")"#.to_owned()
        ]
    );
    let chattered = toolkit.execute("chatter", json!({})).await;
    assert_eq!(chattered.output, "chattered");
    // Notifications may trail the answer by a moment.
    for _ in 0..50 {
        if logs.lock().unwrap().len() >= 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(
        *logs.lock().unwrap(),
        [
            r#"py-context info - "hello from python""#.to_owned(),
            r#"py-context warning py {"n":1}"#.to_owned()
        ]
    );

    // No handlers: nothing is offered; a question sent anyway is declined, and a sampling
    // request refused, so the server's tool fails on its side.
    let Some(plain) = python_server().await else {
        return;
    };
    assert_eq!(plain.execute("plan", json!({})).await.output, "decline");
    assert!(
        plain
            .execute("ask_model", json!({"prompt": "hi"}))
            .await
            .is_error
    );
}
