//! The OpenAI strict-mode conformance cases (copied from the project's shared
//! `conformance/openai-strict/`): ok cases compile to a schema that accepts
//! exactly the `args/ok-*` documents and rejects the `args/bad-*` ones;
//! error cases are refused at the path the case names.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tool_openai::{StrictRule, to_strict_json_schema};

use common::{compile, golden, read_json, test_path};

fn cases() -> Vec<PathBuf> {
    let root = test_path("conformance/openai-strict");
    let mut cases: Vec<PathBuf> = fs::read_dir(&root)
        .expect("conformance cases")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.join("case.json").is_file())
        .collect();
    cases.sort();
    cases
}

fn case_id(case: &Path) -> String {
    case.file_name().unwrap().to_string_lossy().into_owned()
}

/// The argument documents of a case: (file name, document).
fn args(case: &Path) -> Vec<(String, Value)> {
    let mut files: Vec<PathBuf> = fs::read_dir(case.join("args"))
        .expect("args folder")
        .map(|entry| entry.expect("entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                read_json(&path),
            )
        })
        .collect()
}

#[test]
fn every_case_is_here() {
    let ids: Vec<String> = cases().iter().map(|c| case_id(c)).collect();
    assert_eq!(
        ids,
        [
            "E1", "E4", "E7", "S10", "S12", "S16a", "S18b", "S2", "S4", "S6b", "S7", "T7"
        ]
    );
}

#[test]
fn ok_cases_accept_exactly_the_ok_arguments() {
    let mut checked = 0;
    for case in cases() {
        let meta = read_json(&case.join("case.json"));
        if meta["verdict"] != "ok" {
            continue;
        }
        let id = case_id(&case);
        let compiled = compile(&read_json(&case.join("input.json")));
        golden(
            &test_path(&format!("golden/conformance/{id}.json")),
            &compiled,
        );
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&compiled)
            .unwrap_or_else(|e| panic!("{id}: compiled schema is not valid JSON Schema: {e}"));
        let documents = args(&case);
        assert!(
            documents.iter().any(|(name, _)| name.starts_with("ok-")),
            "{id}"
        );
        assert!(
            documents.iter().any(|(name, _)| name.starts_with("bad-")),
            "{id}"
        );
        for (name, document) in documents {
            let expected = name.starts_with("ok-");
            assert!(expected || name.starts_with("bad-"), "{id}: {name}");
            assert_eq!(
                validator.is_valid(&document),
                expected,
                "{id}: {name} should be {}",
                if expected { "accepted" } else { "rejected" }
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 73);
}

#[test]
fn error_cases_are_refused_at_the_named_path() {
    let expected_rules = [
        ("E1", StrictRule::OpenObject),
        ("E4", StrictRule::RootNotObject),
        ("E7", StrictRule::UnresolvedRef),
    ];
    let mut refused = Vec::new();
    for case in cases() {
        let meta = read_json(&case.join("case.json"));
        if meta["verdict"] != "error" {
            continue;
        }
        let id = case_id(&case);
        let reason = meta["error_reason"].as_str().expect("error_reason");
        // The reason ends with the JSON path in parentheses: "... (#/anyOf)".
        let path = reason
            .rsplit_once('(')
            .and_then(|(_, rest)| rest.strip_suffix(')'))
            .expect("a path in the reason");
        let error = to_strict_json_schema(&read_json(&case.join("input.json")))
            .expect_err("an error case must be refused");
        assert_eq!(error.path(), path, "{id}: {error}");
        let rule = expected_rules
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, r)| *r);
        assert_eq!(Some(error.rule()), rule, "{id}");
        refused.push((id, error.to_string()));
    }
    assert_eq!(
        refused,
        [
            (
                "E1".to_owned(),
                "#/additionalProperties: `additionalProperties: true` makes an open object (a \
                 map), which strict mode cannot express; list the keys as `properties`, or use \
                 an array of `{key, value}` objects"
                    .to_owned()
            ),
            (
                "E4".to_owned(),
                "#/anyOf: the root of a strict schema must be a plain object, not `anyOf`; make \
                 the root an object whose one property holds the union"
                    .to_owned()
            ),
            (
                "E7".to_owned(),
                "#/properties/a/$ref: `$ref` \"invalid\" is not a local reference and does not \
                 resolve; point it at `#` or at a definition, `#/$defs/NAME`"
                    .to_owned()
            ),
        ]
    );
}
