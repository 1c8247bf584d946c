//! What the store's tests share: a throwaway database on the server that
//! `DATABASE_URL` names (or a cluster of the test's own, in `cluster`),
//! three tools with handlers that count their runs,
//! and a toolbox wired to the Postgres stores.
#![allow(dead_code)]

pub mod cluster;

use std::io::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::Notify;
use tokio_postgres::NoTls;
use tokio_postgres::config::Host;
use tool_contract::store_postgres::{
    Pool, PoolOptions, PostgresApprovalStore, PostgresAuditSink, PostgresIdempotencyStore, connect,
    migrate,
};
use tool_contract::{CallContext, Session, Tool, ToolCall, ToolError, Toolbox, audit::Subjects};

/// The server the tests use when `DATABASE_URL` is not set.
pub const DEFAULT_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";
/// Set to `1` (as `.ci/run` does) to fail, not skip, without a server.
pub const REQUIRE: &str = "TOOL_CONTRACT_REQUIRE_POSTGRES";

/// The server's URL: `DATABASE_URL` or [`DEFAULT_URL`].
pub fn server_url() -> String {
    std::env::var("DATABASE_URL").unwrap_or_else(|_| DEFAULT_URL.to_owned())
}

/// A database of its own for one test, dropped (with its connections) when
/// this value is.
pub struct TestDb {
    pub name: String,
    /// A `key=value` connection string for the test database.
    pub url: String,
    admin: tokio_postgres::Config,
}

impl TestDb {
    /// Creates an empty database named after `test`; `None` (with a line
    /// on stderr saying why) when no server answers and
    /// `TOOL_CONTRACT_REQUIRE_POSTGRES` is not `1`.
    pub async fn create(test: &str) -> Option<TestDb> {
        let url = server_url();
        let admin: tokio_postgres::Config = match url.parse() {
            Ok(config) => config,
            Err(error) => panic!("DATABASE_URL {url:?} is not a PostgreSQL URL: {error}"),
        };
        let client = match connect_admin(&admin).await {
            Ok(client) => client,
            Err(error) => {
                let message = format!("no PostgreSQL server answers at {url}: {error}");
                if std::env::var(REQUIRE).as_deref() == Ok("1") {
                    panic!("{message} ({REQUIRE}=1)");
                }
                // Straight to stderr: the test harness captures `eprintln!`
                // of a passing test, and this line must be seen.
                let _ = writeln!(
                    std::io::stderr(),
                    "skipped {test}: {message}; set DATABASE_URL to a server to run this test"
                );
                return None;
            }
        };
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos());
        let mut name = format!("tc_{}_{}_{nanos}", std::process::id(), test.to_lowercase());
        name.truncate(63);
        client
            .batch_execute(&format!("CREATE DATABASE \"{name}\""))
            .await
            .expect("the test database is created");
        let url = conninfo(&admin, &name);
        Some(TestDb { name, url, admin })
    }

    /// A pool on the test database.
    pub fn pool(&self, options: &PoolOptions) -> Pool {
        connect(&self.url, options).expect("the pool is built")
    }

    /// A pool on the test database, migrated.
    pub async fn migrated_pool(&self, options: &PoolOptions) -> Pool {
        let pool = self.pool(options);
        migrate(&pool).await.expect("the migrations apply");
        pool
    }

    /// A connection of its own to the test database, for checks and faults.
    pub async fn client(&self) -> tokio_postgres::Client {
        let mut config = self.admin.clone();
        config.dbname(&self.name);
        connect_admin(&config)
            .await
            .expect("the test database answers")
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let admin = self.admin.clone();
        let name = self.name.clone();
        // Drop runs inside the test's runtime: the database is dropped from
        // a thread with a runtime of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            runtime.block_on(async {
                let client = connect_admin(&admin).await?;
                client
                    .batch_execute(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
                    .await
                    .map_err(std::io::Error::other)
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("the test database {} was not dropped", self.name);
        }
    }
}

async fn connect_admin(config: &tokio_postgres::Config) -> std::io::Result<tokio_postgres::Client> {
    let mut config = config.clone();
    config.connect_timeout(Duration::from_secs(3));
    let (client, connection) = config.connect(NoTls).await.map_err(|error| {
        // The driver's summary and the cause under it.
        let mut message = error.to_string();
        let mut source = std::error::Error::source(&error);
        while let Some(cause) = source {
            message.push_str(&format!(": {cause}"));
            source = cause.source();
        }
        std::io::Error::other(message)
    })?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(client)
}

/// The admin URL's server and user, with another database, as a
/// `key=value` string.
fn conninfo(admin: &tokio_postgres::Config, dbname: &str) -> String {
    let mut parts = Vec::new();
    if let Some(host) = admin.get_hosts().first() {
        match host {
            Host::Tcp(host) => parts.push(format!("host={host}")),
            Host::Unix(path) => parts.push(format!("host={}", path.display())),
        }
    }
    if let Some(port) = admin.get_ports().first() {
        parts.push(format!("port={port}"));
    }
    if let Some(user) = admin.get_user() {
        parts.push(format!("user={user}"));
    }
    if let Some(password) = admin.get_password() {
        parts.push(format!("password='{}'", String::from_utf8_lossy(password)));
    }
    parts.push(format!("dbname={dbname}"));
    parts.join(" ")
}

