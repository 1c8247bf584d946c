//! The connection pool and the client-side bounds of every store call, so
//! that a database that does not answer (down, frozen, cut off) fails the
//! call instead of hanging it.
//!
//! The server's `statement_timeout` ends a slow statement on a server that
//! runs; a server that does not answer at all is bounded here, on the
//! client: each store call checks a connection out within the pool's wait
//! and connect timeouts, and runs its statements within the statement
//! timeout plus [`MARGIN`]; a connection whose statements did not answer is
//! closed, never reused.

use std::future::Future;
use std::str::FromStr;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime, Timeouts};
use tokio_postgres::NoTls;

use crate::error::{StoreError, StoreErrorKind};

/// What the client waits beyond the server's `statement_timeout` before it
/// gives a store call's statements up: the server's own cancellation
/// arrives first from a server that runs.
pub(crate) const MARGIN: Duration = Duration::from_secs(1);

/// The least time the writes that finish a call that ran (its idempotency
/// record or release, its audit end) wait for a free connection.
pub(crate) const FINISH_WAIT: Duration = Duration::from_secs(30);

/// The longest `statement_timeout` PostgreSQL takes, in milliseconds.
const MAX_STATEMENT_TIMEOUT_MS: u128 = i32::MAX as u128;

/// How the pool connects and how long anything may wait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolOptions {
    /// The most connections the pool holds (default 8).
    pub max_size: usize,
    /// How long opening a connection may take (default 5 s).
    pub connect_timeout: Duration,
    /// How long a caller waits for a free connection (default 5 s).
    pub wait_timeout: Duration,
    /// The `statement_timeout` of every connection (default 5 s): a stuck
    /// statement fails the store call. The client gives the statements of
    /// one store call up this long plus one second after they were sent,
    /// also when the server does not answer at all. At most 2147483647 ms,
    /// PostgreSQL's limit: [`connect`] refuses a longer one.
    pub statement_timeout: Duration,
}

impl PoolOptions {
    /// The longest a store call that starts a call (an idempotency claim,
    /// an audit `started` entry, an approval's use, a grant) takes with
    /// these options, whatever the database does: `wait_timeout +
    /// connect_timeout + statement_timeout` plus one second (16 s by
    /// default; [`Duration::MAX`] when the sum does not fit). It then fails
    /// with [`StoreErrorKind::Unavailable`].
    pub fn call_limit(&self) -> Duration {
        limits(&self.timeouts()).call()
    }

    /// The longest a store call that finishes a call that ran (its
    /// idempotency record or release, its audit end) takes: as
    /// [`call_limit`](Self::call_limit), but it waits for a free
    /// connection at least 30 s (41 s by default), so that a busy pool does
    /// not lose the record of a call that took effect.
    pub fn finish_limit(&self) -> Duration {
        limits(&self.timeouts()).finish()
    }

    /// The pool's timeouts: the recycle timeout carries the statement
    /// timeout (recycling checks only that the connection is open, so it
    /// bounds nothing else), and the stores read their bounds from it.
    fn timeouts(&self) -> Timeouts {
        Timeouts {
            wait: Some(self.wait_timeout),
            create: Some(self.connect_timeout),
            recycle: Some(self.statement_timeout),
        }
    }
}

impl Default for PoolOptions {
    fn default() -> Self {
        PoolOptions {
            max_size: 8,
            connect_timeout: Duration::from_secs(5),
            wait_timeout: Duration::from_secs(5),
            statement_timeout: Duration::from_secs(5),
        }
    }
}

