use toolnexus::{tool, CallContext};

/// Says which call it is.
#[tool]
fn whoami(ctx: &mut CallContext) -> String {
    format!("{:?}", ctx.id())
}

fn main() {}
