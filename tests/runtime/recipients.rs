//! The recipient policy of a session: an open-world write sends data only
//! to recipients the policy allows, at every depth of its arguments, and a
//! refusal comes before the approval is asked for or the handler runs.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tool_contract::recipients::{
    RECIPIENT_NOT_ALLOWED, RecipientAllowList, RecipientPolicy, RecipientRule,
};
use tool_contract::{
    CallContext, CallResult, Session, Tool, ToolArgs, ToolCall, ToolError, Toolbox,
    approval::ApprovalGrant, approval::Approvals, audit::Subjects, contract::ErrorCategory,
    contract::Recovery, runtime::ExecutionOutcome, runtime::OutputKind,
};

/// Someone else who gets the report, with a name for the greeting.
#[derive(Debug, ToolArgs)]
pub struct Contact {
    /// The contact's address, e.g. "li@example.com".
    #[tool(format = "email")]
    pub email: String,
    /// How to greet them, e.g. "Li".
    pub display_name: String,
}

/// Mail the weekly sales report to the people the user names.
#[derive(Debug, Tool)]
#[tool(
    effect = "write",
    idempotent = false,
    open_world,
    approval = "required"
)]
pub struct SendSalesReport {
    /// Who receives the report, e.g. "ana@example.com".
    #[tool(format = "email")]
    pub to: String,
    /// Who receives a copy.
    #[tool(max_items = 10, items(format = "email"))]
    pub cc: Vec<String>,
    /// Where to post a note once the mail went out.
    #[tool(format = "uri")]
    pub webhook_url: Option<String>,
    /// More people to greet by name.
    #[tool(max_items = 10)]
    pub contacts: Vec<Contact>,
    /// Which week, e.g. "2025-W03".
    #[tool(pattern = "^[0-9]{4}-W[0-9]{2}$")]
    pub week: String,
}

/// Look up the public card of a contact by their address. Read-only.
#[derive(Debug, Tool)]
#[tool(open_world)]
pub struct GetContactCard {
    /// The contact's address, e.g. "li@example.com".
    #[tool(format = "email")]
    pub email: String,
}

fn toolbox(runs: &Arc<AtomicUsize>) -> Toolbox {
    let mut toolbox = Toolbox::new();
    let counted = Arc::clone(runs);
    toolbox.register(move |_: SendSalesReport, _: CallContext| {
        let runs = Arc::clone(&counted);
        async move {
            runs.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ToolError>("sent".to_owned())
        }
    });
    let counted = Arc::clone(runs);
    toolbox.register(move |_: GetContactCard, _: CallContext| {
        let runs = Arc::clone(&counted);
        async move {
            runs.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ToolError>("Li, sales".to_owned())
        }
    });
    toolbox
}

fn subjects() -> Subjects {
    Subjects::new().with("tenant", "acme")
}

fn session(approvals: &Approvals, policy: Option<RecipientPolicy>) -> Session {
    let session = Session::new().with(subjects()).with(approvals.clone());
    match policy {
        Some(policy) => session.with(policy),
        None => session,
    }
}

fn example_only() -> RecipientPolicy {
    RecipientPolicy::new(
        RecipientAllowList::new()
            .domain("example.com")
            .address("partner@outside.io"),
    )
}

async fn send(toolbox: &Toolbox, session: &Session, arguments: &str) -> CallResult {
    toolbox
        .call(
            &ToolCall::new("call_1", "send_sales_report", arguments),
            session,
        )
        .await
}

fn approve(approvals: &Approvals, arguments: &str) {
    approvals.grant(
        ApprovalGrant::for_call::<SendSalesReport>("appr-1", arguments).for_subjects(&subjects()),
    );
}

const ALLOWED: &str = r#"{
    "to": "ana@example.com",
    "cc": ["bo@EU.example.com", "partner@outside.io"],
    "webhook_url": "https://hooks.example.com/mail?x=1",
    "contacts": [{"email": "li@example.com", "display_name": "Li"}],
    "week": "2025-W03"
}"#;

