//! Many tools (issue 12, point 8): each provider's documented limit on functions per request is
//! checked on demand, and a chosen subset of a toolkit's tools is sent to any adapter, in the
//! toolkit's order, while `respond` still answers calls to every tool of the toolkit. A
//! toolkit's arrays share one tree of `Value`s, built again only after a tool is added (issue 14).

use serde_json::{json, Value};
use toolnexus::{Dialect, Error, NativeTool, Tool, Toolkit, ToolsOptions, Warning};

use crate::common::dialects;

fn echo(name: &str) -> NativeTool {
    let owned = name.to_owned();
    NativeTool::of(
        name,
        format!("Says {name}"),
        json!({"type": "object", "properties": {}}),
        move |_| {
            let n = owned.clone();
            async move { format!("{n} ran") }
        },
    )
    .unwrap()
}

fn toolkit(n: usize) -> Toolkit {
    let mut t = Toolkit::new();
    for i in 0..n {
        t.add(echo(&format!("t{i:03}"))).unwrap();
    }
    t
}

fn names(openai: &[Value]) -> Vec<&str> {
    openai
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect()
}

#[test]
fn each_provider_documents_its_own_limit() {
    for fixture in dialects::ALL {
        let d = fixture.dialect();
        assert_eq!(d.max_tools(), fixture.limits().tools, "{d}");
        assert_eq!(d.check_tool_count(d.max_tools()), Ok(()));
        let err = d.check_tool_count(d.max_tools() + 1).unwrap_err();
        assert_eq!(
            err,
            Error::TooManyTools {
                api: d.api_name(),
                count: d.max_tools() + 1,
                max: d.max_tools()
            }
        );
    }
}

#[test]
fn a_toolkit_past_the_openai_limit_says_so_before_sending() {
    let big = toolkit(129);
    let err = Dialect::OpenAiChat.check_tools(big.tools()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "129 tools are too many for OpenAI Chat Completions, which documents at most 128 per \
         request; send a subset with `Toolkit::select`"
    );
    for fixture in dialects::ALL {
        let d = fixture.dialect();
        let fits = fixture.limits().tools >= 129;
        assert_eq!(d.check_tools(big.tools()).is_ok(), fits, "{d}");
    }
    // The adapter itself stays infallible: it renders what it is given.
    assert_eq!(big.to_openai().len(), 129);
    assert!(Dialect::OpenAiResponses
        .check_tools(toolkit(128).tools())
        .is_ok());
}

#[test]
fn a_selection_renders_the_chosen_tools_in_toolkit_order_for_every_adapter() {
    let tk = toolkit(6);
    let chosen = tk.select(["t004", "t001", "t004"]).unwrap();
    assert_eq!(chosen.len(), 2);
    assert_eq!(chosen.names().collect::<Vec<_>>(), ["t001", "t004"]);
    assert_eq!(
        names(&chosen.tools_for(Dialect::OpenAiChat, ToolsOptions::default())),
        ["t001", "t004"]
    );

    // Each adapter over the selection equals the same adapter over those tools alone.
    let alone = Toolkit::new()
        .with(echo("t001"))
        .unwrap()
        .with(echo("t004"))
        .unwrap();
    assert_eq!(
        chosen.tools_for(Dialect::OpenAiChat, ToolsOptions::default()),
        alone.to_openai()
    );
    for dialect in Dialect::ALL {
        for (strict, json_schema) in [(false, false), (true, false), (false, true), (true, true)] {
            let options = ToolsOptions::default()
                .with_strict(strict)
                .with_json_schema(json_schema);
            assert_eq!(
                chosen.tools_for(dialect, options),
                alone.tools_for(dialect, options),
                "{dialect:?} {options:?}"
            );
        }
    }
    assert_eq!(
        chosen.tools_for(Dialect::Anthropic, ToolsOptions::default()),
        alone.to_anthropic()
    );
    assert_eq!(
        chosen.tools_for(Dialect::Gemini, ToolsOptions::default()),
        alone.to_gemini()
    );
    assert_eq!(
        chosen.tools().iter().map(|t| t.name()).collect::<Vec<_>>(),
        ["t001", "t004"]
    );

    // Nothing chosen: every adapter's empty form.
    let none = tk.select(Vec::<String>::new()).unwrap();
    assert!(none.is_empty());
    assert_eq!(
        none.tools_for(Dialect::OpenAiChat, ToolsOptions::default()),
        Vec::<Value>::new()
    );
    assert_eq!(
        none.tools_for(Dialect::Gemini, ToolsOptions::default()),
        vec![json!({"functionDeclarations": []})]
    );
    for dialect in Dialect::ALL {
        assert_eq!(
            none.tools_for(dialect, ToolsOptions::default()),
            Toolkit::new().tools_for(dialect, ToolsOptions::default()),
            "{dialect:?}"
        );
    }
}

