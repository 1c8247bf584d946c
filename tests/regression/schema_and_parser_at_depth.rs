//! Attacks on the promise that the tool's input schema and
//! `from_arguments` agree at every depth.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tool_contract::{Session, Tool};

/// Numbers with every bound.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Nums {
    /// A multiple of a tenth.
    #[schemars(extend("multipleOf" = 0.1))]
    tenth: Option<f64>,
    /// Small integer.
    #[schemars(range(min = 1, max = 5))]
    small: Option<u8>,
    /// Any i64.
    big: Option<i64>,
    /// Exclusive range.
    #[schemars(extend("exclusiveMinimum" = 0, "exclusiveMaximum" = 10))]
    excl: Option<f64>,
}

/// Set of numbers.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Sets {
    /// Unique floats.
    floats: Option<Vec<f64>>,
    /// A set.
    set: Option<BTreeSet<i64>>,
    /// Formats.
    #[schemars(extend("format" = "date-time"))]
    when: Option<String>,
    /// Email.
    #[schemars(email)]
    mail: Option<String>,
    /// Hostname.
    #[schemars(extend("format" = "hostname"))]
    host: Option<String>,
    /// Uri.
    #[schemars(url)]
    link: Option<String>,
    /// IPv4.
    #[schemars(extend("format" = "ipv4"))]
    ip: Option<String>,
    /// Date.
    #[schemars(extend("format" = "date"))]
    day: Option<String>,
    /// Time.
    #[schemars(extend("format" = "time"))]
    clock: Option<String>,
    /// Duration.
    #[schemars(extend("format" = "duration"))]
    span: Option<String>,
    /// uuid.
    #[schemars(extend("format" = "uuid"))]
    id: Option<String>,
    /// ipv6.
    #[schemars(extend("format" = "ipv6"))]
    ip6: Option<String>,
}

/// Internally tagged.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
#[serde(tag = "kind")]
enum Shape {
    /// A circle.
    Circle {
        /// Radius.
        #[schemars(range(min = 1))]
        r: u32,
    },
    /// A dot.
    Dot,
}

/// Adjacent.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
#[serde(tag = "t", content = "c")]
enum Adj {
    /// One.
    One(Inner),
    /// Two.
    Two,
}

/// Inner.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Inner {
    /// Short.
    #[schemars(length(max = 3))]
    s: String,
}

/// Untagged.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
#[serde(untagged)]
enum Unt {
    /// Num.
    N(u8),
    /// Inner.
    I(Inner),
}

/// Probe the parser with nested values of every kind.
// The tests judge only whether a document parses, never read the fields.
#[allow(dead_code)]
#[derive(Debug, Tool)]
struct ProbeDepth {
    /// Numbers with bounds; null for none.
    nums: Option<Nums>,
    /// Sets and formatted strings; null for none.
    sets: Option<Sets>,
    /// An internally tagged shape; null for none.
    shape: Option<Shape>,
    /// An adjacently tagged value; null for none.
    adj: Option<Adj>,
    /// An untagged value; null for none.
    unt: Option<Unt>,
}

fn schema_accepts(doc: &str) -> bool {
    // A key given twice is refused whatever the schema says of the value
    // serde_json kept.
    if crate::readers::has_repeated_key(doc) {
        return false;
    }
    let v: Value = serde_json::from_str(doc).expect(doc);
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(ProbeDepth::input_schema())
        .unwrap()
        .is_valid(&v)
}

fn parser(doc: &str) -> Result<(), (String, String, String)> {
    ProbeDepth::from_arguments(doc, &Session::new())
        .map(|_| ())
        .map_err(|e| {
            (
                e.code().to_owned(),
                e.path().to_owned(),
                e.message().to_owned(),
            )
        })
}

