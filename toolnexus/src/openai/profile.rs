//! OpenAI-compatible servers as data: a [`Profile`] of the ways one server's Chat Completions
//! differ from OpenAI's, and the presets for the common ones.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::values::error::Error;
use crate::values::ids::{IdMap, IdRule};

/// What an OpenAI-compatible server does differently from OpenAI's Chat Completions, as data
/// (loadable from JSON or TOML with serde; every member left out is OpenAI's behaviour).
///
/// Build the request body as for OpenAI ([`Dialect::OpenAiChat`](crate::Dialect::OpenAiChat)
/// everywhere), then [`Profile::adapt`] it: the tool choice spelled as the server spells it (or
/// refused where it has none), `parallel_tool_calls` and `strict` left out where the server
/// refuses them, the max-tokens member under the server's name, call ids fitted to the server's
/// rule, each tool message named where the server wants that, and the model's reasoning kept in
/// its turns only under the member the server sends it in (DeepSeek's thinking mode refuses a
/// tool loop without it; OpenAI takes none). Responses and streams need nothing: a call's
/// arguments as JSON text or as an object are read alike for every server, a model turn keeps
/// the reasoning the server sent (a streamed one, its pieces joined), and
/// [`Profile::reasoning`] reads it where the server puts it.
///
/// | preset | required choice | named choice | `parallel_tool_calls` | strict | max tokens | reasoning | ids |
/// |---|---|---|---|---|---|---|---|
/// | [`openai`](Profile::openai) | `required` | yes | yes | yes | `max_completion_tokens` | (hidden) | up to 40 bytes |
/// | [`ollama`](Profile::ollama) | none | no | no | no | `max_tokens` | `reasoning` | any |
/// | [`vllm`](Profile::vllm) | `required` | yes | yes | no | `max_tokens` | `reasoning_content` | any |
/// | [`llama_cpp`](Profile::llama_cpp) | `required` | no | yes | no | `max_tokens` | `reasoning_content` | any |
/// | [`groq`](Profile::groq) | `required` | yes | yes | no | `max_completion_tokens` | `reasoning` | any |
/// | [`deepseek`](Profile::deepseek) | `required` | yes | no | no | `max_tokens` | `reasoning_content` | any |
/// | [`mistral`](Profile::mistral) | `any` | yes | yes | no | `max_tokens` | (none) | 9 letters and digits, results named |
/// | [`xai`](Profile::xai) | `required` | yes | yes | no | `max_tokens` | `reasoning_content` | any |
/// | [`openrouter`](Profile::openrouter) | `required` | yes | yes | yes | `max_tokens` | `reasoning` | any |
/// | [`together`](Profile::together) | `required` | yes | yes | no | `max_tokens` | `reasoning` | any |
///
/// Each preset's `source` names the documentation it follows.
///
/// ```
/// use serde_json::json;
/// use toolnexus::openai::Profile;
///
/// let mut body = json!({"model": "mistral-large-latest", "max_completion_tokens": 512,
///     "tool_choice": "required", "parallel_tool_calls": false,
///     "messages": [
///         {"role": "user", "content": "Weather in Paris?"},
///         {"role": "assistant", "content": null, "tool_calls": [{"id": "call_0",
///             "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
///         {"role": "tool", "tool_call_id": "call_0", "content": "sunny"}]});
/// Profile::mistral().adapt(&mut body)?;
/// assert_eq!(body["tool_choice"], "any");
/// assert_eq!(body["max_tokens"], 512);
/// let id = body["messages"][1]["tool_calls"][0]["id"].as_str().unwrap();
/// assert!(id.len() == 9 && id.chars().all(|c| c.is_ascii_alphanumeric()));
/// assert_eq!(body["messages"][2]["tool_call_id"], id);
/// assert_eq!(body["messages"][2]["name"], "get_weather");
///
/// // A profile of your own, as a file holds it: only what differs from OpenAI.
/// let local: Profile = serde_json::from_value(json!({"name": "my-server",
///     "required": null, "strict": false}))?;
/// assert!(local.adapt(&mut json!({"tool_choice": "required"})).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[non_exhaustive]
pub struct Profile {
    /// The server's name, for errors.
    pub name: String,
    /// The documentation this profile follows.
    pub source: Option<String>,
    /// How `tool_choice` says a call is required (`required`, Mistral's `any`); `None`: the
    /// server cannot require one, and such a choice is refused.
    pub required: Option<String>,
    /// Whether `tool_choice` may name one tool.
    pub named_choice: bool,
    /// Whether the server takes `parallel_tool_calls` (left out where it does not; `false`, one
    /// call at a time, is then refused).
    pub parallel_tool_calls: bool,
    /// Whether the server takes `"strict": true` on a function (left out where it does not).
    pub strict: bool,
    /// The request member that bounds the answer's tokens (`max_tokens`,
    /// `max_completion_tokens`): either one in a body is renamed to it.
    pub max_tokens: String,
    /// The member of a response's message that holds the model's reasoning, where the server
    /// sends it (`reasoning_content`, `reasoning`).
    pub reasoning: Option<String>,
    /// Call ids: at most this many bytes.
    pub id_max_len: Option<usize>,
    /// Call ids: exactly this many letters and digits (Mistral's 9).
    pub id_alphanumeric: Option<usize>,
    /// Whether a tool message carries its tool's `name` beside `tool_call_id`.
    pub result_name: bool,
}