#[test]
fn selecting_a_name_the_toolkit_lacks_is_an_error_naming_it() {
    let tk = toolkit(3);
    let err = tk.select(["t001", "nope"]).unwrap_err();
    assert!(
        matches!(&err, Error::UnknownTool { name, .. } if name == "nope"),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "no tool named `nope` in this toolkit; its tools are: t000, t001, t002"
    );
}

#[test]
fn a_large_toolkit_sends_a_subset_that_fits() {
    let tk = toolkit(300);
    let wanted: Vec<String> = (0..300)
        .rev()
        .step_by(3)
        .map(|i| format!("t{i:03}"))
        .collect();
    let chosen = tk.select(&wanted).unwrap();
    assert_eq!(chosen.len(), 100);
    assert!(Dialect::OpenAiChat.check_tools(chosen.tools()).is_ok());
    let sent = chosen.tools_for(Dialect::OpenAiChat, ToolsOptions::default());
    let sent_names = names(&sent);
    let mut sorted = sent_names.clone();
    sorted.sort();
    assert_eq!(sent_names, sorted, "toolkit order");
    assert_eq!(sent_names.first(), Some(&"t002"));

    let too_many = tk.select(tk.names().take(129)).unwrap();
    assert_eq!(
        Dialect::OpenAiChat.check_tools(too_many.tools()),
        Err(Error::TooManyTools {
            api: "OpenAI Chat Completions",
            count: 129,
            max: 128
        })
    );
}

#[tokio::test]
async fn respond_answers_calls_to_tools_outside_the_selection() {
    let tk = toolkit(4);
    let chosen = tk.select(["t000"]).unwrap();
    assert_eq!(
        names(&chosen.tools_for(Dialect::OpenAiChat, ToolsOptions::default())),
        ["t000"]
    );
    // The model calls a tool it was not offered this turn (it saw it in an earlier turn).
    let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": null, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "t003", "arguments": "{}"}},
            {"id": "c2", "type": "function", "function": {"name": "t000", "arguments": "{}"}}]}}]});
    let turn = chosen
        .toolkit()
        .respond(&response, Dialect::OpenAiChat)
        .await
        .unwrap();
    assert_eq!(
        turn.result_messages,
        [
            json!({"role": "tool", "tool_call_id": "c1", "content": "t003 ran"}),
            json!({"role": "tool", "tool_call_id": "c2", "content": "t000 ran"}),
        ]
    );
}

#[test]
fn a_toolkit_builds_each_array_once_and_again_only_after_a_tool_is_added() {
    let mut toolkit = toolkit(3);
    let first = toolkit.to_gemini();
    let second = toolkit.to_gemini();
    // Serializing builds the toolkit's one copy; every array it hands out shares it.
    let bytes = serde_json::to_vec(&first).unwrap();
    assert!(std::ptr::eq(&first[0], &second[0]), "two arrays, one tree");
    assert!(std::ptr::eq(&first[0], &toolkit.to_gemini()[0]));
    assert_eq!(
        bytes,
        serde_json::to_vec(&toolnexus::to_gemini(toolkit.tools())).unwrap()
    );

    toolkit.add(echo("added")).unwrap();
    let after = toolkit.to_gemini();
    assert!(
        !std::ptr::eq(&first[0], &after[0]),
        "a new tool, a new tree"
    );
    let declarations = |array: &[Value]| array[0]["functionDeclarations"].as_array().unwrap().len();
    assert_eq!(declarations(&after), 4);
    assert_eq!(
        serde_json::to_vec(&after).unwrap(),
        serde_json::to_vec(&toolnexus::to_gemini(toolkit.tools())).unwrap()
    );
    // An array handed out before keeps what the toolkit had then.
    assert_eq!(declarations(&first), 3);
    assert_eq!(serde_json::to_vec(&first).unwrap(), bytes);
    // The other providers' arrays follow the same rule.
    assert_eq!(names(&toolkit.to_openai()).len(), 4);
    assert_eq!(toolkit.to_anthropic().len(), 4);
}

