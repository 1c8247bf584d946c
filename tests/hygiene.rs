//! The generated code names everything by absolute path, so a module that
//! shadows the prelude still derives cleanly, without warnings.
#![deny(warnings)]
#![allow(non_camel_case_types, dead_code, clippy::all)]

mod shadowing {
    struct Result;
    struct Option;
    struct Some;
    struct None;
    struct Ok;
    struct Err;
    struct String;
    struct Vec;
    struct Default;
    struct Box;

    #[derive(Clone, Debug, PartialEq)]
    pub struct TenantId(pub ::std::string::String);

    /// Look up the opening hours of one store for the signed-in tenant.
    #[derive(Debug, tool_contract::Tool)]
    #[tool(output = ::std::string::String)]
    pub struct GetStoreHours {
        /// Store code such as "BER-1".
        #[tool(min_length = 1)]
        pub store: ::std::string::String,
        /// Days to include, e.g. ["mon", "tue"]; null for the whole week.
        pub days: ::std::option::Option<::std::vec::Vec<::std::string::String>>,
        /// Whether to include holiday hours.
        #[tool(default)]
        pub holidays: bool,
        /// The tenant of the conversation.
        #[tool(inject)]
        pub tenant: TenantId,
    }

    /// A window of days, derived with `ToolArgs` under the same shadows.
    #[derive(Debug, tool_contract::ToolArgs)]
    pub struct Window {
        /// First day, e.g. "mon".
        #[tool(min_items = 1, items(max_length = 3))]
        pub days: ::std::vec::Vec<::std::string::String>,
        /// How many weeks ahead, 0 to 4.
        // No `default` here: schemars_derive 1.2.3, which `ToolArgs`
        // delegates to, writes a bare `Some(..)` for a field's default
        // (src/schema_exprs.rs, `quote!(Some(#default_expr))`), which this
        // module shadows.
        #[tool(maximum = 4)]
        pub weeks_ahead: u8,
    }

    /// Look up the opening hours of one store for a window of days.
    #[derive(Debug, tool_contract::Tool)]
    #[tool(output = ::std::string::String)]
    pub struct GetStoreWindow {
        /// The window, e.g. {"days": ["mon"]}.
        pub window: Window,
    }
}

use shadowing::{GetStoreHours, GetStoreWindow, TenantId};
use tool_contract::{Session, Tool};

#[test]
fn derives_and_parses_in_a_module_that_shadows_the_prelude() {
    let session = Session::new().with(TenantId("acme".into()));
    let call =
        GetStoreHours::from_arguments(r#"{"store": "BER-1", "days": ["mon"]}"#, &session).unwrap();
    assert_eq!(call.store, "BER-1");
    assert_eq!(call.days, Some(vec!["mon".to_owned()]));
    assert!(!call.holidays);
    assert_eq!(call.tenant, TenantId("acme".into()));
    assert_eq!(GetStoreHours::contract().name(), "get_store_hours");
    assert_eq!(
        GetStoreHours::input_schema()["required"],
        serde_json::json!(["store"])
    );
}

#[test]
fn tool_args_derive_in_a_module_that_shadows_the_prelude() {
    let call = GetStoreWindow::from_arguments(
        r#"{"window": {"days": ["mon"], "weeks_ahead": 0}}"#,
        &Session::new(),
    )
    .unwrap();
    assert_eq!(call.window.days, vec!["mon".to_owned()]);
    assert_eq!(call.window.weeks_ahead, 0);
}