/// A pool of connections to the database at `url` (a
/// `postgres://user@host:port/db` URL or a `key=value` string), without
/// TLS. No connection is opened until one is needed, so an unreachable
/// database shows up as failed store calls, not here. Fails with
/// [`StoreErrorKind::Configuration`] for a `statement_timeout` longer than
/// PostgreSQL's 2147483647 ms (the server would refuse every connection)
/// and with [`StoreErrorKind::Database`] for a URL that does not parse.
pub fn connect(url: &str, options: &PoolOptions) -> Result<Pool, StoreError> {
    let timeout_ms = options.statement_timeout.as_millis().max(1);
    if timeout_ms > MAX_STATEMENT_TIMEOUT_MS {
        // The server would refuse every connection with it.
        return Err(StoreError::of(
            StoreErrorKind::Configuration,
            format!(
                "the statement timeout is {timeout_ms} ms; PostgreSQL takes at most {MAX_STATEMENT_TIMEOUT_MS} ms (about 24.8 days)"
            ),
        ));
    }
    let mut config = tokio_postgres::Config::from_str(url)
        .map_err(|error| StoreError::new(format!("the database URL is invalid: {error}")))?;
    config.connect_timeout(options.connect_timeout);
    // A peer that vanished (a host down, a cut cable) closes an idle
    // connection within about a minute instead of two hours.
    config.keepalives(true);
    config.keepalives_idle(Duration::from_secs(30));
    config.keepalives_interval(Duration::from_secs(10));
    config.keepalives_retries(3);
    // Added to the URL's own `options` (a `search_path`, other settings),
    // never in place of them.
    let timeout = format!("-c statement_timeout={timeout_ms}");
    let given = config.get_options().map(str::to_owned);
    config.options(match given {
        Some(given) if !given.trim().is_empty() => format!("{given} {timeout}"),
        _ => timeout,
    });
    if config.get_application_name().is_none() {
        config.application_name("tool-contract");
    }
    let manager = Manager::from_config(
        config,
        NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    Pool::builder(manager)
        .max_size(options.max_size.max(1))
        .runtime(Runtime::Tokio1)
        .timeouts(options.timeouts())
        .build()
        .map_err(|error| StoreError::new(format!("the pool could not be built: {error}")))
}

/// The client-side bounds of the store calls on one pool.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// How long a starting call waits for a free connection.
    wait: Duration,
    /// How long opening a connection may take.
    connect: Duration,
    /// How long a store call's statements may take, with [`MARGIN`].
    statements: Duration,
}

impl Limits {
    /// The bounds of the store calls on `pool` (a pool built by hand
    /// without some timeout gets [`PoolOptions::default`]'s).
    pub(crate) fn of(pool: &Pool) -> Limits {
        limits(&pool.timeouts())
    }

    fn call(&self) -> Duration {
        self.wait
            .saturating_add(self.connect)
            .saturating_add(self.statements)
    }

    fn finish(&self) -> Duration {
        self.wait
            .max(FINISH_WAIT)
            .saturating_add(self.connect)
            .saturating_add(self.statements)
    }
}

fn limits(timeouts: &Timeouts) -> Limits {
    let default = PoolOptions::default();
    Limits {
        wait: timeouts.wait.unwrap_or(default.wait_timeout),
        connect: timeouts.create.unwrap_or(default.connect_timeout),
        statements: timeouts
            .recycle
            .unwrap_or(default.statement_timeout)
            .saturating_add(MARGIN),
    }
}

/// Which store call wants a connection: one that starts a call gives up
/// after the pool's wait timeout; one that finishes a call that ran waits
/// longer, since giving up loses the record of something that happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Use {
    /// A claim, an audit `started` entry, an approval's use, a grant, a
    /// purge, a count.
    Start,
    /// An idempotency record or release, an audit end.
    Finish,
}

/// A connection from `pool` for a store call of `use_`, within the pool's
/// wait timeout (at least [`FINISH_WAIT`] for [`Use::Finish`]) and its
/// connect timeout, also when the server accepts the connection and never
/// answers.
pub(crate) async fn checkout(pool: &Pool, use_: Use) -> Result<Checkout, StoreError> {
    let limits = Limits::of(pool);
    let wait = match use_ {
        Use::Start => limits.wait,
        Use::Finish => limits.wait.max(FINISH_WAIT),
    };
    let timeouts = Timeouts {
        wait: Some(wait),
        create: Some(limits.connect),
        recycle: Some(limits.connect),
    };
    // The pool applies both timeouts itself; this bound is the backstop.
    let backstop = wait.saturating_add(limits.connect).saturating_add(MARGIN);
    match tokio::time::timeout(backstop, pool.timeout_get(&timeouts)).await {
        Ok(client) => Ok(Checkout(Some(client?))),
        Err(_) => Err(StoreError::of(
            StoreErrorKind::Unavailable,
            format!(
                "no database connection within {} ms",
                wait.saturating_add(limits.connect).as_millis()
            ),
        )),
    }
}

