//! Deferred tools: a toolkit whose tools are searched for before they are sent.
//!
//! A [`Deferred`] sends, on every request, the tools the host always wants and one more,
//! `search_tools`: the model calls it with what it needs, the search (BM25 over names,
//! descriptions and parameters by default, or any [`ToolSearch`]) answers with the tools that
//! match, and the next request sends those too, after the ones already sent, so a provider's
//! prompt cache still holds. Which tools were found is read from the conversation itself
//! ([`Deferred::tools_for`] takes the history), so another process, or a pending turn resumed
//! later, sends the same tools. This works the same on every dialect.
//!
//! ```
//! use serde_json::json;
//! use toolnexus::deferred::Deferred;
//! use toolnexus::{Dialect, NativeTool, Toolkit};
//!
//! let tool = |name: &str, description: &str| {
//!     NativeTool::of(name, description, json!({"type": "object", "properties": {}}), |_| async { "ok" })
//! };
//! let toolkit = Toolkit::new()
//!     .with(tool("get_time", "The current time.")?)?
//!     .with(tool("get_weather", "The current weather in a city.")?)?
//!     .with(tool("send_email", "Sends an email to one recipient.")?)?;
//! let deferred = Deferred::new(toolkit, ["get_time"])?;
//!
//! let mut history = vec![Dialect::OpenAiChat.user_message("Weather in Paris?")];
//! let names = |tools: &[serde_json::Value]| -> Vec<String> {
//!     tools.iter().map(|t| t["function"]["name"].as_str().unwrap().to_owned()).collect()
//! };
//! assert_eq!(names(&deferred.tools_for(Dialect::OpenAiChat, &history)?), ["search_tools", "get_time"]);
//!
//! // The model searches; the search's result is part of the conversation.
//! let response = json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant",
//!     "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {
//!     "name": "search_tools", "arguments": "{\"query\":\"weather in a city\"}"}}]}}]});
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let turn = deferred.toolkit().respond(&response, Dialect::OpenAiChat).await?;
//! history.extend(turn.into_messages());
//! # Ok::<(), toolnexus::ResponseError>(()) })?;
//! let tools = deferred.tools_for(Dialect::OpenAiChat, &history)?;
//! assert_eq!(names(&tools)[..3], ["search_tools", "get_time", "get_weather"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::search::{Bm25, ToolSearch};
use crate::transcript::{Message, Part, Transcript, TranscriptError};
use crate::wire::choice::Pick;
use crate::{
    Dialect, Error, NativeTool, Tool, ToolChoice, Toolkit, ToolsArray, ToolsOptions, Turn,
};

/// The name of the search tool a [`Deferred`] sends.
pub const SEARCH_TOOL: &str = "search_tools";

/// How many tools one search finds, at most.
const FOUND: usize = 5;

/// A toolkit whose tools, but for a few, are sent only once a search found them (see the
/// [module](self)).
#[derive(Debug, Clone)]
pub struct Deferred {
    /// The host's toolkit, with `search_tools` added: its policy, limits and hooks hold.
    toolkit: Toolkit,
    /// The names always sent, `search_tools` first.
    always: Vec<String>,
}

