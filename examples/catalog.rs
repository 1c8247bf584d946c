//! The catalog of the example tools, as Markdown (the committed `TOOLS.md`)
//! or, with `--json`, as one JSON document with every contract and schema.
//!
//! Run it with `cargo run --example catalog > TOOLS.md`. A test
//! (`tests/docs/catalog.rs`) builds the same catalog with [`catalog`] and
//! fails when `TOOLS.md` is out of date.

#[path = "tools/mod.rs"]
pub mod tools;

use tool_contract::docs::Catalog;
use tool_contract::serde_json;

/// The example tools in the order the catalog lists them.
pub fn catalog() -> Catalog {
    Catalog::new()
        .with_title("Example tools")
        .with::<tools::GetInventory>()
        .with::<tools::ReserveInventory>()
        .with::<tools::CreateRefundDraft>()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let catalog = catalog();
    // A contract whose nested types break a rule fails here, not in review.
    catalog.check()?;
    match std::env::args().nth(1).as_deref() {
        None => print!("{}", catalog.to_markdown()),
        Some("--json") => println!("{}", serde_json::to_string_pretty(&catalog.to_json())?),
        Some(other) => {
            return Err(format!("unknown argument `{other}`; use no argument or `--json`").into());
        }
    }
    Ok(())
}
