//! Several calls of one model turn: they overlap, destructive ones run
//! alone, a panic or an abort stops only what it should.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;
use tool_contract::{
    CallContext, Session, Tool, ToolCall, ToolError, Toolbox, approval::ApprovalGrant,
    approval::Approvals, runtime::AbortHandle, runtime::ExecutionOutcome, runtime::OutputKind,
};

/// Count the items on one shelf of the shop's storeroom.
///
/// Use it before moving stock between shelves. Read-only.
#[derive(Debug, Tool)]
pub struct CountShelfItems {
    /// The shelf's label, e.g. "B-12".
    pub shelf: String,
    /// How long the count takes.
    pub delay_ms: u64,
}

/// Print a new label for one shelf of the storeroom.
///
/// Use it when a shelf was moved. Printing the same label twice is harmless.
#[derive(Debug, Tool)]
#[tool(effect = "write", idempotent)]
pub struct PrintShelfLabel {
    /// The shelf's label, e.g. "B-12".
    pub shelf: String,
    /// How long printing takes.
    pub delay_ms: u64,
}

/// Throw away everything on one shelf of the storeroom.
///
/// Use it only when the customer's staff asks to clear a shelf; it cannot be
/// undone.
#[derive(Debug, Tool)]
#[tool(effect = "destructive", approval = "required", idempotent = false)]
pub struct ClearShelf {
    /// The shelf's label, e.g. "B-12".
    pub shelf: String,
    /// How long clearing takes.
    pub delay_ms: u64,
}

/// Watches the handlers: how many run at once, when each started, and
/// whether a destructive one ever shared the time with another.
struct Tracker {
    start: Instant,
    active: AtomicUsize,
    max_active: AtomicUsize,
    overlapped: AtomicBool,
    started: Mutex<Vec<(String, u64)>>,
}

/// Holds one place in `active` while a handler runs, even if it is dropped.
struct Active<'a>(&'a Tracker);