#[test]
fn a_hostile_corpus_is_judged_alike_by_the_parser_and_the_schema() {
    let docs = [
        r#"{"nums": {"tenth": 0.3}}"#,
        r#"{"nums": {"tenth": 0.7}}"#,
        r#"{"nums": {"tenth": 5e-324}}"#,
        r#"{"nums": {"small": 1.0}}"#,
        r#"{"nums": {"small": 1e0}}"#,
        r#"{"nums": {"small": 5.0}}"#,
        r#"{"nums": {"small": -0}}"#,
        r#"{"nums": {"small": -0.0}}"#,
        r#"{"nums": {"big": 1e2}}"#,
        r#"{"nums": {"excl": 0}}"#,
        r#"{"nums": {"excl": 10}}"#,
        r#"{"nums": {"excl": 5e-324}}"#,
        r#"{"sets": {"floats": [1, 1.0]}}"#,
        r#"{"sets": {"set": [1, 1]}}"#,
        r#"{"sets": {"set": [1, 1.0]}}"#,
        r#"{"sets": {"when": "2024-01-01T23:59:60Z"}}"#,
        r#"{"sets": {"when": "2024-01-01t10:00:00z"}}"#,
        r#"{"sets": {"when": "2024-01-01 10:00:00Z"}}"#,
        r#"{"sets": {"when": "2024-01-01T10:00:00.Z"}}"#,
        r#"{"sets": {"when": "2024-01-01T10:00:00+24:00"}}"#,
        r#"{"sets": {"when": "2024-01-01T10:00:00+0100"}}"#,
        r#"{"sets": {"mail": "a..b@example.com"}}"#,
        r#"{"sets": {"mail": ".a@example.com"}}"#,
        r#"{"sets": {"mail": "ä@example.com"}}"#,
        r#"{"sets": {"host": "a_b.com"}}"#,
        r#"{"sets": {"host": "-a.com"}}"#,
        r#"{"sets": {"host": ""}}"#,
        r#"{"sets": {"host": "1.2.3.4"}}"#,
        r#"{"sets": {"link": "http://[::1]/"}}"#,
        r#"{"sets": {"link": "a:b"}}"#,
        r#"{"sets": {"link": "http://ex ample.com"}}"#,
        r#"{"sets": {"link": "//example.com"}}"#,
        r#"{"sets": {"link": "http://example.com/ä"}}"#,
        r#"{"sets": {"ip": "01.1.1.1"}}"#,
        r#"{"sets": {"ip": "1.1.1.1 "}}"#,
        r#"{"sets": {"day": "2024-02-29"}}"#,
        r#"{"sets": {"day": "2023-02-29"}}"#,
        r#"{"sets": {"day": "0000-01-01"}}"#,
        r#"{"sets": {"clock": "10:00:00"}}"#,
        r#"{"sets": {"clock": "10:00:00Z"}}"#,
        r#"{"sets": {"clock": "23:59:60Z"}}"#,
        r#"{"sets": {"clock": "22:59:60-01:00"}}"#,
        r#"{"sets": {"span": "P1D"}}"#,
        r#"{"sets": {"span": "PT"}}"#,
        r#"{"sets": {"span": "P1W"}}"#,
        r#"{"sets": {"span": "P1.5D"}}"#,
        r#"{"sets": {"id": "2EB8AA08-AA98-11EA-B4AA-73B441D16380"}}"#,
        r#"{"sets": {"id": "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}"}}"#,
        r#"{"sets": {"id": "2eb8aa08aa9811eab4aa73b441d16380"}}"#,
        r#"{"sets": {"ip6": "::ffff:1.2.3.4"}}"#,
        r#"{"sets": {"ip6": "fe80::1%eth0"}}"#,
        r#"{"shape": {"kind": "Circle", "r": 0}}"#,
        r#"{"shape": {"kind": "Circle", "r": 1, "x": 1}}"#,
        r#"{"shape": {"kind": "Dot", "x": 1}}"#,
        r#"{"shape": {"kind": "Dot", "kind": "Dot"}}"#,
        r#"{"adj": {"t": "One", "c": ["abc"]}}"#,
        r#"{"adj": {"t": "One", "c": {"s": "abcd"}}}"#,
        r#"{"adj": {"t": "Two", "c": null}}"#,
        r#"{"adj": {"t": "Two"}}"#,
        r#"{"adj": {"c": {"s": "a"}, "t": "One"}}"#,
        r#"{"unt": 300}"#,
        r#"{"unt": 2.0}"#,
        r#"{"unt": {"s": "abcd"}}"#,
        r#"{"unt": ["abc"]}"#,
        r#"{"unt": -0}"#,
        r#"{"nums": {"tenth": 0.35}}"#,
        r#"{"nums": {"tenth": 1070468.14}}"#,
        r#"{"nums": {"tenth": 1e-300}}"#,
        r#"{"nums": {"tenth": -0.3}}"#,
        r#"{"sets": {"span": "PT1M"}}"#,
        r#"{"sets": {"span": "P1M1D"}}"#,
        r#"{"sets": {"span": "PT1H1M"}}"#,
        r#"{"sets": {"span": "PT1M1S"}}"#,
        r#"{"sets": {"span": "PT1H"}}"#,
        r#"{"sets": {"span": "P1DT1S"}}"#,
        r#"{"sets": {"link": "http://example.com/a\b"}}"#,
        r#"{"sets": {"link": "http://ex.com:99999/"}}"#,
        r#"{"sets": {"link": "a%41:b"}}"#,
        r#"{"sets": {"link": "http://%41.com/"}}"#,
        r#"{"sets": {"host": "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.abcde"}}"#,
        r#"{"sets": {"host": "123"}}"#,
        r#"{"sets": {"mail": "a@-b.com"}}"#,
        r#"{"sets": {"mail": "a@b_c.com"}}"#,
        r#"{"sets": {"mail": "a.@b.com"}}"#,
        r#"{"sets": {"when": "2024-01-01T10:00:00.123456789012Z"}}"#,
        r#"{"sets": {"when": "2024-01-01T10:60:00Z"}}"#,
        r#"{"sets": {"when": "2024-01-01T10:00:00-23:59"}}"#,
        r#"{"sets": {"when": "2024-01-01T10:00:00-24:00"}}"#,
        r#"{"sets": {"when": "2024-01-01T10:00:00+01:60"}}"#,
        r#"{"sets": {"ip6": "1::2::3"}}"#,
        r#"{"sets": {"ip6": "::ffff:01.2.3.4"}}"#,
        r#"{"sets": {"ip6": "1:2:3:4:5:6:7::"}}"#,
        r#"{"sets": {"id": "2eb8aa08-aa98-11ea-b4aa-73b441d1638"}}"#,
    ];
    let mut out = String::new();
    for d in docs {
        let s = schema_accepts(d);
        let p = parser(d);
        if s != p.is_ok() {
            out.push_str(&format!("DISAGREE schema={s} parser={p:?} doc={d}\n"));
        }
    }
    assert!(out.is_empty(), "{out}");
}

