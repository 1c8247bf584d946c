//! The connection pool: bounded waits everywhere, so a database that does
//! not answer fails a call instead of hanging it.

use std::str::FromStr;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use tokio_postgres::NoTls;

use crate::error::StoreError;

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
    /// statement fails the store call.
    pub statement_timeout: Duration,
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
/// database shows up as failed store calls, not here.
pub fn connect(url: &str, options: &PoolOptions) -> Result<Pool, StoreError> {
    let mut config = tokio_postgres::Config::from_str(url)
        .map_err(|error| StoreError::new(format!("the database URL is invalid: {error}")))?;
    config.connect_timeout(options.connect_timeout);
    // Added to the URL's own `options` (a `search_path`, other settings),
    // never in place of them.
    let timeout = format!(
        "-c statement_timeout={}",
        options.statement_timeout.as_millis().max(1)
    );
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
        .wait_timeout(Some(options.wait_timeout))
        .create_timeout(Some(options.connect_timeout))
        .recycle_timeout(Some(options.connect_timeout))
        .build()
        .map_err(|error| StoreError::new(format!("the pool could not be built: {error}")))
}

/// Hands `client` back to the pool after a store call, unless the call
/// failed: then the connection is closed rather than reused, since a
/// connection the server terminated may not look closed yet, and the next
/// call would fail on it too.
pub(crate) fn settle<T>(client: Object, result: Result<T, StoreError>) -> Result<T, StoreError> {
    if result.is_err() {
        drop(Object::take(client));
    }
    result
}
