//! Attacks on the recipient policy: destinations the hook in
//! tool-runtime/src/recipients.rs does not see. Each tool below compiles
//! (the open-world rules are satisfied: approval required, every text that
//! holds an address carries `format = "email"`/`"uri"`), the session holds
//! an allow-list of `example.com`, the user approved the exact arguments,
//! and the handler still runs with a recipient at `evil.io`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tool_contract::recipients::{RECIPIENT_NOT_ALLOWED, RecipientAllowList, RecipientPolicy};
use tool_contract::{
    CallContext, CallResult, Session, Tool, ToolArgs, ToolCall, ToolError, Toolbox,
    approval::ApprovalGrant, approval::Approvals, audit::Subjects,
};

/// Invite people to a meeting by mail.
#[derive(Debug, Tool)]
#[tool(
    effect = "write",
    idempotent = false,
    open_world,
    approval = "required"
)]
pub struct SendMeetingInvite {
    /// Who is invited, e.g. "ana@example.com".
    #[tool(max_items = 10, items(format = "email"))]
    pub attendees: Vec<String>,
    /// The subject line.
    #[tool(max_length = 200)]
    pub subject: String,
}

/// Post a status message to a chat integration.
#[derive(Debug, Tool)]
#[tool(
    effect = "write",
    idempotent = false,
    open_world,
    approval = "required"
)]
pub struct PostStatusMessage {
    /// Where to post, e.g. "https://hooks.example.com/T1".
    #[tool(format = "uri")]
    pub url: String,
    /// The message.
    #[tool(max_length = 200)]
    pub text: String,
}

/// A guest, named on the wire `mail` and `name`.
#[derive(Debug, ToolArgs)]
pub struct Guest {
    /// The guest's address, e.g. "li@example.com".
    #[serde(rename = "mail")]
    #[tool(format = "email")]
    pub email: String,
    /// How to greet them.
    #[tool(max_length = 50)]
    pub name: String,
}

/// Send the party invitations to the guests.
#[derive(Debug, Tool)]
#[tool(
    effect = "write",
    idempotent = false,
    open_world,
    approval = "required"
)]
pub struct SendPartyInvitations {
    /// Who gets an invitation.
    #[tool(max_items = 10)]
    pub guests: Vec<Guest>,
}

/// Forward a stored document by mail.
#[derive(Debug, Tool)]
#[tool(
    effect = "write",
    idempotent = false,
    open_world,
    approval = "required"
)]
pub struct ForwardDocument {
    /// Where the document goes, e.g. "ana@example.com".
    #[tool(format = "email")]
    pub mail_to: String,
    /// The document, e.g. "DOC-1".
    #[tool(pattern = "^DOC-[0-9]+$")]
    pub document_ref: String,
}

/// A recipient object whose address member is called `mail`.
#[derive(Debug, ToolArgs)]
pub struct Person {
    /// Their address, e.g. "li@example.com".
    #[tool(format = "email")]
    pub mail: String,
}

/// Send a newsletter issue to the listed people.
#[derive(Debug, Tool)]
#[tool(
    effect = "write",
    idempotent = false,
    open_world,
    approval = "required"
)]
pub struct SendNewsletter {
    /// Who receives it.
    #[tool(max_items = 10)]
    pub recipients: Vec<Person>,
}

/// Mail a receipt of an order to the customer.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent = false)]
pub struct SendReceiptEmail {
    /// Who receives the receipt, e.g. "ana@example.com".
    #[tool(format = "email")]
    pub to: String,
    /// The order, e.g. "A-10293".
    #[tool(pattern = "^A-[0-9]+$")]
    pub order_ref: String,
}

fn subjects() -> Subjects {
    Subjects::new().with("tenant", "acme")
}

fn toolbox(runs: &Arc<AtomicUsize>) -> Toolbox {
    let mut toolbox = Toolbox::new();
    macro_rules! counted {
        ($t:ty) => {{
            let counted = Arc::clone(runs);
            toolbox.register(move |_: $t, _: CallContext| {
                let runs = Arc::clone(&counted);
                async move {
                    runs.fetch_add(1, Ordering::SeqCst);
                    Ok::<_, ToolError>("sent".to_owned())
                }
            });
        }};
    }
    counted!(SendMeetingInvite);
    counted!(PostStatusMessage);
    counted!(SendPartyInvitations);
    counted!(ForwardDocument);
    counted!(SendNewsletter);
    counted!(SendReceiptEmail);
    toolbox
}

fn session(approvals: &Approvals) -> Session {
    Session::new()
        .with(subjects())
        .with(approvals.clone())
        .with(RecipientPolicy::new(
            RecipientAllowList::new().domain("example.com"),
        ))
}

/// Calls `name` with `arguments`, approved by the user for exactly these
/// arguments, under an allow-list of example.com; returns the result and
/// how many times the handler ran.
async fn approved_call<T: Tool>(name: &str, arguments: &str) -> (CallResult, usize) {
    let runs = Arc::new(AtomicUsize::new(0));
    let toolbox = toolbox(&runs);
    let approvals = Approvals::new();
    approvals.grant(ApprovalGrant::for_call::<T>("appr-1", arguments).for_subjects(&subjects()));
    let result = toolbox
        .call(
            &ToolCall::new("call_1", name, arguments),
            &session(&approvals),
        )
        .await;
    (result, runs.load(Ordering::SeqCst))
}