fn refused(path: &str, message: &str) -> Result<(), (String, String, String)> {
    Err((
        "INVALID_ARGUMENTS".to_owned(),
        path.to_owned(),
        message.to_owned(),
    ))
}

/// `multipleOf: 0.1` means the decimal: `0.3` and `0.7` are multiples (the
/// parser divided the binary floats and refused them while the schema
/// accepts them), and so is `1e308`, where the float quotient overflows.
#[test]
fn multiple_of_a_decimal_is_read_as_the_decimal() {
    for ok in ["0.3", "0.7", "-0.3", "1070468.1", "1e308", "0"] {
        let doc = format!(r#"{{"nums": {{"tenth": {ok}}}}}"#);
        assert!(schema_accepts(&doc), "{doc}");
        assert_eq!(parser(&doc), Ok(()), "{doc}");
    }
    for (bad, got) in [
        ("0.35", "0.35"),
        ("0.05", "0.05"),
        ("1e-300", &1e-300_f64.to_string()[..]),
    ] {
        let doc = format!(r#"{{"nums": {{"tenth": {bad}}}}}"#);
        assert!(!schema_accepts(&doc), "{doc}");
        assert_eq!(
            parser(&doc),
            refused(
                "$.nums.tenth",
                &format!("expected a multiple of 0.1, got {got}")
            ),
            "{doc}"
        );
    }
}

/// `format: duration` is RFC 3339's grammar, as the schema means it: the
/// parser took fractions, weeks mixed with other units and skipped units,
/// which the schema refuses.
#[test]
fn a_duration_is_the_rfc_3339_grammar() {
    for ok in ["P1D", "PT15M", "P2W", "P1Y2M3DT4H5M6S", "PT5M6S", "P1M2D"] {
        let doc = format!(r#"{{"sets": {{"span": "{ok}"}}}}"#);
        assert!(schema_accepts(&doc), "{doc}");
        assert_eq!(parser(&doc), Ok(()), "{doc}");
    }
    for bad in [
        "PT1.5S",
        "P1Y2M3DT4H5M6.5S",
        "P1Y2W",
        "P2WT1H",
        "P1Y1D",
        "PT1H1S",
    ] {
        let doc = format!(r#"{{"sets": {{"span": "{bad}"}}}}"#);
        assert!(!schema_accepts(&doc), "{doc}");
        assert_eq!(
            parser(&doc),
            refused(
                "$.sets.span",
                &format!("expected an ISO 8601 duration such as \"PT15M\", got \"{bad}\"")
            ),
            "{doc}"
        );
    }
}

/// `format: uri` is RFC 3986's grammar, as the schema means it: the parser
/// took any printable ASCII after the scheme (`%zz`, `<`, `"`, `{`, `|`,
/// `^`, a second `#`, an unclosed `[`, a port with letters), which the
/// schema refuses, and refused `https:`, which it accepts.
#[test]
fn a_uri_is_the_rfc_3986_grammar() {
    let good = [
        "https:",
        "a:",
        "http://[::1]:80/",
        "http://[v1.x]/",
        "http://ex.com:/",
        "http://%41.com/",
        "mailto:ana@example.com",
        "urn:isbn:123",
        "http://a/b#c?d/e",
        "http://user:pw@[::1]:8080/p?q#f",
        "file:///etc/x",
        "x:%41",
    ];
    let bad = [
        "http://example.com/%zz",
        "http://example.com/a<b",
        "http://example.com/a\"b",
        "http://example.com/a{b}",
        "http://example.com/a|b",
        "http://example.com/a^b",
        "http://example.com/a`b",
        "http://example.com/#a#b",
        "http://[::1/",
        "http://a:b@ex.com:80x/",
        "http://a/%4",
        "http://[::1]x/",
        "a%41:b",
    ];
    for ok in good {
        let doc = serde_json::json!({"sets": {"link": ok}}).to_string();
        assert!(schema_accepts(&doc), "{doc}");
        assert_eq!(parser(&doc), Ok(()), "{doc}");
    }
    for no in bad {
        let doc = serde_json::json!({"sets": {"link": no}}).to_string();
        assert!(!schema_accepts(&doc), "{doc}");
        assert_eq!(
            parser(&doc),
            refused(
                "$.sets.link",
                &format!(
                    "expected an absolute URI such as \"https://example.com/path\", got {}",
                    serde_json::Value::from(no)
                )
            ),
            "{doc}"
        );
    }
}

/// `format: hostname` (and an e-mail address's domain) as the schema means
/// it: the parser took a trailing dot and `--` in a label's third and
/// fourth places, which the schema refuses.
#[test]
fn a_hostname_has_no_trailing_dot_and_no_reserved_hyphens() {
    for ok in ["example.com", "a-b.example.com", "localhost", "a--b.com"] {
        let doc = serde_json::json!({"sets": {"host": ok}}).to_string();
        assert!(schema_accepts(&doc), "{doc}");
        assert_eq!(parser(&doc), Ok(()), "{doc}");
    }
    for (field, no, words) in [
        ("host", "a.com.", "a host name such as \"api.example.com\""),
        (
            "host",
            "ab--c.com",
            "a host name such as \"api.example.com\"",
        ),
        (
            "mail",
            "a@b.com.",
            "an email address such as \"ana@example.com\"",
        ),
    ] {
        let doc = serde_json::json!({"sets": {field: no}}).to_string();
        assert!(!schema_accepts(&doc), "{doc}");
        assert_eq!(
            parser(&doc),
            refused(
                &format!("$.sets.{field}"),
                &format!("expected {words}, got \"{no}\"")
            ),
            "{doc}"
        );
    }
}

/// A leap second is `23:59:60` in UTC, as the schema's `date-time` and
/// `time` mean: the parser took `:60` at any minute and offset.
#[test]
fn a_leap_second_is_the_last_second_of_a_utc_day() {
    for (field, ok) in [
        ("when", "2024-01-01T23:59:60Z"),
        ("when", "2024-01-01T22:59:60-01:00"),
        ("clock", "04:59:60+05:00"),
    ] {
        let doc = serde_json::json!({"sets": {field: ok}}).to_string();
        assert!(schema_accepts(&doc), "{doc}");
        assert_eq!(parser(&doc), Ok(()), "{doc}");
    }
    for (field, no) in [
        ("when", "2024-01-01T23:59:60+01:00"),
        ("when", "2024-01-01T12:30:60Z"),
        ("clock", "23:59:60+05:30"),
    ] {
        let doc = serde_json::json!({"sets": {field: no}}).to_string();
        assert!(!schema_accepts(&doc), "{doc}");
        let words = if field == "when" { DATE_TIME } else { TIME };
        assert_eq!(
            parser(&doc),
            refused(
                &format!("$.sets.{field}"),
                &format!("expected {words}, got \"{no}\"")
            ),
            "{doc}"
        );
    }
}

const DATE_TIME: &str = "an RFC 3339 date-time such as \"2026-11-29T18:30:00Z\"";
const TIME: &str = "an RFC 3339 time with offset such as \"18:30:00Z\"";

/// A 100,000-byte key or tag at depth, on the streamed and the buffered
/// (tagged enum) paths: refused like the schema refuses it, with the path
/// and the message capped.
#[test]
fn huge_keys_and_tags_at_depth_give_capped_paths_and_messages() {
    let long = "k".repeat(100_000);
    let docs = [
        format!(r#"{{"nums": {{"{long}": 1}}}}"#),
        format!(r#"{{"shape": {{"kind": "Dot", "{long}": 1}}}}"#),
        format!(r#"{{"shape": {{"kind": "{long}"}}}}"#),
        format!(r#"{{"adj": {{"t": "{long}"}}}}"#),
        format!(r#"{{"unt": {{"s": "{long}"}}}}"#),
        format!(r#"{{"adj": {{"t": "One", "c": {{"s": "{long}"}}}}}}"#),
    ];
    for doc in &docs {
        assert!(!schema_accepts(doc));
        let (code, path, message) = parser(doc).unwrap_err();
        assert_eq!(code, "INVALID_ARGUMENTS");
        assert!(path.len() <= 100, "{path}");
        assert!(message.len() <= 200, "{message}");
    }
}