impl Deferred {
    /// `toolkit`'s tools, all deferred but `always`, searched with [`Bm25`].
    ///
    /// # Errors
    /// A name in `always` that is not one of the toolkit's tools ([`Error::UnknownTool`]),
    /// or a toolkit that already has a tool called `search_tools` ([`Error::DuplicateTool`]).
    pub fn new<I, S>(toolkit: Toolkit, always: I) -> Result<Self, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let index = Bm25::index(toolkit.tools());
        Self::with_search(toolkit, always, index)
    }

    /// [`Deferred::new`] with a search of the host's own (embeddings, say).
    ///
    /// # Errors
    /// As [`Deferred::new`].
    pub fn with_search<I, S>(
        toolkit: Toolkit,
        always: I,
        search: impl ToolSearch + 'static,
    ) -> Result<Self, Error>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut names = vec![SEARCH_TOOL.to_owned()];
        for name in always {
            let name = name.as_ref();
            toolkit.select([name])?;
            if !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
        let catalog: Arc<[(String, String)]> = toolkit
            .tools()
            .iter()
            .map(|t| (t.name().to_owned(), t.description().to_owned()))
            .collect();
        let search: Arc<dyn ToolSearch> = Arc::new(search);
        let tool = NativeTool::of(
            SEARCH_TOOL,
            "Finds the tools that can do what you need, among many not listed yet. The tools \
             found can be called from the next turn on.",
            json!({"type": "object", "properties": {"query": {"type": "string",
                "description": search.query_description()}},
                "required": ["query"]}),
            move |args: Value| {
                let (search, catalog) = (Arc::clone(&search), Arc::clone(&catalog));
                async move { found(&*search, &catalog, &args) }
            },
        )?;
        // Into the host's own toolkit: its policy, limits and hooks hold for every call.
        let mut toolkit = toolkit;
        toolkit.add(tool)?;
        Ok(Self {
            toolkit,
            always: names,
        })
    }

    /// The toolkit that answers the model's calls: the host's, with `search_tools` added (its
    /// policy, limits and hooks hold for every call; a deferred tool the model calls by name
    /// before finding it runs as well, under the same policy).
    #[must_use]
    pub fn toolkit(&self) -> &Toolkit {
        &self.toolkit
    }

    /// The tools array for the next request of a conversation in `dialect`: `search_tools`, the
    /// tools always sent, then each tool a search in `history` found, in the order found.
    ///
    /// # Errors
    /// A history that cannot be read as `dialect` ([`Transcript::read`]).
    pub fn tools_for(
        &self,
        dialect: Dialect,
        history: &[Value],
    ) -> Result<ToolsArray, TranscriptError> {
        self.tools_for_choice(dialect, history, &ToolChoice::auto())
    }

    /// [`Deferred::tools_for`] for a request whose tool choice is `choice`: a tool it names (one
    /// tool, or an allowed subset) that no search found yet is sent too, after the others, so
    /// the choice never names a tool the request lacks.
    ///
    /// # Errors
    /// As [`Deferred::tools_for`].
    pub fn tools_for_choice(
        &self,
        dialect: Dialect,
        history: &[Value],
        choice: &ToolChoice,
    ) -> Result<ToolsArray, TranscriptError> {
        let chosen: &[String] = match choice.pick() {
            Pick::Tool(name) => std::slice::from_ref(name),
            Pick::Among { names, .. } => names,
            _ => &[],
        };
        let mut names = self.always.clone();
        let mut seen: HashSet<String> = names.iter().cloned().collect();
        let found = found_in(&Transcript::read(dialect, history)?);
        for name in found.into_iter().chain(chosen.iter().cloned()) {
            if self.toolkit.get(&name).is_some() && seen.insert(name.clone()) {
                names.push(name);
            }
        }
        let tools: Vec<Arc<dyn Tool>> = names
            .iter()
            .filter_map(|name| self.toolkit.get(name).cloned())
            .collect();
        Ok(ToolsArray::render(&tools, dialect, ToolsOptions::default()))
    }
}

/// Anthropic's own tool search tools: the API searches the deferred tools itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum AnthropicSearch {
    /// `tool_search_tool_bm25_20251119`: the model's query in natural language.
    #[default]
    Bm25,
    /// `tool_search_tool_regex_20251119`: the model writes a Python `re.search` pattern.
    Regex,
}

impl Deferred {
    /// The `tools` of an Anthropic request searched by Anthropic itself: its search tool
    /// first, then every tool, those not always sent with `"defer_loading": true` (this
    /// toolkit's own `search_tools` left out). The API runs the search: the response holds a
    /// `server_tool_use` block and a `tool_search_tool_result` block listing the tools found,
    /// which stay in the model's turn and are never run here; only the `tool_use` blocks are.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::deferred::{AnthropicSearch, Deferred};
    /// use toolnexus::{NativeTool, Toolkit};
    ///
    /// let tool = |name: &str| {
    ///     NativeTool::of(name, "A tool", json!({"type": "object", "properties": {}}), |_| async { "ok" })
    /// };
    /// let deferred = Deferred::new(Toolkit::new().with(tool("get_time")?)?.with(tool("get_weather")?)?,
    ///     ["get_time"])?;
    /// let tools = deferred.to_anthropic_native(AnthropicSearch::Bm25);
    /// assert_eq!(tools[0], json!({"type": "tool_search_tool_bm25_20251119",
    ///     "name": "tool_search_tool_bm25"}));
    /// assert_eq!(tools[1]["name"], "get_time");
    /// assert!(tools[1].get("defer_loading").is_none());
    /// assert_eq!(tools[2]["defer_loading"], true);
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    #[must_use]
    pub fn to_anthropic_native(&self, search: AnthropicSearch) -> Vec<Value> {
        let (kind, name) = match search {
            AnthropicSearch::Bm25 => ("tool_search_tool_bm25_20251119", "tool_search_tool_bm25"),
            AnthropicSearch::Regex => ("tool_search_tool_regex_20251119", "tool_search_tool_regex"),
        };
        self.native(Dialect::Anthropic, json!({"type": kind, "name": name}))
    }