impl Drop for Active<'_> {
    fn drop(&mut self) {
        self.0.active.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Tracker {
    fn new() -> Arc<Self> {
        Arc::new(Tracker {
            start: Instant::now(),
            active: AtomicUsize::new(0),
            max_active: AtomicUsize::new(0),
            overlapped: AtomicBool::new(false),
            started: Mutex::new(Vec::new()),
        })
    }

    async fn work(&self, label: String, delay_ms: u64, alone: bool) {
        let now = self.active.fetch_add(1, Ordering::SeqCst) + 1;
        let _active = Active(self);
        self.max_active.fetch_max(now, Ordering::SeqCst);
        let at = u64::try_from(self.start.elapsed().as_millis()).unwrap();
        self.started.lock().unwrap().push((label, at));
        if label_is_panic(delay_ms) {
            panic!("the shelf fell over");
        }
        if alone && now != 1 {
            self.overlapped.store(true, Ordering::SeqCst);
        }
        tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        if alone && self.active.load(Ordering::SeqCst) != 1 {
            self.overlapped.store(true, Ordering::SeqCst);
        }
    }

    fn started(&self) -> Vec<(String, u64)> {
        let mut started = self.started.lock().unwrap().clone();
        started.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
        started
    }
}

/// A delay of 13 ms stands for "panic".
fn label_is_panic(delay_ms: u64) -> bool {
    delay_ms == 13
}

fn toolbox(tracker: &Arc<Tracker>) -> Toolbox {
    let mut toolbox = Toolbox::new();
    let t = Arc::clone(tracker);
    toolbox.register(move |call: CountShelfItems, _: CallContext| {
        let t = Arc::clone(&t);
        async move {
            t.work(format!("count {}", call.shelf), call.delay_ms, false)
                .await;
            Ok::<_, ToolError>(format!("{} holds 4 items.", call.shelf))
        }
    });
    let t = Arc::clone(tracker);
    toolbox.register(move |call: PrintShelfLabel, _: CallContext| {
        let t = Arc::clone(&t);
        async move {
            t.work(format!("label {}", call.shelf), call.delay_ms, false)
                .await;
            Ok::<_, ToolError>(format!("Printed {}.", call.shelf))
        }
    });
    let t = Arc::clone(tracker);
    toolbox.register(move |call: ClearShelf, _: CallContext| {
        let t = Arc::clone(&t);
        async move {
            t.work(format!("clear {}", call.shelf), call.delay_ms, true)
                .await;
            Ok::<_, ToolError>(format!("Cleared {}.", call.shelf))
        }
    });
    toolbox
}

fn call(id: &str, name: &str, shelf: &str, delay_ms: u64) -> ToolCall {
    ToolCall::new(
        id,
        name,
        format!(r#"{{"shelf":"{shelf}","delay_ms":{delay_ms}}}"#),
    )
}

/// A session with an approval for each of these `clear_shelf` calls.
fn approved(calls: &[ToolCall]) -> Session {
    let approvals = Approvals::new();
    for call in calls.iter().filter(|c| c.name == "clear_shelf") {
        approvals.grant(ApprovalGrant::for_call::<ClearShelf>(
            &call.call_id,
            &call.arguments,
        ));
    }
    Session::new().with(approvals)
}

fn texts(results: &[tool_contract::CallResult]) -> Vec<Option<String>> {
    results.iter().map(|r| r.model_text()).collect()
}

#[tokio::test(start_paused = true)]
async fn the_calls_of_a_turn_overlap_and_come_back_in_order() {
    let tracker = Tracker::new();
    let calls = [
        call("c1", "count_shelf_items", "A-1", 100),
        call("c2", "print_shelf_label", "A-2", 60),
        call("c3", "count_shelf_items", "A-3", 80),
    ];
    let start = Instant::now();
    let results = toolbox(&tracker)
        .call_turn(&calls, &Session::new(), &AbortHandle::new())
        .await;
    assert_eq!(start.elapsed(), Duration::from_millis(100));
    assert_eq!(
        texts(&results),
        [
            Some("A-1 holds 4 items.".to_owned()),
            Some("Printed A-2.".to_owned()),
            Some("A-3 holds 4 items.".to_owned())
        ]
    );
    assert_eq!(tracker.max_active.load(Ordering::SeqCst), 3);
    let durations: Vec<u64> = results.iter().map(|r| r.audit.duration_ms).collect();
    assert_eq!(durations, [100, 60, 80]);
}

#[tokio::test(start_paused = true)]
async fn destructive_calls_run_alone_in_the_order_of_the_turn() {
    let tracker = Tracker::new();
    let calls = [
        call("c1", "count_shelf_items", "B-1", 100),
        call("c2", "print_shelf_label", "B-2", 50),
        call("c3", "clear_shelf", "B-3", 100),
        call("c4", "count_shelf_items", "B-4", 100),
        call("c5", "clear_shelf", "B-5", 100),
        call("c6", "print_shelf_label", "B-6", 100),
        call("c7", "count_shelf_items", "B-7", 30),
    ];
    let start = Instant::now();
    let results = toolbox(&tracker)
        .call_turn(&calls, &approved(&calls), &AbortHandle::new())
        .await;
    assert!(
        results
            .iter()
            .all(|r| r.output.kind() == OutputKind::Success)
    );
    assert!(!tracker.overlapped.load(Ordering::SeqCst));
    assert_eq!(
        tracker.started(),
        [
            ("count B-1".to_owned(), 0),
            ("label B-2".to_owned(), 0),
            ("clear B-3".to_owned(), 100),
            ("count B-4".to_owned(), 200),
            ("clear B-5".to_owned(), 300),
            ("count B-7".to_owned(), 400),
            ("label B-6".to_owned(), 400),
        ]
    );
    assert_eq!(start.elapsed(), Duration::from_millis(500));
}

#[tokio::test(start_paused = true)]
async fn a_panic_in_one_call_leaves_the_others_of_the_turn_alone() {
    let tracker = Tracker::new();
    let calls = [
        call("c1", "count_shelf_items", "C-1", 13),
        call("c2", "count_shelf_items", "C-2", 40),
        call("c3", "print_shelf_label", "C-3", 20),
    ];
    let results = toolbox(&tracker)
        .call_turn(&calls, &Session::new(), &AbortHandle::new())
        .await;
    assert!(results[0].is_fatal());
    assert_eq!(
        results[0].audit.internal_detail.as_deref(),
        Some("the handler panicked: the shelf fell over")
    );
    assert_eq!(
        texts(&results[1..]),
        [
            Some("C-2 holds 4 items.".to_owned()),
            Some("Printed C-3.".to_owned())
        ]
    );
    assert_eq!(tracker.active.load(Ordering::SeqCst), 0);
}

#[tokio::test(start_paused = true)]
async fn a_fatal_call_keeps_the_calls_of_its_turn_that_had_not_started_from_running() {
    let tracker = Tracker::new();
    let calls = [
        // Fatal (its handler panics), while a write overlaps it.
        call("c1", "count_shelf_items", "F-1", 13),
        call("c2", "print_shelf_label", "F-2", 40),
        // Approved, but it waits for c1 and c2: it must not run.
        call("c3", "clear_shelf", "F-3", 10),
        // Waits for c3: not run either.
        call("c4", "count_shelf_items", "F-4", 10),
    ];
    let session = approved(&calls);
    let results = toolbox(&tracker)
        .call_turn(&calls, &session, &AbortHandle::new())
        .await;
    assert!(results[0].is_fatal());
    // The call already running when c1 failed went on to its end.
    assert_eq!(results[1].model_text().as_deref(), Some("Printed F-2."));
    let not_run = "Error [CALL_NOT_RUN]: The call did not run: an earlier call of this turn failed in a way that stops the run; nothing was changed.";
    for result in &results[2..] {
        assert_eq!(result.model_text().as_deref(), Some(not_run));
        assert_eq!(result.output.error().unwrap().code, "CALL_NOT_RUN");
        assert_eq!(result.audit.outcome, ExecutionOutcome::NotStarted);
        assert_eq!(result.audit.approval_id, None);
    }
    assert_eq!(
        results
            .iter()
            .map(|r| r.audit.call_id.as_str())
            .collect::<Vec<_>>(),
        ["c1", "c2", "c3", "c4"]
    );
    assert_eq!(
        tracker.started(),
        [("count F-1".to_owned(), 0), ("label F-2".to_owned(), 0)]
    );
    // The destructive call's approval is left unused.
    assert_eq!(session.get::<Approvals>().unwrap().unused(), 1);

    // A turn without a fatal call runs the same destructive call.
    let again = [call("c5", "clear_shelf", "F-3", 10)];
    let results = toolbox(&tracker)
        .call_turn(&again, &approved(&again), &AbortHandle::new())
        .await;
    assert_eq!(results[0].model_text().as_deref(), Some("Cleared F-3."));
}

#[tokio::test(start_paused = true)]
async fn aborting_a_turn_stops_running_calls_and_those_still_waiting() {
    let tracker = Tracker::new();
    let toolbox = toolbox(&tracker);
    let calls = [
        call("c1", "clear_shelf", "D-1", 100),
        call("c2", "clear_shelf", "D-2", 100),
        call("c3", "count_shelf_items", "D-3", 10),
    ];
    let session = approved(&calls);
    let run = AbortHandle::new();
    let turn = run.child();
    let start = Instant::now();
    let (results, ()) = tokio::join!(toolbox.call_turn(&calls, &session, &turn), async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        run.abort();
    });
    assert_eq!(start.elapsed(), Duration::from_millis(50));
    assert_eq!(
        texts(&results),
        [
            Some(
                "Error [ABORTED]: The call was cancelled before it finished; it may or may not have taken effect."
                    .to_owned()
            ),
            Some(
                "Error [ABORTED]: The call was cancelled before it started; nothing was changed."
                    .to_owned()
            ),
            Some(
                "Error [ABORTED]: The call was cancelled before it started; nothing was changed."
                    .to_owned()
            ),
        ]
    );
    let outcomes: Vec<ExecutionOutcome> = results.iter().map(|r| r.audit.outcome).collect();
    assert_eq!(
        outcomes,
        [
            ExecutionOutcome::Unknown,
            ExecutionOutcome::NotStarted,
            ExecutionOutcome::NotStarted
        ]
    );
    assert_eq!(tracker.started(), [("clear D-1".to_owned(), 0)]);
    assert_eq!(tracker.active.load(Ordering::SeqCst), 0);
}

#[tokio::test(start_paused = true)]
async fn a_calls_own_handle_cancels_only_that_call() {
    let tracker = Tracker::new();
    let toolbox = toolbox(&tracker);
    let run = AbortHandle::new();
    let first = run.child();
    let second = run.child();
    let session = Session::new();
    let slow = call("c1", "count_shelf_items", "E-1", 100);
    let other = call("c2", "count_shelf_items", "E-2", 100);
    let (a, b, ()) = tokio::join!(
        toolbox.call_with_abort(&slow, &session, &first),
        toolbox.call_with_abort(&other, &session, &second),
        async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            first.abort();
        }
    );
    assert_eq!(a.output.error().unwrap().code, "ABORTED");
    assert_eq!(a.audit.duration_ms, 20);
    assert_eq!(b.model_text().as_deref(), Some("E-2 holds 4 items."));
    assert!(!run.is_aborted());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_toolbox_serves_calls_from_many_tasks() {
    let tracker = Tracker::new();
    let toolbox = Arc::new(toolbox(&tracker));
    let session = Session::new();
    let tasks: Vec<_> = (0..8)
        .map(|i| {
            let toolbox = Arc::clone(&toolbox);
            let session = session.clone();
            tokio::spawn(async move {
                let call = call(&format!("c{i}"), "count_shelf_items", &format!("F-{i}"), 20);
                toolbox.call(&call, &session).await
            })
        })
        .collect();
    let mut texts = Vec::new();
    for task in tasks {
        texts.push(task.await.unwrap().model_text().unwrap());
    }
    let expected: Vec<String> = (0..8).map(|i| format!("F-{i} holds 4 items.")).collect();
    assert_eq!(texts, expected);
}

/// Book a courier to collect one shelf's goods.
///
/// Use it once the customer confirmed the pick-up; booking is a write.
#[derive(Debug, Tool)]
#[tool(effect = "write")]
pub struct BookCourier {
    /// The shelf's label, e.g. "B-12".
    pub shelf: String,
    /// A key the model makes up once per booking and repeats when it
    /// retries.
    #[tool(idempotency_key)]
    pub request_id: String,
}

/// Scrap one shelf's goods for good.
///
/// Use it only when the customer's staff asks to scrap a shelf; it cannot
/// be undone.
#[derive(Debug, Tool)]
#[tool(effect = "destructive", approval = "required")]
pub struct ScrapShelf {
    /// The shelf's label, e.g. "B-12".
    pub shelf: String,
    /// A key the model makes up once per scrapping and repeats when it
    /// retries.
    #[tool(idempotency_key)]
    pub request_id: String,
}

/// A toolbox whose keyed handlers take 50 ms and count their runs by key.
fn keyed_toolbox(runs: &Arc<Mutex<Vec<String>>>) -> Toolbox {
    let mut toolbox = Toolbox::new();
    let r = Arc::clone(runs);
    toolbox.register(move |call: BookCourier, _: CallContext| {
        r.lock().unwrap().push(call.request_id.clone());
        async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            Ok::<_, ToolError>(format!("Courier booked for {}.", call.shelf))
        }
    });
    let r = Arc::clone(runs);
    toolbox.register(move |call: ScrapShelf, _: CallContext| {
        r.lock().unwrap().push(call.request_id.clone());
        async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            Ok::<_, ToolError>(format!("Scrapped {}.", call.shelf))
        }
    });
    toolbox
}

