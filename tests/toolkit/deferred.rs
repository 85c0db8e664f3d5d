//! Deferred tools (issue 42): a `Deferred` toolkit sends `search_tools` and the tools always
//! sent; a scripted model searches, the tools found join the next request's tools array after
//! the ones already sent, and the model calls one, in every dialect. Which tools were found is
//! read back from the conversation alone.

use serde_json::{json, Value};
use toolnexus::deferred::{Deferred, SEARCH_TOOL};
use toolnexus::{Dialect, Gate, NativeTool, Policy, ToolChoice, Toolkit};

use crate::common::dialects::{self, Call};

/// A catalog of 40 tools: `get_time`, `get_weather`, and 38 others about other things.
fn catalog() -> Toolkit {
    let mut toolkit = Toolkit::new();
    let mut add = |name: &str, description: &str| {
        let answer = format!("{name} ran");
        let tool = NativeTool::of(
            name,
            description,
            json!({"type": "object", "properties": {"city": {"type": "string",
                "description": "A city"}}}),
            move |_| {
                let answer = answer.clone();
                async move { answer }
            },
        )
        .unwrap();
        toolkit.add(tool).unwrap();
    };
    add("get_time", "The current time.");
    add("get_weather", "The current weather and forecast in a city.");
    for i in 0..38 {
        add(
            &format!("ledger_{i}"),
            &format!("Posts entry {i} to the accounting ledger."),
        );
    }
    toolkit
}

/// The entries of a tools array, one per tool (Gemini's one wrapper opened).
fn entries(tools: &[Value]) -> Vec<Value> {
    tools
        .iter()
        .flat_map(|t| match t.get("functionDeclarations") {
            Some(Value::Array(declarations)) => declarations.clone(),
            _ => vec![t.clone()],
        })
        .collect()
}

/// The name of each tool of a tools array, whatever the dialect's envelope.
fn names(tools: &[Value]) -> Vec<String> {
    entries(tools)
        .iter()
        .filter_map(|t| {
            ["/function/name", "/name", "/toolSpec/name"]
                .iter()
                .find_map(|p| t.pointer(p).and_then(Value::as_str))
        })
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn a_deferred_tool_is_found_sent_and_called_in_every_dialect() {
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let deferred = Deferred::new(catalog(), ["get_time"]).unwrap();
        let mut history = vec![dialect.user_message("Will it rain in Paris?")];
        let first = deferred.tools_for(dialect, &history).unwrap();
        assert_eq!(names(&first), [SEARCH_TOOL, "get_time"], "{dialect}");

        let search = Call::new(
            "call_search",
            SEARCH_TOOL,
            json!({"query": "weather forecast for a city"}),
        );
        let turn = deferred
            .toolkit()
            .respond(&fixture.response(&[search]), dialect)
            .await
            .unwrap();
        let found: Value = serde_json::from_str(&turn.results[0].output).unwrap();
        assert_eq!(
            found["found"][0]["name"], "get_weather",
            "{dialect}: {found}"
        );
        history.extend(turn.into_messages());

        let next = deferred.tools_for(dialect, &history).unwrap();
        let next_names = names(&next);
        assert_eq!(
            next_names[..3],
            [SEARCH_TOOL, "get_time", "get_weather"],
            "{dialect}"
        );
        // What was sent before is sent again first, unchanged: the prompt cache holds.
        assert_eq!(entries(&next)[..2], entries(&first)[..], "{dialect}");
        assert!(next_names.len() <= 2 + 5, "{dialect}: {next_names:?}");

        let call = Call::new("call_weather", "get_weather", json!({"city": "Paris"}));
        let turn = deferred
            .toolkit()
            .respond(&fixture.response(&[call]), dialect)
            .await
            .unwrap();
        assert_eq!(turn.results[0].output, "get_weather ran", "{dialect}");
        history.extend(turn.into_messages());
        // Stateless: the same history gives the same tools, in the same order.
        let again = deferred.tools_for(dialect, &history).unwrap();
        assert_eq!(again, next, "{dialect}");
    }
}

#[tokio::test]
async fn a_bad_search_is_an_error_result_and_a_bad_setup_an_error() {
    let deferred = Deferred::new(catalog(), ["get_time"]).unwrap();
    let empty = deferred
        .toolkit()
        .execute(SEARCH_TOOL, json!({"query": "  "}))
        .await;
    assert!(
        empty.is_error && empty.output.contains("query"),
        "{empty:?}"
    );
    assert!(Deferred::new(catalog(), ["no_such_tool"]).is_err());
    let taken = catalog()
        .with(
            NativeTool::of(SEARCH_TOOL, "Mine", json!({"type": "object"}), |_| async {
                "x"
            })
            .unwrap(),
        )
        .unwrap();
    assert!(Deferred::new(taken, ["get_time"]).is_err());
    // A history of another dialect is an error, never a silent empty set.
    let gemini = [json!({"role": "user", "parts": [{"text": "hi"}]})];
    assert!(deferred.tools_for(Dialect::OpenAiChat, &gemini).is_err());
}

