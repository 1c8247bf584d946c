//! MCP's four hints for every combination of effect, idempotency and open
//! world, always all written (a missing hint means the unsafe default).

use serde_json::{Value, json};
use tool_contract::contract::{Approval, DataClass, Effect, Idempotency, Policy};
use tool_contract::mcp::annotations;

fn hints(effect: Effect, idempotency: Idempotency, open_world: bool) -> Value {
    let policy = Policy::__new(
        effect,
        idempotency,
        Approval::None,
        None,
        open_world,
        DataClass::Internal,
    );
    serde_json::to_value(annotations(&policy, None)).unwrap()
}

#[test]
fn every_effect_idempotency_and_open_world_has_all_four_hints() {
    use Effect::{Destructive, Read, Write};
    let keyed = Idempotency::Keyed {
        field: "request_id",
    };
    let rows = [
        // effect, idempotency, readOnly, destructive, idempotent
        (Read, Idempotency::Unspecified, true, false, true),
        (Read, Idempotency::Idempotent, true, false, true),
        (Read, Idempotency::NotIdempotent, true, false, false),
        (Read, keyed, true, false, true),
        (Write, Idempotency::Unspecified, false, false, false),
        (Write, Idempotency::Idempotent, false, false, true),
        (Write, Idempotency::NotIdempotent, false, false, false),
        (Write, keyed, false, false, true),
        (Destructive, Idempotency::Unspecified, false, true, false),
        (Destructive, Idempotency::Idempotent, false, true, true),
        (Destructive, Idempotency::NotIdempotent, false, true, false),
        (Destructive, keyed, false, true, true),
    ];
    let mut seen = 0;
    for (effect, idempotency, read_only, destructive, idempotent) in rows {
        for open_world in [false, true] {
            assert_eq!(
                hints(effect, idempotency, open_world),
                json!({
                    "readOnlyHint": read_only,
                    "destructiveHint": destructive,
                    "idempotentHint": idempotent,
                    "openWorldHint": open_world
                }),
                "{effect:?} {idempotency:?} open_world={open_world}"
            );
            seen += 1;
        }
    }
    assert_eq!(seen, 3 * 4 * 2);
}

#[test]
fn the_title_goes_into_the_annotations_too() {
    let policy = Policy::__new(
        Effect::Read,
        Idempotency::Unspecified,
        Approval::Required,
        Some(1_000),
        false,
        DataClass::Restricted,
    );
    assert_eq!(
        serde_json::to_value(annotations(&policy, Some("Look up stock".into()))).unwrap(),
        json!({
            "title": "Look up stock",
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": true,
            "openWorldHint": false
        })
    );
}