    /// The `tools` of an OpenAI Responses request searched by OpenAI itself (hosted tool
    /// search): `{"type": "tool_search"}` first, then every tool, those not always sent with
    /// `"defer_loading": true` (this toolkit's own `search_tools` left out). The response's
    /// `tool_search_call` and `tool_search_output` items stay in the model's turn and are never
    /// run here; only its `function_call` items are.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolnexus::deferred::Deferred;
    /// use toolnexus::{NativeTool, Toolkit};
    ///
    /// let tool = |name: &str| {
    ///     NativeTool::of(name, "A tool", json!({"type": "object", "properties": {}}), |_| async { "ok" })
    /// };
    /// let deferred = Deferred::new(Toolkit::new().with(tool("get_time")?)?.with(tool("get_weather")?)?,
    ///     ["get_time"])?;
    /// let tools = deferred.to_responses_native();
    /// assert_eq!(tools[0], json!({"type": "tool_search"}));
    /// assert_eq!((tools[1]["name"].as_str(), tools[2]["defer_loading"].as_bool()),
    ///     (Some("get_time"), Some(true)));
    /// # Ok::<(), toolnexus::Error>(())
    /// ```
    #[must_use]
    pub fn to_responses_native(&self) -> Vec<Value> {
        self.native(Dialect::OpenAiResponses, json!({"type": "tool_search"}))
    }

    /// The `tools` of an Anthropic request in which this toolkit's own search answers with
    /// tool references: `search_tools` (never deferred) first, then every tool, those not always
    /// sent with `"defer_loading": true`. The array is the same on every request, so the
    /// prompt cache holds it whole. Run each turn on [`Deferred::toolkit`], then
    /// [`Deferred::reference`] it: each `search_tools` result becomes `tool_reference` blocks,
    /// which the API expands into the tools found (Anthropic's custom tool search).
    #[must_use]
    pub fn to_anthropic_referencing(&self) -> Vec<Value> {
        let search: Vec<Arc<dyn Tool>> =
            self.toolkit.get(SEARCH_TOOL).cloned().into_iter().collect();
        let entry = ToolsArray::render(&search, Dialect::Anthropic, ToolsOptions::default())
            .into_iter()
            .next()
            .unwrap_or(Value::Null);
        self.native(Dialect::Anthropic, entry)
    }

    /// An Anthropic turn's `search_tools` results as `tool_reference` blocks, one per tool
    /// found ([`Deferred::to_anthropic_referencing`]); a search that found nothing, or failed,
    /// stays text. Any other dialect's turn is left as it is.
    pub fn reference(&self, turn: &mut Turn) {
        if turn.dialect() != Dialect::Anthropic {
            return;
        }
        for (call, result) in turn.calls.iter().zip(&turn.results) {
            if call.name != SEARCH_TOOL || result.is_error {
                continue;
            }
            let names = found_names(&result.output);
            if names.is_empty() {
                continue;
            }
            let references: Vec<Value> = names
                .iter()
                .map(|name| json!({"type": "tool_reference", "tool_name": name}))
                .collect();
            let blocks = turn
                .result_messages
                .iter_mut()
                .filter_map(|m| m.get_mut("content").and_then(Value::as_array_mut))
                .flatten();
            for block in blocks {
                let answers = block.get("type").and_then(Value::as_str) == Some("tool_result")
                    && block.get("tool_use_id").and_then(Value::as_str) == call.id.as_deref();
                if answers {
                    block["content"] = Value::Array(references.clone());
                }
            }
        }
    }

    /// The `tools` of an OpenAI Responses request in which this toolkit's search runs on the
    /// client: `{"type": "tool_search", "execution": "client"}` with the search's own
    /// description and parameters first, then every tool, those not always sent with
    /// `"defer_loading": true`. The model's `tool_search_call` items are answered by
    /// [`Deferred::answer_searches`]; the array never changes.
    #[must_use]
    pub fn to_responses_client(&self) -> Vec<Value> {
        let search = self.toolkit.get(SEARCH_TOOL).map_or(Value::Null, |tool| {
            json!({"type": "tool_search", "execution": "client",
                "description": tool.description(),
                "parameters": tool.input_schema().as_value()})
        });
        self.native(Dialect::OpenAiResponses, search)
    }