#[tokio::test(start_paused = true)]
async fn a_turn_dropped_at_any_moment_never_runs_a_key_twice() {
    let turn = |round: &str| {
        [
            ToolCall::new(
                format!("{round}-1"),
                "book_courier",
                r#"{"shelf": "K-1", "request_id": "a"}"#,
            ),
            // The same key again in the turn: refused while the first runs.
            ToolCall::new(
                format!("{round}-2"),
                "book_courier",
                r#"{"shelf": "K-1", "request_id": "a"}"#,
            ),
            ToolCall::new(
                format!("{round}-3"),
                "scrap_shelf",
                r#"{"shelf": "K-3", "request_id": "b"}"#,
            ),
            ToolCall::new(
                format!("{round}-4"),
                "book_courier",
                r#"{"shelf": "K-4", "request_id": "c"}"#,
            ),
        ]
    };
    let unknown = "Error [OUTCOME_UNKNOWN]: An earlier call with this request_id was stopped while it ran; it may or may not have taken effect. Ask the user to check before making the request again with a new request_id.";
    // What the retry of each call finds, by what the dropped turn did:
    // `a` runs over 0-50 ms (the second `a` is refused at once), `b`
    // alone over 50-100 ms, then `c` over 100-150 ms.
    let label = |result: &tool_contract::CallResult| match (
        result.audit.delivery,
        result.model_text().as_deref() == Some(unknown),
    ) {
        (tool_contract::runtime::Delivery::Replayed, _) => "replayed",
        (_, true) => "unknown",
        (_, false) if result.output.kind() == OutputKind::Success => "ran",
        _ => "other",
    };
    for drop_at in [0_u64, 1, 25, 49, 50, 51, 75, 99, 100, 101, 125, 149, 150] {
        let runs = Arc::new(Mutex::new(Vec::new()));
        let toolbox = keyed_toolbox(&runs);
        let approvals = Approvals::new();
        for round in ["x", "y"] {
            let scrap = &turn(round)[2];
            approvals.grant(ApprovalGrant::for_call::<ScrapShelf>(
                &scrap.call_id,
                &scrap.arguments,
            ));
        }
        let session = Session::new().with(approvals);
        let first = tokio::time::timeout(
            Duration::from_millis(drop_at),
            toolbox.call_turn(&turn("x"), &session, &AbortHandle::new()),
        )
        .await;
        assert_eq!(first.is_ok(), drop_at >= 150, "dropped at {drop_at} ms");
        let retry = toolbox
            .call_turn(&turn("y"), &session, &AbortHandle::new())
            .await;
        let labels: Vec<&str> = retry.iter().map(label).collect();
        let expected = match drop_at {
            0..50 => ["unknown", "unknown", "ran", "ran"],
            50..100 => ["replayed", "replayed", "unknown", "ran"],
            100..150 => ["replayed", "replayed", "replayed", "unknown"],
            _ => ["replayed", "replayed", "replayed", "replayed"],
        };
        assert_eq!(labels, expected, "dropped at {drop_at} ms");
        // Each key ran exactly once over both turns.
        let mut ran = runs.lock().unwrap().clone();
        ran.sort();
        assert_eq!(ran, ["a", "b", "c"], "dropped at {drop_at} ms");
    }
}
