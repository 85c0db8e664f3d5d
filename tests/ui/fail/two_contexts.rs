use toolnexus::{tool, CallContext};

/// Says which call it is.
#[tool]
fn whoami(ctx: CallContext, again: CallContext) -> String {
    format!("{:?} {:?}", ctx.id(), again.id())
}

fn main() {}
