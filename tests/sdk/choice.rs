//! Tool choice (issue 31), judged by the providers' official SDK types: every choice each
//! dialect can express, rendered into a request body beside its tools (`ToolChoice::add_to`),
//! by `tests/sdk/validate_choices.py` and, for Bedrock, botocore's model
//! (`validate_bedrock.py`); and control cases the validator must refuse.

use serde_json::{json, Map, Value};
use toolnexus::{Dialect, NativeTool, ToolChoice, Toolkit, ToolsOptions};

use crate::common::dialects::{self, Choices, Fixture};

fn toolkit() -> Toolkit {
    let tool = |name: &str| {
        NativeTool::of(
            name,
            "Looks something up",
            json!({"type": "object", "properties": {"query": {"type": "string"}},
                "required": ["query"]}),
            |_| async { "found" },
        )
        .unwrap()
    };
    Toolkit::new()
        .with(tool("get_weather"))
        .unwrap()
        .with(tool("search"))
        .unwrap()
        .with(tool("fetch"))
        .unwrap()
}

/// What a choice asks for, to be matched with what a provider can express ([`Choices`]).
#[derive(Clone, Copy)]
enum Kind {
    Auto,
    None,
    Required,
    OneTool,
    Among,
}

/// Every choice with its kind, each plain and one call at a time (`none` one call at a time is
/// `none`).
fn choices() -> Vec<(ToolChoice, Kind, bool)> {
    let plain = [
        (ToolChoice::auto(), Kind::Auto),
        (ToolChoice::none(), Kind::None),
        (ToolChoice::required(), Kind::Required),
        (ToolChoice::tool("get_weather").unwrap(), Kind::OneTool),
        (
            ToolChoice::auto_among(["search", "fetch"]).unwrap(),
            Kind::Among,
        ),
        (
            ToolChoice::required_among(["search", "fetch"]).unwrap(),
            Kind::Among,
        ),
    ];
    plain
        .iter()
        .map(|(choice, kind)| (choice.clone(), *kind, false))
        .chain(
            plain
                .iter()
                .map(|(choice, kind)| (choice.clone().one_at_a_time(), *kind, true)),
        )
        .collect()
}

/// Whether a provider that can say `can` expresses a choice of `kind` (`one`: one call at a
/// time, which `none` needs no word for).
fn expressible(can: Choices, kind: Kind, one: bool) -> bool {
    let plain = match kind {
        Kind::Auto | Kind::Required => true,
        Kind::None => return can.none,
        Kind::OneTool => can.one_tool,
        Kind::Among => can.among,
    };
    plain && (!one || can.one_at_a_time)
}

/// A request body of `fixture`'s dialect declaring the toolkit's tools, without a choice.
fn body(fixture: &dyn Fixture) -> Value {
    let dialect = fixture.dialect();
    let tools =
        serde_json::to_value(toolkit().tools_for(dialect, ToolsOptions::default())).unwrap();
    fixture.request(vec![dialect.user_message("Weather in Oslo?")], Some(tools))
}

/// The bodies of every choice `fixture`'s dialect expresses, checking on the way that it
/// expresses exactly what its API can say.
fn bodies(fixture: &dyn Fixture) -> Vec<Value> {
    let can = fixture.choices();
    choices()
        .iter()
        .filter_map(|(choice, kind, one)| {
            let mut body = body(fixture);
            let added = choice.add_to(fixture.dialect(), &mut body);
            assert_eq!(
                added.is_ok(),
                expressible(can, *kind, *one),
                "{:?}: {choice:?} ({added:?})",
                fixture.dialect()
            );
            added.ok().map(|()| body)
        })
        .collect()
}

#[test]
fn every_expressible_choice_is_accepted_by_the_official_sdks() {
    let mut all = Map::new();
    let mut expected = 0;
    for fixture in crate::venv::keyed() {
        let list = bodies(fixture);
        assert!(list.len() >= 4, "{:?}: {}", fixture.dialect(), list.len());
        expected += list.len();
        all.insert(fixture.sdk().key.to_owned(), Value::Array(list));
    }
    let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_choices.py",
        &Value::Object(all),
        "tool_choices.json",
    ) else {
        return;
    };
    assert!(ok, "the SDK types refused a tool choice:\n{report}");
    assert!(
        report.contains(&format!("{expected} tool-choice request bodies accepted")),
        "{report}"
    );
}

#[test]
fn every_expressible_choice_is_accepted_by_the_dialects_own_validators() {
    for (fixture, script) in crate::venv::validated_alone() {
        let requests = bodies(fixture);
        let file = format!("tool_choices_{}.json", fixture.sdk().key);
        let Some((ok, report)) =
            crate::venv::validate_alone(fixture, script, &requests, None, &file)
        else {
            return;
        };
        assert!(ok, "{script} refused a tool choice:\n{report}");
        assert!(
            report.contains(&format!("{} requests", requests.len())),
            "{report}"
        );
    }
}

/// The validators refuse what the providers would: Chat's allowed tools in the Responses shape,
/// a Responses function choice in Chat's shape, `disable_parallel_tool_use` on Anthropic's
/// `none`, a Gemini mode that does not exist, a choice naming an undeclared tool, Cohere's `ANY`, Bedrock's
/// `none`.
#[test]
fn the_tool_choice_validators_refuse_what_the_providers_would() {
    let with = |dialect: Dialect, members: Value| {
        let mut body = body(dialects::of(dialect));
        body.as_object_mut()
            .unwrap()
            .extend(members.as_object().unwrap().clone());
        body
    };
    let wrong = json!({
        "openai_chat": [
            with(Dialect::OpenAiChat, json!({"tool_choice": {"type": "allowed_tools",
                "allowed_tools": {"mode": "auto", "tools": [{"type": "function", "name": "search"}]}}})),
            with(Dialect::OpenAiChat, json!({"tool_choice": {"type": "function",
                "function": {"name": "nowhere"}}})),
        ],
        "openai_responses": [with(Dialect::OpenAiResponses, json!({"tool_choice": {
            "type": "function", "function": {"name": "search"}}}))],
        "anthropic": [with(Dialect::Anthropic, json!({"tool_choice": {"type": "none",
            "disable_parallel_tool_use": true}}))],
        "gemini": [with(Dialect::Gemini, json!({"toolConfig": {"functionCallingConfig":
            {"mode": "REQUIRED"}}}))],
        "cohere": [with(Dialect::Cohere, json!({"tool_choice": "ANY"}))],
    });
    if let Some((ok, report)) = crate::venv::verdict(
        "tests/sdk/validate_choices.py",
        &wrong,
        "tool_choices_wrong.json",
    ) {
        assert!(!ok, "{report}");
        for case in [
            "openai_chat[0]",
            "openai_chat[1]",
            "openai_responses[0]",
            "anthropic[0]",
            "gemini[0]",
            "cohere[0]",
        ] {
            assert!(report.contains(case), "{case} not refused:\n{report}");
        }
    }
    // Bedrock's `toolChoice` has no `none`.
    let bedrock = dialects::of(Dialect::Bedrock);
    let mut none = body(bedrock);
    none["toolConfig"]["toolChoice"] = json!({"none": {}});
    let script = crate::venv::bodies(bedrock);
    if let Some((ok, report)) = crate::venv::validate_alone(
        bedrock,
        script,
        &[none],
        None,
        "tool_choices_bedrock_wrong.json",
    ) {
        assert!(!ok, "{report}");
        assert!(report.contains("requests[0]"), "{report}");
    }
}