/// Runs a store call's statements on a connection from `pool` within its
/// statement timeout plus [`MARGIN`]: a server that does not answer fails
/// the call with "the database did not answer within … ms" (then
/// [`settle`] closes the connection).
pub(crate) async fn bounded<T>(
    pool: &Pool,
    statements: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    bounded_for(pool, 1, statements).await
}

/// [`bounded`] for work that sends up to `count` statements that may each
/// wait up to the statement timeout (a migration's transaction).
pub(crate) async fn bounded_for<T>(
    pool: &Pool,
    count: usize,
    statements: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    let limit = Limits::of(pool)
        .statements
        .saturating_mul(u32::try_from(count.max(1)).unwrap_or(u32::MAX));
    match tokio::time::timeout(limit, statements).await {
        Ok(result) => result,
        Err(_) => Err(StoreError::of(
            StoreErrorKind::Unavailable,
            format!(
                "the database did not answer within {} ms; the connection is closed",
                limit.as_millis()
            ),
        )),
    }
}

/// A connection checked out for one store call. [`settle`] hands it back
/// to the pool after a call that succeeded; dropped any other way (the
/// call failed, or its future was dropped while a statement or a
/// transaction was open), the connection is closed, never reused.
pub(crate) struct Checkout(Option<Object>);

impl std::ops::Deref for Checkout {
    type Target = Object;

    fn deref(&self) -> &Object {
        self.0
            .as_ref()
            .expect("a checkout holds its connection until dropped")
    }
}

impl std::ops::DerefMut for Checkout {
    fn deref_mut(&mut self) -> &mut Object {
        self.0
            .as_mut()
            .expect("a checkout holds its connection until dropped")
    }
}

impl Drop for Checkout {
    fn drop(&mut self) {
        if let Some(client) = self.0.take() {
            drop(Object::take(client));
        }
    }
}

/// Hands `client` back to the pool after a store call, unless the call
/// failed: then the connection is closed rather than reused, since a
/// connection the server terminated may not look closed yet, and the next
/// call would fail on it too.
pub(crate) fn settle<T>(
    mut client: Checkout,
    result: Result<T, StoreError>,
) -> Result<T, StoreError> {
    if result.is_ok() {
        // Back to the pool.
        drop(client.0.take());
    }
    result
}

/// Runs `statements` on `client` in a transaction that commits only once
/// they all answered: a store call that starts a call (a claim, an audit
/// `started` entry, an approval's use) and that the client gave up on (a
/// frozen server, its bound passed) is never committed later, when the
/// server wakes up and reads what was sent, so "nothing was changed" stays
/// true. (The connection is closed on any failure, which rolls back.)
pub(crate) async fn committed<T>(
    client: &Checkout,
    statements: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    client.batch_execute("BEGIN").await?;
    let value = statements.await?;
    client.batch_execute("COMMIT").await?;
    Ok(value)
}

/// How long a [`Undo`] keeps trying to reach the database.
const UNDO_FOR: Duration = Duration::from_secs(3600);

/// How long a [`Undo`] waits between its tries.
const UNDO_EVERY: Duration = Duration::from_secs(1);

