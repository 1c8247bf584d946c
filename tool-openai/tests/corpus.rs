//! The corpus of schemas written by real generators (pydantic 2 and zod 4
//! through `scripts/corpus/generate.sh`, schemars 1.x through
//! `tests/openai/schema_corpus.rs` at the repository root): each compiles,
//! passes the strict checker, is a fixed point of the compiler, matches its
//! golden output, and the compiled schema accepts every `accept` document
//! and rejects every `refuse` one (validated by the `jsonschema` crate).

mod common;

use std::fs;
use std::path::PathBuf;

use serde_json::Value;

use common::{compile, golden, read_json, test_path};

/// Every fixture: (generator folder, file stem, document).
fn fixtures() -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for generator in ["pydantic", "schemars", "zod"] {
        let folder = test_path(&format!("corpus/{generator}"));
        let mut files: Vec<PathBuf> = fs::read_dir(&folder)
            .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
            .map(|entry| entry.expect("entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for file in files {
            let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
            out.push((generator.to_owned(), stem, read_json(&file)));
        }
    }
    out
}

#[test]
fn every_generator_is_in_the_corpus() {
    let fixtures = fixtures();
    for generator in ["pydantic", "schemars", "zod"] {
        let count = fixtures.iter().filter(|(g, _, _)| g == generator).count();
        assert!(count >= 6, "{generator}: only {count} fixtures");
    }
    for (generator, name, fixture) in &fixtures {
        let version = fixture["generator"].as_str().unwrap_or_default();
        assert!(
            version.starts_with(generator.as_str()),
            "{generator}/{name}: generator {version:?}"
        );
    }
}

#[test]
fn every_fixture_compiles_and_accepts_exactly_its_samples() {
    let mut checked = 0;
    for (generator, name, fixture) in fixtures() {
        let id = format!("{generator}/{name}");
        let compiled = compile(&fixture["schema"]);
        golden(&test_path(&format!("golden/corpus/{id}.json")), &compiled);
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&compiled)
            .unwrap_or_else(|e| panic!("{id}: compiled schema is not valid JSON Schema: {e}"));
        let accept = fixture["accept"].as_array().expect("accept");
        let refuse = fixture["refuse"].as_array().expect("refuse");
        assert!(!accept.is_empty() && !refuse.is_empty(), "{id}");
        for (i, document) in accept.iter().enumerate() {
            let errors: Vec<String> = validator
                .iter_errors(document)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(
                errors.is_empty(),
                "{id}: accept[{i}] was rejected: {errors:#?}"
            );
            checked += 1;
        }
        for case in refuse {
            let why = case["why"].as_str().expect("why");
            assert!(
                !validator.is_valid(&case["args"]),
                "{id}: accepted what it must refuse ({why})"
            );
            checked += 1;
        }
    }
    assert!(checked >= 80, "only {checked} documents checked");
}
