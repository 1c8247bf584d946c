//! One test per rewrite rule of the strict-schema compiler, each with the
//! exact output.

mod common;

use serde_json::json;

use common::compile;

#[test]
fn every_object_is_closed_and_lists_every_property_in_order() {
    let input = json!({
        "type": "object",
        "properties": {
            "b": {"type": "string"},
            "a": {
                "type": "object",
                "properties": {"y": {"type": "integer"}, "x": {"type": "integer"}},
                "required": ["x", "y"]
            },
            "c": {"type": "array", "items": {"$ref": "#/$defs/Item"}}
        },
        "required": ["c", "a", "b"],
        "$defs": {
            "Item": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}
        }
    });
    assert_eq!(
        compile(&input),
        json!({
            "type": "object",
            "properties": {
                "b": {"type": "string"},
                "a": {
                    "type": "object",
                    "properties": {"y": {"type": "integer"}, "x": {"type": "integer"}},
                    "required": ["y", "x"],
                    "additionalProperties": false
                },
                "c": {"type": "array", "items": {"$ref": "#/$defs/Item"}}
            },
            "required": ["b", "a", "c"],
            "$defs": {
                "Item": {
                    "type": "object",
                    "properties": {"sku": {"type": "string"}},
                    "required": ["sku"],
                    "additionalProperties": false
                }
            },
            "additionalProperties": false
        })
    );
}

#[test]
fn optional_scalars_become_nullable_types() {
    let input = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "count": {"type": ["integer", "number"]},
            "unit": {"type": "string", "enum": ["c", "f"]},
            "kind": {"type": "string", "const": "refund"},
            "flag": {"type": "boolean"}
        },
        "required": ["flag"]
    });
    assert_eq!(
        compile(&input),
        json!({
            "type": "object",
            "properties": {
                "name": {"type": ["string", "null"]},
                "count": {"type": ["integer", "number", "null"]},
                "unit": {"type": ["string", "null"], "enum": ["c", "f", null]},
                "kind": {"type": ["string", "null"], "enum": ["refund", null]},
                "flag": {"type": "boolean"}
            },
            "required": ["name", "count", "unit", "kind", "flag"],
            "additionalProperties": false
        })
    );
}

#[test]
fn optional_refs_and_unions_gain_a_null_branch() {
    let input = json!({
        "type": "object",
        "properties": {
            "bare": {"$ref": "#/$defs/Money"},
            "described": {"description": "Refund amount.", "$ref": "#/$defs/Money"},
            "union": {"anyOf": [{"type": "string"}, {"type": "integer"}]}
        },
        "$defs": {
            "Money": {
                "type": "object",
                "properties": {"minor": {"type": "integer"}},
                "required": ["minor"]
            }
        }
    });
    assert_eq!(
        compile(&input)["properties"],
        json!({
            "bare": {"anyOf": [{"$ref": "#/$defs/Money"}, {"type": "null"}]},
            "described": {
                "description": "Refund amount.",
                "anyOf": [{"$ref": "#/$defs/Money"}, {"type": "null"}]
            },
            "union": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
        })
    );
}

#[test]
fn schemas_that_already_admit_null_are_not_wrapped_again() {
    let properties = json!({
        "amount": {
            "description": "Amount to refund; null refunds the whole order.",
            "anyOf": [{"$ref": "#/$defs/Money"}, {"type": "null"}]
        },
        "note": {"type": ["string", "null"]},
        "unit": {"type": ["string", "null"], "enum": ["c", "f", null]},
        "maybe": {"$ref": "#/$defs/MaybeMoney"},
        "nothing": {"type": "null"}
    });
    let input = json!({
        "type": "object",
        "properties": properties,
        "$defs": {
            "Money": {"type": "object", "properties": {"minor": {"type": "integer"}}, "required": ["minor"]},
            "MaybeMoney": {"anyOf": [{"$ref": "#/$defs/Money"}, {"type": "null"}]}
        }
    });
    assert_eq!(compile(&input)["properties"], properties);
}