/// Every tools array of a toolkit and of a selection, for every dialect and option, is a
/// `ToolsArray` that writes the bytes of its cached JSON text (the toolkit's and the
/// selection's), whether it is serialized straight away or read first; the three shortcuts write
/// the bytes of the free functions over the same tools.
#[test]
fn every_array_for_every_dialect_and_option_writes_one_set_of_bytes() {
    use toolnexus::{to_anthropic, to_gemini, to_openai, ToolsArray};
    let toolkit = toolkit(3);
    let tools: Vec<NativeTool> = (0..3).map(|i| echo(&format!("t{i:03}"))).collect();
    let selection = toolkit.select(["t000", "t001", "t002"]).unwrap();
    let text = |array: &ToolsArray| serde_json::to_string(array).unwrap();
    for dialect in Dialect::ALL {
        for (strict, json_schema) in [(false, false), (true, false), (false, true), (true, true)] {
            let options = ToolsOptions::default()
                .with_strict(strict)
                .with_json_schema(json_schema);
            let expected = toolkit.tools_json_for(dialect, options).get().to_owned();
            assert_eq!(selection.tools_json_for(dialect, options).get(), expected);
            for array in [
                toolkit.tools_for(dialect, options),
                selection.tools_for(dialect, options),
            ] {
                assert_eq!(text(&array), expected, "{dialect:?} {options:?}");
                assert!(!array.is_empty(), "read after written");
                assert_eq!(text(&array), expected);
            }
        }
    }
    for (array, free) in [
        (toolkit.to_openai(), to_openai(&tools)),
        (toolkit.to_anthropic(), to_anthropic(&tools)),
        (toolkit.to_gemini(), to_gemini(&tools)),
    ] {
        assert_eq!(text(&array), serde_json::to_string(&free).unwrap());
    }
    // Options a dialect has no use for change nothing.
    let json_schema = ToolsOptions::default().with_json_schema(true);
    assert_eq!(
        toolkit
            .tools_json_for(Dialect::OpenAiChat, json_schema)
            .get(),
        toolkit.to_openai_json().get()
    );
    assert_eq!(
        toolkit.tools_for(Dialect::Gemini, ToolsOptions::default().with_strict(true)),
        toolkit.to_gemini()
    );
}

#[test]
fn a_description_past_openais_1024_characters_is_a_warning_not_a_refusal() {
    let tool = |name: &str, description: String| {
        NativeTool::of(
            name,
            description,
            json!({"type": "object", "properties": {}}),
            |_| async { "ok" },
        )
        .unwrap()
    };
    // The sequential-thinking MCP server's description has 2781 characters.
    let toolkit = Toolkit::new()
        .with(tool(
            "think",
            "Thinks step by step. ".repeat(132) + "Then act.",
        ))
        .unwrap()
        .with(tool("exact", "é".repeat(1024)))
        .unwrap()
        .with(tool("short", "Short.".into()))
        .unwrap();
    for fixture in dialects::ALL {
        let dialect = fixture.dialect();
        let warnings = dialect.check_tools(toolkit.tools()).unwrap();
        let Some(max) = fixture.limits().description else {
            // No bound documented, no warning.
            assert!(warnings.is_empty(), "{dialect:?}");
            continue;
        };
        assert_eq!(max, 1024, "{dialect:?}");
        assert_eq!(
            warnings,
            [Warning::LongDescription {
                api: dialect.api_name(),
                tool: "think".into(),
                chars: 2781,
                max
            }],
            "{dialect:?}"
        );
        assert_eq!(
            warnings[0].to_string(),
            format!(
                "the description of tool `think` has 2781 characters; {} documents at most \
                 1024 and some deployments refuse more (`string_above_max_length`)",
                dialect.api_name()
            )
        );
        // Still rendered: other OpenAI-compatible servers take it.
        assert_eq!(
            toolkit.to_openai()[0]["function"]["description"]
                .as_str()
                .unwrap()
                .chars()
                .count(),
            2781
        );
        let chosen = toolkit.select(["short", "exact"]).unwrap();
        assert!(dialect.check_tools(chosen.tools()).unwrap().is_empty());
        assert_eq!(
            dialect
                .check_tools(toolkit.select(["think"]).unwrap().tools())
                .unwrap()
                .len(),
            1
        );
    }
}