impl Default for Profile {
    /// OpenAI's own Chat Completions.
    fn default() -> Self {
        Self {
            name: "OpenAI".to_owned(),
            source: Some("https://platform.openai.com/docs/api-reference/chat/create".to_owned()),
            required: Some("required".to_owned()),
            named_choice: true,
            parallel_tool_calls: true,
            strict: true,
            max_tokens: "max_completion_tokens".to_owned(),
            reasoning: None,
            id_max_len: Some(40),
            id_alphanumeric: None,
            result_name: false,
        }
    }
}

/// Where compatible servers put the model's reasoning in a message.
const REASONING_MEMBERS: [&str; 2] = ["reasoning_content", "reasoning"];

/// A preset: OpenAI's profile with `name`, `source` and what `change` sets.
fn preset(name: &str, source: &str, change: impl FnOnce(&mut Profile)) -> Profile {
    let mut profile = Profile {
        name: name.to_owned(),
        source: Some(source.to_owned()),
        strict: false,
        max_tokens: "max_tokens".to_owned(),
        id_max_len: None,
        ..Profile::default()
    };
    change(&mut profile);
    profile
}

impl Profile {
    /// OpenAI's own Chat Completions (the [`Default`]).
    #[must_use]
    pub fn openai() -> Self {
        Self::default()
    }

    /// Ollama's OpenAI-compatible endpoint: no `tool_choice`, no `parallel_tool_calls`, no
    /// strict tools; reasoning in `reasoning`.
    #[must_use]
    pub fn ollama() -> Self {
        preset(
            "Ollama",
            "https://github.com/ollama/ollama/blob/main/docs/openai.md",
            |p| {
                p.required = None;
                p.named_choice = false;
                p.parallel_tool_calls = false;
                p.reasoning = Some("reasoning".to_owned());
            },
        )
    }

    /// vLLM's OpenAI-compatible server: `required` and named choices; reasoning in
    /// `reasoning_content` (with a reasoning parser).
    #[must_use]
    pub fn vllm() -> Self {
        preset(
            "vLLM",
            "https://docs.vllm.ai/en/latest/features/tool_calling.html",
            |p| {
                p.reasoning = Some("reasoning_content".to_owned());
            },
        )
    }

    /// llama.cpp's `llama-server`: `auto`, `none` and `required`, no named choice; reasoning in
    /// `reasoning_content`.
    #[must_use]
    pub fn llama_cpp() -> Self {
        preset(
            "llama.cpp server",
            "https://github.com/ggml-org/llama.cpp/blob/master/docs/function-calling.md",
            |p| {
                p.named_choice = false;
                p.reasoning = Some("reasoning_content".to_owned());
            },
        )
    }

    /// Groq: OpenAI's choices, `max_completion_tokens`; reasoning in `reasoning`.
    #[must_use]
    pub fn groq() -> Self {
        preset("Groq", "https://console.groq.com/docs/tool-use", |p| {
            p.max_tokens = "max_completion_tokens".to_owned();
            p.reasoning = Some("reasoning".to_owned());
        })
    }

    /// DeepSeek: no `parallel_tool_calls`; reasoning in `reasoning_content`.
    #[must_use]
    pub fn deepseek() -> Self {
        preset(
            "DeepSeek",
            "https://api-docs.deepseek.com/guides/function_calling",
            |p| {
                p.parallel_tool_calls = false;
                p.reasoning = Some("reasoning_content".to_owned());
            },
        )
    }

    /// Mistral: a required call is `any`; call ids are 9 letters and digits; a tool message
    /// names its tool.
    #[must_use]
    pub fn mistral() -> Self {
        preset(
            "Mistral",
            "https://docs.mistral.ai/capabilities/function_calling/",
            |p| {
                p.required = Some("any".to_owned());
                p.id_alphanumeric = Some(9);
                p.result_name = true;
            },
        )
    }

    /// xAI: OpenAI's choices; reasoning in `reasoning_content`.
    #[must_use]
    pub fn xai() -> Self {
        preset(
            "xAI",
            "https://docs.x.ai/docs/guides/function-calling",
            |p| {
                p.reasoning = Some("reasoning_content".to_owned());
            },
        )
    }

    /// OpenRouter: OpenAI's choices and strict tools (passed to the model's provider);
    /// reasoning in `reasoning`.
    #[must_use]
    pub fn openrouter() -> Self {
        preset(
            "OpenRouter",
            "https://openrouter.ai/docs/features/tool-calling",
            |p| {
                p.strict = true;
                p.reasoning = Some("reasoning".to_owned());
            },
        )
    }