#[test]
fn one_of_becomes_any_of() {
    // schemars 1.x for an enum whose variants are documented.
    let input = json!({
        "type": "object",
        "properties": {"reason": {"$ref": "#/$defs/RefundReason"}},
        "required": ["reason"],
        "$defs": {
            "RefundReason": {
                "oneOf": [
                    {"type": "string", "const": "damaged", "description": "The item arrived damaged."},
                    {"type": "string", "const": "late", "description": "It arrived late."}
                ],
                "description": "Why the customer wants a refund."
            }
        }
    });
    assert_eq!(
        compile(&input)["$defs"],
        json!({
            "RefundReason": {
                "anyOf": [
                    {"type": "string", "const": "damaged", "description": "The item arrived damaged."},
                    {"type": "string", "const": "late", "description": "It arrived late."}
                ],
                "description": "Why the customer wants a refund."
            }
        })
    );
}

#[test]
fn a_single_entry_all_of_is_merged_into_its_parent() {
    // pydantic 1.x and older schemars wrote a described `$ref` this way.
    let input = json!({
        "type": "object",
        "properties": {
            "money": {"allOf": [{"$ref": "#/$defs/Money"}], "description": "The amount."},
            "limits": {
                "description": "Limits.",
                "allOf": [{"type": "object", "properties": {"max": {"type": "integer"}}, "title": "L"}]
            }
        },
        "required": ["money", "limits"],
        "$defs": {"Money": {"type": "object", "properties": {"minor": {"type": "integer"}}, "required": ["minor"]}}
    });
    assert_eq!(
        compile(&input)["properties"],
        json!({
            "money": {"description": "The amount.", "anyOf": [{"$ref": "#/$defs/Money"}]},
            "limits": {
                "description": "Limits.",
                "type": "object",
                "properties": {"max": {"type": ["integer", "null"]}},
                "required": ["max"],
                "additionalProperties": false
            }
        })
    );
}

#[test]
fn a_ref_never_keeps_keywords_beside_it() {
    let input = json!({
        "type": "object",
        "properties": {
            "sku": {
                "description": "Stock keeping unit.",
                "$ref": "#/$defs/Sku",
                "minLength": 1,
                "pattern": "^SKU-",
                "title": "Sku",
                "default": "SKU-1"
            },
            "plain": {"$ref": "#/$defs/Sku", "title": "Plain"}
        },
        "required": ["sku", "plain"],
        "$defs": {"Sku": {"type": "string"}}
    });
    assert_eq!(
        compile(&input)["properties"],
        json!({
            "sku": {
                "description": "Stock keeping unit. At least 1 character. Matches the regular expression `^SKU-`.",
                "anyOf": [{"$ref": "#/$defs/Sku"}]
            },
            "plain": {"$ref": "#/$defs/Sku"}
        })
    );
}

#[test]
fn chained_refs_resolve_to_the_schema_they_name() {
    let input = json!({
        "type": "object",
        "properties": {"id": {"$ref": "#/$defs/OrderId"}},
        "required": ["id"],
        "$defs": {
            "OrderId": {"$ref": "#/$defs/Id", "title": "OrderId"},
            "Id": {"allOf": [{"$ref": "#/$defs/Text"}]},
            "Text": {"type": "string"}
        }
    });
    assert_eq!(
        compile(&input),
        json!({
            "type": "object",
            "properties": {"id": {"$ref": "#/$defs/Text"}},
            "required": ["id"],
            "$defs": {
                "OrderId": {"$ref": "#/$defs/Text"},
                "Id": {"$ref": "#/$defs/Text"},
                "Text": {"type": "string"}
            },
            "additionalProperties": false
        })
    );
}

