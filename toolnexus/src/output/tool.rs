//! Tool mode: [`OutputTool`], the tool a model calls with its final answer.

use async_trait::async_trait;
use serde::de::DeserializeOwned;

use super::{parse, Output};
use crate::schema::InputSchema;
use crate::tool::call_args::CallArgs;
use crate::tool::context::CallContext;
use crate::tool::{Tool, ToolSource};
use crate::values::call::Arguments;
use crate::values::result::{Failure, ToolResult};

/// What the model reads of an output tool without a description of its own.
const DESCRIPTION: &str = "Give your final answer: call this once, with the answer as the \
                           arguments, when you have everything you need.";

/// The output tool of an [`Output`] ([`Output::tool`]): add it to a
/// [`Toolkit`](crate::Toolkit) next to the other tools, and the model ends by calling it.
///
/// Its call is answered like any other, as its provider requires: an answer that decodes into
/// `T` gets `Answer received.`, one that does not gets an error result with
/// [`AnswerError::retry_message`](crate::AnswerError::retry_message), so the model can call it
/// again in the same loop. [`Output::parse`] reads the answer out of the turn, and a turn whose
/// output-tool call was accepted [`is_final`](crate::Turn::is_final) (it may hold other calls
/// too), so the loop that ends on `is_final` ends there.
///
/// ```
/// use serde_json::json;
/// use toolnexus::{Dialect, Output, Toolkit};
///
/// #[derive(Debug, PartialEq, serde::Deserialize, schemars::JsonSchema)]
/// struct Pick { choice: String }
///
/// let output = Output::<Pick>::new()?.with_name("final_answer")?;
/// let toolkit = Toolkit::new().with(output.tool())?;
/// let response = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use",
///     "content": [{"type": "tool_use", "id": "toolu_1", "name": "final_answer",
///                  "input": {"choice": "tea"}}]});
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let turn = toolkit.respond(&response, Dialect::Anthropic).await?;
/// assert_eq!(turn.results[0].output, "Answer received.");
/// assert!(turn.is_final()); // the model has answered: the loop ends
/// assert_eq!(output.parse(&turn)?, Pick { choice: "tea".into() });
/// # Ok::<(), Box<dyn std::error::Error>>(()) }).unwrap();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct OutputTool<T> {
    pub(super) output: Output<T>,
}

impl<T> Clone for OutputTool<T> {
    fn clone(&self) -> Self {
        Self {
            output: self.output.clone(),
        }
    }
}

impl<T> std::fmt::Debug for OutputTool<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("OutputTool").field(&self.output).finish()
    }
}

impl<T: DeserializeOwned> OutputTool<T> {
    fn answer(&self, arguments: &Arguments) -> ToolResult {
        match parse::arguments(&self.output, arguments) {
            Ok(_) => ToolResult::ok("Answer received."),
            Err(error) => ToolResult::failed(
                error.retry_message().unwrap_or(error.to_string()),
                Failure::InvalidArguments,
            ),
        }
    }
}

#[async_trait]
impl<T: DeserializeOwned + 'static> Tool for OutputTool<T> {
    fn name(&self) -> &str {
        &self.output.name
    }

    fn description(&self) -> &str {
        self.output.description.as_deref().unwrap_or(DESCRIPTION)
    }

    fn input_schema(&self) -> &InputSchema {
        &self.output.schema
    }

    fn source(&self) -> ToolSource {
        ToolSource::Native
    }

    /// `true`: a turn whose call of the output tool was accepted is final.
    fn is_final_answer(&self) -> bool {
        true
    }

    async fn call(&self, _context: CallContext, args: CallArgs<'_>) -> ToolResult {
        match args {
            CallArgs::Value(args) => self.answer(&Arguments::Value(args)),
            CallArgs::Text(args) => self.answer(&Arguments::Text(args.to_owned())),
        }
    }
}