/// Issue a gift voucher for a customer's complaint.
///
/// Use it once the customer accepted a voucher; issuing is a write.
#[derive(Debug, Tool)]
#[tool(effect = "write")]
pub struct IssueVoucher {
    /// The complaint's reference as the app shows it, e.g. "CMP-7".
    #[tool(min_length = 1, max_length = 64)]
    pub complaint_ref: String,
    /// A key the model makes up once per voucher and repeats when it
    /// retries, so a retry does not issue twice.
    #[tool(idempotency_key)]
    pub request_id: String,
}

/// Close the customer's account for good.
///
/// Use it only when the customer asks to close the account; it cannot be
/// undone.
#[derive(Debug, Tool)]
#[tool(effect = "destructive", approval = "required", idempotent = false)]
pub struct CloseAccount {
    /// The account's reference as the app shows it, e.g. "ACC-7".
    #[tool(min_length = 1, max_length = 64)]
    pub account_ref: String,
}

/// List the customer's open complaints.
///
/// Use it when the customer asks about a complaint. Read-only.
#[derive(Debug, Tool)]
pub struct ListComplaints {
    /// The customer's reference as the app shows it, e.g. "CUS-42".
    #[tool(min_length = 1, max_length = 64)]
    pub customer_ref: String,
}

/// How often the handlers ran; `GATED` calls wait for [`Probe::release`].
#[derive(Default)]
pub struct Probe {
    pub runs: AtomicUsize,
    /// Told when a `GATED` voucher call is running.
    pub entered: Notify,
    /// Lets a `GATED` voucher call finish.
    pub release: Notify,
}

impl Probe {
    pub fn runs(&self) -> usize {
        self.runs.load(Ordering::SeqCst)
    }
}

/// A toolbox with the three tools, whose handlers count their runs in
/// `probe`, and no stores of its own.
pub fn bare_toolbox(probe: &Arc<Probe>) -> Toolbox {
    let mut toolbox = Toolbox::new().with_default_timeout(Duration::from_secs(20));
    let p = Arc::clone(probe);
    toolbox.register(move |call: IssueVoucher, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            let run = probe.runs.fetch_add(1, Ordering::SeqCst) + 1;
            match call.complaint_ref.as_str() {
                "SLOW" => tokio::time::sleep(Duration::from_millis(300)).await,
                "GATED" => {
                    probe.entered.notify_one();
                    probe.release.notified().await;
                }
                _ => {}
            }
            Ok::<_, ToolError>(format!("Voucher V-{run} for {}", call.complaint_ref))
        }
    });
    let p = Arc::clone(probe);
    toolbox.register(move |call: CloseAccount, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            probe.runs.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(50)).await;
            Ok::<_, ToolError>(format!("Closed {}.", call.account_ref))
        }
    });
    let p = Arc::clone(probe);
    toolbox.register(move |call: ListComplaints, _: CallContext| {
        let probe = Arc::clone(&p);
        async move {
            probe.runs.fetch_add(1, Ordering::SeqCst);
            Ok::<_, ToolError>(format!("{} has no open complaints.", call.customer_ref))
        }
    });
    toolbox
}

/// [`bare_toolbox`] with every store in the database behind `pool`.
pub fn toolbox(pool: &Pool, probe: &Arc<Probe>, lease: Duration) -> Toolbox {
    bare_toolbox(probe)
        .with_idempotency_store(Arc::new(
            PostgresIdempotencyStore::new(pool.clone()).with_lease(lease),
        ))
        .with_approval_store(Arc::new(PostgresApprovalStore::new(pool.clone())))
        .with_audit_sink(Arc::new(PostgresAuditSink::new(pool.clone())))
}

/// The session of customer `cus_42`.
pub fn session() -> Session {
    Session::new().with(subjects())
}

pub fn subjects() -> Subjects {
    Subjects::new().with("customer", "cus_42")
}

pub fn voucher(complaint_ref: &str, key: &str) -> ToolCall {
    ToolCall::new(
        "call_v",
        "issue_voucher",
        format!(r#"{{"complaint_ref": "{complaint_ref}", "request_id": "{key}"}}"#),
    )
}

pub fn close(account_ref: &str) -> ToolCall {
    ToolCall::new(
        "call_c",
        "close_account",
        format!(r#"{{"account_ref": "{account_ref}"}}"#),
    )
}

pub fn list(customer_ref: &str) -> ToolCall {
    ToolCall::new(
        "call_l",
        "list_complaints",
        format!(r#"{{"customer_ref": "{customer_ref}"}}"#),
    )
}

/// Short waits everywhere: the fault tests fail fast.
pub fn quick() -> PoolOptions {
    PoolOptions {
        max_size: 4,
        connect_timeout: Duration::from_secs(2),
        wait_timeout: Duration::from_secs(2),
        statement_timeout: Duration::from_secs(5),
    }
}

/// Counts rows: `sql` is a `SELECT count(*) …`.
pub async fn count(client: &tokio_postgres::Client, sql: &str) -> i64 {
    client.query_one(sql, &[]).await.expect(sql).get(0)
}

/// The model text of a store refusal.
pub const UNAVAILABLE: &str = "Error [POLICY_STORE_UNAVAILABLE]: The call was not run because a service it depends on did not answer; nothing was changed. Try again in a moment.";
/// The model text of an abandoned key.
pub const UNKNOWN: &str = "Error [OUTCOME_UNKNOWN]: An earlier call with this request_id started but never reported its end; it may or may not have taken effect. Ask the user to check before making the request again with a new request_id.";
/// The model text of a key whose call still runs.
pub const IN_PROGRESS: &str = "Error [CALL_IN_PROGRESS]: A call with this request_id is still running. Wait for its result before trying again.";