#[test]
fn annotations_without_meaning_for_the_model_are_dropped() {
    let input = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/refund.json",
        "title": "Refund",
        "type": "object",
        "properties": {
            "id": {
                "title": "Id",
                "type": "string",
                "default": "x",
                "readOnly": false,
                "$comment": "internal",
                "x-order": 1
            },
            "kind": {
                "oneOf": [
                    {"type": "object", "properties": {"k": {"const": "a"}}, "required": ["k"]},
                    {"type": "object", "properties": {"k": {"const": "b"}}, "required": ["k"]}
                ],
                "discriminator": {"propertyName": "k"}
            }
        },
        "required": ["id", "kind"]
    });
    assert_eq!(
        compile(&input),
        json!({
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "kind": {
                    "anyOf": [
                        {
                            "type": "object",
                            "properties": {"k": {"type": "string", "const": "a"}},
                            "required": ["k"],
                            "additionalProperties": false
                        },
                        {
                            "type": "object",
                            "properties": {"k": {"type": "string", "const": "b"}},
                            "required": ["k"],
                            "additionalProperties": false
                        }
                    ]
                }
            },
            "required": ["id", "kind"],
            "additionalProperties": false
        })
    );
}

#[test]
fn recursion_is_kept_through_the_root_and_through_defs() {
    let input = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#"}},
            "next": {"$ref": "#/$defs/Node"}
        },
        "required": ["name", "children"],
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"value": {"type": "integer"}, "next": {"$ref": "#/$defs/Node"}},
                "required": ["value"]
            }
        }
    });
    assert_eq!(
        compile(&input),
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#"}},
                "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}
            },
            "required": ["name", "children", "next"],
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": {
                        "value": {"type": "integer"},
                        "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}
                    },
                    "required": ["value", "next"],
                    "additionalProperties": false
                }
            },
            "additionalProperties": false
        })
    );
}

#[test]
fn unsupported_keywords_with_meaning_move_into_the_description() {
    let input = json!({
        "type": "object",
        "properties": {
            "sku": {"description": "Stock keeping unit", "type": "string", "minLength": 1, "maxLength": 64},
            "code": {"type": "string", "minLength": 3, "maxLength": 3},
            "quantity": {"type": "integer", "format": "uint32", "minimum": 0},
            "total": {"type": "integer", "format": "int64"},
            "ratio": {"type": "number", "format": "double"},
            "homepage": {"type": "string", "format": "uri", "description": "Shop page."},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true, "maxItems": 5},
            "payload": {"type": "string", "contentEncoding": "base64", "contentMediaType": "image/png"},
            "old": {"type": "string", "deprecated": true, "examples": ["a", "b"]},
            "email": {"type": "string", "format": "email"}
        },
        "required": ["sku", "code", "quantity", "total", "ratio", "homepage", "tags", "payload", "old", "email"]
    });
    assert_eq!(
        compile(&input)["properties"],
        json!({
            "sku": {"description": "Stock keeping unit. Between 1 and 64 characters.", "type": "string"},
            "code": {"description": "Exactly 3 characters.", "type": "string"},
            "quantity": {
                "description": "A whole number from 0 to 4294967295.",
                "type": "integer",
                "minimum": 0
            },
            "total": {
                "description": "A whole number from -9223372036854775808 to 9223372036854775807.",
                "type": "integer"
            },
            "ratio": {"type": "number"},
            "homepage": {
                "type": "string",
                "description": "Shop page. An absolute URI such as \"https://example.com/path\"."
            },
            "tags": {
                "description": "No duplicate items.",
                "type": "array",
                "items": {"type": "string"},
                "maxItems": 5
            },
            "payload": {"description": "Encoded as base64. Media type image/png.", "type": "string"},
            "old": {"description": "Examples: \"a\", \"b\". Deprecated.", "type": "string"},
            "email": {"type": "string", "format": "email"}
        })
    );
}

#[test]
fn a_missing_type_is_inferred_from_the_keywords_present() {
    let input = json!({
        "properties": {
            "config": {"properties": {"key": {"type": "string"}}, "required": ["key"]},
            "list": {"items": {"type": "integer"}},
            "color": {"enum": ["red", "blue"]},
            "mixed": {"enum": [1, 2.5, "x"]},
            "tag": {"const": 7}
        },
        "required": ["config", "list", "color", "mixed", "tag"]
    });
    assert_eq!(
        compile(&input),
        json!({
            "type": "object",
            "properties": {
                "config": {
                    "type": "object",
                    "properties": {"key": {"type": "string"}},
                    "required": ["key"],
                    "additionalProperties": false
                },
                "list": {"type": "array", "items": {"type": "integer"}},
                "color": {"type": "string", "enum": ["red", "blue"]},
                "mixed": {"type": ["number", "string"], "enum": [1, 2.5, "x"]},
                "tag": {"type": "integer", "const": 7}
            },
            "required": ["config", "list", "color", "mixed", "tag"],
            "additionalProperties": false
        })
    );
}

