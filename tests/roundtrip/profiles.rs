//! OpenAI-compatible servers as data (issue 41): each preset `Profile` adapts a request body
//! built for OpenAI into one its server takes (checked here against what each server's
//! documentation says, not against the profile's own fields), real responses of those servers
//! are read as any Chat response, and a profile loads from JSON and TOML.

use serde_json::{json, Value};
use toolnexus::openai::Profile;
use toolnexus::transcript::IdRule;
use toolnexus::{Dialect, Error, NativeTool, Toolkit, ToolsOptions};

fn toolkit() -> Toolkit {
    let weather = NativeTool::of(
        "get_weather",
        "Current weather for a city.",
        json!({"type": "object", "properties": {"city": {"type": "string"}},
               "required": ["city"]}),
        |args: Value| async move { format!("sunny in {}", args["city"].as_str().unwrap_or("?")) },
    )
    .unwrap();
    Toolkit::new().with(weather).unwrap()
}

/// A body as a host builds it for OpenAI: strict tools, a required call, one call at a time, a
/// token bound, and a conversation whose call id is OpenAI's.
fn openai_body(choice: Value, parallel: Option<bool>) -> Value {
    let tools = toolkit().tools_for(
        Dialect::OpenAiChat,
        ToolsOptions::default().with_strict(true),
    );
    let mut body = json!({"model": "m", "max_completion_tokens": 256, "tool_choice": choice,
        "tools": tools, "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "call_Q2x9aP7bLm3kR8sT",
                "type": "function", "function": {"name": "get_weather",
                "arguments": "{\"city\":\"Paris\"}"}}]},
            {"role": "tool", "tool_call_id": "call_Q2x9aP7bLm3kR8sT", "content": "sunny in Paris"}]});
    if let Some(parallel) = parallel {
        body["parallel_tool_calls"] = json!(parallel);
    }
    body
}

/// A server's name, its spelling of a required call, whether it takes a named choice,
/// `parallel_tool_calls` and `strict`, and its token bound's name.
type Documented = (
    &'static str,
    Option<&'static str>,
    bool,
    bool,
    bool,
    &'static str,
);

/// What each server's documentation says it takes: how a required call is spelled (`None`:
/// it has none), whether a named choice, `parallel_tool_calls` and `strict` go through, and the
/// token bound's name.
const DOCUMENTED: [Documented; 10] = [
    (
        "OpenAI",
        Some("required"),
        true,
        true,
        true,
        "max_completion_tokens",
    ),
    ("Ollama", None, false, false, false, "max_tokens"),
    ("vLLM", Some("required"), true, true, false, "max_tokens"),
    (
        "llama.cpp server",
        Some("required"),
        false,
        true,
        false,
        "max_tokens",
    ),
    (
        "Groq",
        Some("required"),
        true,
        true,
        false,
        "max_completion_tokens",
    ),
    (
        "DeepSeek",
        Some("required"),
        true,
        false,
        false,
        "max_tokens",
    ),
    ("Mistral", Some("any"), true, true, false, "max_tokens"),
    ("xAI", Some("required"), true, true, false, "max_tokens"),
    (
        "OpenRouter",
        Some("required"),
        true,
        true,
        true,
        "max_tokens",
    ),
    (
        "Together AI",
        Some("required"),
        true,
        true,
        false,
        "max_tokens",
    ),
];

#[test]
fn every_preset_adapts_an_openai_body_as_its_server_documents() {
    let presets = Profile::presets();
    assert_eq!(presets.len(), DOCUMENTED.len());
    for (profile, (name, required, named, parallel, strict, max_tokens)) in
        presets.iter().zip(DOCUMENTED)
    {
        assert_eq!(profile.name, name);
        assert!(
            profile
                .source
                .as_deref()
                .is_some_and(|s| s.starts_with("https://")),
            "{name}"
        );

        let mut body = openai_body(json!("required"), Some(true));
        match required {
            Some(spelling) => {
                profile.adapt(&mut body).unwrap();
                assert_eq!(body["tool_choice"], spelling, "{name}");
            }
            None => {
                let error = profile.adapt(&mut body).unwrap_err();
                assert!(
                    matches!(error, Error::UnsupportedChoice { .. }),
                    "{name}: {error}"
                );
                continue;
            }
        }
        assert_eq!(
            body.get("parallel_tool_calls").is_some(),
            parallel,
            "{name}"
        );
        let function = &body["tools"][0]["function"];
        assert_eq!(function.get("strict").is_some(), strict, "{name}");
        assert_eq!(body[max_tokens], 256, "{name}");
        let other = if max_tokens == "max_tokens" {
            "max_completion_tokens"
        } else {
            "max_tokens"
        };
        assert!(body.get(other).is_none(), "{name}");
        // Each call keeps its result, under an id the server takes.
        let id = body["messages"][1]["tool_calls"][0]["id"].as_str().unwrap();
        assert!(profile.id_rule().accepts(id), "{name}: {id}");
        assert_eq!(body["messages"][2]["tool_call_id"], id, "{name}");

        let named_choice = json!({"type": "function", "function": {"name": "get_weather"}});
        let mut body = openai_body(named_choice.clone(), None);
        assert_eq!(profile.adapt(&mut body).is_ok(), named, "{name}");
        if named {
            assert_eq!(body["tool_choice"], named_choice, "{name}");
        }
        let mut one_at_a_time = openai_body(json!("auto"), Some(false));
        assert_eq!(
            profile.adapt(&mut one_at_a_time).is_ok(),
            parallel,
            "{name}"
        );
    }
}

