//! [`ToolSet`]: what [`Toolkit::with`](crate::Toolkit::with) adds: one tool, or several at once.

use std::sync::Arc;

use crate::tool::Tool;

/// One tool or several, to add in one step with [`Toolkit::with`](crate::Toolkit::with) or
/// [`Toolkit::add`](crate::Toolkit::add).
///
/// Implemented for every tool (each `Tool + 'static`, such as the types `#[tool]` generates
/// and [`NativeTool`](crate::NativeTool)s), for tuples of up to 16 tools of any types, and for
/// a `Vec` or an array of `Arc<dyn Tool>`, for tools chosen at run time or shared with other
/// owners (a shared tool goes in as `[tool]`: passed alone, its `Arc` would be wrapped in
/// another).
///
/// ```
/// use std::sync::Arc;
/// use serde_json::json;
/// use toolnexus::{NativeTool, Tool, Toolkit};
///
/// let tools: Vec<Arc<dyn Tool>> = ["red", "green"]
///     .into_iter()
///     .map(|colour| {
///         let schema = json!({"type": "object", "properties": {}});
///         let tool = NativeTool::of(colour, "Says its colour", schema, move |_| async move { colour })?;
///         Ok(Arc::new(tool) as Arc<dyn Tool>)
///     })
///     .collect::<Result<_, toolnexus::Error>>()?;
/// let toolkit = Toolkit::new().with(tools)?;
/// assert_eq!(toolkit.len(), 2);
/// # Ok::<(), toolnexus::Error>(())
/// ```
// Passing a `#[tool] fn` itself is the usual way to get here (`with(get_weather)`, or inside a
// tuple): the message leads with the rule that gives its tool type, as `Tool`'s does.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool, nor a set of tools",
    label = "not a tool; for a `#[tool] fn`, pass the tool type generated next to it",
    note = "`#[tool]` keeps the fn an ordinary fn and generates the tool type, named after the fn \
            in UpperCamelCase: `#[tool] fn get_weather` generates `GetWeather` (with `#[state]` \
            parameters, a struct of them: `GetWeather {{ db }}`)",
    note = "several tools go in as a tuple of up to 16 tools of any types, `(GetWeather, Add)`, \
            or as a `Vec` or an array of `Arc<dyn Tool>`; anything else becomes a tool through \
            `NativeTool::of` or its own `impl Tool`"
)]
pub trait ToolSet {
    /// The tools, in the order they are added.
    fn into_tools(self) -> Vec<Arc<dyn Tool>>;
}

impl<T: Tool + 'static> ToolSet for T {
    fn into_tools(self) -> Vec<Arc<dyn Tool>> {
        vec![Arc::new(self)]
    }
}

impl ToolSet for Vec<Arc<dyn Tool>> {
    fn into_tools(self) -> Vec<Arc<dyn Tool>> {
        self
    }
}

impl<const N: usize> ToolSet for [Arc<dyn Tool>; N] {
    fn into_tools(self) -> Vec<Arc<dyn Tool>> {
        self.into()
    }
}

macro_rules! tool_set_for_tuples {
    ($($name:ident)+) => {
        impl<$($name: Tool + 'static),+> ToolSet for ($($name,)+) {
            #[allow(non_snake_case)] // the tuple's fields, named after their types
            fn into_tools(self) -> Vec<Arc<dyn Tool>> {
                let ($($name,)+) = self;
                vec![$(Arc::new($name) as Arc<dyn Tool>),+]
            }
        }
    };
}

tool_set_for_tuples!(A);
tool_set_for_tuples!(A B);
tool_set_for_tuples!(A B C);
tool_set_for_tuples!(A B C D);
tool_set_for_tuples!(A B C D E);
tool_set_for_tuples!(A B C D E F);
tool_set_for_tuples!(A B C D E F G);
tool_set_for_tuples!(A B C D E F G H);
tool_set_for_tuples!(A B C D E F G H I);
tool_set_for_tuples!(A B C D E F G H I J);
tool_set_for_tuples!(A B C D E F G H I J K);
tool_set_for_tuples!(A B C D E F G H I J K L);
tool_set_for_tuples!(A B C D E F G H I J K L M);
tool_set_for_tuples!(A B C D E F G H I J K L M N);
tool_set_for_tuples!(A B C D E F G H I J K L M N O);
tool_set_for_tuples!(A B C D E F G H I J K L M N O P);