fn code(result: &CallResult) -> Option<String> {
    result.output.error().map(|e| e.code.to_string())
}

#[tokio::test]
async fn a_format_email_list_not_named_like_a_recipient_is_checked() {
    let (result, runs) = approved_call::<SendMeetingInvite>(
        "send_meeting_invite",
        r#"{"attendees": ["ana@example.com", "eve@evil.io"], "subject": "Q3"}"#,
    )
    .await;
    assert_eq!(
        code(&result).as_deref(),
        Some(RECIPIENT_NOT_ALLOWED),
        "{:?}",
        result.model_text()
    );
    assert_eq!(runs, 0, "the handler sent to eve@evil.io");
}

#[tokio::test]
async fn a_format_uri_field_named_url_is_checked() {
    let (result, runs) = approved_call::<PostStatusMessage>(
        "post_status_message",
        r#"{"url": "https://evil.io/collect", "text": "quarterly numbers"}"#,
    )
    .await;
    assert_eq!(
        code(&result).as_deref(),
        Some(RECIPIENT_NOT_ALLOWED),
        "{:?}",
        result.model_text()
    );
    assert_eq!(runs, 0, "the handler posted to evil.io");
}

#[tokio::test]
async fn a_nested_destination_renamed_by_serde_is_checked() {
    let (result, runs) = approved_call::<SendPartyInvitations>(
        "send_party_invitations",
        r#"{"guests": [{"mail": "eve@evil.io", "name": "Eve"}]}"#,
    )
    .await;
    assert_eq!(
        code(&result).as_deref(),
        Some(RECIPIENT_NOT_ALLOWED),
        "{:?}",
        result.model_text()
    );
    assert_eq!(runs, 0, "the handler sent to eve@evil.io");
}

#[tokio::test]
async fn a_mail_to_field_is_checked() {
    let (result, runs) = approved_call::<ForwardDocument>(
        "forward_document",
        r#"{"mail_to": "eve@evil.io", "document_ref": "DOC-1"}"#,
    )
    .await;
    assert_eq!(
        code(&result).as_deref(),
        Some(RECIPIENT_NOT_ALLOWED),
        "{:?}",
        result.model_text()
    );
    assert_eq!(runs, 0, "the handler sent to eve@evil.io");
}

#[tokio::test]
async fn an_address_inside_a_list_of_recipient_objects_is_checked() {
    let (result, runs) = approved_call::<SendNewsletter>(
        "send_newsletter",
        r#"{"recipients": [{"mail": "eve@evil.io"}]}"#,
    )
    .await;
    assert_eq!(
        code(&result).as_deref(),
        Some(RECIPIENT_NOT_ALLOWED),
        "{:?}",
        result.model_text()
    );
    assert_eq!(runs, 0, "the handler sent to eve@evil.io");
}

/// Debatable (the issue scopes the policy to `open_world` tools): a tool
/// named `send_*` with a `to` email field compiles without `open_world`,
/// no rule asks for it, and the session's recipient policy is then never
/// consulted.
#[tokio::test]
async fn a_send_tool_with_an_email_recipient_is_checked_without_open_world() {
    let (result, runs) = approved_call::<SendReceiptEmail>(
        "send_receipt_email",
        r#"{"to": "eve@evil.io", "order_ref": "A-1"}"#,
    )
    .await;
    assert_eq!(
        code(&result).as_deref(),
        Some(RECIPIENT_NOT_ALLOWED),
        "{:?}",
        result.model_text()
    );
    assert_eq!(runs, 0, "the handler sent to eve@evil.io");
}

#[test]
fn allow_list_spellings() {
    let list = RecipientAllowList::new().domain("example.com");
    // Held cases, kept as a record of what was tried.
    for refused in [
        "\"Ann\" <a@evil.io>",
        "a@example.com, b@evil.io",
        "b@evil.io,a@example.com",
        "mailto:a@evil.io",
        "https://example.com@evil.io/",
        "https://evil.io#@example.com",
        "https://evil.io?@example.com",
        "https://ex\u{0430}mple.com/",
        "a@ex\u{0430}mple.com",
        " a@evil.io",
        "https://evil.io\\@example.com",
        "a@evil.io\u{0}.example.com",
    ] {
        assert!(!list.allows(refused), "{refused:?} was allowed");
    }
    let _ = BTreeMap::<String, String>::new();
}

/// Someone to copy, with an address the policy cannot read as one.
#[derive(Debug, ToolArgs)]
pub struct CopyContact {
    /// Their email, as the user typed it.
    #[tool(max_length = 254)]
    pub email: String,
}

/// Mail the weekly report to a contact.
#[derive(Debug, Tool)]
#[tool(
    effect = "write",
    idempotent = false,
    open_world,
    approval = "required"
)]
pub struct SendWeeklyReport {
    /// Who gets a copy.
    #[tool(max_items = 5)]
    pub copies: Vec<CopyContact>,
}

/// The open-world rules apply at every depth, and a destination
/// field of an open-world write must carry a format; a nested `email`
/// without one compiles and registers.
#[test]
fn a_nested_untyped_destination_in_an_open_world_write_is_refused() {
    let mut toolbox = Toolbox::new();
    let registered = toolbox
        .try_register(|_: SendWeeklyReport, _: CallContext| async move {
            Ok::<_, ToolError>("sent".to_owned())
        })
        .is_ok();
    assert!(
        !registered,
        "registered: {}",
        SendWeeklyReport::input_schema()
    );
}