#[tokio::test]
async fn allowed_recipients_are_approved_and_sent() {
    let runs = Arc::new(AtomicUsize::new(0));
    let toolbox = toolbox(&runs);
    let approvals = Approvals::new();
    approve(&approvals, ALLOWED);
    let result = send(
        &toolbox,
        &session(&approvals, Some(example_only())),
        ALLOWED,
    )
    .await;
    assert_eq!(result.output.kind(), OutputKind::Success);
    assert_eq!(result.model_text().as_deref(), Some("sent"));
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_refused_recipient_at_any_depth_is_named_with_its_path_before_approval() {
    let runs = Arc::new(AtomicUsize::new(0));
    let toolbox = toolbox(&runs);
    let approvals = Approvals::new();
    let arguments = r#"{
        "to": "ana@example.com",
        "cc": ["bo@example.com", "eve@example.com.evil.io"],
        "webhook_url": "https://example.com@evil.io/hook",
        "contacts": [{"email": "mallory@evil.io", "display_name": "li@evil.io"}],
        "week": "2025-W03"
    }"#;
    // Even an approval for these exact arguments does not let them through.
    approve(&approvals, arguments);
    let result = send(
        &toolbox,
        &session(&approvals, Some(example_only())),
        arguments,
    )
    .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [RECIPIENT_NOT_ALLOWED]: The recipients \"eve@example.com.evil.io\" at `$.cc[1]`, \"mallory@evil.io\" at `$.contacts[0].email`, \"https://example.com@evil.io/hook\" at `$.webhook_url` are not allowed for this session; it may send only to addresses and URLs at example.com (or a subdomain), and to partner@outside.io. Ask the user for an allowed recipient, or leave these out."
        )
    );
    let error = result.output.error().unwrap();
    assert_eq!(error.code, RECIPIENT_NOT_ALLOWED);
    assert_eq!(error.category, ErrorCategory::Permission);
    assert_eq!(error.recovery, Recovery::AskUser);
    assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
    assert!(result.approval_request.is_none());
    assert_eq!(result.audit.approval_id, None);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    // The approval was not consumed: fixed arguments still need their own.
    let fixed = send(
        &toolbox,
        &session(&approvals, Some(example_only())),
        ALLOWED,
    )
    .await;
    assert_eq!(
        fixed.output.error().map(|e| e.code.as_ref()),
        Some(ToolError::APPROVAL_REQUIRED)
    );
}

#[tokio::test]
async fn one_refused_recipient_is_named_alone() {
    let runs = Arc::new(AtomicUsize::new(0));
    let toolbox = toolbox(&runs);
    let approvals = Approvals::new();
    let arguments = r#"{"to": "ana@gmail.com", "cc": [], "contacts": [], "week": "2025-W03"}"#;
    let result = send(
        &toolbox,
        &session(&approvals, Some(example_only())),
        arguments,
    )
    .await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [RECIPIENT_NOT_ALLOWED]: The recipient \"ana@gmail.com\" at `$.to` is not allowed for this session; it may send only to addresses and URLs at example.com (or a subdomain), and to partner@outside.io. Ask the user for an allowed recipient, or leave this one out."
        )
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