#[test]
fn mistral_gets_nine_character_ids_and_named_results() {
    let mut body = openai_body(json!("auto"), None);
    Profile::mistral().adapt(&mut body).unwrap();
    let id = body["messages"][1]["tool_calls"][0]["id"].as_str().unwrap();
    assert_eq!(id.len(), 9, "{id}");
    assert!(id.chars().all(|c| c.is_ascii_alphanumeric()), "{id}");
    assert_eq!(
        body["messages"][2],
        json!({"role": "tool", "tool_call_id": id, "content": "sunny in Paris",
               "name": "get_weather"})
    );
    // An id Mistral itself made is kept (its docs' example call id).
    let mut own = json!({"messages": [
        {"role": "assistant", "content": "", "tool_calls": [{"id": "D681PevKs", "type": "function",
            "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "D681PevKs", "content": "sunny"}]});
    Profile::mistral().adapt(&mut own).unwrap();
    assert_eq!(own["messages"][1]["tool_call_id"], "D681PevKs");
    assert!(IdRule::alphanumeric(9, 9).accepts("D681PevKs"));
}

/// Real responses of compatible servers, read as any Chat response: each call runs with its
/// arguments, whether the server sent them as text or as an object.
#[tokio::test]
async fn real_responses_of_compatible_servers_run_their_calls() {
    let toolkit = toolkit();
    let cases = [
        // Ollama 0.12 (llama3.2:3b), recorded by llama-stack's integration tests
        // (tests/integration/recordings/responses/cca0267555a6.json), tool renamed.
        json!({"id": "chatcmpl-376", "object": "chat.completion", "model": "llama3.2:3b-instruct-fp16",
            "system_fingerprint": "fp_ollama", "choices": [{"finish_reason": "tool_calls", "index": 0,
            "logprobs": null, "message": {"content": "", "refusal": null, "role": "assistant",
            "annotations": null, "audio": null, "function_call": null, "tool_calls": [{
                "id": "call_px63ad04", "index": 0, "type": "function",
                "function": {"arguments": "{\"city\":\"Paris\"}", "name": "get_weather"}}]}}]}),
        // llama.cpp's server with some templates, and Ollama with models weak at tool use, send
        // the arguments as an object.
        json!({"choices": [{"finish_reason": "tool_calls", "index": 0, "message": {
            "role": "assistant", "content": null, "tool_calls": [{"id": "0", "type": "function",
            "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}}]}),
        // Mistral's documentation example: a 9-character id.
        json!({"id": "c", "object": "chat.completion", "model": "mistral-large-latest",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant",
            "content": "", "tool_calls": [{"id": "D681PevKs", "function": {"name": "get_weather",
            "arguments": "{\"city\": \"Paris\"}"}}]}}]}),
    ];
    for response in cases {
        let turn = toolkit
            .respond(&response, Dialect::OpenAiChat)
            .await
            .unwrap();
        assert_eq!(turn.results.len(), 1, "{response}");
        assert_eq!(turn.results[0].output, "sunny in Paris", "{response}");
        assert!(!turn.results[0].is_error);
    }
}

#[test]
fn reasoning_is_read_where_each_server_puts_it() {
    let deepseek = json!({"role": "assistant", "content": "Paris.",
        "reasoning_content": "The user asks about Paris."});
    assert_eq!(
        Profile::deepseek().reasoning(&deepseek),
        Some("The user asks about Paris.")
    );
    let groq = json!({"role": "assistant", "content": "Paris.", "reasoning": "Paris it is."});
    assert_eq!(Profile::groq().reasoning(&groq), Some("Paris it is."));
    assert_eq!(Profile::openai().reasoning(&deepseek), None);
}

#[test]
fn a_profile_loads_from_json_and_toml_with_openai_for_what_it_leaves_out() {
    let json: Profile = serde_json::from_value(json!({"name": "local",
        "required": "any", "id_alphanumeric": 9}))
    .unwrap();
    let toml: Profile =
        toml::from_str("name = \"local\"\nrequired = \"any\"\nid_alphanumeric = 9\n").unwrap();
    assert_eq!(json, toml);
    assert_eq!(
        json.max_tokens, "max_completion_tokens",
        "OpenAI's, left out"
    );
    assert!(json.strict && json.named_choice && json.parallel_tool_calls);
    assert!(json.id_rule().accepts("D681PevKs"));
    // A misspelt quirk is refused, not ignored.
    let error =
        serde_json::from_value::<Profile>(json!({"name": "x", "parralel_tool_calls": false}))
            .unwrap_err();
    assert!(error.to_string().contains("parralel_tool_calls"), "{error}");
    // Every preset survives a round trip through its JSON form.
    for preset in Profile::presets() {
        let back: Profile = serde_json::from_value(serde_json::to_value(&preset).unwrap()).unwrap();
        assert_eq!(back, preset);
    }
}

/// A Chat stream as `server` sends it: reasoning pieces under its reasoning member (where it
/// has one), then a call whose arguments come in pieces, or whole as an object (llama.cpp and
/// Ollama send a call in one chunk).
fn compatible_stream(reasoning: Option<&str>, object_arguments: bool) -> Vec<u8> {
    let mut chunks = vec![
        json!({"id": "s", "object": "chat.completion.chunk", "choices": [
        {"index": 0, "delta": {"role": "assistant", "content": null}, "finish_reason": null}]}),
    ];
    if let Some(member) = reasoning {
        for piece in ["The user ", "asks about ", "Paris."] {
            chunks.push(json!({"id": "s", "choices": [{"index": 0,
                "delta": {member: piece}, "finish_reason": null}]}));
        }
    }
    if object_arguments {
        chunks.push(
            json!({"id": "s", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]},
            "finish_reason": null}]}),
        );
    } else {
        chunks.push(
            json!({"id": "s", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": "{\"city\":"}}]},
            "finish_reason": null}]}),
        );
        chunks.push(
            json!({"id": "s", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": "\"Paris\"}"}}]}, "finish_reason": null}]}),
        );
    }
    chunks.push(json!({"id": "s", "choices": [{"index": 0, "delta": {},
        "finish_reason": "tool_calls"}]}));
    let mut body = String::new();
    for chunk in chunks {
        body.push_str(&format!("data: {chunk}\n\n"));
    }
    body.push_str("data: [DONE]\n\n");
    body.into_bytes()
}

