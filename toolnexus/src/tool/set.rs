//! [`ToolSet`]: several tools to register at once ([`Toolkit::with_all`](crate::Toolkit::with_all)).

use std::sync::Arc;

use crate::tool::Tool;

/// Several tools, to add in one step with [`Toolkit::with_all`](crate::Toolkit::with_all) or
/// [`Toolkit::add_all`](crate::Toolkit::add_all).
///
/// Implemented for tuples of up to 16 tools of any types (each `Tool + 'static`, such as the
/// types `#[tool]` generates and [`NativeTool`](crate::NativeTool)s), and for a `Vec` or an
/// array of `Arc<dyn Tool>`, for tools chosen at run time.
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
/// let toolkit = Toolkit::new().with_all(tools)?;
/// assert_eq!(toolkit.len(), 2);
/// # Ok::<(), toolnexus::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a set of tools",
    label = "expected a tuple of tools, or a `Vec` or an array of `Arc<dyn Tool>`",
    note = "a tuple holds up to 16 tools of any types: `(GetWeather, Add)`; a `#[tool] fn` is a \
            tool through the type generated next to it, named after the fn in UpperCamelCase \
            (`#[tool] fn get_weather` generates `GetWeather`)"
)]
pub trait ToolSet {
    /// The tools, in the order they are added.
    fn into_tools(self) -> Vec<Arc<dyn Tool>>;
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