    /// Together AI: OpenAI's choices; reasoning in `reasoning`.
    #[must_use]
    pub fn together() -> Self {
        preset(
            "Together AI",
            "https://docs.together.ai/docs/function-calling",
            |p| {
                p.reasoning = Some("reasoning".to_owned());
            },
        )
    }

    /// Every preset, OpenAI's first.
    #[must_use]
    pub fn presets() -> Vec<Self> {
        vec![
            Self::openai(),
            Self::ollama(),
            Self::vllm(),
            Self::llama_cpp(),
            Self::groq(),
            Self::deepseek(),
            Self::mistral(),
            Self::xai(),
            Self::openrouter(),
            Self::together(),
        ]
    }

    /// The call ids the server takes back.
    #[must_use]
    pub fn id_rule(&self) -> IdRule {
        match (self.id_alphanumeric, self.id_max_len) {
            (Some(len), _) => IdRule::alphanumeric(len, len),
            (None, Some(max)) => IdRule::up_to(max),
            (None, None) => IdRule::ANY,
        }
    }

    /// The model's reasoning in a response's message (`choices[0].message`), where this server
    /// puts it.
    #[must_use]
    pub fn reasoning<'a>(&self, message: &'a Value) -> Option<&'a str> {
        message.get(self.reasoning.as_deref()?)?.as_str()
    }

    /// A Chat Completions request body, built as for OpenAI, made one this server takes.
    ///
    /// # Errors
    /// [`Error::UnsupportedChoice`] for a `tool_choice` the server has no way to say (a
    /// required call, a named tool) or `parallel_tool_calls: false` where the server cannot
    /// hold the model to one call: sent anyway, the server would refuse the request or ignore
    /// the choice.
    pub fn adapt(&self, body: &mut Value) -> Result<(), Error> {
        let Some(body) = body.as_object_mut() else {
            return Ok(());
        };
        const API: &str = "this OpenAI-compatible server (its `Profile`)";
        match body.get_mut("tool_choice") {
            Some(choice @ Value::String(_)) if choice == "required" => {
                match &self.required {
                    Some(spelling) => *choice = Value::String(spelling.clone()),
                    None => {
                        return Err(Error::UnsupportedChoice {
                            api: API,
                            choice: "a required call",
                            instead: "leave `tool_choice` out and send only the tools the model may call",
                        })
                    }
                }
            }
            Some(Value::Object(_)) if !self.named_choice => {
                return Err(Error::UnsupportedChoice {
                    api: API,
                    choice: "one named tool",
                    instead: "send only that tool (`Toolkit::select`), with a required call where the server has one",
                })
            }
            _ => {}
        }
        if !self.parallel_tool_calls {
            if body.get("parallel_tool_calls") == Some(&Value::Bool(false)) {
                return Err(Error::UnsupportedChoice {
                    api: API,
                    choice: "one call at a time",
                    instead: "leave `parallel_tool_calls` out and run the calls one by one (`RunOptions`)",
                });
            }
            body.remove("parallel_tool_calls");
        }
        if !self.strict {
            let tools = body.get_mut("tools").and_then(Value::as_array_mut);
            for tool in tools.into_iter().flatten() {
                if let Some(Value::Object(function)) = tool.get_mut("function") {
                    function.remove("strict");
                }
            }
        }
        for name in ["max_tokens", "max_completion_tokens"] {
            if name != self.max_tokens {
                if let Some(value) = body.remove(name) {
                    body.insert(self.max_tokens.clone(), value);
                }
            }
        }
        if let Some(Value::Array(messages)) = body.get_mut("messages") {
            self.adapt_messages(messages);
        }
        Ok(())
    }

    /// The messages' call ids fitted to the server's rule, calls and results alike, each tool
    /// message named where the server wants that, and reasoning only under the member the
    /// server itself sends it in (another server's, or any for OpenAI, left out).
    fn adapt_messages(&self, messages: &mut [Value]) {
        let mut ids = IdMap::new(self.id_rule());
        let mut names: HashMap<String, String> = HashMap::new();
        for message in messages {
            match message.get("role").and_then(Value::as_str) {
                Some("assistant") => {
                    if let Some(message) = message.as_object_mut() {
                        for member in REASONING_MEMBERS {
                            if self.reasoning.as_deref() != Some(member) {
                                message.remove(member);
                            }
                        }
                    }
                    let calls = message.get_mut("tool_calls").and_then(Value::as_array_mut);
                    for call in calls.into_iter().flatten() {
                        let name = call
                            .pointer("/function/name")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned();
                        let sent = call.get("id").and_then(Value::as_str);
                        let id = ids.call(sent, &name);
                        names.insert(id.clone(), name);
                        call["id"] = Value::String(id);
                    }
                }
                Some("tool") => {
                    let sent = message.get("tool_call_id").and_then(Value::as_str);
                    let Some(id) = sent.and_then(|sent| ids.result(sent)).map(str::to_owned) else {
                        continue;
                    };
                    if self.result_name {
                        if let Some(name) = names.get(&id) {
                            message["name"] = Value::String(name.clone());
                        }
                    }
                    message["tool_call_id"] = Value::String(id);
                }
                _ => {}
            }
        }
    }
}