/// Streams of every preset's server: the call runs once with its arguments, however they came,
/// and the model's turn keeps the whole reasoning where the server put it, for the profile and
/// for a transcript.
#[tokio::test]
async fn every_presets_stream_runs_its_call_and_keeps_its_reasoning() {
    use futures::StreamExt;
    use toolnexus::stream::StreamTurn;
    use toolnexus::transcript::{Message, Part, Transcript};
    use toolnexus::RunOptions;
    let toolkit = toolkit();
    for profile in Profile::presets() {
        for object_arguments in [false, true] {
            let body = compatible_stream(profile.reasoning.as_deref(), object_arguments);
            let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
                body.chunks(5).map(|c| Ok(c.to_vec())).collect();
            let mut turn = StreamTurn::new(&toolkit, Dialect::OpenAiChat, RunOptions::default());
            let mut events = turn.read(futures::stream::iter(chunks));
            while let Some(event) = events.next().await {
                event.unwrap();
            }
            let turn = turn.finish().await.unwrap();
            let name = &profile.name;
            assert_eq!(turn.results.len(), 1, "{name}");
            assert_eq!(turn.results[0].output, "sunny in Paris", "{name}");
            let message = &turn.model_turn[0];
            let said = profile
                .reasoning
                .as_ref()
                .map(|_| "The user asks about Paris.");
            assert_eq!(profile.reasoning(message), said, "{name}");
            let transcript = Transcript::read(Dialect::OpenAiChat, &turn.model_turn).unwrap();
            let Message::Assistant { parts, .. } = &transcript.messages[0] else {
                panic!("{name}: a model turn")
            };
            let reasoning: Vec<&str> = parts
                .iter()
                .filter_map(|p| match p {
                    Part::Reasoning { text, .. } => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            assert_eq!(reasoning, said.into_iter().collect::<Vec<_>>(), "{name}");
            // The next request keeps it for the server that sent it, and for no other.
            let mut body = json!({"messages": [message]});
            profile.adapt(&mut body).unwrap();
            assert_eq!(profile.reasoning(&body["messages"][0]), said, "{name}");
            let mut body = json!({"messages": [message]});
            Profile::openai().adapt(&mut body).unwrap();
            let kept = body["messages"][0].as_object().unwrap();
            assert!(
                !kept.contains_key("reasoning") && !kept.contains_key("reasoning_content"),
                "{name}: {body}"
            );
        }
    }
}
