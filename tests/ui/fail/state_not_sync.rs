use std::cell::Cell;
use std::rc::Rc;
use toolnexus::tool;

/// Count calls.
#[tool]
fn count(#[state] counter: Rc<Cell<u32>>) -> String {
    counter.set(counter.get() + 1);
    counter.get().to_string()
}

fn main() {}