/// A rule of the application's own: only the user's own address.
struct OnlyMe(&'static str);

impl RecipientRule for OnlyMe {
    fn allows(&self, recipient: &str) -> bool {
        recipient == self.0
    }

    fn allowed(&self) -> String {
        format!("the user's own address, {}", self.0)
    }
}

#[tokio::test]
async fn an_application_rule_decides_and_words_what_is_allowed() {
    let runs = Arc::new(AtomicUsize::new(0));
    let toolbox = toolbox(&runs);
    let approvals = Approvals::new();
    let policy = RecipientPolicy::new(OnlyMe("ana@example.com"));
    let arguments = r#"{"to": "bo@example.com", "cc": [], "contacts": [], "week": "2025-W03"}"#;
    let result = send(&toolbox, &session(&approvals, Some(policy)), arguments).await;
    assert_eq!(
        result.model_text().as_deref(),
        Some(
            "Error [RECIPIENT_NOT_ALLOWED]: The recipient \"bo@example.com\" at `$.to` is not allowed for this session; it may send only to the user's own address, ana@example.com. Ask the user for an allowed recipient, or leave this one out."
        )
    );
}

#[tokio::test]
async fn without_a_policy_or_for_a_read_the_runtime_checks_no_recipient() {
    let runs = Arc::new(AtomicUsize::new(0));
    let toolbox = toolbox(&runs);
    let approvals = Approvals::new();
    let arguments = r#"{"to": "eve@evil.io", "cc": [], "contacts": [], "week": "2025-W03"}"#;
    // No policy: the approval is what stands between the model and the send.
    let result = send(&toolbox, &session(&approvals, None), arguments).await;
    assert_eq!(
        result.output.error().map(|e| e.code.as_ref()),
        Some(ToolError::APPROVAL_REQUIRED)
    );
    // A read sends nothing out: the policy does not apply.
    let read = toolbox
        .call(
            &ToolCall::new("call_2", "get_contact_card", r#"{"email": "eve@evil.io"}"#),
            &session(&approvals, Some(example_only())),
        )
        .await;
    assert_eq!(read.model_text().as_deref(), Some("Li, sales"));
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn the_contract_marks_destination_fields() {
    let contract = SendSalesReport::contract();
    let destinations: Vec<&str> = contract
        .fields()
        .iter()
        .filter(|f| f.destination())
        .map(|f| f.name())
        .collect();
    assert_eq!(destinations, ["to", "cc", "webhook_url"]);
}

/// A person on a mailing list, addressed by a key no name rule knows.
#[derive(Debug, ToolArgs)]
pub struct Member {
    /// Their address, e.g. "li@example.com".
    #[tool(format = "email")]
    pub mail: String,
    /// How to greet them, e.g. "Li".
    #[tool(max_length = 50)]
    pub greeting: String,
}

/// Add people to the shop's own mailing list; nothing is sent yet.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct AddListMembers {
    /// Who joins the list.
    #[tool(max_items = 10)]
    pub recipients: Vec<Member>,
}

/// Set the note shown on an order; it goes nowhere.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct SetOrderNote {
    /// The order, e.g. "A-10293".
    #[tool(pattern = "^A-[0-9]+$")]
    pub order_ref: String,
    /// The note, e.g. "Leave at the door; ring eve@evil.io".
    #[tool(max_length = 200)]
    pub note: String,
}

/// A write that is not `open_world` is checked too when it has a
/// destination (here a list of recipient objects): an address under any
/// key of a recipient object is refused, a greeting is no address and
/// passes; a write without any destination is not checked, whatever its
/// text says.
#[tokio::test]
async fn a_closed_world_write_is_checked_only_where_it_has_a_destination() {
    let runs = Arc::new(AtomicUsize::new(0));
    let mut toolbox = Toolbox::new();
    for name in ["add_list_members", "set_order_note"] {
        let counted = Arc::clone(&runs);
        let done = move || {
            counted.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ToolError>(format!("{name} done"))
        };
        match name {
            "add_list_members" => {
                toolbox.register(move |_: AddListMembers, _: CallContext| {
                    let done = done.clone();
                    async move { done() }
                });
            }
            _ => {
                toolbox.register(move |_: SetOrderNote, _: CallContext| {
                    let done = done.clone();
                    async move { done() }
                });
            }
        }
    }
    let session = session(&Approvals::new(), Some(example_only()));
    let call = |name: &'static str, arguments: &'static str| {
        let toolbox = &toolbox;
        let session = &session;
        async move {
            toolbox
                .call(&ToolCall::new("call_1", name, arguments), session)
                .await
                .model_text()
        }
    };
    assert_eq!(
        call(
            "add_list_members",
            r#"{"recipients": [{"mail": "li@example.com", "greeting": "Li"}, {"mail": "eve@evil.io", "greeting": "Eve"}]}"#
        )
        .await
        .as_deref(),
        Some(
            "Error [RECIPIENT_NOT_ALLOWED]: The recipient \"eve@evil.io\" at `$.recipients[1].mail` is not allowed for this session; it may send only to addresses and URLs at example.com (or a subdomain), and to partner@outside.io. Ask the user for an allowed recipient, or leave this one out."
        )
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    assert_eq!(
        call(
            "add_list_members",
            r#"{"recipients": [{"mail": "li@example.com", "greeting": "Li"}]}"#
        )
        .await
        .as_deref(),
        Some("add_list_members done")
    );
    assert_eq!(
        call(
            "set_order_note",
            r#"{"order_ref": "A-1", "note": "Leave at the door; ring eve@evil.io"}"#
        )
        .await
        .as_deref(),
        Some("set_order_note done")
    );
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}
