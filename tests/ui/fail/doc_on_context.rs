use toolnexus::{tool, CallContext};

/// Says which call it is.
#[tool]
fn whoami(
    /// The call.
    ctx: CallContext,
) -> String {
    format!("{:?}", ctx.id())
}

fn main() {}