    /// The `tool_search_output` items that answer each client-executed `tool_search_call` of a
    /// Responses model turn (`turn.model_turn`, as [`Deferred::to_responses_client`] has the
    /// model search), in order: the definitions of the tools found (each with
    /// `"defer_loading": true`, as loaded), or none for a query the search cannot take.
    /// Append them to the next request's input after the turn's own items. A turn that holds
    /// such a call is not the model's answer even when it made no other call: send the next
    /// request.
    pub async fn answer_searches(&self, model_turn: &[Value]) -> Vec<Value> {
        let client = |item: &&Value| {
            item.get("type").and_then(Value::as_str) == Some("tool_search_call")
                && item.get("execution").and_then(Value::as_str) == Some("client")
        };
        let mut outputs = Vec::new();
        for item in model_turn.iter().filter(client) {
            let arguments = item.get("arguments").cloned().unwrap_or(Value::Null);
            // The search runs as the model's call of `search_tools` would: through the toolkit,
            // under its policy, limits and hooks.
            let result = self.toolkit.execute(SEARCH_TOOL, arguments).await;
            let names = if result.is_error {
                Vec::new()
            } else {
                found_names(&result.output)
            };
            let found: Vec<Arc<dyn Tool>> = names
                .iter()
                .filter_map(|name| self.toolkit.get(name).cloned())
                .collect();
            let tools: Vec<Value> =
                ToolsArray::render(&found, Dialect::OpenAiResponses, ToolsOptions::default())
                    .into_iter()
                    .map(|mut entry| {
                        entry["defer_loading"] = Value::Bool(true);
                        entry
                    })
                    .collect();
            outputs.push(
                json!({"type": "tool_search_output", "call_id": item.get("call_id"),
                "execution": "client", "status": "completed", "tools": tools}),
            );
        }
        outputs
    }

    /// `search` (the provider's search tool), then every tool in `dialect`'s shape, those not
    /// always sent with `"defer_loading": true`.
    fn native(&self, dialect: Dialect, search: Value) -> Vec<Value> {
        let tools: Vec<Arc<dyn Tool>> = self
            .toolkit
            .tools()
            .iter()
            .filter(|t| t.name() != SEARCH_TOOL)
            .cloned()
            .collect();
        let mut out = vec![search];
        for mut entry in ToolsArray::render(&tools, dialect, ToolsOptions::default()) {
            let always = entry
                .get("name")
                .and_then(Value::as_str)
                .is_some_and(|name| self.always.iter().any(|a| a == name));
            if let (false, Some(entry)) = (always, entry.as_object_mut()) {
                entry.insert("defer_loading".into(), Value::Bool(true));
            }
            out.push(entry);
        }
        out
    }
}

/// The search's answer to `args`: `{"found": [{"name", "description"}, ...]}`, best first, or
/// an error result naming what was wrong.
fn found(
    search: &dyn ToolSearch,
    catalog: &[(String, String)],
    args: &Value,
) -> Result<String, String> {
    let query = args
        .get("query")
        .and_then(Value::as_str)
        .filter(|q| !q.trim().is_empty())
        .ok_or_else(|| {
            format!(
                "`query` must be a non-empty string: {}",
                search.query_description()
            )
        })?;
    search.check(query)?;
    let found: Vec<Value> = search
        .search(query, FOUND + 1)
        .into_iter()
        .filter(|f| f.name != SEARCH_TOOL)
        .take(FOUND)
        .filter_map(|f| {
            let (name, description) = catalog.iter().find(|(n, _)| *n == f.name)?;
            Some(json!({"name": name, "description": description}))
        })
        .collect();
    Ok(json!({ "found": found }).to_string())
}

/// The names a `search_tools` result lists (`{"found": [{"name", ...}, ...]}`), in order.
fn found_names(output: &str) -> Vec<String> {
    let Ok(value) = serde_json::from_str::<Value>(output) else {
        return Vec::new();
    };
    let listed = value.get("found").and_then(Value::as_array);
    listed
        .into_iter()
        .flatten()
        .filter_map(|f| f.get("name").and_then(Value::as_str))
        .map(str::to_owned)
        .collect()
}

/// The names each `search_tools` result of `transcript` found, in order.
fn found_in(transcript: &Transcript) -> Vec<String> {
    let mut searches: HashSet<Option<String>> = HashSet::new();
    let mut names = Vec::new();
    for message in &transcript.messages {
        match message {
            Message::Assistant { parts, .. } => {
                for part in parts {
                    if let Part::Call { id, name, .. } = part {
                        if name == SEARCH_TOOL {
                            searches.insert(id.clone());
                        }
                    }
                }
            }
            Message::Results { results } => {
                for answered in results {
                    let ours = match &answered.id {
                        Some(_) => searches.contains(&answered.id),
                        None => answered.name.as_deref() == Some(SEARCH_TOOL),
                    };
                    if !ours || answered.result.is_error {
                        continue;
                    }
                    names.extend(found_names(&answered.result.output));
                }
            }
            _ => {}
        }
    }
    names
}