/// The host's policy holds through a `Deferred`: a refused tool stays refused once found, and
/// when called before it was found.
#[tokio::test]
async fn the_hosts_policy_holds_for_deferred_tools() {
    let refused = catalog()
        .with_policy(Policy::new().tool("get_weather", Gate::refuse("weather is off today")));
    let deferred = Deferred::new(refused, ["get_time"]).unwrap();
    let result = deferred
        .toolkit()
        .execute("get_weather", json!({"city": "Paris"}))
        .await;
    assert!(result.is_error, "{result:?}");
    assert!(result.output.contains("weather is off today"), "{result:?}");
    let time = deferred.toolkit().execute("get_time", json!({})).await;
    assert_eq!(time.output, "get_time ran");
}

/// A tool choice that names a deferred tool sends that tool, after the others, in every
/// dialect: the request never names a tool it lacks.
#[test]
fn a_named_choice_of_a_deferred_tool_sends_it() {
    let deferred = Deferred::new(catalog(), ["get_time"]).unwrap();
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let history = [dialect.user_message("Post entry 7.")];
        let named = ToolChoice::tool("ledger_7").unwrap();
        let tools = deferred
            .tools_for_choice(dialect, &history, &named)
            .unwrap();
        assert_eq!(
            names(&tools),
            [SEARCH_TOOL, "get_time", "ledger_7"],
            "{dialect}"
        );
        let among = ToolChoice::auto_among(["ledger_1", "get_time"]).unwrap();
        let tools = deferred
            .tools_for_choice(dialect, &history, &among)
            .unwrap();
        assert_eq!(
            names(&tools),
            [SEARCH_TOOL, "get_time", "ledger_1"],
            "{dialect}"
        );
        assert_eq!(
            names(&deferred.tools_for(dialect, &history).unwrap()),
            [SEARCH_TOOL, "get_time"],
            "{dialect}"
        );
    }
}