#[test]
fn a_nullable_type_that_its_enum_rules_out_loses_null() {
    let input = json!({
        "type": "object",
        "properties": {
            "unit": {"type": ["string", "null"], "enum": ["c", "f"]},
            "tag": {"enum": ["a", null], "const": "a"}
        },
        "required": ["unit", "tag"]
    });
    assert_eq!(
        compile(&input)["properties"],
        json!({
            "unit": {"type": "string", "enum": ["c", "f"]},
            "tag": {"type": ["string", "null"], "enum": ["a", null], "const": "a"}
        })
    );
}

#[test]
fn draft07_definitions_become_defs() {
    let input = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"item": {"$ref": "#/definitions/Item"}},
        "required": ["item"],
        "definitions": {"Item": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}}
    });
    assert_eq!(
        compile(&input),
        json!({
            "type": "object",
            "properties": {"item": {"$ref": "#/$defs/Item"}},
            "required": ["item"],
            "$defs": {
                "Item": {
                    "type": "object",
                    "properties": {"sku": {"type": "string"}},
                    "required": ["sku"],
                    "additionalProperties": false
                }
            },
            "additionalProperties": false
        })
    );
}

#[test]
fn a_root_ref_is_replaced_by_its_definition() {
    let input = json!({
        "$ref": "#/$defs/Args",
        "description": "Arguments.",
        "$defs": {
            "Args": {
                "type": "object",
                "description": "Ignored: the root's own description wins.",
                "properties": {"q": {"type": "string"}},
                "required": ["q"]
            }
        }
    });
    assert_eq!(
        compile(&input),
        json!({
            "type": "object",
            "properties": {"q": {"type": "string"}},
            "required": ["q"],
            "description": "Arguments.",
            "$defs": {
                "Args": {
                    "type": "object",
                    "description": "Ignored: the root's own description wins.",
                    "properties": {"q": {"type": "string"}},
                    "required": ["q"],
                    "additionalProperties": false
                }
            },
            "additionalProperties": false
        })
    );
}

#[test]
fn draft04_boolean_exclusive_bounds_become_numbers() {
    let input = json!({
        "type": "object",
        "properties": {"ratio": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 1, "exclusiveMaximum": false}},
        "required": ["ratio"]
    });
    assert_eq!(
        compile(&input)["properties"]["ratio"],
        json!({"type": "number", "exclusiveMinimum": 0, "maximum": 1})
    );
}

#[test]
fn a_union_inside_a_union_is_flattened_and_repeated_branches_dropped() {
    // What a converter that wraps nullable unions twice writes.
    let input = json!({
        "type": "object",
        "properties": {
            "amount": {
                "description": "Amount.",
                "anyOf": [
                    {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                    {"type": "null"}
                ]
            }
        },
        "required": ["amount"]
    });
    assert_eq!(
        compile(&input)["properties"]["amount"],
        json!({
            "description": "Amount.",
            "anyOf": [{"type": "integer"}, {"type": "null"}]
        })
    );
}

#[test]
fn an_object_without_arguments_gets_empty_properties() {
    assert_eq!(
        compile(&json!({"type": "object", "additionalProperties": false})),
        json!({"type": "object", "additionalProperties": false, "properties": {}, "required": []})
    );
    assert_eq!(
        compile(&json!({"type": "object", "properties": {}})),
        json!({"type": "object", "properties": {}, "required": [], "additionalProperties": false})
    );
}

#[test]
fn definition_names_with_slashes_are_escaped() {
    let input = json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/a~1b"}},
        "required": ["a"],
        "$defs": {"a/b": {"type": "string"}}
    });
    assert_eq!(
        compile(&input)["properties"]["a"],
        json!({"$ref": "#/$defs/a~1b"})
    );
}