/// The undo of a starting write (a claim, an approval's use, an audit
/// `started` entry) whose
/// transaction may commit after the client gave it up: once its statements
/// answered and its COMMIT was sent, the client cannot tell whether the
/// server will commit it (a server frozen, a connection cut in the COMMIT).
///
/// [`arm`](Self::arm) it with the written row's key, its token and the
/// transaction's id (`pg_current_xact_id()`) when the write answered; [`disarm`](Self::disarm)
/// it when the COMMIT answered. Dropped armed (the store call failed, or
/// its future was dropped), it spawns a task that, as soon as the database
/// answers, waits until that transaction ended and, if it committed, runs
/// `sql` (`$1` the text the write armed it with, `$2` its token) to undo it, so that a
/// refused call has changed nothing. It keeps trying for an hour.
pub(crate) struct Undo {
    pool: Pool,
    sql: &'static str,
    /// The row's key, its token, and the transaction's id (`None`: run
    /// `sql` whatever became of the transaction).
    armed: Option<(String, i64, Option<i64>)>,
}

impl Undo {
    /// An undo by `sql`, not armed yet.
    pub(crate) fn new(pool: &Pool, sql: &'static str) -> Undo {
        Undo {
            pool: pool.clone(),
            sql,
            armed: None,
        }
    }

    /// The write of transaction `xid` answered and wrote the row that
    /// `key` and `token` name (`sql`'s `$1` and `$2`): from now on, a
    /// failure may leave it committed.
    pub(crate) fn arm(&mut self, key: String, token: i64, xid: i64) {
        self.armed = Some((key, token, Some(xid)));
    }

    /// Runs `sql` with `key` and `token` unless disarmed: a write that must
    /// happen once the database answers, whatever this try does (a
    /// release of a claim whose call did not run).
    pub(crate) fn arm_always(&mut self, key: String, token: i64) {
        self.armed = Some((key, token, None));
    }

    /// The COMMIT answered: nothing to undo.
    pub(crate) fn disarm(&mut self) {
        self.armed = None;
    }

    /// The token it is armed with.
    pub(crate) fn token(&self) -> Option<i64> {
        self.armed.as_ref().map(|(_, token, _)| *token)
    }
}

impl Drop for Undo {
    fn drop(&mut self) {
        let Some((key, token, xid)) = self.armed.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let (pool, sql) = (self.pool.clone(), self.sql);
        runtime.spawn(async move {
            let until = tokio::time::Instant::now() + UNDO_FOR;
            while tokio::time::Instant::now() < until && !pool.is_closed() {
                if let Ok(true) = undo_once(&pool, sql, &key, xid, token).await {
                    return;
                }
                tokio::time::sleep(UNDO_EVERY).await;
            }
        });
    }
}

/// One try of an [`Undo`]: `Ok(true)` once the transaction ended and its
/// row, if it committed, was undone.
async fn undo_once(
    pool: &Pool,
    sql: &str,
    key: &str,
    xid: Option<i64>,
    token: i64,
) -> Result<bool, StoreError> {
    let client = checkout(pool, Use::Finish).await?;
    let result = bounded(pool, async {
        let Some(xid) = xid else {
            client.execute(sql, &[&key, &token]).await?;
            return Ok(true);
        };
        let status: Option<String> = client
            .query_one(
                "SELECT pg_xact_status($1::bigint::text::xid8)::text",
                &[&xid],
            )
            .await?
            .get(0);
        match status.as_deref() {
            // Its connection is closed: the server ends it soon.
            Some("in progress") => Ok(false),
            Some("committed") => {
                client.execute(sql, &[&key, &token]).await?;
                Ok(true)
            }
            // Aborted, or too old to tell (then long ended).
            _ => Ok(true),
        }
    })
    .await;
    settle(client, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_add_up_the_waits_of_the_options() {
        let options = PoolOptions::default();
        assert_eq!(options.call_limit(), Duration::from_secs(16));
        assert_eq!(options.finish_limit(), Duration::from_secs(41));
        let long = PoolOptions {
            wait_timeout: Duration::from_secs(40),
            ..PoolOptions::default()
        };
        assert_eq!(long.call_limit(), Duration::from_secs(51));
        assert_eq!(long.finish_limit(), Duration::from_secs(51));
        // A pool built by hand without timeouts: the defaults' bounds.
        let none = limits(&Timeouts::default());
        assert_eq!(none.call(), Duration::from_secs(16));
    }
}