/// A regular-expression search (Anthropic's regex variant, run by us on any dialect): the
/// model is told to write a pattern, a pattern finds by name before parameters before text, a
/// case-insensitive one works, and a pattern the search cannot take (look-around, too long, not
/// a pattern) is an error result saying why, never a silent empty list.
#[tokio::test]
async fn a_regex_search_finds_by_pattern_and_a_bad_pattern_says_why() {
    use toolnexus::search::{RegexSearch, MAX_PATTERN};
    let toolkit = catalog();
    let search = RegexSearch::index(toolkit.tools());
    let deferred = Deferred::with_search(toolkit, ["get_time"], search).unwrap();
    let history = vec![Dialect::OpenAiChat.user_message("Weather?")];
    let tools = deferred.tools_for(Dialect::OpenAiChat, &history).unwrap();
    let described = tools[0]["function"]["parameters"]["properties"]["query"]["description"]
        .as_str()
        .unwrap();
    assert!(described.contains("regular expression"), "{described}");

    let found = |output: &str| -> Vec<String> {
        let value: Value = serde_json::from_str(output).unwrap();
        value["found"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let run = |query: &str| {
        deferred
            .toolkit()
            .execute(SEARCH_TOOL, json!({ "query": query }))
    };
    let by_name = run("^get_w").await;
    assert_eq!(found(&by_name.output), ["get_weather"]);
    let any_case = run("(?i)FORECAST").await;
    assert_eq!(found(&any_case.output), ["get_weather"]);
    // Every tool has a `city` parameter, so its name, then its parameter, decides the order:
    // `get_time` (by name) before the ledger tools (by parameter only).
    let ranked = run("get_time|city").await;
    assert_eq!(found(&ranked.output)[0], "get_time");
    assert_eq!(found(&ranked.output).len(), 5, "{ranked:?}");

    for (pattern, says) in [
        ("(?<=get_)weather".to_owned(), "look-around"),
        ("x".repeat(MAX_PATTERN + 1), "200 characters"),
        ("get_(".to_owned(), "not a regular expression"),
    ] {
        let refused = run(&pattern).await;
        assert!(
            refused.is_error && refused.output.contains(says),
            "{pattern}: {refused:?}"
        );
    }
    assert_eq!(found(&run("quantum").await.output), Vec::<String>::new());
}

/// A search streamed, a found tool whose gate asks, and a typed answer in tool mode, all
/// through one `Deferred`: the streamed search finds the tool, the next request sends it, its
/// call waits for approval and runs once approved (once), and the output tool, always sent,
/// ends the loop with the parsed answer.
#[tokio::test]
async fn streaming_approval_and_a_typed_answer_work_through_a_deferred_toolkit() {
    use futures::StreamExt;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use toolnexus::approval::{Answer, Gated};
    use toolnexus::stream::StreamTurn;
    use toolnexus::{Output, RunOptions};

    #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
    struct Forecast {
        summary: String,
    }

    let ran = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&ran);
    let weather = NativeTool::of(
        "get_weather",
        "The current weather and forecast in a city.",
        json!({"type": "object", "properties": {"city": {"type": "string"}}}),
        move |_| {
            counted.fetch_add(1, Ordering::SeqCst);
            async { "sunny" }
        },
    )
    .unwrap();
    let output = Output::<Forecast>::new()
        .unwrap()
        .with_name("final_answer")
        .unwrap();
    let mut toolkit = Toolkit::new()
        .with(weather)
        .unwrap()
        .with(output.tool())
        .unwrap();
    for tool in catalog()
        .tools()
        .iter()
        .filter(|t| t.name() != "get_weather")
    {
        toolkit.add([Arc::clone(tool)]).unwrap();
    }
    let toolkit =
        toolkit.with_policy(Policy::new().tool("get_weather", Gate::ask("Look up the weather?")));
    let deferred = Deferred::new(toolkit, ["final_answer"]).unwrap();
    let mut history = vec![Dialect::OpenAiChat.user_message("Weather in Paris?")];
    assert_eq!(
        names(&deferred.tools_for(Dialect::OpenAiChat, &history).unwrap()),
        [SEARCH_TOOL, "final_answer"]
    );

    // 1. The search, streamed in small chunks.
    let chunks = [
        json!({"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [{"index": 0,
            "id": "call_s", "type": "function", "function": {"name": SEARCH_TOOL,
            "arguments": "{\"query\":"}}]}, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
            "function": {"arguments": "\"weather forecast\"}"}}]}, "finish_reason": null}]}),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    let body: String = chunks
        .iter()
        .map(|c| format!("data: {c}\n\n"))
        .chain(["data: [DONE]\n\n".to_owned()])
        .collect();
    let pieces: Vec<Result<Vec<u8>, std::io::Error>> =
        body.as_bytes().chunks(9).map(|c| Ok(c.to_vec())).collect();
    let mut turn = StreamTurn::new(
        deferred.toolkit(),
        Dialect::OpenAiChat,
        RunOptions::default(),
    );
    let mut events = turn.read(futures::stream::iter(pieces));
    while let Some(event) = events.next().await {
        event.unwrap();
    }
    let turn = turn.finish().await.unwrap();
    history.extend(turn.into_messages());
    assert_eq!(
        names(&deferred.tools_for(Dialect::OpenAiChat, &history).unwrap())[..3],
        [SEARCH_TOOL, "final_answer", "get_weather"]
    );

    // 2. The found tool asks; approved, it runs once.
    let call = json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
        "content": null, "tool_calls": [{"id": "call_w", "type": "function", "function": {
        "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}]});
    let Gated::Pending(pending) = deferred
        .toolkit()
        .respond_gated(&call, Dialect::OpenAiChat)
        .await
        .unwrap()
    else {
        panic!("get_weather asks")
    };
    assert_eq!(
        ran.load(Ordering::SeqCst),
        0,
        "nothing runs before the answer"
    );
    let approve = Answer::approve(pending.call("call_w").unwrap());
    let turn = deferred
        .toolkit()
        .resume(pending, &[approve])
        .await
        .unwrap();
    assert_eq!(turn.results[0].output, "sunny");
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    history.extend(turn.into_messages());

    // 3. The typed answer ends the loop.
    let answer = json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
        "content": null, "tool_calls": [{"id": "call_a", "type": "function", "function": {
        "name": "final_answer", "arguments": "{\"summary\":\"Sunny in Paris\"}"}}]}}]});
    let turn = deferred
        .toolkit()
        .respond(&answer, Dialect::OpenAiChat)
        .await
        .unwrap();
    assert!(turn.is_final());
    assert_eq!(
        output.parse(&turn).unwrap(),
        Forecast {
            summary: "Sunny in Paris".into()
        }
    );
    assert_eq!(ran.load(Ordering::SeqCst), 1, "the weather ran once in all");
}
